package wal

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"sync"

	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// Options configure a Writer.
type Options struct {
	// FS is the file system holding the log. Required.
	FS vfs.FS
	// Dir is the directory of the segments. It must exist (and be durable).
	Dir string
	// NoSync acknowledges appends once written to the OS, without fsync:
	// much faster, but a power loss (not a process crash) can lose
	// acknowledged records. Rotate and Close still sync.
	NoSync bool
	// SegmentSize is the size at which the engine should Rotate (compare
	// with Writer.Size); the writer does not rotate by itself. Zero means
	// DefaultSegmentSize.
	SegmentSize int64
}

// Writer appends records to the current segment with group commit. All its
// methods are safe for concurrent use.
type Writer struct {
	opts Options

	mu      sync.Mutex
	cond    sync.Cond // on mu; broadcast when synced, syncing or err change
	f       vfs.File  // nil once closed or failed during Rotate
	seg     uint64
	size    int64  // bytes written to the current segment
	written uint64 // records written, counted across segments
	synced  uint64 // records covered by a completed sync
	syncing bool   // a sync runs outside mu; f must not change meanwhile
	err     error  // sticky: set by the first failure, or ErrClosed
	closed  bool
	buf     []byte // frame scratch, guarded by mu
}

// Create creates segment seg in opts.Dir, makes its directory entry durable,
// and returns a Writer appending to it. seg must not exist: the engine picks
// new, strictly increasing numbers.
func Create(opts Options, seg uint64) (*Writer, error) {
	if opts.FS == nil {
		return nil, errors.New("wal: Options.FS is nil")
	}
	if opts.SegmentSize == 0 {
		opts.SegmentSize = DefaultSegmentSize
	}
	f, err := createSegment(opts, seg)
	if err != nil {
		return nil, err
	}
	w := &Writer{opts: opts, f: f, seg: seg}
	w.cond.L = &w.mu
	return w, nil
}

// createSegment creates a new, empty segment file and syncs its directory.
func createSegment(opts Options, seg uint64) (vfs.File, error) {
	name := path.Join(opts.Dir, SegmentName(seg))
	if f, err := opts.FS.Open(name); err == nil {
		f.Close()
		return nil, fmt.Errorf("wal: create %s: segment exists", name)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("wal: create %s: %w", name, err)
	}
	f, err := opts.FS.Create(name)
	if err != nil {
		return nil, fmt.Errorf("wal: create segment: %w", err)
	}
	if err := opts.FS.SyncDir(opts.Dir); err != nil {
		f.Close()
		return nil, fmt.Errorf("wal: create %s: sync dir: %w", name, err)
	}
	return f, nil
}

// Append writes rec and blocks until it is durable (see AppendAsync).
func (w *Writer) Append(rec []byte) error {
	return w.AppendAsync(rec)()
}

// AppendAsync writes rec's frame to the current segment and returns a
// function that blocks until rec is durable: synced, or only written when
// Options.NoSync. Records reach the log in the order of AppendAsync calls.
// The caller may reuse rec once AppendAsync returns. wait may be called
// from any goroutine, more than once.
//
// If the write or the covering sync fails, wait returns an error wrapping
// the failure, and so does every later append: the writer stays failed. A
// record larger than MaxRecordSize is rejected without failing the writer.
// Appends after Close return ErrClosed.
func (w *Writer) AppendAsync(rec []byte) (wait func() error) {
	if len(rec) > MaxRecordSize {
		err := fmt.Errorf("wal: record of %d bytes exceeds %d", len(rec), MaxRecordSize)
		return func() error { return err }
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		err := w.err
		return func() error { return err }
	}
	w.buf = appendFrame(w.buf[:0], rec)
	n, err := w.f.Write(w.buf)
	w.size += int64(n)
	if cap(w.buf) > 1<<20 {
		w.buf = nil // don't pin a huge record's buffer
	}
	if err != nil {
		err = w.fail(fmt.Errorf("wal: write segment %d: %w", w.seg, err))
		return func() error { return err }
	}
	w.written++
	if w.opts.NoSync {
		return func() error { return nil }
	}
	seq := w.written
	return func() error { return w.waitSynced(seq) }
}

// waitSynced blocks until record seq is covered by a sync, becoming the
// syncer if no sync is running.
func (w *Writer) waitSynced(seq uint64) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for {
		switch {
		case w.synced >= seq:
			return nil
		case w.err != nil:
			return w.err
		case w.syncing:
			w.cond.Wait()
		default:
			// Become the syncer. Yield once first so that writers just
			// woken by the previous sync can add their records to this one.
			w.syncing = true
			w.mu.Unlock()
			runtime.Gosched()
			w.mu.Lock()
			target, f := w.written, w.f
			w.mu.Unlock()
			err := syncData(f)
			w.mu.Lock()
			w.syncing = false
			if err != nil {
				w.fail(fmt.Errorf("wal: sync segment %d: %w", w.seg, err))
			} else {
				w.synced = max(w.synced, target)
			}
			w.cond.Broadcast()
		}
	}
}

// fail records err as the sticky error unless one is set, wakes waiters,
// and returns the sticky error. Callers hold mu.
func (w *Writer) fail(err error) error {
	if w.err == nil {
		w.err = err
	}
	w.cond.Broadcast()
	return w.err
}

// syncAll waits for a running sync, then syncs everything written. Callers
// hold mu and have checked w.err.
func (w *Writer) syncAll() error {
	for w.syncing {
		w.cond.Wait()
	}
	if w.err != nil {
		return w.err
	}
	if err := w.f.Sync(); err != nil {
		return w.fail(fmt.Errorf("wal: sync segment %d: %w", w.seg, err))
	}
	w.synced = w.written
	w.cond.Broadcast()
	return nil
}

// Rotate syncs and closes the current segment and continues in a new
// segment next, which must be greater than the current number. Waiters for
// records of the old segment complete. Appends block while it runs. Any
// failure but a bad number fails the writer.
func (w *Writer) Rotate(next uint64) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if next <= w.seg {
		return fmt.Errorf("wal: rotate to segment %d: not after current segment %d", next, w.seg)
	}
	if err := w.syncAll(); err != nil {
		return err
	}
	old := w.f
	w.f = nil
	if err := old.Close(); err != nil {
		return w.fail(fmt.Errorf("wal: close segment %d: %w", w.seg, err))
	}
	f, err := createSegment(w.opts, next)
	if err != nil {
		return w.fail(err)
	}
	w.f, w.seg, w.size = f, next, 0
	return nil
}

// Segment returns the current segment's number.
func (w *Writer) Segment() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seg
}

// Size returns the bytes written to the current segment, to compare with
// Options.SegmentSize.
func (w *Writer) Size() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.size
}

// Close syncs and closes the current segment. Pending waiters complete. If
// the writer had failed, Close releases the file and returns that failure.
// Later appends return ErrClosed; a second Close returns ErrClosed.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrClosed
	}
	w.closed = true
	err := w.err
	if err == nil {
		err = w.syncAll()
	}
	for w.syncing { // syncAll waits only when w.err is nil
		w.cond.Wait()
	}
	if w.f != nil {
		if cerr := w.f.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("wal: close segment %d: %w", w.seg, cerr)
		}
		w.f = nil
	}
	if w.err == nil {
		w.err = ErrClosed
	}
	w.cond.Broadcast()
	return err
}
