package lsm

import (
	"bytes"
	"sync"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
)

// rowPresent reports whether row key has a live cell (in column col when
// col is not nil) at seq snap, as readRowCells followed by hasLiveCell
// would, for a precondition that needs no simulated cells (prepare's
// sorted batches, rows without GC tombstones). It runs with commitMu held.
//
// It is the write path's answer to a read-modify-write such as an SQL
// UPDATE by key, which sets a precondition on a row it has just read. Two
// things make it cheaper than the row read it replaces:
//
//   - It stops at the first live cell. readRowCells walks (and copies)
//     every visible version of every column, and a hot row updated many
//     times since the last flush has one per update: a zipfian update
//     workload read thousands of versions per write.
//   - It looks at the memtables first, without a snapshot or the files.
//     Tombstones hide by sequence number, and a tombstone newer than a
//     memtable entry is itself in a memtable (files hold flushed, older
//     entries; an ingested file holds only sets), so a cell the memtables
//     alone show live at snap is live in the store: the files need no
//     seek. When the memtables show none, the row is read through
//     memtables and files as readRowCells reads it.
func (s *Store) rowPresent(t *table, regions []*region, key []byte, col *kv.Column, snap uint64) (bool, error) {
	r := regions[regionFor(regions, key)]
	ps := presencePool.Get().(*presenceScratch)
	defer ps.put()
	ps.prefix = ikey.RowPrefix(ps.prefix[:0], key)
	if col != nil {
		ps.fam = ikey.AppendEscaped(ps.fam[:0], []byte(col.Family))
		ps.qual = ikey.AppendEscaped(ps.qual[:0], col.Qualifier)
	}
	ps.vis = visibility{snap: snap, fams: t.families().fams, nowUS: int64(kv.Now()), noLimit: true,
		famBuf: ps.vis.famBuf[:0], colBuf: ps.vis.colBuf[:0], colDel: ps.vis.colDel[:0]}

	// The memtables alone: no file is referenced, so no snapshot is
	// registered (memtables are kept alive by the state pointer, and
	// nothing is added to them while commitMu is held).
	s.mu.Lock()
	mems := regionSnap{r: r, st: r.state}
	s.mu.Unlock()
	found, err := ps.scan(mems.initIter(&ps.iter, ps.prefix), col != nil)
	if found || err != nil {
		return found, err
	}

	s.mu.Lock()
	s.snapshots[snap]++
	rs := &readSnap{seq: snap, regions: []regionSnap{s.snapRegion(r, nil)}}
	s.mu.Unlock()
	defer s.release(rs)
	return ps.scan(rs.regions[0].initIter(&ps.iter, ps.prefix), col != nil)
}

// presenceShortcut enables rowPresent in prepare; tests and benchmarks
// turn it off to compare with the general path.
var presenceShortcut = true

// presenceScratch is rowPresent's reusable state: a merging iterator (with
// its memtable iterators' buffers), the visibility state and key buffers.
type presenceScratch struct {
	iter              mergingIter
	vis               visibility
	prefix, fam, qual []byte
}

var presencePool = sync.Pool{New: func() any { return new(presenceScratch) }}

func (ps *presenceScratch) put() {
	ps.vis.fams = nil
	presencePool.Put(ps)
}

// scan walks the row ps.prefix through iter (which it closes) until a live
// cell, in column (ps.fam, ps.qual) when byCol.
func (ps *presenceScratch) scan(iter *mergingIter, byCol bool) (bool, error) {
	defer iter.Close()
	v := &ps.vis
	v.resetRow()
	var p ikey.Parsed
	for iter.SeekGE(ps.prefix); iter.Valid() && bytes.HasPrefix(iter.Key(), ps.prefix); iter.Next() {
		if err := p.SetInRow(iter.Key(), len(ps.prefix)); err != nil {
			return false, errorf("apply: bad internal key %q: %w", iter.Key(), errCorrupt)
		}
		verdict, err := v.step(&p, iter.Value())
		if err != nil {
			return false, errorf("apply: bad tombstone: %w", errCorrupt)
		}
		if verdict == live && (!byCol || bytes.Equal(p.Family, ps.fam) && bytes.Equal(p.Qualifier, ps.qual)) {
			return true, nil
		}
	}
	if err := iter.Err(); err != nil {
		return false, errorf("apply: %w", err)
	}
	return false, nil
}
