package vfs

import (
	"errors"
	"io"
	"io/fs"
	"slices"
)

// ErrCrashed is returned by every operation on a MemFS handle opened before
// the last Crash: the simulated process that held it is gone.
var ErrCrashed = errors.New("vfs: file handle invalidated by simulated crash")

var errReadOnly = errors.New("vfs: file not open for writing")

// memFile is an open MemFS file. Handles refer to the file, not its name:
// they survive Rename and Remove like an OS file descriptor.
type memFile struct {
	fs       *MemFS
	n        *memNode
	name     string
	epoch    uint64
	writable bool
	closed   bool
}

var (
	_ File        = (*memFile)(nil)
	_ io.WriterAt = (*memFile)(nil)
)

// check reports whether the handle may be used. Callers hold f.fs.mu.
func (f *memFile) check(op string) error {
	if f.closed {
		return &fs.PathError{Op: op, Path: f.name, Err: fs.ErrClosed}
	}
	if f.epoch != f.fs.epoch {
		return &fs.PathError{Op: op, Path: f.name, Err: ErrCrashed}
	}
	return nil
}

// Write appends p. With a space limit set, it writes what fits and returns
// an error matching ErrNoSpace for the rest, like a short write(2).
func (f *memFile) Write(p []byte) (int, error) {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if err := f.check("write"); err != nil {
		return 0, err
	}
	if !f.writable {
		return 0, &fs.PathError{Op: "write", Path: f.name, Err: errReadOnly}
	}
	n := len(p)
	var err error
	if f.fs.limit >= 0 && f.fs.used+int64(n) > f.fs.limit {
		n = int(max(0, f.fs.limit-f.fs.used))
		err = &fs.PathError{Op: "write", Path: f.name, Err: ErrNoSpace}
	}
	if len(f.n.log) > 0 {
		l := len(f.n.data)
		f.n.log = append(f.n.log, memWrite{off: l, n: n, prevLen: l})
	}
	f.n.data = append(f.n.data, p[:n]...)
	f.fs.used += int64(n)
	return n, err
}

// WriteAt writes p at off, extending the file if it ends past its size
// (a gap reads as zeros). Until the next Sync the write can be undone by a
// crash, even where it overwrote synced bytes. With a space limit set, it
// writes what fits and returns an error matching ErrNoSpace for the rest.
func (f *memFile) WriteAt(p []byte, off int64) (int, error) {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if err := f.check("write"); err != nil {
		return 0, err
	}
	if !f.writable {
		return 0, &fs.PathError{Op: "write", Path: f.name, Err: errReadOnly}
	}
	if off < 0 {
		return 0, &fs.PathError{Op: "write", Path: f.name, Err: fs.ErrInvalid}
	}
	nd, at := f.n, int(off)
	n := len(p)
	var err error
	if grow := int64(at + n - len(nd.data)); f.fs.limit >= 0 && grow > 0 && f.fs.used+grow > f.fs.limit {
		n = max(0, min(n, len(nd.data)+int(max(0, f.fs.limit-f.fs.used))-at))
		err = &fs.PathError{Op: "write", Path: f.name, Err: ErrNoSpace}
	}
	if n == 0 {
		return 0, err
	}
	if len(nd.log) == 0 && !nd.diverged && len(nd.data) > nd.syncedLen {
		// The appends since the last sync, as one earlier write.
		nd.log = append(nd.log, memWrite{off: nd.syncedLen, n: len(nd.data) - nd.syncedLen, prevLen: nd.syncedLen})
	}
	if !nd.diverged {
		w := memWrite{off: at, n: n, prevLen: len(nd.data)}
		if at < len(nd.data) {
			w.old = slices.Clone(nd.data[at:min(at+n, len(nd.data))])
		}
		nd.log = append(nd.log, w)
	}
	if grow := at + n - len(nd.data); grow > 0 {
		f.fs.used += int64(grow)
	}
	nd.put(p[:n], at)
	return n, err
}

// ReadAt reads the current content, synced or not, as the page cache would.
func (f *memFile) ReadAt(p []byte, off int64) (int, error) {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if err := f.check("read"); err != nil {
		return 0, err
	}
	if off < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrInvalid}
	}
	if off >= int64(len(f.n.data)) {
		return 0, io.EOF
	}
	n := copy(p, f.n.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Sync makes the file's current content durable, unless a sync error is
// injected, in which case nothing changes.
func (f *memFile) Sync() error {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if err := f.check("sync"); err != nil {
		return err
	}
	if err := f.fs.injectedSyncErr("sync", f.name); err != nil {
		return err
	}
	f.n.sync()
	return nil
}

// Size returns the current content's length.
func (f *memFile) Size() (int64, error) {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if err := f.check("stat"); err != nil {
		return 0, err
	}
	return int64(len(f.n.data)), nil
}

// Close releases the handle. Closing twice, or closing a handle invalidated
// by Crash, returns an error (the handle is released either way).
func (f *memFile) Close() error {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	err := f.check("close")
	f.closed = true
	return err
}
