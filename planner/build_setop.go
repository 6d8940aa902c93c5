package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// setBranch is an operand of a set operation: its plan, and which of its
// output columns are still of unknown type in PostgreSQL's sense (an
// untyped literal, NULL or parameter written directly as the column of a
// SELECT). selectStmt has already typed those as text; the set operation
// types them from the other operand instead.
type setBranch struct {
	plan    Plan
	unknown []bool
}

// setOpStmt plans UNION, INTERSECT and EXCEPT, with their ORDER BY and
// LIMIT. outer is the enclosing scope (correlation and CTE names).
//
// TiDB parses a chain of set operations as one flat list, each operand
// marked with the operator before it; parentheses make nested lists. The
// tree is built here with PostgreSQL's precedence: INTERSECT binds tighter
// than UNION and EXCEPT, and operators of equal precedence associate to
// the left. Column types are resolved pairwise, bottom-up, as PostgreSQL's
// transformSetOperationTree does.
func (b *builder) setOpStmt(n *ast.SetOprStmt, outer *scope) (Plan, error) {
	if n.With != nil || n.SelectList.With != nil {
		return nil, pgerror.Unimplemented("WITH (common table expressions)")
	}
	br, err := b.setOpList(n.SelectList, outer)
	if err != nil {
		return nil, err
	}
	plan, err := b.resolveBranch(br, nil)
	if err != nil {
		return nil, err
	}
	return b.setOpOrderLimit(plan, n.OrderBy, n.Limit)
}

// setOpList builds a parenthesized (or the top-level) list of operands.
func (b *builder) setOpList(l *ast.SetOprSelectList, outer *scope) (setBranch, error) {
	if len(l.Selects) == 0 {
		return setBranch{}, pgerror.New(pgerror.CodeSyntaxError, "syntax error: empty set operation")
	}
	first, err := b.setOperand(l.Selects[0], outer)
	if err != nil {
		return setBranch{}, err
	}
	// terms are joined by UNION and EXCEPT (ops); INTERSECT folds into the
	// term on its left as it is read.
	terms := []setBranch{first}
	var ops []ast.SetOprType
	for _, sel := range l.Selects[1:] {
		op := afterOperator(sel)
		br, err := b.setOperand(sel, outer)
		if err != nil {
			return setBranch{}, err
		}
		if op == ast.Intersect || op == ast.IntersectAll {
			if terms[len(terms)-1], err = b.combine(terms[len(terms)-1], br, op); err != nil {
				return setBranch{}, err
			}
			continue
		}
		terms = append(terms, br)
		ops = append(ops, op)
	}
	acc := terms[0]
	for i, op := range ops {
		if acc, err = b.combine(acc, terms[i+1], op); err != nil {
			return setBranch{}, err
		}
	}
	return acc, nil
}

func afterOperator(n ast.Node) ast.SetOprType {
	var op *ast.SetOprType
	switch n := n.(type) {
	case *ast.SelectStmt:
		op = n.AfterSetOperator
	case *ast.SetOprSelectList:
		op = n.AfterSetOperator
	}
	if op == nil {
		return ast.Union
	}
	return *op
}

// setOperand builds one operand: a SELECT, or a parenthesized list, which
// is a set operation of its own (with its own ORDER BY and LIMIT).
func (b *builder) setOperand(n ast.Node, outer *scope) (setBranch, error) {
	switch n := n.(type) {
	case *ast.SelectStmt:
		if n.Kind != ast.SelectStmtKindSelect {
			return setBranch{}, pgerror.Unimplemented("VALUES and TABLE in UNION, INTERSECT and EXCEPT")
		}
		unknown := b.unknownFields(n)
		plan, err := b.query(n, outer)
		if err != nil {
			return setBranch{}, err
		}
		return setBranch{plan: plan, unknown: unknown}, nil
	case *ast.SetOprSelectList:
		if len(n.Selects) == 1 && n.OrderBy == nil && n.Limit == nil && n.With == nil {
			return b.setOperand(n.Selects[0], outer) // (SELECT ...)
		}
		stmt := &ast.SetOprStmt{
			SelectList: &ast.SetOprSelectList{Selects: n.Selects},
			OrderBy:    n.OrderBy,
			Limit:      n.Limit,
			With:       n.With,
		}
		plan, err := b.query(stmt, outer)
		if err != nil {
			return setBranch{}, err
		}
		return setBranch{plan: plan}, nil
	}
	return setBranch{}, pgerror.Unimplemented("set operation operand " + nodeName(n))
}

