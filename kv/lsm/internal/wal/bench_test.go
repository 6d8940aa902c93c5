package wal

import (
	"fmt"
	"sync"
	"testing"

	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// benchAppend appends b.N records of 256 bytes from writers goroutines on
// the OS file system and reports syncs per append. prealloc is
// Options.Preallocate.
func benchAppend(b *testing.B, writers int, noSync bool, prealloc int64) {
	cfs := &countingFS{FS: vfs.Default}
	w, err := Create(Options{FS: cfs, Dir: b.TempDir(), NoSync: noSync, Preallocate: prealloc}, 1)
	if err != nil {
		b.Fatal(err)
	}
	rec := make([]byte, 256)
	b.SetBytes(int64(len(rec)))
	b.ResetTimer()
	var wg sync.WaitGroup
	for g := range writers {
		n := b.N / writers
		if g < b.N%writers {
			n++
		}
		wg.Go(func() {
			for range n {
				if err := w.Append(rec); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(cfs.syncs.Load())/float64(b.N), "syncs/op")
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkAppendSync compares appending at the end of the segment
// (prealloc=off: every fdatasync also commits the new file size) with
// writing over zeros preallocated in steps of 1, 4 or 64 MiB (the last as
// good as a segment zero-filled in full).
func BenchmarkAppendSync(b *testing.B) {
	for _, writers := range []int{1, 4, 16} {
		for _, prealloc := range []int64{-1, 1 << 20, 4 << 20, 64 << 20} {
			name := "off"
			if prealloc > 0 {
				name = fmt.Sprintf("%dMiB", prealloc>>20)
			}
			b.Run(fmt.Sprintf("writers=%d/prealloc=%s", writers, name), func(b *testing.B) {
				benchAppend(b, writers, false, prealloc)
			})
		}
	}
}

func BenchmarkAppendNoSync(b *testing.B) {
	for _, writers := range []int{1, 16} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			benchAppend(b, writers, true, 0)
		})
	}
}
