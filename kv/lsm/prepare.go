package lsm

import (
	"bytes"
	"slices"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
)

// simCell is a cell of a row simulated by the write path.
type simCell struct {
	fam  string
	qual []byte
	ts   kv.Timestamp
}

// prepare fills rows with batch's row mutations, checking preconditions
// (of the row, or of RequireColumn's column, with live cells as a read
// sees them: MaxVersions does not matter, TTL does) and
// adding garbage-collection tombstones, with commitMu held. It reads each
// row it needs at the last reserved sequence number (so it sees committed
// but unsynced batches) and simulates the batch's earlier row mutations of
// the same key (so preconditions see them, as the kv contract requires).
//
// The GC tombstone keeps the engine's version semantics equal to
// kv/memstore's, where versions beyond a family's MaxVersions are dropped
// at write time: reads show the newest MaxVersions visible versions, so a
// DeleteCells that removes newer versions would expose older ones that
// memstore has already dropped. Before such a DeleteCells (Start > 0; a
// range from 0 removes all older versions anyway), prepare adds DeleteCells
// [0, ts of the MaxVersions-th newest version) when the column has more
// versions than the family keeps.
func (s *Store) prepare(t *table, regions []*region, batch []kv.RowMutation, rows []walRow) error {
	snap := s.lastSeq.Load()
	fs := t.families()
	now := int64(kv.Now())
	// A batch in strictly increasing key order (a COPY, a multi-row
	// INSERT of ascending keys, any single row) has no earlier row of the
	// same key to simulate: it skips the sims and earlier maps entirely.
	sorted := true
	for i := 1; i < len(batch) && sorted; i++ {
		sorted = bytes.Compare(batch[i-1].Key, batch[i].Key) < 0
	}
	var sims map[string][]simCell
	if !sorted {
		sims = map[string][]simCell{}
	}
	abs := absence{s: s, regions: regions}
	// earlier indexes the batch's rows before the current one by key,
	// built only as far as a row needing simulation asks (plain puts never
	// pay for it): a key not yet in sims has only unsimulated rows before
	// it, which its simulation must replay. Scanning the batch for them
	// instead made a COPY of n new keys O(n^2).
	var earlier map[string][]int
	indexed := 0
	for i := range batch {
		rm := &batch[i]
		rows[i] = walRow{key: rm.Key, muts: rm.Mutations}
		cells, ok := sims[string(rm.Key)]
		if !ok && !needsSim(rm) {
			continue
		}
		if sorted && !needsGC(rm) && presenceShortcut {
			// Only a precondition, and no earlier or later row of the
			// key needs this row's cells: ask whether a live cell
			// exists, without collecting the cells (write_presence.go).
			if rm.Require == kv.RequirePresent && rm.RequireColumn == nil && readSeqShortcut &&
				s.unchangedSince(t, regions, rm.Key, rm.ReadSeq) {
				// Present when its writer read it at ReadSeq, and not
				// written since (write_readseq.go).
				continue
			}
			present := false
			if !abs.absent(batch, i, sorted) {
				var err error
				if present, err = s.rowPresent(t, regions, rm.Key, rm.RequireColumn, snap); err != nil {
					return err
				}
			}
			if (rm.Require == kv.RequireAbsent && present) || (rm.Require == kv.RequirePresent && !present) {
				return &kv.ConditionError{Index: i, Key: bytes.Clone(rm.Key)}
			}
			continue
		}
		if !ok {
			if !abs.absent(batch, i, sorted) {
				var err error
				if cells, err = s.readRowCells(t, regions, rm.Key, snap); err != nil {
					return err
				}
			}
			if !sorted {
				if earlier == nil {
					earlier = map[string][]int{}
				}
				for ; indexed < i; indexed++ {
					k := string(batch[indexed].Key)
					earlier[k] = append(earlier[k], indexed)
				}
				for _, j := range earlier[string(rm.Key)] {
					cells = simulate(cells, rows[j].muts)
				}
			}
		}
		if rm.Require != kv.NoPrecondition {
			present := hasLiveCell(cells, rm.RequireColumn, fs, now)
			if (rm.Require == kv.RequireAbsent && present) || (rm.Require == kv.RequirePresent && !present) {
				return &kv.ConditionError{Index: i, Key: bytes.Clone(rm.Key)}
			}
		}
		var gc []kv.Mutation
		for j := range rm.Mutations {
			m := &rm.Mutations[j]
			if m.Kind != kv.DeleteCells || m.Start == 0 {
				continue
			}
			keep := fs.fams[fs.idx[m.Family]].maxVersions
			var versions []kv.Timestamp
			for _, c := range cells {
				if c.fam == m.Family && bytes.Equal(c.qual, m.Qualifier) {
					versions = append(versions, c.ts)
				}
			}
			if len(versions) > keep {
				slices.Sort(versions)
				slices.Reverse(versions)
				// An End of MaxTimestamp would mean "no bound" (and delete
				// the MaxTimestamp version itself): use the largest value
				// below it, which covers the same valid timestamps.
				end := min(versions[keep-1], kv.MaxTimestamp-1)
				gc = append(gc, kv.Mutation{Kind: kv.DeleteCells, Family: m.Family, Qualifier: m.Qualifier, End: end})
			}
		}
		if len(gc) > 0 {
			rows[i].muts = append(gc, rm.Mutations...)
		}
		if !sorted {
			sims[string(rm.Key)] = simulate(cells, rows[i].muts)
		}
	}
	return nil
}

