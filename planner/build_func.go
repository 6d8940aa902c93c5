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
		return b.inSubquery(n, sc) // build_subquery.go
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

// commonType resolves the result type of CASE, COALESCE, GREATEST, LEAST
// and ARRAY[] branches as PostgreSQL's select_common_type does: the first
// known type, replaced by a later one of the same category when it is not
// preferred and converts to that one implicitly but not back; all unknown
// is text. Categories that differ are 42804. Type modifiers survive only
// when every branch has the same type and modifiers.
func (b *builder) commonType(es []Expr, what string) (types.T, error) {
	t, have := types.TUnknown, false
	for _, e := range es {
		et := e.Type()
		switch {
		case et.Kind == types.Unknown:
		case !have:
			t, have = et, true
		case sameTypeOID(t, et):
		case fnCategory(t.Kind) != fnCategory(et.Kind):
			return t, pgerror.New(pgerror.CodeDatatypeMismatch, "%s types %s and %s cannot be matched", what, t, et)
		case !fnPreferred(t) && fnImplicitCast(t, et) && !fnImplicitCast(et, t):
			t = et
		}
	}
	if !have {
		return types.TText, nil
	}
	for _, e := range es {
		if e.Type() != t {
			return stripModifiers(t), nil
		}
	}
	return t, nil
}

// sameTypeOID reports whether a and b are one PostgreSQL type, modifiers
// aside (varchar(5) and varchar(10) are; varchar and text are not).
func sameTypeOID(a, b types.T) bool {
	return stripModifiers(a) == stripModifiers(b)
}

// stripModifiers drops a type's modifiers (varchar(10) -> varchar).
func stripModifiers(t types.T) types.T {
	t.Width, t.Scale = 0, 0
	return t
}

func (b *builder) funcCall(n *ast.FuncCallExpr, sc *scope) (Expr, error) {
	name := strings.ToLower(n.FnName.O)
	args := make([]Expr, 0, len(n.Args))
	if name == "pg_cast" {
		return b.cast(n, sc)
	}
	if name == "writetime" {
		return b.writetime(n, sc) // build_writetime.go
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
	if e, ok, err := b.builtinCall(name, args); ok || err != nil { // build_funcs_catalog.go
		return e, err
	}
	switch name {
	case "nullif":
		// NULLIF(a, b) is CASE WHEN a = b THEN NULL ELSE a END: the
		// operands meet as for "=", and the result has their type.
		if len(args) != 2 {
			break
		}
		l, r, t, err := b.unify(args[0], args[1], "=")
		if err != nil {
			return nil, err
		}
		if l, err = b.coerce(l, t, ""); err != nil {
			return nil, err
		}
		if r, err = b.coerce(r, t, ""); err != nil {
			return nil, err
		}
		return &Func{Name: name, Args: []Expr{l, r}, T: t}, nil
	case "coalesce", "greatest", "least":
		if len(args) == 0 {
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
	case "json_build_object", "json_build_array": // variadic "any", not strict (exec/funcs_json.go)
		if name == "json_build_object" && len(args)%2 != 0 {
			return nil, pgerror.New(pgerror.CodeInvalidParameterValue, "argument list must have even number of elements").
				WithHint("The arguments of json_build_object() must consist of alternating keys and values.")
		}
		for i := range args {
			args[i] = resolveUnknown(args[i])
		}
		return &Func{Name: name, Args: args, T: types.TJSON}, nil
	case "version", "current_database", "current_schema", "current_user", "session_user", "user":
		if len(args) == 0 {
			return &Func{Name: name, T: types.TText}, nil
		}
	case "pg_typeof":
		// The argument's type as format_type prints it without modifiers
		// (widesql returns text rather than regtype).
		if len(args) == 1 {
			t := stripModifiers(resolveUnknown(args[0]).Type())
			name := t.String()
			if t.Kind == types.BPChar {
				name = "character"
			}
			return &Const{D: types.NewText(name), T: types.TText}, nil
		}
	case "current_catalog", "current_role":
		if len(args) == 0 {
			return &Func{Name: map[string]string{"current_catalog": "current_database", "current_role": "current_user"}[name], T: types.TText}, nil
		}
	case "current_timestamp", "localtimestamp", "localtime", "current_time":
		return b.sqlTimeValue(name, args) // build_funcs_datetime.go
	}
	in := make([]types.T, len(args))
	for i, a := range args {
		in[i] = a.Type()
	}
	return nil, noFunction(name, in)
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
	if t.Kind.IsReg() {
		// A reg* value is found by name in the catalog, which exec has
		// (exec/regcast.go): a literal or parameter is text until then.
		if e.Type().Kind == types.Unknown {
			e = resolveUnknown(e)
		}
		return &Cast{E: e, T: t}, nil
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
