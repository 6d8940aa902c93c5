package lsm

import (
	"context"
	"fmt"
	"math"
	"path"
	"slices"
	"time"

	"github.com/widesql/widesql/kv/lsm/internal/ikey"
	"github.com/widesql/widesql/kv/lsm/internal/sstable"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// Backoff bounds of the background retries after a failed flush or
// compaction (a full disk, an I/O error writing a file).
const (
	minRetryBackoff = 50 * time.Millisecond
	maxRetryBackoff = 5 * time.Second
)

// background runs flushes, compactions and splits, one at a time, when
// kicked and periodically, and warms the block cache when there is
// nothing else to do (warm.go). A failed flush or compaction leaves the store
// writable (nothing acknowledged depends on it: the memtable stays, its
// WAL segments stay, a compaction's inputs stay) and is retried with
// exponential backoff.
func (s *Store) background() {
	defer s.bg.Done()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	backoff := time.Duration(0)
	for {
		select {
		case <-s.stop:
			return
		case <-s.work:
		case <-tick.C:
		}
		err := s.flushNeeded()
		if err != nil {
			s.opts.Logger.Error("lsm: flush; will retry", "err", err, "backoff", backoff)
		} else if err = s.compactNeeded(context.Background(), false); err != nil {
			s.opts.Logger.Error("lsm: compaction; will retry", "err", err, "backoff", backoff)
		}
		if err == nil {
			backoff = 0
			if s.warmCache() {
				s.kick() // more to warm: after any flush or compaction now due
			}
			continue
		}
		if s.isFailedOrClosed() {
			continue // nothing to retry until restart
		}
		backoff = min(max(2*backoff, minRetryBackoff), maxRetryBackoff)
		select {
		case <-s.stop:
			return
		case <-time.After(backoff):
		}
		s.kick()
	}
}

func (s *Store) isFailedOrClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failed != nil || s.closed
}

func (s *Store) stopping() bool {
	select {
	case <-s.stop:
		return true
	default:
		return false
	}
}

// Flush writes every memtable that holds data when it is called to files,
// then drops the WAL segments no memtable needs: afterwards the WAL holds
// only what was written during the call. It is what a checkpoint does, and
// returns once done even while writers keep filling new memtables.
func (s *Store) Flush(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	// A region split while the flush runs hands its memtables to its
	// children: take the new regions in another pass (splits are rare; a
	// few passes always suffice).
	for range 4 {
		again, err := s.flushAll(ctx)
		if err != nil || !again {
			return err
		}
	}
	return nil
}

// flushAll flushes every region whose memtables hold data, each until the
// memtable it had on entry is in files. It reports whether a region was
// split away meanwhile.
func (s *Store) flushAll(ctx context.Context) (again bool, err error) {
	type pending struct {
		r   *region
		mem *memtable
	}
	var todo []pending
	s.mu.Lock()
	if err := s.checkLocked(); err != nil {
		s.mu.Unlock()
		return false, err
	}
	for _, t := range s.tables {
		for _, r := range t.regions {
			if len(r.state.imms) > 0 || !r.state.mem.empty() {
				todo = append(todo, pending{r, r.state.mem})
			}
		}
	}
	s.mu.Unlock()
	for _, p := range todo {
		for {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			s.mu.Lock()
			err := s.checkLocked()
			gone := s.tableOf(p.r) == nil
			st := p.r.state
			done := len(st.imms) == 0 && (st.mem != p.mem || st.mem.empty())
			s.mu.Unlock()
			if err != nil {
				return false, err
			}
			if gone {
				again = true
				break
			}
			if done {
				break
			}
			if err := s.flushRegion(p.r); err != nil {
				return false, err
			}
		}
	}
	return again, nil
}

// flushNeeded flushes the regions whose memtable is over MemtableSize, the
// largest memtables while over the memory budget, and the memtable holding
// the oldest WAL segment while the WAL they pin exceeds MaxWALSize.
func (s *Store) flushNeeded() error {
	for {
		s.mu.Lock()
		if err := s.checkLocked(); err != nil {
			s.mu.Unlock()
			return err
		}
		var pick *region
		var size int64
		over := s.memBytes.Load() > s.opts.MemoryBudget/2
		for _, t := range s.tables {
			for _, r := range t.regions {
				if len(r.state.imms) > 0 { // a failed flush to retry first
					pick, size = r, math.MaxInt64
				}
				n := r.state.mem.size.Load()
				if n > size && (n >= s.opts.MemtableSize || over) {
					pick, size = r, n
				}
			}
		}
		if pick == nil && s.walPinnedLocked() > s.opts.MaxWALSize {
			// Flushing it moves walMinLocked forward; the loop ends when
			// the pinned WAL fits (or no closed segment is pinned).
			pick = s.oldestWALRegionLocked()
		}
		s.mu.Unlock()
		if pick == nil {
			return nil
		}
		if err := s.flushRegion(pick); err != nil {
			return err
		}
	}
}