// unknownFields reports which output columns of sel are untyped: a string
// literal, NULL or a not yet typed parameter, possibly parenthesized. It
// must run before sel is built, which types them.
func (b *builder) unknownFields(sel *ast.SelectStmt) []bool {
	var unknown []bool
	for _, f := range sel.Fields.Fields {
		if f.WildCard != nil {
			break // the columns after a * are not counted; they stay typed
		}
		e := f.Expr
		for {
			p, ok := e.(*ast.ParenthesesExpr)
			if !ok {
				break
			}
			e = p.Expr
		}
		u := false
		switch e := e.(type) {
		case *driver.ParamMarkerExpr:
			u = e.Order >= len(b.params.Types) || b.params.Types[e.Order].Kind == types.Unknown
		case *driver.ValueExpr:
			u = e.Kind() == driver.KindString || e.Kind() == driver.KindNull
		}
		unknown = append(unknown, u)
	}
	return unknown
}

func (br setBranch) isUnknown(i int) bool { return i < len(br.unknown) && br.unknown[i] }

var setOpKinds = map[ast.SetOprType]struct {
	kind SetOpKind
	all  bool
}{
	ast.Union: {Union, false}, ast.UnionAll: {Union, true},
	ast.Intersect: {Intersect, false}, ast.IntersectAll: {Intersect, true},
	ast.Except: {Except, false}, ast.ExceptAll: {Except, true},
}

// combine joins two operands with op, bringing their columns to common
// types.
func (b *builder) combine(l, r setBranch, op ast.SetOprType) (setBranch, error) {
	k := setOpKinds[op]
	what := [...]string{"UNION", "INTERSECT", "EXCEPT"}[k.kind]
	lc, rc := l.plan.Columns(), r.plan.Columns()
	if len(lc) != len(rc) {
		return setBranch{}, pgerror.New(pgerror.CodeSyntaxError, "each %s query must have the same number of columns", what)
	}
	targets := make([]types.T, len(lc))
	for i := range lc {
		lu, ru := l.isUnknown(i), r.isUnknown(i)
		switch {
		case lu && ru:
			targets[i] = types.TText
		case lu:
			targets[i] = rc[i].T
		case ru:
			targets[i] = lc[i].T
		default:
			t, err := setOpType(what, lc[i].T, rc[i].T)
			if err != nil {
				return setBranch{}, err
			}
			targets[i] = t
		}
		if !(k.kind == Union && k.all) && !hasEquality(targets[i]) {
			return setBranch{}, pgerror.New(pgerror.CodeUndefinedFunction, "could not identify an equality operator for type %s", targets[i])
		}
	}
	left, err := b.resolveBranch(l, targets)
	if err != nil {
		return setBranch{}, err
	}
	right, err := b.resolveBranch(r, targets)
	if err != nil {
		return setBranch{}, err
	}
	cols := make([]ResultColumn, len(lc))
	for i := range cols {
		cols[i] = ResultColumn{Name: lc[i].Name, T: targets[i]}
	}
	return setBranch{plan: &SetOp{Kind: k.kind, All: k.all, Left: left, Right: right, Cols: cols}}, nil
}

// hasEquality reports whether t has an equality operator, which every set
// operation but UNION ALL needs: json has none in PostgreSQL.
func hasEquality(t types.T) bool {
	if t.Kind == types.Array {
		return hasEquality(t.ElemType())
	}
	return t.Kind != types.JSON
}

