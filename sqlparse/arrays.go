package sqlparse

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// Array syntax.
//
//	ARRAY[a, b]         -> pg_array(a, b)        (PgArray)
//	x op ANY (expr)     -> x op pg_any(expr)     then, after parsing:
//	x op ALL (expr)     -> x op pg_all(expr)
//
// The post-parse pass (expandAnyAll) expands a comparison with a literal
// array: x = ANY(ARRAY[1,2]) becomes x IN (1, 2), x <> ALL(ARRAY[..])
// x NOT IN (..), any other operator an OR (ANY) or AND (ALL) of
// comparisons. A
// typed array (ARRAY[..]::int[]) casts each element. Any other array
// operand (a parameter, a column, an empty array) leaves pg_any_op('op', x, arr) or
// pg_all_op('op', x, arr) for the planner (PgAnyOp, PgAllOp).
// x op ANY (SELECT ...) is left to TiDB's subquery syntax.
const (
	PgArray = "pg_array"
	PgAnyOp = "pg_any_op"
	PgAllOp = "pg_all_op"
)

// rewriteArray handles ARRAY at toks[i]. It returns true when it emitted
// the opening of pg_array( and pushed the closing onto closers.
func (w *rewriter) rewriteArray(toks []token, i int, closers *[]string) (bool, error) {
	if i+1 >= len(toks) {
		return false, nil
	}
	switch {
	case toks[i+1].isOp("["):
		if i+2 < len(toks) && toks[i+2].isOp("[") {
			return false, pgerror.Unimplemented("multidimensional arrays").WithPosition(charPos(w.src, toks[i+2].pos))
		}
		w.out = append(w.out, synth(PgArray, toks[i]), synthGlued("(", toks[i+1]))
		*closers = append(*closers, ")")
		return true, nil
	case toks[i+1].isOp("("):
		return false, pgerror.Unimplemented("ARRAY(subquery)").WithPosition(charPos(w.src, toks[i].pos))
	}
	return false, nil
}

// anyCall names the function ANY/SOME/ALL ( becomes, or "" when toks[i]
// does not start a non-subquery ANY/ALL after a comparison operator.
func (w *rewriter) anyCall(toks []token, i int) string {
	t := toks[i]
	if (!t.is("any") && !t.is("some") && !t.is("all")) || i+2 >= len(toks) || !toks[i+1].isOp("(") {
		return ""
	}
	if n := toks[i+2]; n.is("select") || n.is("with") || n.is("values") || n.isOp("(") && i+3 < len(toks) && toks[i+3].is("select") {
		return ""
	}
	if len(w.out) == 0 {
		return ""
	}
	switch p := w.out[len(w.out)-1]; {
	case p.isOp("=") || p.isOp("<>") || p.isOp("!=") || p.isOp("<") || p.isOp(">") || p.isOp("<=") || p.isOp(">="):
	default:
		return ""
	}
	if t.is("all") {
		return "pg_all"
	}
	return "pg_any"
}

// expandAnyAll expands a comparison with ANY/ALL (see above); markerPass
// calls it on the way up.
func expandAnyAll(x *ast.BinaryOperationExpr) (ast.ExprNode, bool) {
	f, ok := x.R.(*ast.FuncCallExpr)
	if !ok || (f.FnName.L != "pg_any" && f.FnName.L != "pg_all") || len(f.Args) != 1 {
		return nil, false
	}
	all := f.FnName.L == "pg_all"
	elems, typ, literal := arrayLiteral(f.Args[0])
	if !literal || len(elems) == 0 {
		name := PgAnyOp
		if all {
			name = PgAllOp
		}
		return &ast.FuncCallExpr{FnName: ast.NewCIStr(name), Args: []ast.ExprNode{
			ast.NewValueExpr(cmpSymbols[x.Op], "", ""), x.L, f.Args[0]}}, true
	}
	if typ != "" {
		for i, e := range elems {
			elems[i] = &ast.FuncCallExpr{FnName: ast.NewCIStr("pg_cast"), Args: []ast.ExprNode{e, ast.NewValueExpr(typ, "", "")}}
		}
	}
	switch {
	case x.Op == opcode.EQ && !all:
		return &ast.PatternInExpr{Expr: x.L, List: elems}, true
	case x.Op == opcode.NE && all:
		return &ast.PatternInExpr{Expr: x.L, List: elems, Not: true}, true
	}
	join := opcode.LogicOr
	if all {
		join = opcode.LogicAnd
	}
	var out ast.ExprNode
	for _, e := range elems {
		c := &ast.BinaryOperationExpr{Op: x.Op, L: x.L, R: e}
		if out == nil {
			out = c
		} else {
			out = &ast.BinaryOperationExpr{Op: join, L: out, R: c}
		}
	}
	return &ast.ParenthesesExpr{Expr: out}, true
}

// cmpSymbols spells the comparison operators ANY/ALL may follow.
var cmpSymbols = map[opcode.Op]string{
	opcode.EQ: "=", opcode.NE: "<>", opcode.LT: "<", opcode.LE: "<=", opcode.GT: ">", opcode.GE: ">=",
}

// arrayLiteral returns the elements of pg_array(...) or
// pg_cast(pg_array(...), 'T[]'), and T for the latter.
func arrayLiteral(e ast.ExprNode) (elems []ast.ExprNode, typ string, ok bool) {
	f, isCall := e.(*ast.FuncCallExpr)
	if !isCall {
		return nil, "", false
	}
	if f.FnName.L == "pg_cast" && len(f.Args) == 2 {
		v, isVal := f.Args[1].(*driver.ValueExpr)
		inner, isArr := f.Args[0].(*ast.FuncCallExpr)
		if !isVal || !isArr || inner.FnName.L != PgArray {
			return nil, "", false
		}
		t := v.GetString()
		if len(t) < 3 || t[len(t)-2:] != "[]" {
			return nil, "", false
		}
		return append([]ast.ExprNode(nil), inner.Args...), t[:len(t)-2], true
	}
	if f.FnName.L == PgArray {
		return append([]ast.ExprNode(nil), f.Args...), "", true
	}
	return nil, "", false
}
