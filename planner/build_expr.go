package planner

import (
	"math"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

type builder struct {
	// outerTargets records, for every correlated reference built, the
	// scope it resolved in: a subquery is correlated when one of the
	// references built inside it reaches outside it.
	outerTargets []*scope
	// subqueries are the subqueries of the statement, numbered for
	// EXPLAIN in the order they were planned.
	subqueries []*Subquery
	workTables int // recursive CTEs planned, numbering their WorkTables
	// scans are the table scans of the statement, finished (columns to
	// read) once every name is resolved.
	scans []scanRel
	// columnAliases are the FROM items' column alias lists (sqlparse).
	columnAliases map[string][]string
	cat           Catalog
	params        *ParamTypes
	loc           *time.Location // the session zone for folding literals (nil: UTC)
	// writeTimes is set when the statement calls writetime(): its FROM
	// tables get write-time slots (build_writetime.go).
	writeTimes bool
}

func (b *builder) param(n int) *Param {
	for len(b.params.Types) <= n {
		b.params.Types = append(b.params.Types, types.TUnknown)
	}
	return &Param{N: n, Params: b.params}
}

// expr builds a typed expression from a TiDB expression node.
func (b *builder) expr(n ast.ExprNode, sc *scope) (Expr, error) {
	if sc.agg != nil {
		return b.aggExpr(n, sc)
	}
	return b.exprNode(n, sc)
}

// exprNode builds one node; children go back through expr, so in
// aggregate mode they resolve to group and aggregate slots.
func (b *builder) exprNode(n ast.ExprNode, sc *scope) (Expr, error) {
	switch n := n.(type) {
	case *ast.ParenthesesExpr:
		return b.expr(n.Expr, sc)
	case *driver.ParamMarkerExpr:
		return b.param(n.Order), nil
	case *driver.ValueExpr:
		return constFromValue(n)
	case *ast.ColumnNameExpr:
		return b.column(n.Name, sc)
	case *ast.BinaryOperationExpr:
		return b.binary(n, sc)
	case *ast.UnaryOperationExpr:
		return b.unary(n, sc)
	case *ast.IsNullExpr:
		e, err := b.expr(n.Expr, sc)
		if err != nil {
			return nil, err
		}
		return &IsNull{E: resolveUnknown(e), Not: n.Not}, nil
	case *ast.IsTruthExpr:
		e, err := b.boolExpr(n.Expr, sc, "IS TRUE")
		if err != nil {
			return nil, err
		}
		return &Func{Name: isTruthName(n.True != 0, n.Not), Args: []Expr{e}, T: types.TBool}, nil
	case *ast.PatternInExpr:
		return b.in(n, sc)
	case *ast.BetweenExpr:
		return b.between(n, sc)
	case *ast.PatternLikeOrIlikeExpr:
		return b.like(n, sc)
	case *ast.CaseExpr:
		return b.caseExpr(n, sc)
	case *ast.FuncCallExpr:
		return b.funcCall(n, sc)
	case *ast.AggregateFuncExpr:
		return nil, pgerror.New(pgerror.CodeGroupingError, "aggregate functions are not allowed here")
	case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr, *ast.CompareSubqueryExpr:
		return b.subqueryExpr(n, sc) // build_subquery.go
	case *ast.WindowFuncExpr:
		if sc.win == nil {
			return nil, pgerror.New(pgerror.CodeWindowingError, "window functions are not allowed here")
		}
		return b.windowFunc(n, sc) // build_window.go
	case *ast.DefaultExpr:
		return nil, pgerror.Unimplemented("DEFAULT in this position")
	case *ast.RowExpr:
		return nil, pgerror.Unimplemented("row constructors")
	}
	return nil, pgerror.Unimplemented("expression " + nodeName(n))
}

func nodeName(n ast.Node) string {
	s := strings.TrimPrefix(strings.TrimPrefix(typeName(n), "*ast."), "*test_driver.")
	return strings.TrimSuffix(s, "Expr")
}

func isTruthName(truth, not bool) string {
	name := "is_false"
	if truth {
		name = "is_true"
	}
	if not {
		name = "is_not_" + strings.TrimPrefix(name, "is_")
	}
	return name
}

// constFromValue types a literal as PostgreSQL does: integers are integer
// or bigint, decimals are (for now) double precision, strings are unknown
// until context types them.
func constFromValue(v *driver.ValueExpr) (Expr, error) {
	switch v.Kind() {
	case driver.KindNull:
		return &Const{D: types.Null, T: types.TUnknown}, nil
	case driver.KindInt64:
		i := v.GetInt64()
		if mysql.HasIsBooleanFlag(v.Type.GetFlag()) {
			return &Const{D: types.NewBool(i != 0), T: types.TBool}, nil
		}
		if i >= -1<<31 && i < 1<<31 {
			return &Const{D: types.NewInt(types.Int4, i), T: types.TInt4}, nil
		}
		return &Const{D: types.NewInt(types.Int8, i), T: types.TInt8}, nil
	case driver.KindUint64:
		u := v.GetUint64()
		if u > 1<<63-1 {
			return nil, pgerror.New(pgerror.CodeNumericValueOutOfRange, "value %d is out of range for type bigint", u)
		}
		return &Const{D: types.NewInt(types.Int8, int64(u)), T: types.TInt8}, nil
	case driver.KindFloat32, driver.KindFloat64:
		return &Const{D: types.NewFloat(v.GetFloat64()), T: types.TFloat8}, nil
	case driver.KindMysqlDecimal:
		// A literal with a decimal point is numeric in PostgreSQL, keeping
		// its scale (1.50).
		d, err := types.Cast(types.NewText(v.GetMysqlDecimal().String()), types.TNumeric)
		if err != nil {
			return nil, pgerror.New(pgerror.CodeInvalidTextRepresentation, "invalid numeric literal %s", v.GetMysqlDecimal().String())
		}
		return &Const{D: d, T: types.TNumeric}, nil
	case driver.KindString:
		return &Const{D: types.NewText(v.GetString()), T: types.TUnknown}, nil
	case driver.KindBytes, driver.KindBinaryLiteral:
		return &Const{D: types.NewBytea(v.GetBytes()), T: types.TBytea}, nil
	}
	return nil, pgerror.Unimplemented("this kind of literal")
}

// column resolves a column name in sc, then in the enclosing query levels
// (a correlated reference).
func (b *builder) column(cn *ast.ColumnName, sc *scope) (Expr, error) {
	name, qual := cn.Name.O, cn.Table.O
	if s := cn.Schema.O; s != "" && !sc.hasSchemaTable(s, qual) {
		qual = s + "." + qual
	}
	depth := 0
	for s := sc; s != nil; s = s.outer {
		if s.carrier {
			continue
		}
		slot, err := s.resolve(name, qual)
		if err != nil {
			return nil, err
		}
		if slot >= 0 {
			if slot < len(s.cols) && s.cols[slot].ungrouped {
				return nil, pgerror.New(pgerror.CodeGroupingError, "subquery uses ungrouped column \"%s\" from outer query", s.colName(&s.cols[slot]))
			}
			return b.slotRef(s, slot, depth, qual == ""), nil
		}
		depth++
	}
	switch {
	case qual != "" && !sc.knowsQualifier(qual):
		if t := sc.tableNamed(qual); t != "" {
			return nil, pgerror.New(pgerror.CodeUndefinedTable, "invalid reference to FROM-clause entry for table %q", qual).
				WithHint("Perhaps you meant to reference the table alias %q.", t)
		}
		return nil, pgerror.New(pgerror.CodeUndefinedTable, "missing FROM-clause entry for table %q", qual)
	case qual != "":
		return nil, pgerror.New(pgerror.CodeUndefinedColumn, "column %s.%s does not exist", qual, name)
	}
	return nil, pgerror.New(pgerror.CodeUndefinedColumn, "column %q does not exist", name)
}

// slotRef is the expression reading slot of s's row, depth query levels
// up from where the name was written. It records the column as read.
func (b *builder) slotRef(s *scope, slot, depth int, unqualified bool) Expr {
	if slot >= len(s.cols) { // excluded.c
		c := &s.table.Columns[slot-len(s.table.Columns)]
		return &ColRef{Idx: slot, Name: "excluded." + c.Name, T: c.Type}
	}
	c := &s.cols[slot]
	if c.rel.table != nil {
		c.rel.used[c.col] = true
	}
	var e Expr = &ColRef{Idx: slot, Name: s.colName(c), T: c.t}
	if depth > 0 {
		b.outerTargets = append(b.outerTargets, s)
		e = &OuterRef{Depth: depth, Idx: slot, Name: s.colName(c), T: c.t}
	}
	if c.fullUsing >= 0 && unqualified {
		r := &s.cols[c.fullUsing]
		if r.rel.table != nil {
			r.rel.used[r.col] = true
		}
		var re Expr = &ColRef{Idx: c.fullUsing, Name: s.colName(r), T: r.t}
		if depth > 0 {
			re = &OuterRef{Depth: depth, Idx: c.fullUsing, Name: s.colName(r), T: r.t}
		}
		e = &Func{Name: "coalesce", Args: []Expr{e, re}, T: c.t}
	}
	return e
}

func (b *builder) boolExpr(n ast.ExprNode, sc *scope, what string) (Expr, error) {
	e, err := b.expr(n, sc)
	if err != nil {
		return nil, err
	}
	return b.coerce(e, types.TBool, what)
}

// coerce returns e as type want: parameters and unknown literals take the
// type; numeric kinds convert; anything else is 42804.
func (b *builder) coerce(e Expr, want types.T, what string) (Expr, error) {
	got := e.Type()
	switch {
	case got.Kind == types.Unknown:
		if p, ok := e.(*Param); ok {
			p.Params.Types[p.N] = want
			return e, nil
		}
		if c, ok := e.(*Const); ok {
			if c.D.IsNull() {
				return &Const{D: types.Null, T: want}, nil
			}
			if want.Kind.IsReg() { // a name: the catalog resolves it (exec/regcast.go)
				return &Cast{E: &Const{D: c.D, T: types.TText}, T: want}, nil
			}
			d, err := types.ParseTextIn(want, c.D.S, b.loc)
			if err != nil {
				return nil, err
			}
			return &Const{D: d, T: want}, nil
		}
		return &Cast{E: e, T: want}, nil
	case got.Kind == want.Kind:
		if want.Kind == types.Text && want.Width > 0 && (got.Width == 0 || got.Width > want.Width) {
			return &Cast{E: e, T: want}, nil // assignment to varchar(n) checks length
		}
		if got != want && (want.Kind == types.Numeric || want.Kind == types.BPChar || want.Kind == types.Array) && want.Width > 0 {
			return &Cast{E: e, T: want}, nil // numeric(p,s) rounds, char(n) pads
		}
		return e, nil
	case got.Kind.IsNumeric() && want.Kind.IsNumeric():
		return &Cast{E: e, T: want}, nil
	case got.Kind.IsString() && want.Kind.IsString():
		return &Cast{E: e, T: want}, nil // char(n) <-> text, varchar
	case got.Kind.IsDateTime() && want.Kind.IsDateTime() && got.Kind != types.Time && want.Kind != types.Time:
		return &Cast{E: e, T: want}, nil // date -> timestamp(tz), timestamp <-> timestamptz
	case types.ImplicitCatalogCast(got, want):
		return &Cast{E: e, T: want}, nil // int -> oid, name -> text, ...
	}
	if what == "" {
		return nil, pgerror.New(pgerror.CodeDatatypeMismatch, "expression is of type %s but expected %s", got, want)
	}
	return nil, pgerror.New(pgerror.CodeDatatypeMismatch, "argument of %s must be type %s, not type %s", what, want, got)
}

// resolveUnknown types a still-unknown expression as text (PostgreSQL's
// resolution of unknown literals in output and comparison positions).
func resolveUnknown(e Expr) Expr {
	if e.Type().Kind != types.Unknown {
		return e
	}
	if p, ok := e.(*Param); ok {
		p.Params.Types[p.N] = types.TText
		return e
	}
	if c, ok := e.(*Const); ok {
		return &Const{D: c.D, T: types.TText}
	}
	return e
}

// unify brings two operands of a comparison or arithmetic to a common type.
func (b *builder) unify(l, r Expr, op string) (Expr, Expr, types.T, error) {
	lt, rt := l.Type(), r.Type()
	switch {
	case lt.Kind == types.Unknown && rt.Kind == types.Unknown:
		l, r = resolveUnknown(l), resolveUnknown(r)
		return l, r, types.TText, nil
	case lt.Kind == types.Unknown:
		l2, err := b.coerce(l, rt, "")
		return l2, r, rt, err
	case rt.Kind == types.Unknown:
		r2, err := b.coerce(r, lt, "")
		return l, r2, lt, err
	case lt.Kind == rt.Kind:
		return l, r, lt, nil
	case lt.Kind.IsNumeric() && rt.Kind.IsNumeric():
		return l, r, widerNumeric(lt, rt), nil
	case isTimelineKind(lt.Kind) && isTimelineKind(rt.Kind):
		l, r = promoteTimeline(l, r)
		return l, r, l.Type(), nil
	}
	if t, ok := types.CatalogCommonType(lt, rt); ok { // oid = int4, name = text, ...
		if lt.Kind != t.Kind {
			l = &Cast{E: l, T: t}
		}
		if rt.Kind != t.Kind {
			r = &Cast{E: r, T: t}
		}
		return l, r, t, nil
	}
	return nil, nil, types.T{}, pgerror.New(pgerror.CodeUndefinedFunction,
		"operator does not exist: %s %s %s", lt, op, rt).WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}

// widerNumeric is PostgreSQL's promotion for mixed arithmetic and
// comparison: float8 wins; real with real is real, real with anything
// else float8 (PostgreSQL's preferred type); numeric with an integer is
// numeric; else the wider int.
func widerNumeric(a, b types.T) types.T {
	switch {
	case a.Kind == types.Float8 || b.Kind == types.Float8:
		return types.TFloat8
	case a.Kind == types.Float4 && b.Kind == types.Float4:
		return types.TFloat4
	case a.Kind == types.Float4 || b.Kind == types.Float4:
		return types.TFloat8 // real with anything else resolves to float8
	case a.Kind == types.Numeric || b.Kind == types.Numeric:
		return types.TNumeric
	}
	if a.Kind > b.Kind {
		return a
	}
	return b
}

var binOps = map[opcode.Op]Op{
	opcode.Plus: OpAdd, opcode.Minus: OpSub, opcode.Mul: OpMul, opcode.Div: OpDiv,
	opcode.IntDiv: OpDiv, opcode.Mod: OpMod, opcode.EQ: OpEQ, opcode.NE: OpNE,
	opcode.LT: OpLT, opcode.LE: OpLE, opcode.GT: OpGT, opcode.GE: OpGE,
	opcode.LogicAnd: OpAnd, opcode.LogicOr: OpOr,
}

func (b *builder) binary(n *ast.BinaryOperationExpr, sc *scope) (Expr, error) {
	if n.Op == opcode.NullEQ {
		return b.notDistinct(n, sc)
	}
	op, ok := binOps[n.Op]
	if !ok {
		return nil, pgerror.Unimplemented("operator " + n.Op.String())
	}
	if op == OpAnd || op == OpOr {
		l, err := b.boolExpr(n.L, sc, op.String())
		if err != nil {
			return nil, err
		}
		r, err := b.boolExpr(n.R, sc, op.String())
		if err != nil {
			return nil, err
		}
		return &BinOp{Op: op, L: l, R: r, T: types.TBool}, nil
	}
	l, err := b.expr(n.L, sc)
	if err != nil {
		return nil, err
	}
	r, err := b.expr(n.R, sc)
	if err != nil {
		return nil, err
	}
	return b.binOp(op, l, r)
}

func (b *builder) binOp(op Op, l, r Expr) (Expr, error) {
	if !op.IsComparison() {
		if e, ok, err := b.datetimeOp(op, l, r); ok { // build_datetime.go
			return e, err
		}
	}
	l, r, t, err := b.unify(l, r, op.String())
	if err != nil {
		return nil, err
	}
	if op.IsComparison() {
		return &BinOp{Op: op, L: l, R: r, T: types.TBool}, nil
	}
	if !t.Kind.IsNumeric() {
		return nil, pgerror.New(pgerror.CodeUndefinedFunction, "operator does not exist: %s %s %s", l.Type(), op, r.Type())
	}
	if op == OpMod && t.Kind.IsFloat() {
		return nil, pgerror.New(pgerror.CodeUndefinedFunction, "operator does not exist: %s %% %s", t, t)
	}
	return &BinOp{Op: op, L: l, R: r, T: t}, nil
}

func (b *builder) unary(n *ast.UnaryOperationExpr, sc *scope) (Expr, error) {
	switch n.Op {
	case opcode.Not, opcode.Not2:
		e, err := b.boolExpr(n.V, sc, "NOT")
		if err != nil {
			return nil, err
		}
		return &UnaryOp{Op: OpNot, E: e, T: types.TBool}, nil
	case opcode.Plus:
		return b.expr(n.V, sc)
	case opcode.BitNeg:
		e, err := b.expr(n.V, sc)
		if err != nil {
			return nil, err
		}
		return b.prefixOp("~", e)
	case opcode.Minus:
		if v, ok := n.V.(*driver.ValueExpr); ok && v.Kind() == driver.KindUint64 && v.GetUint64() == 1<<63 {
			return &Const{D: types.NewInt(types.Int8, math.MinInt64), T: types.TInt8}, nil
		}
		e, err := b.expr(n.V, sc)
		if err != nil {
			return nil, err
		}
		if c, ok := e.(*Const); ok && c.T.Kind.IsNumeric() {
			d := c.D
			if d.K == types.Numeric {
				d = types.NumericNeg(d)
			} else if !d.IsNull() {
				d.I, d.F = -d.I, -d.F
			}
			return &Const{D: d, T: c.T}, nil
		}
		if e.Type().Kind == types.Unknown {
			if e, err = b.coerce(e, types.TFloat8, ""); err != nil {
				return nil, err
			}
		}
		if !e.Type().Kind.IsNumeric() && e.Type().Kind != types.Interval {
			return nil, pgerror.New(pgerror.CodeUndefinedFunction, "operator does not exist: - %s", e.Type())
		}
		return &UnaryOp{Op: OpNeg, E: e, T: e.Type()}, nil
	}
	return nil, pgerror.Unimplemented("operator " + n.Op.String())
}