// resolveBranch returns br's plan with its columns of the types targets
// (nil: unknown columns become text, others stay). An untyped literal is
// read as the target type now, so 'x' against an integer fails here with
// 22P02, as in PostgreSQL; a parameter takes the type; other columns are
// cast.
func (b *builder) resolveBranch(br setBranch, targets []types.T) (Plan, error) {
	cols := br.plan.Columns()
	if targets == nil {
		targets = make([]types.T, len(cols))
		for i, c := range cols {
			targets[i] = c.T
			if br.isUnknown(i) {
				targets[i] = types.TText
			}
		}
	}
	change := false
	for i, c := range cols {
		change = change || br.isUnknown(i) || needsCast(c.T, targets[i])
	}
	if !change {
		return br.plan, nil
	}
	var in Plan
	var exprs []Expr
	if p, ok := br.plan.(*Project); ok {
		in, exprs = p.Input, p.Exprs
	} else {
		in = br.plan
		for i, c := range cols {
			exprs = append(exprs, &ColRef{Idx: i, Name: c.Name, T: c.T})
		}
	}
	out := &Project{Input: in, Exprs: make([]Expr, len(cols)), Cols: make([]ResultColumn, len(cols))}
	for i, c := range cols {
		e, t := exprs[i], targets[i]
		switch {
		case br.isUnknown(i) && isConst(e):
			var err error
			if e, err = b.coerce(&Const{D: e.(*Const).D, T: types.TUnknown}, t, ""); err != nil {
				return nil, err
			}
		case br.isUnknown(i) && isTextParam(e):
			p := e.(*Param)
			p.Params.Types[p.N] = t
		case needsCast(e.Type(), t):
			e = &Cast{E: e, T: t}
		}
		out.Exprs[i] = e
		out.Cols[i] = ResultColumn{Name: c.Name, T: t, TableID: c.TableID, ColumnAttr: c.ColumnAttr}
	}
	return out, nil
}

func isConst(e Expr) bool {
	_, ok := e.(*Const)
	return ok
}

func isTextParam(e Expr) bool {
	p, ok := e.(*Param)
	return ok && p.Params.Types[p.N] == types.TText
}

// needsCast reports whether a value of type from must be converted to be
// of type to; a change of modifier only (varchar(3) to varchar) needs none.
func needsCast(from, to types.T) bool {
	if from.Kind != to.Kind {
		return true
	}
	if from.Kind == types.Array {
		return needsCast(from.ElemType(), to.ElemType())
	}
	return to.Width > 0 && from != to
}

// setOpType is PostgreSQL's select_common_type for two typed columns: the
// types must share a category; the left one is kept unless it is not the
// category's preferred type and converts implicitly to the right one but
// not back; both must then convert implicitly to it. Modifiers survive
// only when both types are identical.
func setOpType(what string, l, r types.T) (types.T, error) {
	if l == r {
		return l, nil
	}
	if typeCategory(l) != typeCategory(r) {
		return l, pgerror.New(pgerror.CodeDatatypeMismatch, "%s types %s and %s cannot be matched", what, l, r)
	}
	t := l
	if !preferredType(l) && implicitCast(l, r) && !implicitCast(r, l) {
		t = r
	}
	for _, from := range []types.T{l, r} {
		if !implicitCast(from, t) {
			return l, pgerror.New(codeCannotCoerce, "%s could not convert type %s to %s", what, from, t)
		}
	}
	t.Width, t.Scale = 0, 0
	return t, nil
}

// codeCannotCoerce is PostgreSQL's cannot_coerce.
const codeCannotCoerce = "42846"

// typeCategory is PostgreSQL's typcategory.
func typeCategory(t types.T) byte {
	switch {
	case t.Kind.IsNumeric():
		return 'N'
	case t.Kind == types.Text || t.Kind == types.BPChar || t.Kind == types.Unknown || t.Kind == types.Name:
		return 'S'
	case t.Kind.IsDateTime():
		return 'D'
	case t.Kind == types.Interval:
		return 'T'
	case t.Kind == types.Bool:
		return 'B'
	case t.Kind == types.Array:
		return 'A'
	}
	return 'U' // bytea, uuid, json, jsonb
}

func preferredType(t types.T) bool {
	switch t.Kind {
	case types.Float8, types.TimestampTZ, types.Interval, types.Bool:
		return true
	case types.Text:
		return !t.VarChar
	}
	return false
}

