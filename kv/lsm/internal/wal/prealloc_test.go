package wal

import (
	"slices"
	"sync"
	"testing"

	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// sizeFS records a file's size at each Sync of the files it creates.
type sizeFS struct {
	vfs.FS
	mu    sync.Mutex
	sizes map[string][]int64
}

func (s *sizeFS) Create(name string) (vfs.File, error) {
	f, err := s.FS.Create(name)
	if err != nil {
		return nil, err
	}
	return &sizeFile{File: f, fs: s, name: name}, nil
}

func (s *sizeFS) Rename(oldname, newname string) error {
	s.mu.Lock()
	s.sizes[newname] = s.sizes[oldname]
	delete(s.sizes, oldname)
	s.mu.Unlock()
	return s.FS.Rename(oldname, newname)
}

type sizeFile struct {
	vfs.File
	fs   *sizeFS
	name string
}

func (f *sizeFile) WriteAt(b []byte, off int64) (int, error) {
	return f.File.(interface {
		WriteAt([]byte, int64) (int, error)
	}).WriteAt(b, off)
}

func (f *sizeFile) Sync() error {
	n, _ := f.File.Size()
	f.fs.mu.Lock()
	f.fs.sizes[f.name] = append(f.fs.sizes[f.name], n)
	f.fs.mu.Unlock()
	return f.File.Sync()
}

// TestPreallocate checks that with preallocation most syncs of a segment
// find its size unchanged (the frames went over zeros), across a rotation
// into the prepared spare, and that the log replays with its zero tails.
func TestPreallocate(t *testing.T) {
	for _, prealloc := range []int64{4096, -1} {
		m, dir := newMemDir(t)
		sfs := &sizeFS{FS: m, sizes: map[string][]int64{}}
		w := mustCreateOpts(t, Options{FS: sfs, Dir: dir, Preallocate: prealloc}, 1)
		const n = 200
		var want []string
		for i := range n {
			if i == n/2 {
				// Let the spare be prepared, so that segment 2 starts
				// zero-filled.
				w.mu.Lock()
				for w.prealloc.preparing {
					w.cond.Wait()
				}
				w.mu.Unlock()
				if err := w.Rotate(2); err != nil {
					t.Fatal(err)
				}
			}
			rec := record(i)
			want = append(want, string(rec))
			if err := w.Append(rec); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		changes := 0
		for seg := uint64(1); seg <= 2; seg++ {
			sizes := sfs.sizes[segPath(dir, seg)]
			for i := range sizes {
				if i == 0 || sizes[i] != sizes[i-1] {
					changes++
				}
			}
		}
		if prealloc > 0 && changes > n/8 {
			t.Errorf("prealloc %d: %d of %d syncs changed a segment's size", prealloc, changes, n)
		}
		if prealloc < 0 && changes < n-2 {
			t.Errorf("no prealloc: only %d of %d syncs changed a segment's size", changes, n)
		}
		got, _, err := replayAll(t, m, dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		var recs []string
		for _, r := range got {
			recs = append(recs, r.rec)
		}
		if !slices.Equal(recs, want) {
			t.Fatalf("prealloc %d: replayed %d records, want %d", prealloc, len(recs), len(want))
		}
		if names, _ := m.List(dir); slices.Contains(names, spareName) {
			t.Errorf("spare left after Close: %v", names)
		}
		t.Logf("prealloc %d: %d size changes over %d syncs", prealloc, changes, n)
	}
}
