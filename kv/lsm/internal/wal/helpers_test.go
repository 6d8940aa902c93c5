package wal

import (
	"fmt"
	"io"
	"path"
	"sync/atomic"
	"testing"
	"time"

	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// countingFS counts File.Sync and File.Write calls on files it creates,
// optionally making each sync take delay (to model a disk's fsync latency
// over MemFS).
type countingFS struct {
	vfs.FS
	syncs, writes atomic.Int64
	delay         time.Duration
}

func (c *countingFS) Create(name string) (vfs.File, error) {
	f, err := c.FS.Create(name)
	if err != nil {
		return nil, err
	}
	return &countingFile{File: f, fs: c}, nil
}

type countingFile struct {
	vfs.File
	fs *countingFS
}

func (f *countingFile) Write(b []byte) (int, error) {
	f.fs.writes.Add(1)
	return f.File.Write(b)
}

func (f *countingFile) WriteAt(b []byte, off int64) (int, error) {
	f.fs.writes.Add(1)
	return f.File.(io.WriterAt).WriteAt(b, off)
}

func (f *countingFile) Sync() error {
	f.fs.syncs.Add(1)
	if f.fs.delay > 0 {
		time.Sleep(f.fs.delay)
	}
	return syncData(f.File) // fdatasync for an OS file, as unwrapped
}

// newMemDir returns a MemFS with a durable directory "wal".
func newMemDir(t testing.TB) (*vfs.MemFS, string) {
	t.Helper()
	m := vfs.NewMem()
	if err := m.MkdirAll("wal"); err != nil {
		t.Fatal(err)
	}
	if err := m.SyncDir(""); err != nil {
		t.Fatal(err)
	}
	return m, "wal"
}

// testPreallocate is the Options.Preallocate of mustCreate: small, so that
// tests cross many fills (and overrun them with large records).
const testPreallocate = 700

func mustCreate(t testing.TB, fs vfs.FS, dir string, seg uint64, noSync bool) *Writer {
	t.Helper()
	return mustCreateOpts(t, Options{FS: fs, Dir: dir, NoSync: noSync, Preallocate: testPreallocate}, seg)
}

func mustCreateOpts(t testing.TB, opts Options, seg uint64) *Writer {
	t.Helper()
	w, err := Create(opts, seg)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// record is the test payload number i: self-describing and of varying size.
func record(i int) []byte {
	b := fmt.Appendf(nil, "rec-%d|", i)
	for j := range i % 97 {
		b = append(b, byte('a'+(i+j)%26))
	}
	return b
}

type replayed struct {
	seg uint64
	rec string
}

// replayAll replays dir and returns the records and lastValid.
func replayAll(t testing.TB, fs vfs.FS, dir string, from uint64) ([]replayed, int64, error) {
	t.Helper()
	var out []replayed
	lastValid, err := Replay(fs, dir, from, func(seg uint64, rec []byte) error {
		out = append(out, replayed{seg, string(rec)})
		return nil
	})
	return out, lastValid, err
}

func segPath(dir string, seg uint64) string { return path.Join(dir, SegmentName(seg)) }

func fileSize(t testing.TB, fs vfs.FS, name string) int64 {
	t.Helper()
	f, err := fs.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	size, err := f.Size()
	if err != nil {
		t.Fatal(err)
	}
	return size
}

// writeRaw writes data as file name and makes it durable.
func writeRaw(t testing.TB, fs vfs.FS, dir, name string, data []byte) {
	t.Helper()
	f, err := fs.Create(path.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := fs.SyncDir(dir); err != nil {
		t.Fatal(err)
	}
}
