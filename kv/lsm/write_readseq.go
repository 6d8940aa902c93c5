package lsm

import (
	"bytes"
	"encoding/binary"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
)

var _ kv.ReadVersioner = (*Table)(nil)

// ReadVersion implements kv.ReadVersioner: the published sequence number,
// at or below the snapshot of every read that starts after the call (a
// read takes visibleSeq when it starts, and visibleSeq only grows).
func (h *Table) ReadVersion() uint64 { return h.s.visibleSeq.Load() }

// readSeqShortcut enables unchangedSince in prepare; tests turn it off to
// compare with the general path.
var readSeqShortcut = true

// unchangedMaxEntries bounds the memtable entries of one row that
// unchangedSince looks at: a hot row with more versions since its last
// flush is left to rowPresent, which stops at the first live cell.
const unchangedMaxEntries = 64

// unchangedSince reports whether row key surely has no entry with a
// sequence number above seq, so that its presence at the commit equals its
// presence at a read at seq or later; false means "maybe", never "no". It
// runs with commitMu held, which is what lets an UPDATE by key whose
// RowMutation carries the read version of the read that found its row
// skip the presence check's read of the row (rowPresent walks memtables
// and then, for a row without recent writes, seeks into its files).
//
// Entries newer than seq can only be in the region's memtables, and are
// all there, when its oldest memtable holds an entry at or below seq:
// memtables are created under commitMu and flushed whole, oldest first, so
// every flushed entry is older than the oldest memtable's smallest (a
// split divides memtables, which keeps the rule). The other sources of a
// change are handled conservatively: a file a bulk ingest installed after
// seq (ingest.go: its keys carry an older sequence number than its
// install), and a family with a TTL (a cell can expire without a write).
func (s *Store) unchangedSince(t *table, regions []*region, key []byte, seq uint64) bool {
	if seq == 0 {
		return false
	}
	for _, f := range t.families().fams {
		if f.ttl > 0 {
			return false
		}
	}
	r := regions[regionFor(regions, key)]
	s.mu.Lock()
	st := r.state
	s.mu.Unlock()
	mems := st.mems()
	if oldest := mems[len(mems)-1].minSeq.Load(); oldest == 0 || oldest > seq {
		return false
	}
	var buf [64]byte
	prefix := ikey.RowPrefix(buf[:0], key)
	for _, ff := range st.files {
		for _, f := range ff {
			if f.installSeq > seq && bytes.Compare(f.largest, prefix) >= 0 &&
				bytes.Compare(ikey.RowPrefixOf(f.smallest), prefix) <= 0 {
				return false
			}
		}
	}
	for _, m := range mems {
		if !m.unchangedSince(prefix, seq) {
			return false
		}
	}
	return true
}

// unchangedSince reports whether m surely holds no entry of the row with
// prefix p whose sequence number is above seq. Nothing is added to m
// meanwhile (the caller holds commitMu); mu is held for reading, as a
// memIter fill holds it.
func (m *memtable) unchangedSince(p []byte, seq uint64) bool {
	ok, n := true, 0
	m.mu.RLock()
	m.tree.AscendGreaterOrEqual(entry{key: p}, func(e entry) bool {
		if !bytes.HasPrefix(e.key, p) {
			return false
		}
		n++
		if n > unchangedMaxEntries || len(e.key) < ikey.TrailerLen ||
			^binary.BigEndian.Uint64(e.key[len(e.key)-1-8:]) > seq { // the trailer's seq, as in add
			ok = false
			return false
		}
		return true
	})
	m.mu.RUnlock()
	return ok
}
