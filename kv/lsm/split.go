package lsm

import (
	"bytes"
	"slices"

	"github.com/widesql/widesql/kv/lsm/internal/ikey"
)

// maybeSplit splits r at a middle rowkey when its files exceed
// RegionSplitSize. The children share the parent's files (each reads only
// its own range of them) and are marked for rewrite, so the next
// compaction gives each child files of its own. The parent's memtable
// entries are copied into the children's memtables.
//
// A region still marked for rewrite is not split: its files extend past
// its range, so r.bytes() counts bytes it does not hold. Splitting it
// would give both children the same files, the same count and the same
// mark, and while the rewrite waits (an open snapshot older than an
// ingested file keeps the file out of compaction) every pass would split
// every child again: thousands of regions from one bulk load.
func (s *Store) maybeSplit(r *region) error {
	s.mu.Lock()
	t := s.tableOf(r)
	if t == nil || s.failed != nil || s.closed || r.rewrite || r.bytes() <= s.opts.RegionSplitSize || len(r.state.imms) > 0 {
		s.mu.Unlock()
		return nil
	}
	var big *fileMeta
	for _, fs := range r.state.files {
		for _, f := range fs {
			if big == nil || f.size > big.size {
				big = f
			}
		}
	}
	big.refs.Add(1)
	s.mu.Unlock()
	mid := s.middleRow(r, big)
	s.unref(big)
	if mid == nil || (r.start != nil && bytes.Compare(mid, r.start) <= 0) || (r.end != nil && bytes.Compare(mid, r.end) >= 0) {
		return nil
	}

	s.manifestMu.Lock()
	defer s.manifestMu.Unlock()
	s.commitMu.Lock()
	s.mu.Lock()
	idx := slices.Index(t.regions, r)
	if idx < 0 || t.dropped || r.rewrite || len(r.state.imms) > 0 {
		s.mu.Unlock()
		s.commitMu.Unlock()
		return nil
	}
	a, b := s.splitRegionLocked(t, r, mid)
	regions := slices.Clone(t.regions)
	regions = slices.Replace(regions, idx, idx+1, a, b)
	t.regions = regions
	s.mu.Unlock()
	s.commitMu.Unlock()
	s.opts.Logger.Info("lsm: split region", "table", t.name, "region", r.id, "at", mid)
	if err := s.saveManifest(); err != nil {
		return err
	}
	s.kick()
	return nil
}

// splitRegionLocked returns the two children of r split at mid, which
// must lie strictly inside r, with commitMu and mu held and manifestMu too
// (it keeps the family indexes and flushes out). The children share r's
// files (one more reference each file) and are marked for rewrite; r's
// memtables, mutable and immutable, are divided between them by key, each
// child memtable keeping the parent's sequence and WAL bounds. The caller
// installs them in t.regions and saves the manifest.
func (s *Store) splitRegionLocked(t *table, r *region, mid []byte) (a, b *region) {
	nfam := len(t.families().fams)
	a = newRegion(s.nextRegionID, r.start, mid, nfam)
	b = newRegion(s.nextRegionID+1, mid, r.end, nfam)
	s.nextRegionID += 2
	for _, c := range []*region{a, b} {
		c.flushedSeq, c.rewrite = r.flushedSeq, true
		c.rows.Store(r.rows.Load() / 2)
		for fi, fs := range r.state.files {
			c.state.files[fi] = slices.Clone(fs)
		}
	}
	for _, fs := range r.state.files {
		for _, f := range fs {
			f.refs.Add(1) // two regions now list it
		}
	}
	divide := func(old, ma, mb *memtable) {
		old.ascend(func(e entry) bool {
			m := ma
			if bytes.Compare(e.key, b.lower) >= 0 {
				m = mb
			}
			m.add([]entry{e}, old.maxSeq.Load(), old.firstWAL.Load())
			return true
		})
	}
	delta := -r.state.mem.size.Load()
	divide(r.state.mem, a.state.mem, b.state.mem)
	delta += a.state.mem.size.Load() + b.state.mem.size.Load()
	for _, imm := range r.state.imms {
		// An immutable memtable is one whose flush failed (a flush in
		// progress holds manifestMu): each child retries its half.
		ia, ib := newMemtable(), newMemtable()
		divide(imm, ia, ib)
		delta += ia.size.Load() + ib.size.Load() - imm.size.Load()
		for _, c := range []struct {
			r *region
			m *memtable
		}{{a, ia}, {b, ib}} {
			if !c.m.empty() {
				c.r.state.imms = append(c.r.state.imms, c.m)
			}
		}
	}
	s.memBytes.Add(delta)
	return a, b
}

// middleRow returns the rowkey at about the middle of f's entries within
// r's range, or nil.
func (s *Store) middleRow(r *region, f *fileMeta) []byte {
	count := func(stop int64) ([]byte, int64) {
		it := f.reader.NewIter()
		defer it.Close()
		if r.lower != nil {
			it.SeekGE(r.lower)
		} else {
			it.First()
		}
		var n int64
		for ; it.Valid(); it.Next() {
			if r.upper != nil && bytes.Compare(it.Key(), r.upper) >= 0 {
				break
			}
			if n == stop {
				return ikey.Unescape(nil, ikey.RowPrefixOf(it.Key())), n
			}
			n++
		}
		return nil, n
	}
	_, n := count(-1)
	if n < 2 {
		return nil
	}
	mid, _ := count(n / 2)
	return mid
}
