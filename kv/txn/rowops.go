package txn

import (
	"bytes"
	"slices"
	"strings"

	"github.com/widesql/widesql/kv"
)

// mutate returns cells after rm, as a new slice; cells is not modified.
// The result aliases rm's qualifiers and values (owned by the log).
// Semantics are the store contract's: SetCell replaces the exact version,
// deletes remove what exists, and, when the families are known, versions
// beyond a family's MaxVersions are dropped once rm is applied.
func (t *txnTable) mutate(cells []kv.Cell, rm *kv.RowMutation) []kv.Cell {
	out := slices.Clone(cells)
	for i := range rm.Mutations {
		m := &rm.Mutations[i]
		switch m.Kind {
		case kv.SetCell:
			c := kv.Cell{Family: m.Family, Qualifier: m.Qualifier, Timestamp: m.Timestamp, Value: m.Value}
			pos, found := slices.BinarySearchFunc(out, &c, compareCells)
			if found {
				out[pos] = c
			} else {
				out = slices.Insert(out, pos, c)
			}
		case kv.DeleteCells:
			end := m.End
			if end == 0 || end >= kv.MaxTimestamp {
				end = kv.MaxTimestamp + 1
			}
			out = slices.DeleteFunc(out, func(c kv.Cell) bool {
				return c.Family == m.Family && bytes.Equal(c.Qualifier, m.Qualifier) &&
					c.Timestamp >= m.Start && c.Timestamp < end
			})
		case kv.DeleteFamily:
			out = slices.DeleteFunc(out, func(c kv.Cell) bool { return c.Family == m.Family })
		case kv.DeleteRow:
			out = out[:0]
		}
	}
	if t.fams == nil {
		return out
	}
	gc := out[:0]
	n, limit := 0, 0
	for i := range out {
		if i == 0 || !sameColumn(&out[i], &out[i-1]) {
			n, limit = 0, max(t.fams[out[i].Family].MaxVersions, 1)
		}
		if n < limit {
			gc = append(gc, out[i])
		}
		n++
	}
	return gc
}

// compareCells orders cells as rows hold them: family, qualifier,
// timestamp descending.
func compareCells(a kv.Cell, b *kv.Cell) int {
	if n := strings.Compare(a.Family, b.Family); n != 0 {
		return n
	}
	if n := bytes.Compare(a.Qualifier, b.Qualifier); n != 0 {
		return n
	}
	switch {
	case a.Timestamp > b.Timestamp:
		return -1
	case a.Timestamp < b.Timestamp:
		return 1
	}
	return 0
}

func sameColumn(a, b *kv.Cell) bool {
	return a.Family == b.Family && bytes.Equal(a.Qualifier, b.Qualifier)
}

// project appends to buf the cells of cells a read with o returns: its
// families, columns and time range, and the newest MaxVersions versions of
// each column; cells past their family's TTL (fams, when known) at now are
// hidden, as the store hides them.
func project(buf, cells []kv.Cell, o *kv.ReadOptions, fams map[string]kv.Family, now kv.Timestamp) []kv.Cell {
	maxV := max(o.MaxVersions, 1)
	var col *kv.Cell
	versions := 0
	for i := range cells {
		c := &cells[i]
		if !o.Selects(c) || expired(c, fams, now) {
			continue
		}
		if col != nil && sameColumn(c, col) {
			if versions >= maxV {
				continue
			}
			versions++
		} else {
			col, versions = c, 1
		}
		buf = append(buf, *c)
	}
	return buf
}

func expired(c *kv.Cell, fams map[string]kv.Family, now kv.Timestamp) bool {
	if fams == nil {
		return false
	}
	f := fams[c.Family]
	return f.Expired(c.Timestamp, now)
}

// hasLiveCell reports whether cells hold one a read would return, in
// column col when col is not nil.
func hasLiveCell(cells []kv.Cell, col *kv.Column, fams map[string]kv.Family, now kv.Timestamp) bool {
	for i := range cells {
		c := &cells[i]
		if col != nil && (c.Family != col.Family || !bytes.Equal(c.Qualifier, col.Qualifier)) {
			continue
		}
		if !expired(c, fams, now) {
			return true
		}
	}
	return false
}

// copyCells deep-copies cells into one allocation.
func copyCells(cells []kv.Cell) []kv.Cell {
	if len(cells) == 0 {
		return nil
	}
	n := 0
	for i := range cells {
		n += len(cells[i].Qualifier) + len(cells[i].Value)
	}
	arena := make([]byte, 0, n)
	out := make([]kv.Cell, len(cells))
	for i, c := range cells {
		s := len(arena)
		arena = append(arena, c.Qualifier...)
		c.Qualifier = arena[s:len(arena):len(arena)]
		s = len(arena)
		arena = append(arena, c.Value...)
		c.Value = arena[s:len(arena):len(arena)]
		if len(c.Value) == 0 {
			c.Value = nil
		}
		out[i] = c
	}
	return out
}

func cellsSize(cells []kv.Cell) int64 {
	n := int64(len(cells)) * 64
	for i := range cells {
		n += int64(len(cells[i].Qualifier) + len(cells[i].Value))
	}
	return n
}