// absence answers, exactly and without reading a block, "does any
// memtable or file of the store hold an entry of this row?" for rows that
// have none: a precondition or GC read of such a row would find no cell,
// so prepare skips readRowCells for it. A row of a fresh key range (a bulk
// load, new ids) is the common case and its read the write path's main
// cost. The answer "maybe" sends the row to readRowCells.
//
// A row has no entry when no memtable holds a key with its row prefix (a
// btree seek) and every file either does not span the row prefix or its
// bloom filter rules the row out (a bloom filter has no false negatives).
// For a sorted batch, the rows of one region are first checked as one key
// range: when no source overlaps it, all of them are absent at the cost of
// one seek per memtable and two compares per file.
//
// It runs with commitMu held, so no memtable changes meanwhile; a flush or
// compaction may replace a region's state, but not the set of entries it
// holds (compaction only drops entries that are invisible anyway, which
// can only turn "maybe" into a needless read). The state is taken under
// mu; file bounds and bloom filters are in memory, so no file is read and
// none needs a reference.
type absence struct {
	s       *Store
	regions []*region

	ri     int          // region of the current group; -1 before the first
	st     *regionState // its state
	hi     int          // the group is rows [.., hi) of the batch
	clean  bool         // no source overlaps the group's key range
	prefix []byte       // scratch
}

// absent reports whether batch[i]'s row surely has no entry. sorted says
// the batch's keys strictly increase.
func (a *absence) absent(batch []kv.RowMutation, i int, sorted bool) bool {
	key := batch[i].Key
	ri := regionFor(a.regions, key)
	if a.st == nil || ri != a.ri || i >= a.hi {
		a.ri, a.hi, a.clean = ri, i+1, false
		a.s.mu.Lock()
		a.st = a.regions[ri].state
		a.s.mu.Unlock()
		if sorted {
			// The group: the following rows of the same region.
			r := a.regions[ri]
			for a.hi < len(batch) && r.contains(batch[a.hi].Key) {
				a.hi++
			}
			if a.hi-i > 1 {
				lo := ikey.RowPrefix(nil, key)
				a.prefix = ikey.RowPrefix(a.prefix[:0], batch[a.hi-1].Key)
				a.clean = !a.st.overlaps(lo, a.prefix)
			}
		}
	}
	if a.clean {
		return true
	}
	a.prefix = ikey.RowPrefix(a.prefix[:0], key)
	return !a.st.mayHoldRow(a.prefix)
}

// overlaps reports whether a memtable or file of st may hold a key of a
// row whose prefix is in [lo, hi] (row prefixes, lo <= hi).
func (st *regionState) overlaps(lo, hi []byte) bool {
	for _, m := range st.mems() {
		if k := m.firstAtOrAfter(lo); k != nil && bytes.Compare(ikey.RowPrefixOf(k), hi) <= 0 {
			return true
		}
	}
	for _, ff := range st.files {
		for _, f := range ff {
			if bytes.Compare(f.largest, lo) >= 0 && bytes.Compare(ikey.RowPrefixOf(f.smallest), hi) <= 0 {
				return true
			}
		}
	}
	return false
}

// mayHoldRow reports whether a memtable or file of st may hold an entry of
// the row with prefix p; false is definite.
func (st *regionState) mayHoldRow(p []byte) bool {
	for _, m := range st.mems() {
		if k := m.firstAtOrAfter(p); k != nil && bytes.HasPrefix(k, p) {
			return true
		}
	}
	for _, ff := range st.files {
		for _, f := range ff {
			if bytes.Compare(f.largest, p) >= 0 && bytes.Compare(ikey.RowPrefixOf(f.smallest), p) <= 0 &&
				f.reader.MayContain(p) {
				return true
			}
		}
	}
	return false
}

