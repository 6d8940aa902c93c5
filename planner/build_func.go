package planner

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

func typeName(v any) string { return fmt.Sprintf("%T", v) }

func (b *builder) in(n *ast.PatternInExpr, sc *scope) (Expr, error) {
	if n.Sel != nil {
		return nil, pgerror.Unimplemented("IN (subquery)")
	}
	e, err := b.expr(n.Expr, sc)
	if err != nil {
		return nil, err
	}
	list := make([]Expr, len(n.List))
	for i, x := range n.List {
		if list[i], err = b.expr(x, sc); err != nil {
			return nil, err
		}
	}
	// Type the probe from the first typed element, then each element.
	for _, x := range list {
		if e.Type().Kind != types.Unknown {
			break
		}
		if x.Type().Kind != types.Unknown {
			if e, err = b.coerce(e, x.Type(), ""); err != nil {
				return nil, err
			}
		}
	}
	e = resolveUnknown(e)
	for i := range list {
		if _, list[i], _, err = b.unify(e, list[i], "="); err != nil {
			return nil, err
		}
	}
	return &InList{E: e, List: list, Not: n.Not}, nil
}

func (b *builder) between(n *ast.BetweenExpr, sc *scope) (Expr, error) {
	e, err := b.expr(n.Expr, sc)
	if err != nil {
		return nil, err
	}
	lo, err := b.expr(n.Left, sc)
	if err != nil {
		return nil, err
	}
	hi, err := b.expr(n.Right, sc)
	if err != nil {
		return nil, err
	}
	if n.Not {
		l, err := b.binOp(OpLT, e, lo)
		if err != nil {
			return nil, err
		}
		r, err := b.binOp(OpGT, e, hi)
		if err != nil {
			return nil, err
		}
		return &BinOp{Op: OpOr, L: l, R: r, T: types.TBool}, nil
	}
	l, err := b.binOp(OpGE, e, lo)
	if err != nil {
		return nil, err
	}
	r, err := b.binOp(OpLE, e, hi)
	if err != nil {
		return nil, err
	}
	return &BinOp{Op: OpAnd, L: l, R: r, T: types.TBool}, nil
}

func (b *builder) like(n *ast.PatternLikeOrIlikeExpr, sc *scope) (Expr, error) {
	e, err := b.expr(n.Expr, sc)
	if err != nil {
		return nil, err
	}
	p, err := b.expr(n.Pattern, sc)
	if err != nil {
		return nil, err
	}
	if e, err = b.coerce(resolveUnknown(e), types.TText, "LIKE"); err != nil {
		return nil, err
	}
	if p, err = b.coerce(p, types.TText, "LIKE"); err != nil {
		return nil, err
	}
	return &Like{E: e, Pattern: p, Not: n.Not, Fold: !n.IsLike, Escape: n.Escape}, nil
}

