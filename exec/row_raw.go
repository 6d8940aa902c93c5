package exec

import (
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// Raw TEXT output. A TEXT column that a query returns as it is stored
// (its cell value is the string's bytes, keyenc.AppendValue) costs a
// string copy per row when the scan decodes it into a Datum and the
// portal then appends that string to the DataRow. When the portal is
// the only reader of the column, the scan instead leaves rawText in the
// column's slot and keeps the cell's bytes (scanOp.rawVal), and the
// portal copies those bytes straight into the DataRow: TEXT's text and
// binary output formats are both its bytes. The cell's bytes are valid
// until the scan's next Next, as long as the Row they stand in: the
// portal writes the row before it asks for the next one.
//
// The portal is the only reader when its operator tree is a scan under
// projections, filters and limits only (a keyed read, a plain range or
// full scan) and no expression but a bare output column reads the
// column: not the scan's filter, not a filter above it, not a computed
// output column. A column the tree's shape cannot vouch for keeps the
// decoded path.

// rawText stands in a raw column's slot for a present value: not NULL,
// never read as a string (the portal reads scanOp.rawVal instead).
var rawText = types.NewText("")

// rawPlan is what a portal needs to write raw columns: out maps an output
// column to its scan slot (-1: decoded as usual), scan marks the raw
// slots by column index for the scan. Both are read-only once built and
// shared by every execution of a prepared statement.
type rawPlan struct {
	out  []int
	scan []bool
}

// newRawPlan returns the raw-column plan of op, the operator tree of a
// query with result types outTypes, or nil when no column qualifies. It
// needs only the tree's shape and expressions, so a prepared statement
// computes it once per plan.
func newRawPlan(op operator, outTypes []types.T) *rawPlan {
	hasText := false
	for _, t := range outTypes {
		hasText = hasText || t.Kind == types.Text
	}
	if !hasText {
		return nil
	}
	// Walk down to the scan, collecting the projection (outermost first)
	// and the columns read by anything but a bare output column.
	var proj []planner.Expr // the lowest projection's expressions; nil: the scan's row
	var projSeen bool
	var conds []planner.Expr
	for {
		switch o := op.(type) {
		case *projectOp:
			if projSeen {
				return nil // a projection of a projection: not worth following
			}
			projSeen, proj, op = true, o.exprs, o.in
			continue
		case *limitOp:
			op = o.in
			continue
		case *filterOp:
			conds = append(conds, o.cond)
			op = o.in
			continue
		case *scanOp:
			return rawPlanOfScan(o, proj, projSeen, conds, outTypes)
		}
		return nil
	}
}

func rawPlanOfScan(o *scanOp, proj []planner.Expr, projSeen bool, conds []planner.Expr, outTypes []types.T) *rawPlan {
	p := o.p
	t := p.Table
	if p.AsOf != nil || t.Virtual != "" || o.noKey {
		return nil
	}
	read := make([]bool, len(t.Columns)) // slots read by an expression
	if p.Filter != nil && !filterCols(p.Filter, read) {
		return nil
	}
	for _, c := range conds {
		if !filterCols(c, read) {
			return nil
		}
	}
	rp := &rawPlan{out: make([]int, len(outTypes)), scan: make([]bool, len(t.Columns))}
	if !projSeen {
		if len(outTypes) != len(t.Columns) {
			return nil
		}
		proj = make([]planner.Expr, len(t.Columns))
		for i := range proj {
			proj[i] = &planner.ColRef{Idx: i}
		}
	}
	if len(proj) != len(outTypes) {
		return nil
	}
	for _, e := range proj {
		if _, ok := e.(*planner.ColRef); !ok && !filterCols(e, read) {
			return nil
		}
	}
	// A column is raw when it is stored TEXT, read as a cell (not a key
	// column, not a write time), and read by no expression.
	cellCol := make([]bool, len(t.Columns))
	su := scanSetupOf(p)
	for ci, c := range t.Columns {
		cellCol[ci] = !c.IsKey() && int(c.ID) < len(su.byID) && su.byID[c.ID] == ci
	}
	found := false
	for i, e := range proj {
		rp.out[i] = -1
		c, ok := e.(*planner.ColRef)
		if !ok || c.Idx < 0 || c.Idx >= len(t.Columns) {
			continue
		}
		ci := c.Idx
		if read[ci] || !cellCol[ci] || t.Columns[ci].Type.Kind != types.Text || outTypes[i].Kind != types.Text {
			continue
		}
		rp.out[i], rp.scan[ci], found = ci, true, true
	}
	if !found {
		return nil
	}
	return rp
}

// rawScanOf returns the scan at the bottom of a tree newRawPlan accepted.
func rawScanOf(op operator) *scanOp {
	for {
		switch o := op.(type) {
		case *projectOp:
			op = o.in
		case *limitOp:
			op = o.in
		case *filterOp:
			op = o.in
		case *scanOp:
			return o
		default:
			return nil
		}
	}
}

// useRaw turns raw output on in o for rp's columns.
func (o *scanOp) useRaw(rp *rawPlan) {
	o.raw = rp.scan
	if len(o.rawVal) != len(rp.scan) {
		o.rawVal = make([][]byte, len(rp.scan))
	}
}
