package wal

import (
	"errors"
	"fmt"
	"io"
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
	// Preallocate is how far ahead of the write offset the writer keeps the
	// current segment zero-filled and synced, in bytes (see prealloc.go):
	// a sync of records written into that space commits no file-size
	// change. Zero means DefaultPreallocate; negative turns it off. It is
	// off with NoSync, and for files without io.WriterAt.
	Preallocate int64
}

// Writer appends records to the current segment with group commit. All its
// methods are safe for concurrent use.
type Writer struct {
	opts Options

	mu      sync.Mutex
	cond    sync.Cond // on mu; broadcast when synced, syncing or err change
	f       vfs.File  // nil once closed or failed during Rotate
	seg     uint64
	size    int64  // bytes appended to the current segment (pending included)
	written uint64 // records appended, counted across segments
	synced  uint64 // records covered by a completed sync (NoSync: written)
	syncing bool   // the syncer runs outside mu; f must not change meanwhile
	err     error  // sticky: set by the first failure, or ErrClosed
	closed  bool
	// pending holds the frames appended since the syncer last took them,
	// in order; the syncer writes them with one write(2) at woff before its
	// sync. spareBuf is the syncer's previous buffer, kept for the next swap.
	pending, spareBuf []byte
	woff              int64 // segment offset of the next write: bytes handed to writes
	prealloc          preallocState
}

// maxKeptBuffer bounds the buffers kept for reuse: a huge record (a COPY
// batch) does not stay pinned.
const maxKeptBuffer = 1 << 20

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
	if opts.Preallocate == 0 {
		opts.Preallocate = DefaultPreallocate
	}
	if opts.NoSync {
		opts.Preallocate = -1
	}
	f, err := createSegment(opts, seg)
	if err != nil {
		return nil, err
	}
	w := &Writer{opts: opts, f: f, seg: seg}
	w.cond.L = &w.mu
	w.mu.Lock()
	defer w.mu.Unlock()
	w.newSegment(0)
	if err := w.fillFirst(); err != nil {
		w.closed = true
		for w.prealloc.running > 0 {
			w.cond.Wait()
		}
		w.dropSpare()
		f.Close()
		return nil, err
	}
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

// AppendAsync adds rec's frame to the current segment and returns a
// function that blocks until rec is durable: synced, or only written to the
// OS when Options.NoSync. Records reach the log in the order of AppendAsync
// calls. The caller may reuse rec once AppendAsync returns. wait may be
// called from any goroutine, more than once.
//
// The frame is only buffered here: the first waiter that finds no syncer
// at work becomes the syncer and writes every buffered frame with one
// write(2), then syncs. Concurrent committers thus share the write as they
// share the sync, and the caller's critical section (the engine's commit
// mutex) holds no system call.
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
	n := len(w.pending)
	w.pending = appendFrame(w.pending, rec)
	w.size += int64(len(w.pending) - n)
	w.written++
	seq := w.written
	return func() error { return w.waitSynced(seq) }
}

// waitSynced blocks until record seq is covered by a sync, becoming the
// syncer if none is at work.
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
			// woken by the previous sync can add their records to this
			// one (with NoSync there is no sync to share).
			w.syncing = true
			if !w.opts.NoSync {
				w.mu.Unlock()
				runtime.Gosched()
				w.mu.Lock()
			}
			for w.fillBlocks(len(w.pending)) {
				w.cond.Wait()
			}
			buf, target, f, off := w.pending, w.written, w.f, w.woff
			w.pending, w.spareBuf = w.spareBuf[:0], nil
			w.woff += int64(len(buf))
			w.maybeFill()
			w.mu.Unlock()
			err := writeAt(f, buf, off)
			if err != nil {
				err = fmt.Errorf("wal: write segment %d: %w", w.seg, err)
			} else if !w.opts.NoSync {
				if err = syncData(f); err != nil {
					err = fmt.Errorf("wal: sync segment %d: %w", w.seg, err)
				}
			}
			w.mu.Lock()
			if cap(buf) <= maxKeptBuffer {
				w.spareBuf = buf[:0]
			}
			w.syncing = false
			if err != nil {
				w.fail(err)
			} else {
				w.synced = max(w.synced, target)
			}
			w.cond.Broadcast()
		}
	}
}

// writeAt writes buf to f at off (nothing for an empty buf). A file
// without io.WriterAt is only ever appended to (no preallocation), so off
// is its size and an append writes there.
func writeAt(f vfs.File, buf []byte, off int64) error {
	if len(buf) == 0 {
		return nil
	}
	if wa, ok := f.(io.WriterAt); ok {
		_, err := wa.WriteAt(buf, off)
		return err
	}
	_, err := f.Write(buf)
	return err
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

// syncAll waits for the syncer, then writes the pending frames and syncs
// everything written. Callers hold mu and have checked w.err.
func (w *Writer) syncAll() error {
	for w.syncing || w.fillBlocks(len(w.pending)) {
		w.cond.Wait()
	}
	if w.err != nil {
		return w.err
	}
	if err := writeAt(w.f, w.pending, w.woff); err != nil {
		return w.fail(fmt.Errorf("wal: write segment %d: %w", w.seg, err))
	}
	w.woff += int64(len(w.pending))
	if cap(w.pending) > maxKeptBuffer {
		w.pending = nil
	}
	w.pending = w.pending[:0]
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
	// A running zero fill closes the old segment when done (see fill):
	// rotation does not wait for it.
	if !w.prealloc.filling {
		if err := old.Close(); err != nil {
			return w.fail(fmt.Errorf("wal: close segment %d: %w", w.seg, err))
		}
	}
	f, filled, err := w.takeSpare(next)
	if err != nil {
		return w.fail(err)
	}
	w.f, w.seg, w.size = f, next, 0
	w.newSegment(filled)
	return nil
}

// Segment returns the current segment's number.
func (w *Writer) Segment() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seg
}

// Size returns the bytes appended to the current segment (including
// frames not yet written), to compare with Options.SegmentSize.
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
	for w.syncing || w.prealloc.running > 0 { // syncAll waits only when w.err is nil
		w.cond.Wait()
	}
	w.dropSpare()
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
