package sstable

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// kvMissEntries returns the cells of rows rows of the harness's kv table
// as exec writes them (the row marker and two small ints in family d, a
// 64-byte hex payload in family p: blocks compress about as the
// harness's do), in key order, and each row's point-read seek key.
func kvMissEntries(rows int) (entries []kv, seeks [][]byte) {
	rng := rand.New(rand.NewPCG(3, 4))
	small := []byte{0x80, 0, 0, 42}
	for i := range rows {
		row := kvRow(i/1000+1, i%1000+1)
		seek := cellKey(row, nil, nil, 0, 0, 0)
		seeks = append(seeks, seek[:len(seek)-4-17])
		seq := uint64(i * 4)
		entries = append(entries,
			kv{cellKey(row, []byte("d"), []byte{0}, 7, seq, 1), nil},
			kv{cellKey(row, []byte("d"), []byte("grp"), 7, seq+1, 1), small},
			kv{cellKey(row, []byte("d"), []byte("val"), 7, seq+2, 1), small},
			kv{cellKey(row, []byte("p"), []byte("payload"), 7, seq+3, 1),
				fmt.Appendf(nil, "%016x%016x%016x%016x", rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64())})
	}
	return entries, seeks
}

// writeOSTable writes entries to an OS file under dir and opens it with
// cache, so a miss pays a real pread.
func writeOSTable(b *testing.B, dir string, entries []kv, opts WriterOptions, cache *Cache) *Reader {
	name := filepath.Join(dir, "miss.sst")
	f, err := vfs.Default.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	w := NewWriter(f, name, opts)
	for _, e := range entries {
		if err := w.Add(e.k, e.v); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := w.Finish(); err != nil {
		b.Fatal(err)
	}
	rf, err := vfs.Default.Open(name)
	if err != nil {
		b.Fatal(err)
	}
	r, err := Open(rf, name, 1, cache)
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkSeekGEPointMiss is a point Get's seek in one OS file of 500k
// kv rows (about 60 MB in 8 KiB blocks) through a 2 MB cache: nearly
// every seek misses, paying the pread, the checksum, the decompression
// and the block's entry (the 10^7-row harness point Get's miss path).
func BenchmarkSeekGEPointMiss(b *testing.B) {
	for _, c := range []Compression{Snappy, NoCompression} {
		// The entries are dropped once written: the collector cycles
		// the misses' allocations cause then scan what a reader holds.
		entries, seeks := kvMissEntries(500_000)
		cache := NewCache(2 << 20)
		r := writeOSTable(b, b.TempDir(), entries, WriterOptions{Compression: c, BloomKey: rowOf, BlockSize: 8 << 10}, cache)
		entries = nil
		runtime.GC()
		checkSeeks(b, r, seeks[:1000])
		b.Run(fmt.Sprintf("%s/iter-per-seek", c), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			h0, m0, _ := cache.Stats()
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				it := r.NewIter()
				if !it.SeekGE(seeks[rng.IntN(len(seeks))]) {
					b.Fatal(it.Err())
				}
				it.Close()
			}
			h, m, _ := cache.Stats()
			b.ReportMetric(float64(m-m0)/float64(h-h0+m-m0), "miss-ratio")
		})
		b.Run(fmt.Sprintf("%s/parallel", c), func(b *testing.B) { benchParallelSeeks(b, r, seeks) })
		r.Close()
	}
}