// mems returns the region's memtables, the mutable one first.
func (st *regionState) mems() []*memtable {
	if len(st.imms) == 0 {
		return []*memtable{st.mem}
	}
	return append([]*memtable{st.mem}, st.imms...)
}

// hasLiveCell reports whether cells (a row as prepare simulates it) hold a
// cell a read would return, in column col when col is not nil: readRowCells
// already dropped expired cells, but the batch's earlier rows may have set
// cells older than their family's TTL.
func hasLiveCell(cells []simCell, col *kv.Column, fs *famSet, nowUS int64) bool {
	for _, c := range cells {
		if col != nil && (c.fam != col.Family || !bytes.Equal(c.qual, col.Qualifier)) {
			continue
		}
		if f := &fs.fams[fs.idx[c.fam]]; f.ttl > 0 && int64(c.ts) < nowUS-f.ttl.Microseconds() {
			continue
		}
		return true
	}
	return false
}

func needsSim(rm *kv.RowMutation) bool {
	return rm.Require != kv.NoPrecondition || needsGC(rm)
}

// needsGC reports whether prepare may add GC tombstones to rm (see
// prepare), which needs the row's versions.
func needsGC(rm *kv.RowMutation) bool {
	for j := range rm.Mutations {
		if m := &rm.Mutations[j]; m.Kind == kv.DeleteCells && m.Start > 0 {
			return true
		}
	}
	return false
}

// simulate applies muts to cells without version garbage collection.
func simulate(cells []simCell, muts []kv.Mutation) []simCell {
	for i := range muts {
		m := &muts[i]
		switch m.Kind {
		case kv.SetCell:
			found := false
			for _, c := range cells {
				found = found || (c.fam == m.Family && c.ts == m.Timestamp && bytes.Equal(c.qual, m.Qualifier))
			}
			if !found {
				cells = append(cells, simCell{fam: m.Family, qual: bytes.Clone(m.Qualifier), ts: m.Timestamp})
			}
		case kv.DeleteCells:
			end := m.End
			if end == 0 || end >= kv.MaxTimestamp {
				end = kv.MaxTimestamp + 1
			}
			cells = slices.DeleteFunc(cells, func(c simCell) bool {
				return c.fam == m.Family && bytes.Equal(c.qual, m.Qualifier) && c.ts >= m.Start && c.ts < end
			})
		case kv.DeleteFamily:
			cells = slices.DeleteFunc(cells, func(c simCell) bool { return c.fam == m.Family })
		case kv.DeleteRow:
			cells = cells[:0]
		}
	}
	return cells
}

// readRowCells returns every visible cell of row key at seq snap, ignoring
// MaxVersions (the write path's view for preconditions and GC tombstones).
func (s *Store) readRowCells(t *table, regions []*region, key []byte, snap uint64) ([]simCell, error) {
	r := regions[regionFor(regions, key)]
	s.mu.Lock()
	s.snapshots[snap]++
	rs := &readSnap{seq: snap, regions: []regionSnap{s.snapRegion(r, nil)}}
	s.mu.Unlock()
	defer s.release(rs)
	prefix := ikey.RowPrefix(nil, key)
	iter := rs.regions[0].newIter(prefix)
	defer iter.Close()
	vis := visibility{snap: snap, fams: t.families().fams, nowUS: int64(kv.Now()), noLimit: true}
	vis.resetRow()
	var cells []simCell
	for iter.SeekGE(prefix); iter.Valid() && bytes.HasPrefix(iter.Key(), prefix); iter.Next() {
		p, err := ikey.Parse(iter.Key())
		if err != nil {
			return nil, errorf("apply: bad internal key %q: %w", iter.Key(), errCorrupt)
		}
		v, err := vis.step(&p, iter.Value())
		if err != nil {
			return nil, errorf("apply: bad tombstone: %w", errCorrupt)
		}
		if v == live {
			cells = append(cells, simCell{fam: vis.fam.name, qual: ikey.Unescape(nil, p.Qualifier), ts: kv.Timestamp(p.TS)})
		}
	}
	if err := iter.Err(); err != nil {
		return nil, errorf("apply: %w", err)
	}
	return cells, nil
}