// castRank orders the kinds of one category along PostgreSQL's implicit
// casts: a kind converts implicitly to every kind of higher rank.
var castRank = map[types.Kind]int{
	types.Int2: 1, types.Int4: 2, types.Int8: 3, types.Numeric: 4, types.Float4: 5, types.Float8: 6,
	types.Date: 1, types.Timestamp: 2, types.TimestampTZ: 3,
}

// implicitCast reports whether PostgreSQL converts a to b implicitly.
func implicitCast(a, b types.T) bool {
	switch {
	case a.Kind == types.Array && b.Kind == types.Array:
		return implicitCast(a.ElemType(), b.ElemType())
	case a.Kind == b.Kind:
		return true
	case typeCategory(a) != typeCategory(b):
		return false
	case typeCategory(a) == 'S':
		return true // text, varchar and char convert to each other
	}
	ra, okA := castRank[a.Kind]
	rb, okB := castRank[b.Kind]
	return okA && okB && ra <= rb
}

// setOpOrderLimit adds a set operation's ORDER BY and LIMIT: ORDER BY
// names output columns, by name or position; expressions are not allowed.
func (b *builder) setOpOrderLimit(plan Plan, orderBy *ast.OrderByClause, limit *ast.Limit) (Plan, error) {
	cols := plan.Columns()
	var sort *Sort
	if orderBy != nil {
		sort = &Sort{Input: plan}
		for _, item := range orderBy.Items {
			idx, err := setOpOrderColumn(item.Expr, cols)
			if err != nil {
				return nil, err
			}
			sort.Keys = append(sort.Keys, SortKey{Expr: &ColRef{Idx: idx, Name: cols[idx].Name, T: cols[idx].T}, Desc: item.Desc, NullsFirst: item.NullOrder})
		}
		plan = sort
	}
	if limit != nil {
		count, err := b.limitExpr(limit.Count)
		if err != nil {
			return nil, err
		}
		offset, err := b.limitExpr(limit.Offset)
		if err != nil {
			return nil, err
		}
		if sort != nil {
			sort.Limit = limitHint(count, offset)
		}
		plan = &Limit{Input: plan, Count: count, Offset: offset}
	}
	return plan, nil
}

// setOpOrderColumn resolves an ORDER BY item of a set operation.
func setOpOrderColumn(n ast.ExprNode, cols []ResultColumn) (int, error) {
	pos, isPos := 0, false
	switch n := n.(type) {
	case *ast.PositionExpr:
		pos, isPos = n.N, n.P == nil
	case *driver.ValueExpr:
		if n.Kind() == driver.KindInt64 {
			pos, isPos = int(n.GetInt64()), true
		} else if n.Kind() != driver.KindNull {
			return 0, pgerror.New(pgerror.CodeSyntaxError, "non-integer constant in ORDER BY")
		}
	case *ast.ColumnNameExpr:
		if q := n.Name.Table.O; q != "" {
			return 0, pgerror.New(pgerror.CodeUndefinedTable, "missing FROM-clause entry for table %q", q)
		}
		idx := -1
		for i, c := range cols {
			if c.Name == n.Name.Name.O {
				if idx >= 0 {
					return 0, pgerror.New(pgerror.CodeAmbiguousColumn, "ORDER BY %q is ambiguous", c.Name)
				}
				idx = i
			}
		}
		if idx < 0 {
			return 0, pgerror.New(pgerror.CodeUndefinedColumn, "column %q does not exist", n.Name.Name.O)
		}
		return idx, nil
	}
	if isPos {
		if pos < 1 || pos > len(cols) {
			return 0, pgerror.New(pgerror.CodeInvalidColumnReference, "ORDER BY position %d is not in select list", pos)
		}
		return pos - 1, nil
	}
	return 0, pgerror.New(pgerror.CodeFeatureNotSupported, "invalid UNION/INTERSECT/EXCEPT ORDER BY clause").
		WithDetail("Only result column names can be used, not expressions or functions.").
		WithHint("Add the expression/function to every SELECT, or move the UNION into a FROM clause.")
}