func (b *builder) caseExpr(n *ast.CaseExpr, sc *scope) (Expr, error) {
	c := &Case{}
	var err error
	if n.Value != nil {
		if c.Operand, err = b.expr(n.Value, sc); err != nil {
			return nil, err
		}
	}
	var results []Expr
	for _, w := range n.WhenClauses {
		var cond Expr
		if c.Operand != nil {
			v, err := b.expr(w.Expr, sc)
			if err != nil {
				return nil, err
			}
			if cond, err = b.binOp(OpEQ, c.Operand, v); err != nil {
				return nil, err
			}
		} else if cond, err = b.boolExpr(w.Expr, sc, "CASE/WHEN"); err != nil {
			return nil, err
		}
		r, err := b.expr(w.Result, sc)
		if err != nil {
			return nil, err
		}
		c.Whens = append(c.Whens, When{Cond: cond, Result: r})
		results = append(results, r)
	}
	if n.ElseClause != nil {
		if c.Else, err = b.expr(n.ElseClause, sc); err != nil {
			return nil, err
		}
		results = append(results, c.Else)
	}
	c.Operand = nil // folded into the WHEN conditions
	t, err := b.commonType(results, "CASE")
	if err != nil {
		return nil, err
	}
	c.T = t
	for i := range c.Whens {
		if c.Whens[i].Result, err = b.coerce(c.Whens[i].Result, t, "CASE"); err != nil {
			return nil, err
		}
	}
	if c.Else != nil {
		if c.Else, err = b.coerce(c.Else, t, "CASE"); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// commonType resolves the result type of CASE/COALESCE branches.
func (b *builder) commonType(es []Expr, what string) (types.T, error) {
	t := types.TUnknown
	for _, e := range es {
		et := e.Type()
		switch {
		case et.Kind == types.Unknown:
		case t.Kind == types.Unknown:
			t = et
		case t.Kind == et.Kind:
		case t.Kind.IsNumeric() && et.Kind.IsNumeric():
			t = widerNumeric(t, et)
		default:
			return t, pgerror.New(pgerror.CodeDatatypeMismatch, "%s types %s and %s cannot be matched", what, t, et)
		}
	}
	if t.Kind == types.Unknown {
		t = types.TText
	}
	if t.Kind == types.Text {
		t = types.TText
	}
	return t, nil
}

func (b *builder) funcCall(n *ast.FuncCallExpr, sc *scope) (Expr, error) {
	name := strings.ToLower(n.FnName.O)
	args := make([]Expr, 0, len(n.Args))
	if name == "pg_cast" {
		return b.cast(n, sc)
	}
	switch name { // the sqlparse bridge's forms (sqlparse.PgOp, PgArray, PgAnyOp, PgAllOp)
	case "pg_op":
		return b.pgOp(n, sc)
	case "pg_array":
		return b.pgArray(n, nil, sc)
	case "pg_any_op", "pg_all_op":
		return b.anyAll(n, sc, name == "pg_all_op")
	}
	for _, a := range n.Args {
		e, err := b.expr(a, sc)
		if err != nil {
			return nil, err
		}
		args = append(args, e)
	}
	if e, ok, err := b.seqFunc(name, args); ok || err != nil {
		return e, err
	}
	switch name {
	case "concat":
		// PIPES_AS_CONCAT turns || into concat(); PostgreSQL's || is NULL
		// if either side is NULL, and casts non-text operands to text.
		for i := range args {
			args[i] = textArg(args[i])
		}
		e := args[0]
		for _, a := range args[1:] {
			e = &BinOp{Op: OpConcat, L: e, R: a, T: types.TText}
		}
		return e, nil
	case "lower", "upper", "length", "char_length", "character_length":
		if len(args) != 1 {
			break
		}
		a, err := b.coerce(resolveUnknown(args[0]), types.TText, name)
		if err != nil {
			return nil, err
		}
		t := types.TText
		if strings.Contains(name, "length") {
			t = types.TInt4
			name = "length"
		}
		return &Func{Name: name, Args: []Expr{a}, T: t}, nil
	case "abs":
		if len(args) == 1 && args[0].Type().Kind.IsNumeric() {
			return &Func{Name: name, Args: args, T: args[0].Type()}, nil
		}
	case "coalesce", "nullif", "greatest", "least":
		if len(args) == 0 || (name == "nullif" && len(args) != 2) {
			break
		}
		t, err := b.commonType(args, strings.ToUpper(name))
		if err != nil {
			return nil, err
		}
		for i := range args {
			if args[i], err = b.coerce(args[i], t, strings.ToUpper(name)); err != nil {
				return nil, err
			}
		}
		return &Func{Name: name, Args: args, T: t}, nil
	case "version", "current_database", "current_schema", "current_user", "session_user", "user":
		if len(args) == 0 {
			return &Func{Name: name, T: types.TText}, nil
		}
	case "now", "current_timestamp":
		if len(args) == 0 {
			return &Func{Name: "now", T: types.TTimestampTZ}, nil
		}
	case "localtimestamp":
		if len(args) == 0 {
			return &Func{Name: "localtimestamp", T: types.TTimestamp}, nil
		}
	}
	sig := make([]string, len(args))
	for i, a := range args {
		sig[i] = a.Type().String()
	}
	return nil, pgerror.New(pgerror.CodeUndefinedFunction, "function %s(%s) does not exist", name, strings.Join(sig, ", ")).
		WithHint("No function matches the given name and argument types.")
}

func textArg(e Expr) Expr {
	e = resolveUnknown(e)
	if e.Type().Kind == types.Text {
		return e
	}
	return &Cast{E: e, T: types.TText}
}

// cast builds pg_cast(expr, 'type'), the bridge's form of expr::type and
// CAST(expr AS type).
func (b *builder) cast(n *ast.FuncCallExpr, sc *scope) (Expr, error) {
	if len(n.Args) != 2 {
		return nil, pgerror.New(pgerror.CodeSyntaxError, "malformed cast")
	}
	tv, ok := n.Args[1].(*driver.ValueExpr)
	if !ok {
		return nil, pgerror.New(pgerror.CodeSyntaxError, "malformed cast")
	}
	t, err := types.TypeByName(tv.GetString())
	if err != nil {
		return nil, err
	}
	if f, ok := n.Args[0].(*ast.FuncCallExpr); ok && f.FnName.L == "pg_array" && t.Kind == types.Array {
		elem := t.ElemType()
		return b.pgArray(f, &elem, sc)
	}
	e, err := b.expr(n.Args[0], sc)
	if err != nil {
		return nil, err
	}
	if c, ok := e.(*Const); ok && c.T.Kind == types.Unknown {
		// 'literal'::type is a typed literal: parse it now, so errors
		// surface at planning as in PostgreSQL. An explicit cast to
		// varchar(n) truncates rather than failing.
		if c.D.IsNull() {
			return &Const{D: types.Null, T: t}, nil
		}
		base := t
		base.Width = 0
		d, err := types.ParseTextIn(base, c.D.S, b.loc)
		if err != nil {
			return nil, err
		}
		if d, err = types.CastIn(d, t, b.loc); err != nil {
			return nil, err
		}
		return &Const{D: d, T: t}, nil
	}
	if p, ok := e.(*Param); ok && p.Type().Kind == types.Unknown {
		p.Params.Types[p.N] = t
		return p, nil
	}
	return &Cast{E: e, T: t}, nil
}