// flushRegion makes r's memtable immutable, writes one file per family
// (DeleteRow tombstones go to every family's file, so each family store is
// self-contained), records them and r's flushed sequence number in the
// manifest, and drops the memtable. If writing the files fails, the
// immutable memtable stays in r's state (reads and the WAL keep it) and
// the next call retries it before freezing anything new.
func (s *Store) flushRegion(r *region) error {
	s.manifestMu.Lock()
	defer s.manifestMu.Unlock()
	s.mu.Lock()
	t := s.tableOf(r)
	if err := s.checkLocked(); err != nil || t == nil || s.failed != nil {
		err = firstErr(err, s.failed)
		s.mu.Unlock()
		return err
	}
	var imm *memtable
	if len(r.state.imms) > 0 {
		imm = r.state.imms[0] // a failed flush: retry it
	}
	s.mu.Unlock()
	if imm == nil {
		var err error
		if imm, err = s.freeze(r); imm == nil || err != nil {
			return err
		}
	}

	// Entries of failed commits must never reach a file.
	for s.visibleSeq.Load() < imm.maxSeq.Load() {
		s.mu.Lock()
		failed := s.failed
		s.mu.Unlock()
		if failed != nil {
			return failed
		}
		time.Sleep(50 * time.Microsecond)
	}
	files, err := s.writeFlushFiles(t, imm)
	if err != nil {
		return errorf("flush: %w", err)
	}
	s.mu.Lock()
	done := *r.state // a new value: the old one may be in use by readers
	done.imms = slices.DeleteFunc(slices.Clone(done.imms), func(m *memtable) bool { return m == imm })
	done.files = slices.Clone(done.files)
	var rows int64
	for fi, f := range files {
		if f != nil {
			done.files[fi] = append(slices.Clone(done.files[fi]), f)
			rows = max(rows, f.entries)
		}
	}
	r.state = &done
	r.flushedSeq = max(r.flushedSeq, imm.maxSeq.Load())
	r.rows.Add(rows)
	s.memBytes.Add(-imm.size.Load())
	s.cond.Broadcast()
	s.mu.Unlock()
	s.flushes.Add(1)
	if err := s.saveManifest(); err != nil {
		return err
	}
	s.kick()
	return nil
}

