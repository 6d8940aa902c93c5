package exec

import (
	"encoding/binary"
	"math"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// Row decoding of a scan, the part of a full scan's cost that is exec's
// own: per row, every cell's column id is read from its qualifier and
// the cell decoded into its slot. Three things keep it cheap:
//
//   - A column id below 128, every column of all but the widest tables,
//     is its qualifier's one byte: no varint loop.
//   - Only the slots a cell may write are reset to NULL per row
//     (scanSetup.reset): key slots are always written by the rowkey's
//     decoding, and the slots of columns the plan does not need are never
//     written, so a narrow read of a wide table resets a few slots.
//   - An integer cell is decoded straight into its slot (decodeInt),
//     without a call per cell through cellID's general path.
//
// With late materialisation and a fast integer filter (scan_filter.go)
// whose columns are all integer cells, a row is first judged on its raw
// cells (rawFilterPlan.judge): their values are decoded into locals and compared,
// and only a row that passes is decoded into o.row (by the general path,
// which runs the filter again). A rejected row, most rows of a selective
// scan, then costs no slot writes at all. A cell the raw judge cannot
// decode (a value the general path reports as corrupt) sends its row down
// the general path, which gives the error.

// cellColumnID returns the column id of a cell's qualifier q (a uvarint),
// or noColumn for a malformed qualifier, which no column has (every id
// check of the callers rejects it). An id below 128, every column of all
// but the widest tables, is the qualifier's one byte: read inline, no
// varint loop.
func cellColumnID(q []byte) uint64 {
	if len(q) == 1 && q[0] < 0x80 {
		return uint64(q[0])
	}
	return qualifierID(q)
}

const noColumn = math.MaxUint64

// qualifierID is cellColumnID's general case; not inlined, so that
// cellColumnID is.
//
//go:noinline
func qualifierID(q []byte) uint64 {
	id, n := binary.Uvarint(q)
	if n <= 0 {
		return noColumn
	}
	return id
}

// decodeInt is decodeIntInto's check and value without the store: ok is
// false when the value is not a well-formed integer of kind k. Values of
// up to three bytes (below 2^20 in magnitude) skip binary.Uvarint's loop
// but accept exactly what it accepts.
func decodeInt(b []byte, k types.Kind) (int64, bool) {
	var ux uint64
	switch {
	case len(b) == 1 && b[0] < 0x80:
		ux = uint64(b[0])
	case len(b) == 2 && b[0] >= 0x80 && b[1] < 0x80:
		ux = uint64(b[0]&0x7f) | uint64(b[1])<<7
	case len(b) == 3 && b[0] >= 0x80 && b[1] >= 0x80 && b[2] < 0x80:
		ux = uint64(b[0]&0x7f) | uint64(b[1]&0x7f)<<7 | uint64(b[2])<<14
	default:
		var n int
		ux, n = binary.Uvarint(b)
		if n <= 0 || n != len(b) {
			return 0, false
		}
	}
	v := int64(ux >> 1)
	if ux&1 != 0 {
		v = ^v
	}
	if (k == types.Int2 && v != int64(int16(v))) || (k == types.Int4 && v != int64(int32(v))) {
		return 0, false
	}
	return v, true
}

// sameFamily is a == b for family names, without runtime.memequal's call
// for the common one-letter name: a cell's family name is the store's
// string, never the same memory as the column's.
func sameFamily(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 1 {
		return a[0] == b[0]
	}
	return a == b
}

// resetRow sets to NULL the slots of o.row a row's cells may write.
func (o *scanOp) resetRow() {
	if o.reset == nil {
		for i := range o.row {
			o.row[i] = types.Null
		}
		return
	}
	for _, ci := range o.reset {
		o.row[ci] = types.Null
	}
}

// decodeCells decodes cells into o.row; with skipEarly, the cells of the
// late filter's columns, decoded already, are skipped.
func (o *scanOp) decodeCells(cells []kv.Cell, skipEarly bool) error {
	ids := o.ids
	for i := range cells {
		c := &cells[i]
		id := cellColumnID(c.Qualifier)
		if skipEarly && id < uint64(len(o.late.early)) && o.late.early[id] {
			continue
		}
		switch {
		case id == 0:
			if len(o.keyWT) == 0 {
				continue // the row marker, with no write time to read
			}
		case id < uint64(len(ids)):
			ic := &ids[id]
			if ic.ci < 0 {
				continue
			}
			if ic.fastInt && sameFamily(c.Family, ic.fam) {
				if v, ok := decodeInt(c.Value, ic.kind); ok {
					o.row[ic.ci] = types.Datum{K: ic.kind, NotNull: true, I: v}
					continue
				}
			}
		default:
			continue // not a needed column
		}
		if err := o.cellID(c, id); err != nil {
			return err
		}
	}
	return nil
}

// rawFilterPlan is the raw form of a scan's fast filter (see above),
// derived once per plan node (scanSetup.rawF): every conjunct's column is
// a needed non-key integer cell.
type rawFilterPlan struct {
	rawCols         // the filter's columns
	condCol []uint8 // by intCmpPlan conjunct: its raw column
}

// rawCols are the integer cells a raw path reads: non-key integer
// columns the scan needs, at most 8 (a byte of flags tells which a row
// has).
type rawCols struct {
	byID []int8 // column id -> raw column, -1: none
	cols []rawCol
}

type rawCol struct {
	fam  string
	kind types.Kind
}

func newRawCols(su *scanSetup) rawCols {
	rc := rawCols{byID: make([]int8, len(su.byID))}
	for i := range rc.byID {
		rc.byID[i] = -1
	}
	return rc
}

// add returns the raw column of the table column in slot ci of t (the
// scan's table, set up in su), adding it if new; false when the column
// cannot be read raw or there are 8 already.
func (rc *rawCols) add(t *planner.TableDesc, su *scanSetup, ci int) (uint8, bool) {
	if ci < 0 || ci >= len(t.Columns) {
		return 0, false
	}
	c := &t.Columns[ci]
	if c.IsKey() || !c.Type.Kind.IsInt() || int(c.ID) >= len(su.byID) || su.byID[c.ID] != ci {
		return 0, false
	}
	if j := rc.byID[c.ID]; j >= 0 {
		return uint8(j), true
	}
	if len(rc.cols) == 8 {
		return 0, false
	}
	rc.byID[c.ID] = int8(len(rc.cols))
	rc.cols = append(rc.cols, rawCol{fam: c.Family, kind: c.Type.Kind})
	return uint8(len(rc.cols) - 1), true
}

// gather decodes the row's cells of rc's columns into vals: set has bit
// j when raw column j has a cell. ok is false when a cell does not
// decode (a value the general path reports as corrupt).
func (rc *rawCols) gather(cells []kv.Cell, vals *[8]int64) (set uint8, ok bool) {
	for i := range cells {
		c := &cells[i]
		id := cellColumnID(c.Qualifier)
		if id >= uint64(len(rc.byID)) {
			continue
		}
		j := rc.byID[id]
		if j < 0 {
			continue
		}
		col := &rc.cols[j]
		if !sameFamily(c.Family, col.fam) {
			continue
		}
		v, ok := decodeInt(c.Value, col.kind)
		if !ok {
			return 0, false
		}
		vals[j] = v
		set |= 1 << j
	}
	return set, true
}

// newRawFilterPlan returns the raw form of fast, the fast filter of the
// plan p set up in su, or nil when it has none.
func newRawFilterPlan(p *planner.Scan, su *scanSetup) *rawFilterPlan {
	fast := su.fast
	if fast == nil || su.late == nil || su.late.key || len(fast.conds) == 0 {
		return nil
	}
	rf := &rawFilterPlan{rawCols: newRawCols(su)}
	for _, c := range fast.conds {
		if su.wt != nil && su.wt[c.col] >= 0 {
			return nil // its cell also feeds a write-time slot: kept on the general path
		}
		j, ok := rf.add(p.Table, su, c.col)
		if !ok {
			return nil
		}
		rf.condCol = append(rf.condCol, j)
	}
	return rf
}

// judge judges a row on its raw cells with the fast filter f (of the
// plan rf was derived from): reject reports that the row fails; sure is
// false when a cell could not be judged raw, and then the row must go
// down the general path.
func (rf *rawFilterPlan) judge(f *intCmpFilter, cells []kv.Cell) (reject, sure bool) {
	var vals [8]int64
	set, ok := rf.gather(cells, &vals)
	if !ok {
		return false, false
	}
	for i := range f.conds {
		c := &f.conds[i]
		j := rf.condCol[i]
		if set&(1<<j) == 0 || !intCmp(vals[j], c.op, c.v) {
			return true, true // NULL (no cell) or false
		}
	}
	return false, true
}

// testHookRawDecode, when set by a test, is called when a scan (a
// parallel scan's worker) could judge rows raw (agg false) or fold them
// in raw (agg true); false turns that off (results must not change).
var testHookRawDecode func(agg bool) bool

// rawDecodeOff reports whether a test turned a raw path off.
func rawDecodeOff(agg bool) bool {
	return testHookRawDecode != nil && !testHookRawDecode(agg)
}
