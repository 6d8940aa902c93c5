package sqlparse

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// PgOp is the name of the function call the post-parse pass puts where
// PostgreSQL meant an operator TiDB does not have: pg_op('op', left, right)
// for a binary operator, pg_op('op', operand) for a prefix one. The first
// argument is always a string literal naming the operator:
//
//	~ ~* !~ !~*            regular expression match (POSIX, case-insensitive, negated)
//	~~ ~~* !~~ !~~*        LIKE, ILIKE, NOT LIKE, NOT ILIKE
//	||                     concatenation
//	^                      exponentiation
//	| & # << >>            bitwise or, and, xor, shifts
//	-> ->> #> #>> @> <@    json / jsonb access and containment
//	&&                     overlap
//	|/ ||/ @               square root, cube root, absolute value (prefix)
//
// Besides pg_op, the pass guarantees: a <=> b is IS NOT DISTINCT FROM and
// NOT (a <=> b) is IS DISTINCT FROM; every ast.ByItem's NullOrder is true
// exactly when PostgreSQL puts NULLs first (NULLS FIRST, or DESC without
// NULLS LAST); no ast.SetCollationExpr remains.
const PgOp = "pg_op"

// markerPass is the ast.Visitor that resolves the markers of operators.go.
// Enter strips each marker from the left spine where TiDB put it (before
// any child is visited, so nested markers are still in place); Leave
// replaces the node.
type markerPass struct {
	ops map[ast.Node]string // node -> PostgreSQL operator, set by Enter
	err error
}

func (v *markerPass) Enter(n ast.Node) (ast.Node, bool) {
	switch n := n.(type) {
	case *ast.BinaryOperationExpr:
		switch n.Op {
		case opcode.Or:
			op := stripMarker(&n.L)
			if op == "" {
				op = "|"
			}
			v.note(n, op)
		case opcode.NullEQ:
			if op := stripMarker(&n.L); op != "" {
				v.note(n, op)
			}
		}
	case *ast.ByItem:
		nulls := stripMarker(&n.Expr)
		n.NullOrder = n.Desc
		switch nulls {
		case "nulls first":
			n.NullOrder = true
		case "nulls last":
			n.NullOrder = false
		case "":
		default:
			v.fail()
		}
	}
	return n, false
}

func (v *markerPass) note(n ast.Node, op string) {
	if v.ops == nil {
		v.ops = map[ast.Node]string{}
	}
	v.ops[n] = op
}

func (v *markerPass) fail() {
	if v.err == nil {
		v.err = pgerror.New(pgerror.CodeInternalError, "sqlparse: misplaced operator marker")
	}
}

func (v *markerPass) Leave(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.SetCollationExpr:
		v.fail() // every marker should have been stripped by its operator
	case *ast.BinaryOperationExpr:
		if e, ok := expandAnyAll(x); ok {
			return e, true
		}
		if x.Op == opcode.Xor {
			return pgOpCall("^", x.L, x.R), true
		}
		op, ok := v.ops[n]
		if !ok {
			return n, true
		}
		switch {
		case x.Op == opcode.NullEQ && op == "distinct":
			return &ast.UnaryOperationExpr{Op: opcode.Not, V: x}, true
		case x.Op == opcode.Or && len(op) > 7 && op[:7] == "prefix ":
			return pgOpCall(op[7:], x.R), true
		case x.Op == opcode.Or && (op == "|" || otherOps[op] != ""):
			return pgOpCall(op, x.L, x.R), true
		}
		v.fail()
	}
	return n, true
}

// pgOpCall builds pg_op('op', args...).
func pgOpCall(op string, args ...ast.ExprNode) *ast.FuncCallExpr {
	return &ast.FuncCallExpr{FnName: ast.NewCIStr(PgOp), Args: append([]ast.ExprNode{ast.NewValueExpr(op, "", "")}, args...)}
}

// stripMarker removes the marker on the right spine of *p, returning the
// operator it names ("" if there is none).
func stripMarker(p *ast.ExprNode) string {
	switch x := (*p).(type) {
	case *ast.SetCollationExpr:
		if op, ok := markerOps[x.Collate]; ok {
			*p = x.Expr
			return op
		}
	case *ast.BinaryOperationExpr:
		return stripMarker(&x.R)
	case *ast.UnaryOperationExpr:
		return stripMarker(&x.V)
	case *ast.PatternLikeOrIlikeExpr:
		return stripMarker(&x.Pattern)
	case *ast.PatternRegexpExpr:
		return stripMarker(&x.Pattern)
	case *ast.BetweenExpr:
		return stripMarker(&x.Right)
	case *ast.FuncCallExpr:
		if x.FnName.L == ast.Concat && len(x.Args) > 0 {
			return stripMarker(&x.Args[len(x.Args)-1])
		}
	}
	return ""
}
