package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// pgOp builds pg_op('op', l, r) and pg_op('op', x), the parser's form of
// the PostgreSQL operators TiDB does not have (sqlparse.PgOp lists them).
// Operators evaluated by exec are Funcs named by the operator itself
// ("~", "^", "->>", ...), so EXPLAIN shows them as ~(a, b).
func (b *builder) pgOp(n *ast.FuncCallExpr, sc *scope) (Expr, error) {
	if len(n.Args) < 2 || len(n.Args) > 3 {
		return nil, pgerror.New(pgerror.CodeInternalError, "malformed pg_op")
	}
	v, ok := n.Args[0].(*driver.ValueExpr)
	if !ok {
		return nil, pgerror.New(pgerror.CodeInternalError, "malformed pg_op")
	}
	op := v.GetString()
	args := make([]Expr, len(n.Args)-1)
	for i, a := range n.Args[1:] {
		e, err := b.expr(a, sc)
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	if len(args) == 1 {
		return b.prefixOp(op, args[0])
	}
	l, r := args[0], args[1]
	switch op {
	case "||":
		return b.concatOp(l, r)
	case "^":
		return b.floatOp(op, types.TFloat8, l, r)
	case "~", "~*", "!~", "!~*":
		l, err := b.coerce(resolveUnknown(l), types.TText, op)
		if err != nil {
			return nil, err
		}
		if r, err = b.coerce(r, types.TText, op); err != nil {
			return nil, err
		}
		return &Func{Name: op, Args: []Expr{l, r}, T: types.TBool}, nil
	case "~~", "~~*", "!~~", "!~~*":
		l, err := b.coerce(resolveUnknown(l), types.TText, "LIKE")
		if err != nil {
			return nil, err
		}
		if r, err = b.coerce(r, types.TText, "LIKE"); err != nil {
			return nil, err
		}
		return &Like{E: l, Pattern: r, Not: op[0] == '!', Fold: op[len(op)-1] == '*'}, nil
	case "&", "|", "#":
		l, r, t, err := b.unify(l, r, op)
		if err != nil {
			return nil, err
		}
		if !t.Kind.IsInt() {
			return nil, noOperator(l.Type(), op, r.Type())
		}
		return &Func{Name: op, Args: []Expr{l, r}, T: t}, nil
	case "<<", ">>":
		if l.Type().Kind == types.Unknown {
			l = &Cast{E: l, T: types.TInt4}
		}
		r, err := b.coerce(r, types.TInt4, op)
		if err != nil || !l.Type().Kind.IsInt() {
			return nil, noOperator(l.Type(), op, r.Type())
		}
		return &Func{Name: op, Args: []Expr{l, r}, T: l.Type()}, nil
	case "->", "->>", "#>", "#>>", "@>", "<@":
		return b.jsonOp(op, l, r)
	}
	return nil, pgerror.Unimplemented("operator " + op)
}

func noOperator(l types.T, op string, r types.T) error {
	return pgerror.New(pgerror.CodeUndefinedFunction, "operator does not exist: %s %s %s", l, op, r).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}

// prefixOp builds |/ x, ||/ x, @ x and ~ x.
func (b *builder) prefixOp(op string, x Expr) (Expr, error) {
	switch op {
	case "|/", "||/":
		return b.floatOp(op, types.TFloat8, x)
	case "@":
		if x.Type().Kind == types.Unknown {
			x = &Cast{E: x, T: types.TFloat8}
		}
		if !x.Type().Kind.IsNumeric() {
			return nil, pgerror.New(pgerror.CodeUndefinedFunction, "operator does not exist: @ %s", x.Type())
		}
		return &Func{Name: "@", Args: []Expr{x}, T: x.Type()}, nil
	case "~":
		if x.Type().Kind == types.Unknown {
			x = &Cast{E: x, T: types.TInt4}
		}
		if !x.Type().Kind.IsInt() {
			return nil, pgerror.New(pgerror.CodeUndefinedFunction, "operator does not exist: ~ %s", x.Type())
		}
		return &Func{Name: "~", Args: []Expr{x}, T: x.Type()}, nil
	}
	return nil, pgerror.Unimplemented("prefix operator " + op)
}

// floatOp builds an operator computed in double precision.
func (b *builder) floatOp(op string, t types.T, args ...Expr) (Expr, error) {
	for i, a := range args {
		if !a.Type().Kind.IsNumeric() && a.Type().Kind != types.Unknown {
			if len(args) == 1 {
				return nil, pgerror.New(pgerror.CodeUndefinedFunction, "operator does not exist: %s %s", op, a.Type())
			}
			return nil, noOperator(args[0].Type(), op, args[1].Type())
		}
		c, err := b.coerce(a, t, op)
		if err != nil {
			return nil, err
		}
		args[i] = c
	}
	return &Func{Name: op, Args: args, T: t}, nil
}

// concatOp builds l || r: text concatenation, where one side may be any
// non-array type (cast to text), as PostgreSQL's anynonarray || text.
func (b *builder) concatOp(l, r Expr) (Expr, error) {
	lk, rk := l.Type().Kind, r.Type().Kind
	if lk == types.Array && (rk == types.Array || rk == types.Unknown) || rk == types.Array && lk == types.Unknown {
		// anyarray || anyarray (psql's \d+ concatenates reloptions).
		e, _, err := b.builtinCall("array_cat", []Expr{l, r}) // build_funcs_array.go
		return e, err
	}
	if lk != types.Unknown && rk != types.Unknown && !lk.IsString() && !rk.IsString() {
		return nil, noOperator(l.Type(), "||", r.Type())
	}
	return &BinOp{Op: OpConcat, L: textArg(l), R: textArg(r), T: types.TText}, nil
}

// jsonOp builds the json/jsonb operators. -> and #> keep the operand's
// kind; ->> and #>> give text; @> and <@ need jsonb on both sides.
func (b *builder) jsonOp(op string, l, r Expr) (Expr, error) {
	lk := l.Type().Kind
	if op == "@>" || op == "<@" {
		if lk == types.Unknown {
			c, err := b.coerce(l, types.TJSONB, op)
			if err != nil {
				return nil, err
			}
			l, lk = c, types.JSONB
		}
		r, err := b.coerce(r, types.TJSONB, op)
		if err != nil || lk != types.JSONB || r.Type().Kind != types.JSONB {
			return nil, noOperator(l.Type(), op, r.Type())
		}
		if op == "<@" {
			l, r = r, l
		}
		return &Func{Name: "@>", Args: []Expr{l, r}, T: types.TBool}, nil
	}
	if lk != types.JSON && lk != types.JSONB {
		return nil, noOperator(l.Type(), op, r.Type())
	}
	var err error
	switch {
	case op == "#>" || op == "#>>":
		r, err = b.coerce(r, types.ArrayOf(types.TText), op)
	case r.Type().Kind == types.Unknown:
		r, err = b.coerce(r, types.TText, op)
	case !r.Type().Kind.IsInt() && !r.Type().Kind.IsString():
		err = noOperator(l.Type(), op, r.Type())
	}
	if err != nil {
		return nil, err
	}
	t := l.Type()
	if op == "->>" || op == "#>>" {
		t = types.TText
	}
	return &Func{Name: op, Args: []Expr{l, r}, T: t}, nil
}

// notDistinct builds a <=> b, the parser's form of a IS NOT DISTINCT FROM
// b: true when both are NULL or both are equal, never NULL.
func (b *builder) notDistinct(n *ast.BinaryOperationExpr, sc *scope) (Expr, error) {
	l, err := b.expr(n.L, sc)
	if err != nil {
		return nil, err
	}
	r, err := b.expr(n.R, sc)
	if err != nil {
		return nil, err
	}
	if l, r, _, err = b.unify(l, r, "="); err != nil {
		return nil, err
	}
	return &Func{Name: "is_not_distinct_from", Args: []Expr{l, r}, T: types.TBool}, nil
}

// pgArray builds ARRAY[...] (sqlparse.PgArray): the elements' common type,
// or elem when the array is cast (ARRAY[...]::T[]).
func (b *builder) pgArray(n *ast.FuncCallExpr, elem *types.T, sc *scope) (Expr, error) {
	args := make([]Expr, len(n.Args))
	for i, a := range n.Args {
		e, err := b.expr(a, sc)
		if err != nil {
			return nil, err
		}
		if e.Type().Kind == types.Array {
			return nil, pgerror.Unimplemented("multidimensional arrays")
		}
		args[i] = e
	}
	var t types.T
	if elem != nil {
		t = *elem
	} else {
		if len(args) == 0 {
			return nil, pgerror.New(pgerror.CodeIndeterminateDatatype, "cannot determine type of empty array").
				WithHint("Explicitly cast to the desired type, for example ARRAY[]::integer[].")
		}
		var err error
		if t, err = b.commonType(args, "ARRAY"); err != nil {
			return nil, err
		}
	}
	for i := range args {
		var err error
		if elem != nil && args[i].Type().Kind != types.Unknown && args[i].Type() != t {
			args[i] = &Cast{E: args[i], T: t}
			continue
		}
		if args[i], err = b.coerce(args[i], t, "ARRAY"); err != nil {
			return nil, err
		}
	}
	return &Func{Name: "array", Args: args, T: types.ArrayOf(t)}, nil
}

// anyAll builds pg_any_op('op', x, arr) and pg_all_op('op', x, arr)
// (sqlparse.PgAnyOp, PgAllOp) over an array that is not a literal: a
// parameter takes the type x[] (pgx and lib/pq send int8[] and text[]).
// The result is a Func named "op ANY" or "op ALL".
func (b *builder) anyAll(n *ast.FuncCallExpr, sc *scope, all bool) (Expr, error) {
	if len(n.Args) != 3 {
		return nil, pgerror.New(pgerror.CodeInternalError, "malformed ANY/ALL")
	}
	v, _ := n.Args[0].(*driver.ValueExpr)
	op := v.GetString()
	x, err := b.expr(n.Args[1], sc)
	if err != nil {
		return nil, err
	}
	arr, err := b.expr(n.Args[2], sc)
	if err != nil {
		return nil, err
	}
	at := arr.Type()
	if at.Kind == types.Int2Vector || at.Kind == types.OidVector {
		// = ANY (ix.indkey): a catalog vector is an array of its elements.
		et := types.TInt2
		if at.Kind == types.OidVector {
			et = types.TOid
		}
		at = types.ArrayOf(et)
		arr = &Cast{E: arr, T: at}
	}
	switch {
	case at.Kind == types.Unknown:
		x = resolveUnknown(x)
		if arr, err = b.coerce(arr, types.ArrayOf(x.Type()), op+" ANY"); err != nil {
			return nil, err
		}
	case at.Kind != types.Array:
		return nil, pgerror.New(pgerror.CodeDatatypeMismatch, "op ANY/ALL (array) requires array on right side")
	default:
		elem := at.ElemType()
		probe := &Const{D: types.Null, T: elem}
		if x, _, _, err = b.unify(x, probe, op); err != nil {
			return nil, err
		}
	}
	name := op + " ANY"
	if all {
		name = op + " ALL"
	}
	return &Func{Name: name, Args: []Expr{x, arr}, T: types.TBool}, nil
}

// ElemsOf stands, in a key span, for each element of an array value in
// turn: x = ANY($1) on a key column plans as a MULTI GET whose keys are
// the elements of $1, known only once the parameters are bound. exec
// expands a span holding one into one span per non-NULL element.
type ElemsOf struct {
	Array Expr
	T     types.T // the element type
}

func (e *ElemsOf) Type() types.T  { return e.T }
func (e *ElemsOf) String() string { return "ANY(" + e.Array.String() + ")" }
