package memstore

import (
	"bytes"
	"slices"
	"strings"

	"github.com/widesql/widesql/kv"
)

// row is one immutable row value stored in a table's tree. Once inserted, a
// row and every slice it references are never modified: a mutation builds a
// new row and replaces the old one, so snapshots can share rows freely.
//
// cells is never empty (an emptied row is removed from the tree) and is
// ordered by family, qualifier (bytes), then timestamp descending.
type row struct {
	key   []byte
	cells []kv.Cell
}

// rowLess orders rows by key; it is the btree's ordering.
func rowLess(a, b *row) bool { return bytes.Compare(a.key, b.key) < 0 }

// compareCell orders c against the cell address (family, qualifier, ts) in
// row order: family asc, qualifier asc, timestamp desc.
func compareCell(c *kv.Cell, family string, qualifier []byte, ts kv.Timestamp) int {
	if n := strings.Compare(c.Family, family); n != 0 {
		return n
	}
	if n := bytes.Compare(c.Qualifier, qualifier); n != 0 {
		return n
	}
	switch {
	case c.Timestamp > ts:
		return -1
	case c.Timestamp < ts:
		return 1
	}
	return 0
}

// sameColumn reports whether a and b are versions of the same column.
func sameColumn(a, b *kv.Cell) bool {
	return a.Family == b.Family && bytes.Equal(a.Qualifier, b.Qualifier)
}

// mutateRow returns the row that results from applying rm to old (nil when the
// row does not exist), or nil when the result has no cells. old is not
// modified. rm must have been validated by validateRowMutation; the caller's
// slices are copied, never retained. Versions beyond each family's
// MaxVersions are garbage-collected once all of rm's mutations are applied.
func (t *Table) mutateRow(old *row, rm *kv.RowMutation, fams familyMap, now kv.Timestamp) *row {
	// One allocation holds the copied key (for a new row) and every qualifier
	// and value set by rm.
	keyLen := 0
	var cells []kv.Cell
	if old != nil {
		cells = make([]kv.Cell, len(old.cells), len(old.cells)+countSets(rm))
		copy(cells, old.cells)
	} else {
		keyLen = len(rm.Key)
		cells = make([]kv.Cell, 0, countSets(rm))
	}
	arena := make([]byte, 0, keyLen+arenaSize(rm))
	if old == nil {
		arena = append(arena, rm.Key...)
	}
	for i := range rm.Mutations {
		m := &rm.Mutations[i]
		switch m.Kind {
		case kv.SetCell:
			qual := copyInto(&arena, m.Qualifier)
			val := copyInto(&arena, m.Value)
			pos, found := slices.BinarySearchFunc(cells, m, func(c kv.Cell, m *kv.Mutation) int {
				return compareCell(&c, m.Family, m.Qualifier, m.Timestamp)
			})
			cell := kv.Cell{Family: fams[m.Family].Name, Qualifier: qual, Timestamp: m.Timestamp, Value: val}
			if found {
				cells[pos] = cell
			} else {
				cells = slices.Insert(cells, pos, cell)
			}
		case kv.DeleteCells:
			end := m.End
			if end == 0 || end >= kv.MaxTimestamp {
				end = kv.MaxTimestamp + 1 // MaxTimestamp is a valid cell timestamp.
			}
			cells = slices.DeleteFunc(cells, func(c kv.Cell) bool {
				return c.Family == m.Family && bytes.Equal(c.Qualifier, m.Qualifier) &&
					c.Timestamp >= m.Start && c.Timestamp < end
			})
		case kv.DeleteFamily:
			cells = slices.DeleteFunc(cells, func(c kv.Cell) bool { return c.Family == m.Family })
		case kv.DeleteRow:
			cells = cells[:0]
		}
	}
	cells = collectGarbage(cells, fams, now)
	if len(cells) == 0 {
		return nil
	}
	if old != nil {
		return &row{key: old.key, cells: cells}
	}
	return &row{key: arena[:len(rm.Key):len(rm.Key)], cells: cells}
}

// collectGarbage drops, in place, the versions of each column beyond its
// family's MaxVersions (0 means 1) and the cells past its TTL at now, as
// kv/lsm's compaction does. Reads hide expired cells too (project): a row
// not written again keeps them until then.
func collectGarbage(cells []kv.Cell, fams familyMap, now kv.Timestamp) []kv.Cell {
	out := cells[:0]
	n := 0
	var f kv.Family
	for i := range cells {
		if i == 0 || !sameColumn(&cells[i], &cells[i-1]) {
			n = 0
			f = fams[cells[i].Family]
		}
		if n < max(f.MaxVersions, 1) && !f.Expired(cells[i].Timestamp, now) {
			out = append(out, cells[i])
		}
		n++
	}
	clear(cells[len(out):]) // do not pin dropped values
	return out
}

// copyInto appends b to *arena and returns the copy, capped so that appends
// by a caller cannot reach the next copy. An empty b yields nil.
func copyInto(arena *[]byte, b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	start := len(*arena)
	*arena = append(*arena, b...)
	return (*arena)[start:len(*arena):len(*arena)]
}

func countSets(rm *kv.RowMutation) int {
	n := 0
	for i := range rm.Mutations {
		if rm.Mutations[i].Kind == kv.SetCell {
			n++
		}
	}
	return n
}

func arenaSize(rm *kv.RowMutation) int {
	n := 0
	for i := range rm.Mutations {
		if m := &rm.Mutations[i]; m.Kind == kv.SetCell {
			n += len(m.Qualifier) + len(m.Value)
		}
	}
	return n
}
