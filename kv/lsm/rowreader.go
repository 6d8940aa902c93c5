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
// reused by every row, so assembling a row allocates nothing once warm.
type rowReader struct {
	vis      visibility
	opts     *kv.ReadOptions
	versions int    // per column; >= 1
	famMask  []bool // indexed like vis.fams; nil: every family

	arena []byte
	refs  []cellRef
	cells []kv.Cell
	row   kv.Row
	stats kv.ReadStats

	colBuf  []byte // escaped family+qualifier of the last emitted column
	colEmit int    // versions emitted for it
}

type cellRef struct {
	fam                        *famInfo
	qOff, qLen, vOff, vLen, ts int64
}

// readRow consumes the entries of the row whose prefix is prefix (it is
// positioned on the first) and reports whether the row has projected
// cells, left in r.row. It leaves it on the first entry past the row.
func (r *rowReader) readRow(it internalIter, prefix []byte) (bool, error) {
	r.vis.resetRow()
	r.arena = ikey.Unescape(r.arena[:0], prefix)
	keyLen := len(r.arena)
	r.refs = r.refs[:0]
	r.colBuf, r.colEmit = r.colBuf[:0], 0
	r.stats.RowsRead++
	for ; it.Valid(); it.Next() {
		k := it.Key()
		if !bytes.HasPrefix(k, prefix) {
			break
		}
		r.stats.CellsRead++
		p, err := ikey.ParseInRow(k, len(prefix))
		if err != nil {
			return false, fmt.Errorf("lsm: bad internal key %q: %w", k, errCorrupt)
		}
		verdict, err := r.vis.step(&p, it.Value())
		if err != nil {
			return false, fmt.Errorf("lsm: bad tombstone at %q: %w", k, errCorrupt)
		}
		if verdict != live || !r.wanted(&p) {
			continue
		}
		col := k[len(p.Row) : len(k)-ikey.TrailerLen]
		if bytes.Equal(col, r.colBuf) {
			if r.colEmit >= r.versions {
				continue
			}
			r.colEmit++
		} else {
			r.colBuf, r.colEmit = append(r.colBuf[:0], col...), 1
		}
		ref := cellRef{fam: r.vis.fam, ts: p.TS, qOff: int64(len(r.arena))}
		r.arena = ikey.Unescape(r.arena, p.Qualifier)
		ref.qLen = int64(len(r.arena)) - ref.qOff
		ref.vOff = int64(len(r.arena))
		r.arena = append(r.arena, it.Value()...)
		ref.vLen = int64(len(r.arena)) - ref.vOff
		r.refs = append(r.refs, ref)
	}
	if err := it.Err(); err != nil {
		return false, err
	}
	if len(r.refs) == 0 {
		return false, nil
	}
	r.cells = r.cells[:0]
	for _, c := range r.refs {
		cell := kv.Cell{Family: c.fam.name, Timestamp: kv.Timestamp(c.ts)}
		if c.qLen > 0 {
			cell.Qualifier = r.arena[c.qOff : c.qOff+c.qLen : c.qOff+c.qLen]
		}
		if c.vLen > 0 {
			cell.Value = r.arena[c.vOff : c.vOff+c.vLen : c.vOff+c.vLen]
		}
		r.cells = append(r.cells, cell)
	}
	r.row = kv.Row{Key: r.arena[:keyLen:keyLen], Cells: r.cells}
	return true, nil
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
