package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// aggExpr builds an expression above an aggregation: group-by expressions
// and aggregate calls become references to the aggregate's output slots.
func (b *builder) aggExpr(n ast.ExprNode, sc *scope) (Expr, error) {
	st := sc.agg
	if p, ok := n.(*ast.ParenthesesExpr); ok {
		return b.aggExpr(p.Expr, sc)
	}
	if a, ok := n.(*ast.AggregateFuncExpr); ok {
		call, err := b.aggCall(a, st.pre)
		if err != nil {
			return nil, err
		}
		for i, a := range st.aggs {
			if a.Func == call.Func && a.Distinct == call.Distinct && exprString(a.Arg) == exprString(call.Arg) {
				return &ColRef{Idx: len(st.groupBy) + i, Name: call.Func.String(), T: call.T}, nil
			}
		}
		st.aggs = append(st.aggs, call)
		slot := len(st.groupBy) + len(st.aggs) - 1
		return &ColRef{Idx: slot, Name: call.Func.String(), T: call.T}, nil
	}
	if _, ok := n.(*ast.WindowFuncExpr); ok {
		return b.exprNode(n, sc)
	}
	// A subtree equal to a GROUP BY expression reads the group slot.
	if pre, err := b.expr(n, st.pre); err == nil {
		s := pre.String()
		for i, g := range st.groupStr {
			if g == s {
				return &ColRef{Idx: i, Name: s, T: st.groupBy[i].Type()}, nil
			}
		}
		if c, ok := n.(*ast.ColumnNameExpr); ok {
			return nil, pgerror.New(pgerror.CodeGroupingError,
				"column %q must appear in the GROUP BY clause or be used in an aggregate function", c.Name.Name.O)
		}
		if isConstant(pre) {
			return pre, nil
		}
	}
	if _, ok := n.(*ast.ColumnNameExpr); ok {
		return b.expr(n, st.pre) // reports the unknown column
	}
	return b.exprNode(n, sc)
}

func exprString(e Expr) string {
	if e == nil {
		return ""
	}
	return e.String()
}

func (b *builder) aggCall(a *ast.AggregateFuncExpr, pre *scope) (AggCall, error) {
	name := strings.ToLower(a.F)
	if len(a.Args) != 1 {
		return AggCall{}, pgerror.New(pgerror.CodeUndefinedFunction, "function %s with %d arguments does not exist", name, len(a.Args))
	}
	if hasAggregate(a.Args[0]) {
		return AggCall{}, pgerror.New(pgerror.CodeGroupingError, "aggregate function calls cannot be nested")
	}
	if a.Order != nil {
		return AggCall{}, pgerror.Unimplemented("ORDER BY inside aggregate calls")
	}
	if name == "count" && !a.Distinct {
		if v, ok := a.Args[0].(*driver.ValueExpr); ok && v.Kind() != driver.KindNull {
			return AggCall{Func: AggCountStar, T: types.TInt8}, nil
		}
	}
	arg, err := b.expr(a.Args[0], pre)
	if err != nil {
		return AggCall{}, err
	}
	arg = resolveUnknown(arg)
	call := AggCall{Arg: arg, Distinct: a.Distinct}
	at := arg.Type()
	switch name {
	case "count":
		call.Func, call.T = AggCount, types.TInt8
	case "sum", "avg":
		t, ok := sumAvgType(name, at)
		if !ok {
			return AggCall{}, pgerror.New(pgerror.CodeUndefinedFunction, "function %s(%s) does not exist", name, at)
		}
		call.Func, call.T = AggSum, t
		if name == "avg" {
			call.Func = AggAvg
		}
	case "min", "max":
		switch at.Kind {
		case types.Bool, types.Bytea, types.UUID, types.JSON, types.JSONB: // none in PostgreSQL 15
			return AggCall{}, pgerror.New(pgerror.CodeUndefinedFunction, "function %s(%s) does not exist", name, at)
		}
		if at.Kind == types.Bool || at.Kind == types.Bytea {
			return AggCall{}, pgerror.New(pgerror.CodeUndefinedFunction, "function %s(%s) does not exist", name, at)
		}
		call.Func, call.T = AggMin, at
		if name == "max" {
			call.Func = AggMax
		}
	default:
		return AggCall{}, pgerror.Unimplemented("aggregate function " + name)
	}
	return call, nil
}

// sumAvgType is PostgreSQL's result type of sum or avg over t: sum of
// int2/int4 is bigint, of bigint and numeric numeric, of real real, of
// float8 float8, of interval interval; avg of any integer or numeric is
// numeric, of real or float8 float8, of interval interval.
func sumAvgType(name string, t types.T) (types.T, bool) {
	switch t.Kind {
	case types.Int2, types.Int4:
		if name == "sum" {
			return types.TInt8, true
		}
		return types.TNumeric, true
	case types.Int8, types.Numeric:
		return types.TNumeric, true
	case types.Float4:
		if name == "sum" {
			return types.TFloat4, true
		}
		return types.TFloat8, true
	case types.Float8:
		return types.TFloat8, true
	case types.Interval:
		return types.TInterval, true
	}
	return types.T{}, false
}

type aggState struct {
	pre      *scope // the pre-aggregation scope
	groupBy  []Expr
	groupStr []string
	aggs     []AggCall
}
