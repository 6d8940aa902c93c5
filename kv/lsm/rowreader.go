package lsm

import (
	"bytes"
	"fmt"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
)

// rowReader assembles one row at a time from an internalIter positioned on
// the row's first entry, applying visibility and the read's projection,
// time range and version limit. Keys and values are copied into one arena
// reused by every row, so assembling a row allocates nothing once warm;
// the cells point into it directly (rebaseCells when it grows).
type rowReader struct {
	vis      visibility
	opts     *kv.ReadOptions
	versions int    // per column; >= 1
	famMask  []bool // indexed like vis.fams; nil: every family

	arena []byte
	cells []kv.Cell
	row   kv.Row
	stats kv.ReadStats
}

// readRow consumes the entries of the row whose prefix is prefix (it is
// positioned on the first) and reports whether the row has projected
// cells, left in r.row. It leaves it on the first entry past the row.
//
// The loop keeps the arena and cells in locals, written back once per row:
// storing a slice header into *r per cell costs a write barrier while the
// collector runs.
func (r *rowReader) readRow(it internalIter, prefix []byte) (bool, error) {
	r.stats.RowsRead++
	arena := ikey.Unescape(r.arena[:0], prefix)
	return r.collect(it, prefix, arena, len(arena), r.cells[:0])
}

// collect consumes the entries of the row whose prefix is prefix (it is
// positioned on the first), appending its projected cells to cells and
// their bytes to arena, whose first keyLen bytes are the rowkey and the
// rest the bytes of cells, back to back in cell order. It leaves r.row
// the row of all of cells, if any. A read's rows start with no cells; a
// row completed with its lazy families (read_lazy.go) starts with the
// essential ones.
func (r *rowReader) collect(it internalIter, prefix, arena []byte, keyLen int, cells []kv.Cell) (bool, error) {
	if m, ok := it.(*mergingIter); ok {
		// One input left (a single file or run, the memtables
		// exhausted): read it directly, without the merge's layer of
		// calls per entry.
		if child := m.single(); child != nil {
			ok, err := r.collectOf(child, prefix, arena, keyLen, cells)
			m.resync()
			return ok, err
		}
	}
	return r.collectOf(it, prefix, arena, keyLen, cells)
}

// collectOf is collect over it itself.
func (r *rowReader) collectOf(it internalIter, prefix, arena []byte, keyLen int, cells []kv.Cell) (bool, error) {
	r.vis.resetRow()
	var emitGen uint64 // vis.colGen of the column last emitted; 0 none
	emitN := 0         // versions emitted for it
	var err error
	var p ikey.Parsed
	for ; it.Valid(); it.Next() {
		k := it.Key()
		if !bytes.HasPrefix(k, prefix) {
			break
		}
		r.stats.CellsRead++
		if perr := p.SetInRow(k, len(prefix)); perr != nil {
			err = fmt.Errorf("lsm: bad internal key %q: %w", k, errCorrupt)
			break
		}
		val := it.Value()
		verdict, verr := r.vis.step(&p, val)
		if verr != nil {
			err = fmt.Errorf("lsm: bad tombstone at %q: %w", k, errCorrupt)
			break
		}
		if verdict != live || !r.wanted(&p) {
			continue
		}
		// Entries of one column are contiguous: the column is the one
		// last emitted iff visibility has not moved to another since.
		if r.vis.colGen == emitGen {
			if emitN >= r.versions {
				continue
			}
			emitN++
		} else {
			emitGen, emitN = r.vis.colGen, 1
		}
		qOff, oldCap := len(arena), cap(arena)
		arena = ikey.Unescape(arena, p.Qualifier)
		vOff := len(arena)
		arena = append(arena, val...)
		if cap(arena) != oldCap {
			rebaseCells(cells, arena, keyLen)
		}
		// Empty qualifiers and values stay nil; the cell is written in
		// place (building it in a local and copying cost a 72-byte move).
		var q, v []byte
		if vOff > qOff {
			q = arena[qOff:vOff:vOff]
		}
		if end := len(arena); end > vOff {
			v = arena[vOff:end:end]
		}
		cells = append(cells, kv.Cell{Family: r.vis.fam.name, Qualifier: q, Timestamp: kv.Timestamp(p.TS), Value: v})
	}
	r.arena, r.cells = arena, cells
	if err != nil {
		return false, err
	}
	if err := it.Err(); err != nil {
		return false, err
	}
	if len(cells) == 0 {
		return false, nil
	}
	r.row = kv.Row{Key: arena[:keyLen:keyLen], Cells: cells}
	return true, nil
}

// rebaseCells points the cells' qualifiers and values into arena after it
// moved (grew): they lie in it back to back after the key, in cell order.
func rebaseCells(cells []kv.Cell, arena []byte, off int) {
	for i := range cells {
		c := &cells[i]
		if n := len(c.Qualifier); n > 0 {
			c.Qualifier = arena[off : off+n : off+n]
			off += n
		}
		if n := len(c.Value); n > 0 {
			c.Value = arena[off : off+n : off+n]
			off += n
		}
	}
}

// wanted applies the read's family and column projection and time range to
// a live cell of family r.vis.fam.
func (r *rowReader) wanted(p *ikey.Parsed) bool {
	o := r.opts
	ts := kv.Timestamp(p.TS)
	if ts < o.MinTimestamp || (o.MaxTimestamp != 0 && ts >= o.MaxTimestamp) {
		return false
	}
	if r.famMask != nil && !r.famMask[r.vis.fam.idx] {
		return false
	}
	if len(o.Columns) == 0 {
		return true
	}
	for i := range o.Columns {
		c := &o.Columns[i]
		if c.Family == r.vis.fam.name && escapedEqual(p.Qualifier, c.Qualifier) {
			return true
		}
	}
	return false
}

// escapedEqual reports whether esc (an escaped component with terminator)
// encodes raw.
func escapedEqual(esc, raw []byte) bool {
	j := 0
	for i := 0; i < len(esc)-2; i++ {
		if j >= len(raw) || esc[i] != raw[j] {
			return false
		}
		if esc[i] == 0 {
			i++ // skip the FF of the escape
		}
		j++
	}
	return j == len(raw)
}
