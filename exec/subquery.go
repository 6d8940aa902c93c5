package exec

import (
	"context"
	"io"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// subqResult is what an uncorrelated subquery produced, kept for the rest
// of the statement: a scalar or EXISTS value, or, for ANY and ALL, the
// column's values (a set for = ANY, the list otherwise).
type subqResult struct {
	value   types.Datum
	rows    []types.Datum
	tuples  []Row // for a row constructor's comparison
	set     map[string]bool
	hasNull bool
}

// evalSubquery computes a subquery expression over row. A correlated
// subquery runs with row pushed as its enclosing row; an uncorrelated one
// runs once per statement.
func evalSubquery(e *planner.Subquery, row Row, env *evalEnv) (types.Datum, error) {
	var test types.Datum
	var testRow Row
	for _, x := range e.Row {
		v, err := eval(x, row, env)
		if err != nil {
			return types.Null, err
		}
		testRow = append(testRow, v)
	}
	if e.Test != nil {
		var err error
		if test, err = eval(e.Test, row, env); err != nil {
			return types.Null, err
		}
	}
	res := env.subq[e]
	if res == nil {
		var err error
		if res, err = runSubquery(e, row, env); err != nil {
			return types.Null, err
		}
		if !e.Correlated {
			if env.subq == nil {
				env.subq = map[*planner.Subquery]*subqResult{}
			}
			env.subq[e] = res
		}
	}
	switch {
	case e.Row != nil:
		return compareRows(e, testRow, res), nil
	case e.Kind == planner.AnySubquery, e.Kind == planner.AllSubquery:
		return compareAnyAll(e, test, res), nil
	}
	return res.value, nil
}

// runSubquery runs the subquery's plan to the point its kind needs.
func runSubquery(e *planner.Subquery, row Row, env *evalEnv) (*subqResult, error) {
	if env.x == nil {
		return nil, pgerror.New(pgerror.CodeInternalError, "subquery evaluated outside a statement")
	}
	if e.Correlated {
		env.outer = append(env.outer, row)
		defer func() { env.outer = env.outer[:len(env.outer)-1] }()
	}
	ctx := context.Background()
	op, err := env.x.build(e.Plan)
	if err != nil {
		return nil, err
	}
	defer op.Close()
	res := &subqResult{}
	switch e.Kind {
	case planner.ExistsSubquery:
		_, err := op.Next(ctx)
		if err != nil && err != io.EOF {
			return nil, err
		}
		res.value = types.NewBool(err == nil)
		return res, nil
	case planner.ScalarSubquery:
		r, err := op.Next(ctx)
		if err == io.EOF {
			res.value = types.Null
			return res, nil
		}
		if err != nil {
			return nil, err
		}
		res.value = r[0]
		if _, err := op.Next(ctx); err != io.EOF {
			if err != nil {
				return nil, err
			}
			return nil, pgerror.New(pgerror.CodeCardinalityViolation, "more than one row returned by a subquery used as an expression")
		}
		return res, nil
	}
	var vals []types.Datum
	for {
		r, err := op.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if e.Row != nil {
			res.tuples = append(res.tuples, append(Row(nil), r...))
			continue
		}
		vals = append(vals, r[0])
	}
	if e.Kind == planner.ArraySubquery {
		res.value = types.NewArray(e.T.ElemType(), vals)
		return res, nil
	}
	res.rows = vals
	if e.Kind == planner.AnySubquery && e.Op == planner.OpEQ && !e.Correlated {
		res.set = map[string]bool{}
		var key []byte
		for _, v := range vals {
			if v.IsNull() {
				res.hasNull = true
				continue
			}
			key = rowKey(key[:0], Row{v})
			res.set[string(key)] = true
		}
	}
	return res, nil
}

// compareAnyAll is test op ANY|ALL (values) with SQL's three-valued logic:
// ANY is true if some comparison is true, else NULL if some is NULL;
// ALL is false if some comparison is false, else NULL if some is NULL.
func compareAnyAll(e *planner.Subquery, test types.Datum, res *subqResult) types.Datum {
	if res.set != nil {
		if len(res.set) == 0 && !res.hasNull {
			return types.NewBool(false)
		}
		if test.IsNull() {
			return types.Null
		}
		if res.set[string(rowKey(nil, Row{test}))] {
			return types.NewBool(true)
		}
		if res.hasNull {
			return types.Null
		}
		return types.NewBool(false)
	}
	return quantified(e.Op, e.Kind == planner.AllSubquery, test, res.rows)
}

// compareRows is (a, b) = ANY (rows) or (a, b) <> ALL (rows): rows are
// equal when every column is, unequal when some column is, and unknown
// otherwise.
func compareRows(e *planner.Subquery, test Row, res *subqResult) types.Datum {
	any := e.Kind == planner.AnySubquery
	sawNull := false
	for _, r := range res.tuples {
		eq := types.NewBool(true)
		for i := range test {
			switch {
			case test[i].IsNull() || r[i].IsNull():
				eq = types.Null
			case types.Compare(test[i], r[i]) != 0:
				eq = types.NewBool(false)
			}
			if !eq.IsNull() && !eq.Bool() {
				break
			}
		}
		if eq.IsNull() {
			sawNull = true
			continue
		}
		if eq.Bool() == (e.Op == planner.OpEQ) == any {
			return types.NewBool(any)
		}
	}
	if sawNull {
		return types.Null
	}
	return types.NewBool(!any)
}
