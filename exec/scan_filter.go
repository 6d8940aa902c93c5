package exec

import (
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// A scan filter that is a conjunction of comparisons between a column of
// a fixed-width integer-like type and a constant or parameter (`val <
// 10000`, `a >= $1 AND b <> 3`) runs without eval: per row it reads the
// column's int64 straight from the row and compares. eval would copy
// each operand Datum through two interface-typed calls, box the result
// and compare through types.Compare's type switch, which is most of a
// selective full scan's exec time.
//
// The fast form is exactly what eval computes for a WHERE clause: a row
// passes only when every conjunct is true, and a NULL column makes its
// conjunct NULL, which rejects the row as false does. Only comparisons
// that types.Compare answers by comparing the int64 payload qualify:
// both sides of integer kinds (int2/int4/int8, with the column possibly
// widened by a cast, which never fails), or both sides of the same
// date, timestamp or timestamptz kind. A constant side is checked at
// execution (a parameter's kind is known only after Bind); when it does
// not qualify the scan uses eval.

// intCmpPlan is the shape of a fast filter, derived from the plan node
// once (scanSetup.fast) and shared by every execution.
type intCmpPlan struct {
	conds []intCmpCond
}

type intCmpCond struct {
	col  int        // the column's row slot
	kind types.Kind // the column's kind
	op   planner.Op // col op value
	val  planner.Expr
}

// intCmpFilter is a fast filter with its values resolved for one
// execution. A nil *intCmpFilter means eval runs the filter.
type intCmpFilter struct {
	conds []intCmpVal
	buf   [2]intCmpVal // conds of a short filter: one allocation in all
}

type intCmpVal struct {
	col int
	op  planner.Op
	v   int64
}

// newIntCmpPlan returns the fast shape of filter, or nil when some
// conjunct is not a column compared with a constant or parameter.
func newIntCmpPlan(t *planner.TableDesc, filter planner.Expr) *intCmpPlan {
	var p intCmpPlan
	if filter == nil || !p.add(t, filter) {
		return nil
	}
	return &p
}

func (p *intCmpPlan) add(t *planner.TableDesc, e planner.Expr) bool {
	b, ok := e.(*planner.BinOp)
	if !ok {
		return false
	}
	if b.Op == planner.OpAnd {
		return p.add(t, b.L) && p.add(t, b.R)
	}
	if !b.Op.IsComparison() {
		return false
	}
	col, val, op := b.L, b.R, b.Op
	if !isConstOrParam(val) {
		col, val, op = b.R, b.L, b.Op.Commute()
	}
	if !isConstOrParam(val) {
		return false
	}
	idx, kind, ok := fastColumn(t, col)
	if !ok {
		return false
	}
	p.conds = append(p.conds, intCmpCond{col: idx, kind: kind, op: op, val: val})
	return true
}

func isConstOrParam(e planner.Expr) bool {
	switch e.(type) {
	case *planner.Const, *planner.Param:
		return true
	}
	return false
}

// fastColumn reports the row slot and kind of a column reference,
// possibly under widening integer casts (int2 -> int4 -> int8), whose
// int64 payload is what types.Compare compares.
func fastColumn(t *planner.TableDesc, e planner.Expr) (int, types.Kind, bool) {
	switch e := e.(type) {
	case *planner.ColRef:
		if e.Idx < 0 || e.Idx >= len(t.Columns) {
			return 0, 0, false
		}
		if _, ok := planner.WriteTimeSource(t, e.Idx); ok {
			return 0, 0, false // a write-time slot: eval reads it
		}
		k := t.Columns[e.Idx].Type.Kind
		if !k.IsInt() && !isTimeKind(k) {
			return 0, 0, false
		}
		return e.Idx, k, true
	case *planner.Cast:
		idx, k, ok := fastColumn(t, e.E)
		if !ok || !k.IsInt() || !e.T.Kind.IsInt() || intWidth(e.T.Kind) < intWidth(k) {
			return 0, 0, false
		}
		return idx, e.T.Kind, true
	}
	return 0, 0, false
}

func isTimeKind(k types.Kind) bool {
	return k == types.Date || k == types.Timestamp || k == types.TimestampTZ
}

func intWidth(k types.Kind) int {
	switch k {
	case types.Int2:
		return 2
	case types.Int4:
		return 4
	}
	return 8
}

// resolve evaluates the plan's constants and parameters for one
// execution; it returns nil when one of them does not qualify (NULL, or
// a kind types.Compare would not compare as int64 against the column).
func (p *intCmpPlan) resolve(env *evalEnv) *intCmpFilter {
	if p == nil {
		return nil
	}
	f := &intCmpFilter{}
	if len(p.conds) <= len(f.buf) {
		f.conds = f.buf[:len(p.conds)]
	} else {
		f.conds = make([]intCmpVal, len(p.conds))
	}
	for i, c := range p.conds {
		var d types.Datum
		switch v := c.val.(type) {
		case *planner.Const:
			d = v.D
		case *planner.Param:
			if env == nil || v.N < 0 || v.N >= len(env.params) {
				return nil
			}
			d = env.params[v.N]
		}
		if d.IsNull() {
			return nil
		}
		if !(c.kind.IsInt() && d.K.IsInt()) && !(isTimeKind(c.kind) && d.K == c.kind) {
			return nil
		}
		f.conds[i] = intCmpVal{col: c.col, op: c.op, v: d.I}
	}
	if testHookFastFilter != nil && !testHookFastFilter() {
		return nil
	}
	return f
}

// testHookFastFilter, when set by a test, is called when a scan could
// run its filter without eval; false makes it use eval (results must not
// change).
var testHookFastFilter func() bool

// pass reports whether row passes the filter. Every column it reads
// holds NULL or a datum of the column's kind (scanOp.cell decodes it by
// the column's type).
func (f *intCmpFilter) pass(row Row) bool {
	for i := range f.conds {
		c := &f.conds[i]
		d := &row[c.col]
		if !d.NotNull || !intCmp(d.I, c.op, c.v) {
			return false
		}
	}
	return true
}

// intCmp reports whether x op v holds.
func intCmp(x int64, op planner.Op, v int64) bool {
	switch op {
	case planner.OpEQ:
		return x == v
	case planner.OpNE:
		return x != v
	case planner.OpLT:
		return x < v
	case planner.OpLE:
		return x <= v
	case planner.OpGT:
		return x > v
	}
	return x >= v
}
