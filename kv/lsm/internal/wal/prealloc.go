package wal

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"

	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// Preallocation (pebble and RocksDB reuse or preallocate log files for the
// same reason): a record appended at the end of a file changes the file's
// size, so its fdatasync also commits that metadata change (a journal
// commit on ext4), about a third of the sync's latency here. A record
// written over bytes already in the file does not. So the writer keeps the
// current segment zero-filled ahead of its write offset:
//
//	|<- frames ->|<----- zeros ----->|
//	0           woff               filled
//
// Create fills the first segment's first step before returning. When less
// than half a step of zeros is left, a background goroutine writes the
// next step of zeros after filled (never where a syncer may be writing: a
// syncer whose write would reach the range being filled waits for it,
// which only a burst of half a step can cause). The zeros are not synced by
// the fill: the next group commit's fdatasync covers them, so only one
// goroutine at a time syncs the segment (a failed fsync is then seen by
// the syncer whose records it concerns). The fill only starts their
// writeback (sync_file_range), so that this fdatasync rarely waits for it.
//
// The next segment is prepared ahead too: a spare file (spareName, a name
// Segments ignores) is created, zero-filled to one step and synced in the
// background; Rotate renames it to the new segment's name and syncs the
// directory, as it would after creating a file. If the spare is not ready,
// Rotate creates an empty segment rather than wait.
//
// Disk cost: each byte of log is written twice (zeros, then frames), and a
// segment carries up to one step of zeros after its last frame, plus the
// spare file. Replay reads a zero tail as the clean end of a segment.

// DefaultPreallocate is Options.Preallocate when zero. Steps of 1 and
// 4 MiB measured the same fdatasync latency as a segment zero-filled in
// full; a small step keeps the zero tail (disk) and the zeros' writeback,
// which one group commit's fdatasync carries, small.
const DefaultPreallocate = 1 << 20

// overrunLead bounds the gap a fill leaves after the write offset when
// frames overran the zeros: a fill only writes to the page cache, so the
// frames written meanwhile are few.
const overrunLead = 256 << 10

// spareName is the file name of the prepared next segment.
const spareName = "wal-spare.tmp"

// zeroBuf is the source of zero fills; never written.
var zeroBuf [64 << 10]byte

// preallocState is the Writer's preallocation state, guarded by its mu.
type preallocState struct {
	step      int64 // bytes per fill; <= 0: off for this segment
	filled    int64 // the segment holds zeros (or frames) up to here
	filling   bool  // a fill of [fillStart, fillStart+step) runs
	fillStart int64
	disabled  bool // a fill failed (a full disk): none for this segment
	running   int  // background goroutines (fills, spare), waited by Close

	spare     vfs.File // the prepared next segment, or nil
	spareSize int64
	preparing bool
}

// newSegment resets the state for a new current segment w.f, zero-filled
// up to filled, and starts preparing the next spare. Callers hold mu.
func (w *Writer) newSegment(filled int64) {
	p := &w.prealloc
	w.woff = 0
	p.step, p.filled, p.filling, p.disabled = w.opts.Preallocate, filled, false, false
	if _, ok := w.f.(io.WriterAt); !ok {
		p.step = -1
	}
	if p.step <= 0 || p.spare != nil || p.preparing || w.closed {
		return
	}
	p.preparing = true
	p.running++
	go w.prepareSpare(p.step)
}

// fillFirst zero-fills the first segment w.f before it is used, so that
// its first records already go over zeros: Create pays one write of a step
// and a sync. A full disk only turns preallocation off for the segment; a
// failed sync is returned. Callers hold mu.
func (w *Writer) fillFirst() error {
	p := &w.prealloc
	if p.step <= 0 {
		return nil
	}
	if err := writeZeros(w.f, 0, p.step); err != nil {
		p.disabled = true
		return nil
	}
	if err := syncData(w.f); err != nil {
		return fmt.Errorf("wal: sync segment %d: %w", w.seg, err)
	}
	p.filled = p.step
	return nil
}

