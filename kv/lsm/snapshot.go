package lsm

import (
	"bytes"
	"math"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/sstable"
)

// sstIter adapts *sstable.Iter to internalIter.
type sstIter struct{ it *sstable.Iter }

func (i sstIter) SeekGE(k []byte) { i.it.SeekGE(k) }
func (i sstIter) SeekLT(k []byte) {
	if k == nil {
		i.it.Last()
	} else {
		i.it.SeekLT(k)
	}
}
func (i sstIter) First()        { i.it.First() }
func (i sstIter) Next()         { i.it.Next() }
func (i sstIter) Valid() bool   { return i.it.Valid() }
func (i sstIter) Key() []byte   { return i.it.Key() }
func (i sstIter) Value() []byte { return i.it.Value() }
func (i sstIter) Err() error    { return i.it.Err() }
func (i sstIter) Close() error  { return i.it.Close() }

// regionSnap is one region as a read sees it: an immutable state and refs
// on the files of the families read.
type regionSnap struct {
	r     *region
	st    *regionState
	files []*fileMeta // ref'd; of the families read
}

// readSnap is a read's consistent view: the sequence number it reads at and
// the regions it may visit. Entries with larger sequence numbers are
// skipped, so memtables need no copy.
type readSnap struct {
	seq     uint64
	regions []regionSnap
}

// acquireLocked takes a snapshot of the regions of t overlapping spans,
// with mu held. famMask (nil: all) selects the families whose files are
// read: other families' files are skipped entirely.
func (s *Store) acquireLocked(t *table, sp []kv.Span, famMask []bool, seq uint64) *readSnap {
	return s.acquireInto(&readSnap{}, t, sp, famMask, seq)
}

// acquireInto is acquireLocked into rs, a released (or new) snapshot
// whose slices it reuses: the regions and each region's file list keep
// their capacity across reads (readBufs.snap), so a warm read's snapshot
// allocates nothing, and nothing is allocated while mu is held.
func (s *Store) acquireInto(rs *readSnap, t *table, sp []kv.Span, famMask []bool, seq uint64) *readSnap {
	rs.seq, rs.regions = seq, rs.regions[:0]
	s.snapshots[seq]++
	last := -1
	for _, x := range sp {
		i := 0
		if x.Start != nil {
			i = regionFor(t.regions, x.Start)
		}
		for ; i < len(t.regions); i++ {
			r := t.regions[i]
			if x.Point && !r.contains(x.Start) {
				break
			}
			if !x.Point && x.End != nil && r.start != nil && bytes.Compare(r.start, x.End) >= 0 {
				break
			}
			if i > last {
				rs.appendRegion(s, r, famMask, seq)
				last = i
			}
			if x.Point {
				break
			}
		}
	}
	return rs
}

// appendRegion appends r's snapshot to rs.regions, reusing the file
// list of a released entry past its length when there is one.
func (rs *readSnap) appendRegion(s *Store, r *region, famMask []bool, seq uint64) {
	n := len(rs.regions)
	if n == cap(rs.regions) {
		rs.regions = append(rs.regions, regionSnap{})
	} else {
		rs.regions = rs.regions[:n+1]
	}
	dst := &rs.regions[n]
	dst.r, dst.st = r, r.state
	dst.files = s.appendFiles(dst.files[:0], r, famMask, seq)
}

// snapRegion is snapRegionAt for a read at the last reserved sequence
// number (the write path's), which sees every installed file.
func (s *Store) snapRegion(r *region, famMask []bool) regionSnap {
	return s.snapRegionAt(r, famMask, math.MaxUint64)
}

// snapRegionAt refs r's files of the families in famMask (nil: all) that
// a read at seq sees: all but those a bulk ingest installed at a larger
// sequence number (ingest.go); with mu held.
func (s *Store) snapRegionAt(r *region, famMask []bool, seq uint64) regionSnap {
	return regionSnap{r: r, st: r.state, files: s.appendFiles(nil, r, famMask, seq)}
}

// appendFiles refs and appends to files those of snapRegionAt.
func (s *Store) appendFiles(files []*fileMeta, r *region, famMask []bool, seq uint64) []*fileMeta {
	for fi, fs := range r.state.files {
		if famMask != nil && !famMask[fi] {
			continue
		}
		for _, f := range fs {
			if f.installSeq > seq {
				continue
			}
			f.refs.Add(1)
			files = append(files, f)
		}
	}
	return files
}

func (s *Store) release(rs *readSnap) {
	for _, r := range rs.regions {
		for _, f := range r.files {
			s.unref(f)
		}
	}
	s.mu.Lock()
	if s.snapshots[rs.seq]--; s.snapshots[rs.seq] == 0 {
		delete(s.snapshots, rs.seq)
	}
	s.mu.Unlock()
	// Keep the slices for acquireInto, holding no file, memtable or
	// region: a pooled snapshot must not keep them alive.
	all := rs.regions[:cap(rs.regions)]
	for i := range all {
		r := &all[i]
		clear(r.files[:cap(r.files)])
		r.r, r.st, r.files = nil, nil, r.files[:0]
	}
	rs.regions = rs.regions[:0]
}

// oldestSnapshot is the smallest sequence number any read may still use.
func (s *Store) oldestSnapshot() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	lo := s.visibleSeq.Load()
	for seq := range s.snapshots {
		lo = min(lo, seq)
	}
	return lo
}