// freeze rotates the WAL and makes r's memtable immutable, returning it,
// or nil if it is empty. The caller holds manifestMu.
func (s *Store) freeze(r *region) (*memtable, error) {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	s.mu.Lock()
	empty, failed := r.state.mem.empty(), s.failed
	s.mu.Unlock()
	if empty || failed != nil {
		return nil, failed
	}
	// The closing segment's size (appends run under commitMu); it only
	// weighs when the WAL a memtable pins calls for a flush.
	cur, size := s.walSeg.Load(), s.wal.Size()
	next := cur + 1
	if err := s.wal.Rotate(next); err != nil {
		err = errorf("flush: rotate WAL: %w", err)
		s.fail(err)
		return nil, err
	}
	s.walSeg.Store(next)
	s.mu.Lock()
	s.walSizes[cur] = size
	imm := r.state.mem
	st := *r.state
	st.mem, st.imms = newMemtable(), append(slices.Clone(st.imms), imm)
	r.state = &st
	s.mu.Unlock()
	return imm, nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// tableOf returns r's live table or nil; with mu held.
func (s *Store) tableOf(r *region) *table {
	for _, t := range s.tables {
		if slices.Contains(t.regions, r) {
			return t
		}
	}
	return nil
}

// writeFlushFiles writes the entries of imm into one file per family,
// but for the versions no current or future snapshot can see (flushDrop).
// On error it removes every file it created.
func (s *Store) writeFlushFiles(t *table, imm *memtable) (_ []*fileMeta, err error) {
	fams := t.families().fams // stable: the caller holds manifestMu
	ws := make([]*fileWriter, len(fams))
	out := make([]*fileMeta, len(fams))
	defer func() {
		if err == nil {
			return
		}
		for fi, w := range ws {
			if out[fi] != nil {
				s.unref(out[fi]) // closes and deletes it
			} else if w != nil {
				w.abort()
			}
		}
	}()
	// Versions no snapshot at or after the oldest open one can see are
	// left out (flush_drop.go); compaction would drop them later, but a
	// hot row's reads would step past them until then.
	var drop *flushDrop
	if flushDropShadowed {
		drop = newFlushDrop(fams, s.oldestSnapshot())
	}
	it := newMemIter(imm)
	defer it.Close()
	for it.First(); it.Valid(); it.Next() {
		k := it.Key()
		p, err := ikey.Parse(k)
		if err != nil {
			return nil, fmt.Errorf("bad memtable key %q: %w", k, errCorrupt)
		}
		if drop != nil {
			keep, err := drop.keep(&p, it.Value())
			if err != nil {
				return nil, fmt.Errorf("bad tombstone at %q: %w", k, errCorrupt)
			}
			if !keep {
				continue
			}
		}
		for fi := range fams {
			if p.Kind != ikey.KindDeleteRow && !bytesEqual(p.Family, fams[fi].esc) {
				continue
			}
			if ws[fi] == nil {
				if ws[fi], err = s.newFileWriter(&fams[fi]); err != nil {
					return nil, err
				}
			}
			if err := ws[fi].add(k, it.Value()); err != nil {
				return nil, err
			}
		}
	}
	for fi, w := range ws {
		if w == nil {
			continue
		}
		f, err := w.finish()
		if err != nil {
			return nil, err
		}
		out[fi] = f
	}
	if err := s.fs.SyncDir(s.dir); err != nil {
		return nil, err
	}
	return out, nil
}

// fileWriter writes one sorted file.
type fileWriter struct {
	s    *Store
	num  uint64
	file vfs.File
	w    *sstable.Writer
	meta fileMeta
	done bool // finish ran: the writer closed the file
}

func (s *Store) newFileWriter(f *famInfo) (*fileWriter, error) {
	num := s.newFileNum()
	name := path.Join(s.dir, fileName(num))
	file, err := s.fs.Create(name)
	if err != nil {
		return nil, err
	}
	c, _ := familyCompression(f.compression)
	wo := sstable.WriterOptions{BlockSize: s.opts.BlockSize, Compression: c, BloomKey: ikey.BloomKey}
	if f.bloom == "none" {
		wo.BloomBitsPerKey = -1 // no bloom block: point reads open the file
	}
	w := sstable.NewWriter(file, name, wo)
	return &fileWriter{s: s, num: num, file: file, w: w}, nil
}

func (w *fileWriter) add(k, v []byte) error { return w.w.Add(k, v) }

// finish completes the file and opens it for reading with one reference.
func (w *fileWriter) finish() (*fileMeta, error) {
	w.done = true
	m, err := w.w.Finish()
	if err != nil {
		w.remove()
		return nil, err
	}
	f, err := w.s.openFile(manifestFile{Num: w.num, Smallest: m.Smallest, Largest: m.Largest, Size: m.Size, Entries: m.Entries})
	if err != nil {
		w.remove()
	}
	return f, err
}

// abort closes and deletes an unfinished file.
func (w *fileWriter) abort() {
	if !w.done {
		w.done = true
		w.file.Close()
	}
	w.remove()
}

func (w *fileWriter) remove() {
	name := path.Join(w.s.dir, fileName(w.num))
	if err := w.s.fs.Remove(name); err != nil {
		w.s.opts.Logger.Warn("lsm: remove unfinished file", "file", fileName(w.num), "err", err)
	}
}

// openFile opens a file listed in the manifest with one reference.
func (s *Store) openFile(mf manifestFile) (*fileMeta, error) {
	name := path.Join(s.dir, fileName(mf.Num))
	file, err := s.fs.Open(name)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	rd, err := sstable.Open(file, name, mf.Num, s.cache)
	if err != nil {
		file.Close()
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	f := &fileMeta{num: mf.Num, smallest: mf.Smallest, largest: mf.Largest, size: mf.Size, entries: mf.Entries,
		reader: rd, installSeq: mf.InstallSeq}
	f.refs.Store(1)
	s.liveFiles.Add(1)
	return f, nil
}

// DefaultCompression is the compression of a family whose
// kv.Family.Compression is "": snappy, which halves the files of typical
// rows for a small CPU cost. "none" disables compression.
const DefaultCompression = "snappy"

// familyCompression maps a family's Compression to the files' block
// compression.
func familyCompression(name string) (sstable.Compression, error) {
	if name == "" {
		name = DefaultCompression
	}
	return sstable.CompressionByName(name)
}

func bytesEqual(a, b []byte) bool { return string(a) == string(b) }
