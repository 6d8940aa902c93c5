package lsm

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
)

// Compact compacts every family store of every region fully, dropping
// everything no snapshot can see (for tests and administration).
func (s *Store) Compact(ctx context.Context) error {
	return s.compactNeeded(ctx, true)
}

// storeRef names one family store of a region. The family goes by name:
// SetFamilies may renumber the families while a compaction runs.
type storeRef struct {
	t   *table
	r   *region
	fam string
}

// compactNeeded compacts the stores over MaxFilesPerStore and those of
// split regions (or, with all, every store with files), then splits
// regions over RegionSplitSize.
func (s *Store) compactNeeded(ctx context.Context, all bool) error {
	s.mu.Lock()
	if err := s.checkLocked(); err != nil {
		s.mu.Unlock()
		return err
	}
	var todo []storeRef
	for _, t := range s.tables {
		fams := t.families().fams
		for _, r := range t.regions {
			for fi, fs := range r.state.files {
				if len(fs) > s.opts.MaxFilesPerStore || (r.rewrite && len(fs) > 0) || (all && len(fs) > 0) {
					todo = append(todo, storeRef{t, r, fams[fi].name})
				}
			}
		}
	}
	s.mu.Unlock()
	for _, sr := range todo {
		if err := ctx.Err(); err != nil {
			return err
		}
		if s.stopping() {
			return nil
		}
		if err := s.compactStore(sr, all); err != nil {
			return err
		}
	}
	s.mu.Lock()
	for _, sr := range todo {
		// Files an open snapshot still keeps out of compaction
		// (installSeq) may extend past the region yet.
		sr.r.rewrite = sr.r.extendsPastLocked()
	}
	var regions []*region
	for _, t := range s.tables {
		regions = append(regions, t.regions...)
	}
	s.mu.Unlock()
	if s.opts.RegionSplitSize > 0 {
		for _, r := range regions {
			if s.stopping() {
				return nil
			}
			if err := s.maybeSplit(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// compactStore merges all files of one region's family store into one,
// clamped to the region's range, keeping what a snapshot at or after the
// oldest open one may see. It includes every file of the store and memtable
// entries are newer than any file entry, so tombstones at or below the
// oldest snapshot have nothing left to delete and are dropped too.
//
// With all false, files that share no row with another file of the store,
// lie inside the region and are not small stay as they are (a trivial
// move, in LevelDB's terms): a bulk load in key order (ingest.go, or
// flushes of ascending keys) makes many such files, and rewriting them
// gains nothing, since reads concatenate files that do not overlap
// (runIter). Leaving them out is safe for dropping tombstones: a
// tombstone covers only entries of its own row. A file a bulk ingest
// installed above the oldest snapshot is left out too: that snapshot must
// not see it, and the output is visible to every snapshot (see
// ingest.go for why the tombstones of the others cannot cover its rows).
func (s *Store) compactStore(sr storeRef, all bool) error {
	smin := s.oldestSnapshot()
	s.mu.Lock()
	// A region split since the caller looked is gone: its state still
	// lists files its children may have released.
	if s.failed != nil || s.closed || sr.t.dropped || s.tableOf(sr.r) == nil {
		s.mu.Unlock()
		return nil
	}
	set := sr.t.families()
	fams, fi := set.fams, set.idx[sr.fam]
	inputs := compactionInputs(sr.r, sr.r.state.files[fi], smin, all, s.opts.MemtableSize/16)
	for _, f := range inputs {
		f.refs.Add(1)
	}
	s.mu.Unlock()
	defer func() {
		for _, f := range inputs {
			s.unref(f)
		}
	}()
	if len(inputs) == 0 {
		return nil
	}
	out, err := s.writeCompaction(sr, fams, fi, inputs, smin)
	if err != nil {
		// The inputs stay in place: nothing is lost, the background
		// retries with backoff (a full disk may free up).
		return errorf("compaction: %w", err)
	}

	s.manifestMu.Lock()
	defer s.manifestMu.Unlock()
	s.mu.Lock()
	// A split or a drop since the start leaves sr.r out of the table (a
	// split region's state is not renumbered by SetFamilies, so it is
	// checked before indexing); SetFamilies may have renumbered fi.
	intact := !sr.t.dropped && s.tableOf(sr.r) != nil
	var cur []*fileMeta
	if intact {
		fi, intact = sr.t.families().idx[sr.fam]
		intact = intact && fi < len(sr.r.state.files)
	}
	if intact {
		cur = sr.r.state.files[fi]
	}
	for _, f := range inputs {
		intact = intact && slices.Contains(cur, f)
	}
	if !intact {
		s.mu.Unlock()
		if out != nil {
			s.unref(out)
		}
		return nil
	}
	st := *sr.r.state
	st.files = slices.Clone(st.files)
	nf := slices.DeleteFunc(slices.Clone(cur), func(f *fileMeta) bool { return slices.Contains(inputs, f) })
	if out != nil {
		nf = append([]*fileMeta{out}, nf...)
	}
	var n int64 // the store's entries, files left out of the merge included
	for _, f := range nf {
		n += f.entries
	}
	sr.r.rows.Store(n)
	st.files[fi] = nf
	sr.r.state = &st
	s.mu.Unlock()
	s.compactions.Add(1)
	if err := s.saveManifest(); err != nil {
		return err
	}
	for _, f := range inputs {
		s.unref(f) // the replaced state's reference
	}
	return nil
}

// writeCompaction writes the merged output; on error it removes what it
// wrote.
// fams is the table's family set as of the start, fi the store's index in
// it.
func (s *Store) writeCompaction(sr storeRef, fams []famInfo, fi int, inputs []*fileMeta, smin uint64) (_ *fileMeta, err error) {
	children := make([]internalIter, len(inputs))
	for i, f := range inputs {
		children[i] = sstIter{f.reader.NewIter()}
	}
	it := newMergingIter(children)
	defer it.Close()
	if sr.r.lower != nil {
		it.SeekGE(sr.r.lower)
	} else {
		it.First()
	}
	vis := visibility{snap: smin, fams: fams, nowUS: int64(kv.Now())}
	var w *fileWriter
	var row []byte
	defer func() {
		if err != nil && w != nil && !w.done {
			w.abort()
		}
	}()
	for ; it.Valid(); it.Next() {
		k := it.Key()
		if sr.r.upper != nil && bytes.Compare(k, sr.r.upper) >= 0 {
			break
		}
		p, perr := ikey.Parse(k)
		if perr != nil {
			return nil, fmt.Errorf("bad internal key %q: %w", k, errCorrupt)
		}
		if !bytes.Equal(p.Row, row) {
			row = append(row[:0], p.Row...)
			vis.resetRow()
		}
		v, verr := vis.step(&p, it.Value())
		if verr != nil {
			return nil, fmt.Errorf("bad tombstone at %q: %w", k, errCorrupt)
		}
		if v != live && v != newer {
			continue
		}
		if w == nil {
			if w, err = s.newFileWriter(&fams[fi]); err != nil {
				return nil, err
			}
		}
		if err := w.add(k, it.Value()); err != nil {
			return nil, err
		}
	}
	if err := it.Err(); err != nil {
		return nil, err
	}
	if w == nil {
		return nil, nil
	}
	f, err := w.finish()
	if err != nil {
		return nil, err
	}
	if err := s.fs.SyncDir(s.dir); err != nil {
		s.unref(f) // closes and deletes it
		return nil, err
	}
	return f, nil
}

// compactionInputs picks the files of a store to merge (see compactStore);
// none when merging would change nothing; with mu held.
func compactionInputs(r *region, files []*fileMeta, smin uint64, all bool, keepSize int64) []*fileMeta {
	var inputs []*fileMeta
	for _, f := range files {
		if f.installSeq > smin {
			continue
		}
		// An ingested file's keys carry a sequence number older than its
		// install: a memtable entry below it (a DeleteRow, DeleteCells...
		// committed before the ingest started) is older than the file's
		// cells, yet a merge that does not see it would count the versions
		// it deletes against MaxVersions and drop the ingested ones. Merge
		// such a file only once those entries are in files.
		if f.installSeq != 0 && r.state.memBelow(f.installSeq) {
			continue
		}
		if !all && f.size >= keepSize && r.holds(f) && !sharesRows(f, files) {
			continue
		}
		inputs = append(inputs, f)
	}
	if len(inputs) == 1 && !all && r.holds(inputs[0]) {
		return nil
	}
	return inputs
}

// holds reports whether f's rows lie inside r.
func (r *region) holds(f *fileMeta) bool {
	return (r.lower == nil || bytes.Compare(ikey.RowPrefixOf(f.smallest), r.lower) >= 0) &&
		(r.upper == nil || bytes.Compare(ikey.RowPrefixOf(f.largest), r.upper) < 0)
}

// extendsPastLocked reports whether a file of r has rows outside it (a
// split's shared files, an ingest's file spanning regions); with mu held.
func (r *region) extendsPastLocked() bool {
	for _, fs := range r.state.files {
		for _, f := range fs {
			if !r.holds(f) {
				return true
			}
		}
	}
	return false
}

// sharesRows reports whether a file of files other than f holds a row in
// f's row range.
func sharesRows(f *fileMeta, files []*fileMeta) bool {
	lo, hi := ikey.RowPrefixOf(f.smallest), ikey.RowPrefixOf(f.largest)
	for _, o := range files {
		if o != f && bytes.Compare(lo, ikey.RowPrefixOf(o.largest)) <= 0 && bytes.Compare(ikey.RowPrefixOf(o.smallest), hi) <= 0 {
			return true
		}
	}
	return false
}

// memBelow reports whether a memtable of st holds an entry with a sequence
// number below seq; with mu held.
func (st *regionState) memBelow(seq uint64) bool {
	below := func(m *memtable) bool { return !m.empty() && m.minSeq.Load() < seq }
	return below(st.mem) || slices.ContainsFunc(st.imms, below)
}
