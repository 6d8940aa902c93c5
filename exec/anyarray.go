package exec

import (
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// expandElems replaces each span holding a planner.ElemsOf (x = ANY($1)
// on a key column) by one span per non-NULL element of the bound array.
// Spans without one are returned as they are; acc is not modified.
func expandElems(acc planner.Access, row Row, env *evalEnv) (planner.Access, error) {
	var out []planner.Span
	changed := false
	for _, sp := range acc.Spans {
		spans := []planner.Span{sp}
		for k, e := range sp.Eq {
			el, ok := e.(*planner.ElemsOf)
			if !ok {
				continue
			}
			changed = true
			arr, err := eval(el.Array, row, env)
			if err != nil {
				return acc, err
			}
			var next []planner.Span
			if !arr.IsNull() {
				for _, s := range spans {
					for _, d := range arr.ArrayValue().Elems {
						if d.IsNull() {
							continue
						}
						c := s
						c.Eq = append([]planner.Expr(nil), s.Eq...)
						c.Eq[k] = &planner.Const{D: d, T: el.T}
						next = append(next, c)
					}
				}
			}
			spans = next
		}
		out = append(out, spans...)
	}
	if !changed {
		return acc, nil
	}
	return planner.Access{Kind: acc.Kind, Spans: out}, nil
}

// opByName maps the comparison names of the bridge's ANY/ALL calls.
var opByName = map[string]planner.Op{
	"=": planner.OpEQ, "<>": planner.OpNE, "<": planner.OpLT,
	"<=": planner.OpLE, ">": planner.OpGT, ">=": planner.OpGE,
}

// anyAll evaluates x op ANY (array) and x op ALL (array).
func anyAll(name string, x, arr types.Datum) (types.Datum, bool) {
	n := len(name)
	var op string
	var all bool
	switch {
	case n > 4 && name[n-4:] == " ANY":
		op = name[:n-4]
	case n > 4 && name[n-4:] == " ALL":
		op, all = name[:n-4], true
	default:
		return types.Null, false
	}
	if arr.IsNull() {
		return types.Null, true
	}
	return quantified(opByName[op], all, x, arr.ArrayValue().Elems), true
}

// quantified is x op ANY (elems) or x op ALL (elems) with SQL's
// three-valued logic: ANY is true if some comparison is, else NULL if
// some is NULL; ALL is false if some comparison is, else NULL if some is
// NULL. No elements give false (ANY) or true (ALL), even for a NULL x.
func quantified(op planner.Op, all bool, x types.Datum, elems []types.Datum) types.Datum {
	if len(elems) == 0 {
		return types.NewBool(all)
	}
	if x.IsNull() {
		return types.Null
	}
	sawNull := false
	for _, e := range elems {
		if e.IsNull() {
			sawNull = true
			continue
		}
		if r := compareOp(op, types.Compare(x, e)); r != all {
			return types.NewBool(r)
		}
	}
	if sawNull {
		return types.Null
	}
	return types.NewBool(all)
}