// fillBlocks reports whether writing n more bytes at woff would reach the
// range a running fill is zeroing. Callers hold mu.
func (w *Writer) fillBlocks(n int) bool {
	p := &w.prealloc
	return p.filling && w.woff+int64(n) > p.fillStart
}

// maybeFill starts a fill if less than half a step of zeros is left ahead
// of woff. Callers hold mu and have just claimed the range up to woff.
func (w *Writer) maybeFill() {
	p := &w.prealloc
	if p.step <= 0 || p.disabled || p.filling || w.f == nil || p.filled-w.woff >= p.step/2 {
		return
	}
	start := p.filled
	if start < w.woff {
		// Frames overran the zeros (a new segment without a spare, or a
		// burst): leave room for the writes made during the fill's
		// write(2)s (it does not sync).
		start = w.woff + min(p.step/4, overrunLead)
	}
	p.filling, p.fillStart = true, start
	p.running++
	go w.fill(w.f, start, start+p.step)
}

// fill zero-fills [start, end) of f, a segment, without syncing.
func (w *Writer) fill(f vfs.File, start, end int64) {
	err := writeZeros(f, start, end)
	if err == nil {
		startWriteback(f, start, end-start)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	p := &w.prealloc
	p.running--
	if f != w.f {
		// Rotated meanwhile; Rotate left the old segment to us to close.
		f.Close()
	} else {
		p.filling = false
		if err != nil {
			p.disabled = true // frames will append; not an error
		} else {
			p.filled = end
		}
	}
	w.cond.Broadcast()
}

// prepareSpare creates the spare next segment, zero-filled to size and
// synced, and hands it to the writer.
func (w *Writer) prepareSpare(size int64) {
	name := path.Join(w.opts.Dir, spareName)
	f, err := w.opts.FS.Create(name)
	if err == nil {
		if err = writeZeros(f, 0, size); err == nil {
			err = syncData(f)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	p := &w.prealloc
	p.running--
	p.preparing = false
	if err != nil || w.closed {
		if f != nil {
			f.Close()
			w.opts.FS.Remove(name)
		}
	} else {
		p.spare, p.spareSize = f, size
	}
	w.cond.Broadcast()
}

// takeSpare returns the file of new segment seg and how far it is
// zero-filled: the spare renamed to seg's name if one is ready, else a new
// empty file. The directory is synced either way. Callers hold mu.
func (w *Writer) takeSpare(seg uint64) (vfs.File, int64, error) {
	p := &w.prealloc
	if p.spare == nil {
		f, err := createSegment(w.opts, seg)
		return f, 0, err
	}
	f, size := p.spare, p.spareSize
	p.spare = nil
	name := path.Join(w.opts.Dir, SegmentName(seg))
	err := checkAbsent(w.opts.FS, name)
	if err == nil {
		err = w.opts.FS.Rename(path.Join(w.opts.Dir, spareName), name)
	}
	if err == nil {
		err = w.opts.FS.SyncDir(w.opts.Dir)
	}
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("wal: create %s from spare: %w", name, err)
	}
	return f, size, nil
}

// dropSpare closes and removes an unused spare. Callers hold mu.
func (w *Writer) dropSpare() {
	p := &w.prealloc
	if p.spare != nil {
		p.spare.Close()
		w.opts.FS.Remove(path.Join(w.opts.Dir, spareName))
		p.spare = nil
	}
}

// checkAbsent returns an error unless name does not exist.
func checkAbsent(fsys vfs.FS, name string) error {
	f, err := fsys.Open(name)
	if err == nil {
		f.Close()
		return errors.New("segment exists")
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// writeZeros writes zeros over [start, end) of f.
func writeZeros(f vfs.File, start, end int64) error {
	wa, ok := f.(io.WriterAt)
	if !ok {
		return errors.New("wal: file has no WriteAt")
	}
	for off := start; off < end; {
		n := min(end-off, int64(len(zeroBuf)))
		if _, err := wa.WriteAt(zeroBuf[:n], off); err != nil {
			return err
		}
		off += n
	}
	return nil
}
