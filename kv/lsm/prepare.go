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
	sims := map[string][]simCell{}
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
		if !ok {
			var err error
			if cells, err = s.readRowCells(t, regions, rm.Key, snap); err != nil {
				return err
			}
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
		sims[string(rm.Key)] = simulate(cells, rows[i].muts)
	}
	return nil
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
	if rm.Require != kv.NoPrecondition {
		return true
	}
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
