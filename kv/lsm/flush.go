package lsm

import (
	"context"
	"fmt"
	"path"
	"slices"
	"time"

	"github.com/widesql/widesql/kv/lsm/internal/ikey"
	"github.com/widesql/widesql/kv/lsm/internal/sstable"
)

// background runs flushes, compactions and splits, one at a time, when
// kicked and periodically.
func (s *Store) background() {
	defer s.bg.Done()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-s.work:
		case <-tick.C:
		}
		if err := s.flushNeeded(false); err != nil {
			s.opts.Logger.Error("lsm: flush", "err", err)
			continue
		}
		if err := s.compactNeeded(context.Background(), false); err != nil {
			s.opts.Logger.Error("lsm: compaction", "err", err)
		}
	}
}

func (s *Store) stopping() bool {
	select {
	case <-s.stop:
		return true
	default:
		return false
	}
}

// Flush writes every memtable to files (for tests and shutdown).
func (s *Store) Flush(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.flushNeeded(true)
}

// flushNeeded flushes the regions whose memtable is over MemtableSize, the
// largest memtables while over the memory budget, or (all) every non-empty
// memtable.
func (s *Store) flushNeeded(all bool) error {
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
				n := r.state.mem.size.Load()
				if n > size && (all || n >= s.opts.MemtableSize || over) {
					pick, size = r, n
				}
			}
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
// manifest, and drops the memtable.
func (s *Store) flushRegion(r *region) error {
	s.manifestMu.Lock()
	defer s.manifestMu.Unlock()
	s.commitMu.Lock()
	s.mu.Lock()
	t := s.tableOf(r)
	if err := s.checkLocked(); err != nil || t == nil || s.failed != nil || r.state.mem.empty() {
		err = firstErr(err, s.failed)
		s.mu.Unlock()
		s.commitMu.Unlock()
		return err
	}
	s.mu.Unlock()
	next := s.walSeg.Load() + 1
	if err := s.wal.Rotate(next); err != nil {
		s.commitMu.Unlock()
		err = errorf("flush: rotate WAL: %w", err)
		s.fail(err)
		return err
	}
	s.walSeg.Store(next)
	s.mu.Lock()
	imm := r.state.mem
	st := *r.state
	st.mem, st.imms = newMemtable(), append(slices.Clone(st.imms), imm)
	r.state = &st
	s.mu.Unlock()
	s.commitMu.Unlock()

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
		err = errorf("flush: %w", err)
		s.fail(err)
		return err
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

// writeFlushFiles writes the entries of imm into one file per family.
func (s *Store) writeFlushFiles(t *table, imm *memtable) ([]*fileMeta, error) {
	ws := make([]*fileWriter, len(t.fams))
	it := newMemIter(imm)
	defer it.Close()
	for it.First(); it.Valid(); it.Next() {
		k := it.Key()
		p, err := ikey.Parse(k)
		if err != nil {
			return nil, fmt.Errorf("bad memtable key %q: %w", k, errCorrupt)
		}
		for fi := range t.fams {
			if p.Kind != ikey.KindDeleteRow && !bytesEqual(p.Family, t.fams[fi].esc) {
				continue
			}
			if ws[fi] == nil {
				if ws[fi], err = s.newFileWriter(&t.fams[fi]); err != nil {
					return nil, err
				}
			}
			if err := ws[fi].add(k, it.Value()); err != nil {
				return nil, err
			}
		}
	}
	out := make([]*fileMeta, len(t.fams))
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
	w    *sstable.Writer
	meta fileMeta
}

func (s *Store) newFileWriter(f *famInfo) (*fileWriter, error) {
	num := s.newFileNum()
	name := path.Join(s.dir, fileName(num))
	file, err := s.fs.Create(name)
	if err != nil {
		return nil, err
	}
	c, _ := sstable.CompressionByName(f.compression)
	w := sstable.NewWriter(file, name, sstable.WriterOptions{BlockSize: s.opts.BlockSize, Compression: c, BloomKey: ikey.BloomKey})
	return &fileWriter{s: s, num: num, w: w}, nil
}

func (w *fileWriter) add(k, v []byte) error { return w.w.Add(k, v) }

// finish completes the file and opens it for reading with one reference.
func (w *fileWriter) finish() (*fileMeta, error) {
	m, err := w.w.Finish()
	if err != nil {
		return nil, err
	}
	return w.s.openFile(manifestFile{Num: w.num, Smallest: m.Smallest, Largest: m.Largest, Size: m.Size, Entries: m.Entries})
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
	f := &fileMeta{num: mf.Num, smallest: mf.Smallest, largest: mf.Largest, size: mf.Size, entries: mf.Entries, reader: rd}
	f.refs.Store(1)
	s.liveFiles.Add(1)
	return f, nil
}

func bytesEqual(a, b []byte) bool { return string(a) == string(b) }
