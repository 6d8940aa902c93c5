package planner

import (
	"fmt"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// SubqueryKind is how a subquery's rows become a value.
type SubqueryKind uint8

// Subquery kinds.
const (
	ScalarSubquery SubqueryKind = iota // its one row's one column; NULL without rows; 21000 with more
	ExistsSubquery                     // whether it returns a row
	AnySubquery                        // Test Op ANY (its column): IN is = ANY
	AllSubquery                        // Test Op ALL (its column): NOT IN is <> ALL
	ArraySubquery                      // ARRAY(subquery): its column as an array
)

// Subquery is a query used as an expression. An uncorrelated subquery
// runs once per statement execution; a correlated one runs for every row
// it is evaluated over, with that row pushed on the executor's stack of
// enclosing rows (see OuterRef).
type Subquery struct {
	Kind SubqueryKind
	Plan Plan
	Test Expr // ANY and ALL: the left operand, over the enclosing row
	// Row, instead of Test, is a row constructor's operands compared
	// column by column: (a, b) IN (SELECT x, y ...). Only = and <>.
	Row        []Expr
	Op         Op // ANY and ALL: the comparison
	Correlated bool
	ID         int // 1-based, in planning order: EXPLAIN's SubPlan number
	T          types.T
}

func (e *Subquery) Type() types.T { return e.T }

func (e *Subquery) String() string {
	sp := fmt.Sprintf("SubPlan %d", e.ID)
	switch e.Kind {
	case ExistsSubquery:
		return "EXISTS(" + sp + ")"
	case AnySubquery, AllSubquery:
		test := "ROW(" + joinExprs(e.Row) + ")"
		if e.Test != nil {
			test = e.Test.String()
		}
		q := " ANY("
		if e.Kind == AllSubquery {
			q = " ALL("
		}
		return "(" + test + " " + e.Op.String() + q + sp + "))"
	case ArraySubquery:
		return "ARRAY(" + sp + ")"
	}
	return "(" + sp + ")"
}

// subquery plans q as a subquery of the query level sc belongs to.
func (b *builder) subquery(q ast.ResultSetNode, sc *scope, kind SubqueryKind) (*Subquery, error) {
	outer := sc
	if sc.agg != nil {
		outer = aggOuterScope(sc.agg)
	}
	mark := len(b.outerTargets)
	plan, err := b.query(q, outer)
	if err != nil {
		return nil, err
	}
	if kind == ExistsSubquery {
		// EXISTS does not evaluate its select list.
		switch p := plan.(type) {
		case *Project:
			plan = p.Input
		case *Limit:
			if in, ok := p.Input.(*Project); ok {
				plan = &Limit{Input: in.Input, Count: p.Count, Offset: p.Offset}
			}
		}
	}
	sq := &Subquery{Kind: kind, Plan: plan}
	for _, t := range b.outerTargets[mark:] {
		for s := outer; s != nil; s = s.outer {
			if s == t {
				sq.Correlated = true
			}
		}
	}
	cols := plan.Columns()
	if kind != ExistsSubquery && len(cols) != 1 && !(kind == AnySubquery || kind == AllSubquery) {
		if kind == ScalarSubquery || kind == ArraySubquery {
			return nil, pgerror.New(pgerror.CodeSyntaxError, "subquery must return only one column")
		}
		return nil, pgerror.New(pgerror.CodeSyntaxError, "subquery has too many columns")
	}
	switch kind {
	case ExistsSubquery, AnySubquery, AllSubquery:
		sq.T = types.TBool
	case ScalarSubquery:
		sq.T = cols[0].T
	case ArraySubquery:
		sq.T = types.ArrayOf(cols[0].T)
	}
	b.subqueries = append(b.subqueries, sq)
	sq.ID = len(b.subqueries)
	return sq, nil
}

// subqueryExpr builds (SELECT ...), EXISTS (SELECT ...) and
// x op ANY|ALL (SELECT ...).
func (b *builder) subqueryExpr(n ast.ExprNode, sc *scope) (Expr, error) {
	switch n := n.(type) {
	case *ast.SubqueryExpr:
		return b.subquery(n.Query, sc, ScalarSubquery)
	case *ast.ExistsSubqueryExpr:
		sub, ok := n.Sel.(*ast.SubqueryExpr)
		if !ok {
			return nil, pgerror.Unimplemented("EXISTS over " + nodeName(n.Sel))
		}
		sq, err := b.subquery(sub.Query, sc, ExistsSubquery)
		if err != nil {
			return nil, err
		}
		if n.Not {
			return &UnaryOp{Op: OpNot, E: sq, T: types.TBool}, nil
		}
		return sq, nil
	case *ast.CompareSubqueryExpr:
		op, ok := binOps[n.Op]
		if !ok || !op.IsComparison() {
			return nil, pgerror.Unimplemented("operator " + n.Op.String() + " with a subquery")
		}
		sub, ok := n.R.(*ast.SubqueryExpr)
		if !ok {
			return nil, pgerror.Unimplemented("ANY/ALL over " + nodeName(n.R))
		}
		kind := AnySubquery
		if n.All {
			kind = AllSubquery
		}
		return b.compareSubquery(n.L, op, sub, kind, sc)
	}
	return nil, pgerror.Unimplemented("subquery " + nodeName(n))
}

// inSubquery builds x [NOT] IN (SELECT ...): = ANY, or <> ALL.
func (b *builder) inSubquery(n *ast.PatternInExpr, sc *scope) (Expr, error) {
	sub, ok := n.Sel.(*ast.SubqueryExpr)
	if !ok {
		return nil, pgerror.Unimplemented("IN over " + nodeName(n.Sel))
	}
	if n.Not {
		return b.compareSubquery(n.Expr, OpNE, sub, AllSubquery, sc)
	}
	return b.compareSubquery(n.Expr, OpEQ, sub, AnySubquery, sc)
}

func (b *builder) compareSubquery(left ast.ExprNode, op Op, sub *ast.SubqueryExpr, kind SubqueryKind, sc *scope) (Expr, error) {
	if row, ok := left.(*ast.RowExpr); ok {
		if op != OpEQ && op != OpNE {
			return nil, pgerror.Unimplemented("row comparison " + op.String() + " with a subquery")
		}
		sq, err := b.subquery(sub.Query, sc, kind)
		if err != nil {
			return nil, err
		}
		cols := sq.Plan.Columns()
		if len(cols) != len(row.Values) {
			if len(cols) > len(row.Values) {
				return nil, pgerror.New(pgerror.CodeSyntaxError, "subquery has too many columns")
			}
			return nil, pgerror.New(pgerror.CodeSyntaxError, "subquery has too few columns")
		}
		ts := make([]types.T, len(cols))
		for i, v := range row.Values {
			e, err := b.expr(v, sc)
			if err != nil {
				return nil, err
			}
			l, _, t, err := b.unify(e, &ColRef{Name: cols[i].Name, T: cols[i].T}, op.String())
			if err != nil {
				return nil, err
			}
			sq.Row, ts[i] = append(sq.Row, castTo(l, t)), t
		}
		sq.Plan, sq.Op = castColumns(sq.Plan, ts), op
		return sq, nil
	}
	test, err := b.expr(left, sc)
	if err != nil {
		return nil, err
	}
	sq, err := b.subquery(sub.Query, sc, kind)
	if err != nil {
		return nil, err
	}
	if len(sq.Plan.Columns()) != 1 {
		return nil, pgerror.New(pgerror.CodeSyntaxError, "subquery has too many columns")
	}
	col := sq.Plan.Columns()[0]
	l, _, t, err := b.unify(test, &ColRef{Name: col.Name, T: col.T}, op.String())
	if err != nil {
		return nil, err
	}
	// Both sides compare as one type, so equal values hash alike in the
	// executor's IN set (1 IN (SELECT 1.0) is true).
	sq.Test, sq.Op = castTo(l, t), op
	sq.Plan = castColumns(sq.Plan, []types.T{t})
	return sq, nil
}

// castTo converts e to t when it is of another type.
func castTo(e Expr, t types.T) Expr {
	if e.Type() == t || e.Type().Kind == types.Unknown {
		return e
	}
	return &Cast{E: e, T: t}
}

// castColumns projects p's columns to the types ts where they differ.
func castColumns(p Plan, ts []types.T) Plan {
	cols := p.Columns()
	same := true
	for i, c := range cols {
		same = same && c.T == ts[i]
	}
	if same {
		return p
	}
	exprs := make([]Expr, len(cols))
	out := make([]ResultColumn, len(cols))
	for i, c := range cols {
		exprs[i] = castTo(&ColRef{Idx: i, Name: c.Name, T: c.T}, ts[i])
		out[i] = ResultColumn{Name: c.Name, T: ts[i]}
	}
	return &Project{Input: p, Exprs: exprs, Cols: out}
}

// cteDef is a common table expression visible by name.
type cteDef struct {
	name string
	plan Plan
	cols []ResultColumn
	// work is set while the recursive term of a WITH RECURSIVE CTE is
	// planned: references to the name read the working table.
	work *WorkTable
}

// WorkTable reads the rows the previous iteration of a recursive CTE
// produced.
type WorkTable struct {
	ID   int
	Name string
	Cols []ResultColumn
}

// RecursiveUnion evaluates WITH RECURSIVE: Init's rows, then Recursive
// repeatedly over the rows the previous round produced (its WorkTable),
// until a round produces none. Without All, rows already produced are
// dropped.
type RecursiveUnion struct {
	ID              int
	Name            string
	Init, Recursive Plan
	All             bool
	Cols            []ResultColumn
}

func (w *WorkTable) Columns() []ResultColumn      { return w.Cols }
func (r *RecursiveUnion) Columns() []ResultColumn { return r.Cols }

// withClause plans the CTEs of a WITH clause into a carrier scope inside
// outer; the query's FROM items resolve names in it.
func (b *builder) withClause(w *ast.WithClause, outer *scope) (*scope, error) {
	carrier := &scope{outer: outer, carrier: true, ctes: map[string]*cteDef{}}
	for _, cte := range w.CTEs {
		name := cte.Name.O
		if carrier.ctes[name] != nil {
			return nil, pgerror.New(pgerror.CodeDuplicateAlias, "WITH query name %q specified more than once", name)
		}
		var q ast.ResultSetNode
		if cte.Query != nil {
			q = cte.Query.Query
		}
		var aliases []string
		for _, c := range cte.ColNameList {
			aliases = append(aliases, c.O)
		}
		var def *cteDef
		var err error
		if w.IsRecursive && q != nil && refersTo(q, name) {
			def, err = b.recursiveCTE(name, q, aliases, carrier)
		} else {
			var plan Plan
			if plan, err = b.query(q, carrier); err == nil {
				def = &cteDef{name: name, plan: plan}
				def.cols, err = aliasColumns(name, plan.Columns(), aliases)
			}
		}
		if err != nil {
			return nil, err
		}
		carrier.ctes[name] = def
	}
	return carrier, nil
}

// aliasColumns renames a derived table's columns by its alias list.
func aliasColumns(name string, cols []ResultColumn, aliases []string) ([]ResultColumn, error) {
	if len(aliases) > len(cols) {
		return nil, pgerror.New(pgerror.CodeInvalidColumnReference,
			"table %q has %d columns available but %d columns specified", name, len(cols), len(aliases))
	}
	out := append([]ResultColumn(nil), cols...)
	for i, a := range aliases {
		out[i].Name = a
	}
	return out, nil
}

// recursiveCTE plans `init UNION [ALL] recursive`, where only the last
// branch may refer to the CTE itself.
func (b *builder) recursiveCTE(name string, q ast.ResultSetNode, aliases []string, carrier *scope) (*cteDef, error) {
	set, ok := q.(*ast.SetOprStmt)
	if !ok || set.SelectList == nil || len(set.SelectList.Selects) < 2 {
		return nil, pgerror.New(pgerror.CodeInvalidRecursion,
			"recursive query %q does not have the form non-recursive-term UNION [ALL] recursive-term", name)
	}
	sels := set.SelectList.Selects
	last, ok := sels[len(sels)-1].(*ast.SelectStmt)
	if !ok || last.AfterSetOperator == nil || (*last.AfterSetOperator != ast.Union && *last.AfterSetOperator != ast.UnionAll) {
		return nil, pgerror.New(pgerror.CodeInvalidRecursion,
			"recursive query %q does not have the form non-recursive-term UNION [ALL] recursive-term", name)
	}
	if set.OrderBy != nil || set.Limit != nil {
		return nil, pgerror.Unimplemented("ORDER BY or LIMIT in a recursive query")
	}
	var initNode ast.Node = sels[0]
	if len(sels) > 2 {
		head := *set
		list := *set.SelectList
		list.Selects = sels[:len(sels)-1]
		head.SelectList = &list
		initNode = &head
	}
	if refersTo(initNode, name) {
		return nil, pgerror.New(pgerror.CodeInvalidRecursion, "recursive reference to query %q must not appear within its non-recursive term", name)
	}
	if err := checkRecursiveTerm(last, name); err != nil {
		return nil, err
	}
	init, err := b.query(initNode, carrier)
	if err != nil {
		return nil, err
	}
	cols, err := aliasColumns(name, init.Columns(), aliases)
	if err != nil {
		return nil, err
	}
	b.workTables++
	id := b.workTables
	def := &cteDef{name: name, cols: cols, work: &WorkTable{ID: id, Name: name, Cols: cols}}
	carrier.ctes[name] = def
	recNode := *last
	recNode.AfterSetOperator = nil
	rec, err := b.query(&recNode, carrier)
	if err != nil {
		return nil, err
	}
	rc := rec.Columns()
	if len(rc) != len(cols) {
		return nil, pgerror.New(pgerror.CodeSyntaxError, "each UNION query must have the same number of columns")
	}
	// The recursive term's columns take the non-recursive term's types.
	exprs := make([]Expr, len(rc))
	for i, c := range rc {
		var e Expr = &ColRef{Idx: i, Name: c.Name, T: c.T}
		if c.T != cols[i].T {
			if c.T.Kind != types.Unknown {
				return nil, pgerror.New(pgerror.CodeDatatypeMismatch,
					"recursive query %q column %d has type %s in non-recursive term but type %s overall", name, i+1, cols[i].T, c.T).
					WithHint("Cast the output of the non-recursive term to the correct type.")
			}
			e = &Cast{E: e, T: cols[i].T}
		}
		exprs[i] = e
	}
	rec = &Project{Input: rec, Exprs: exprs, Cols: cols}
	def.plan = &RecursiveUnion{ID: id, Name: name, Init: init, Recursive: rec,
		All: *last.AfterSetOperator == ast.UnionAll, Cols: cols}
	def.work = nil
	return def, nil
}

// refersTo reports whether the query reads a table named name.
func refersTo(q ast.Node, name string) bool {
	v := &tableNameFinder{name: name}
	q.Accept(v)
	return v.found
}

type tableNameFinder struct {
	name  string
	found bool
}

func (v *tableNameFinder) Enter(n ast.Node) (ast.Node, bool) {
	if t, ok := n.(*ast.TableName); ok && t.Schema.O == "" && t.Name.O == v.name {
		v.found = true
	}
	return n, v.found
}

func (v *tableNameFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// aggOuterScope is the scope a subquery in an aggregated query's output
// sees: the aggregate's output row, where a GROUP BY column keeps its
// name and the other columns of the FROM items may not be used.
func aggOuterScope(st *aggState) *scope {
	pre := st.pre
	sc := &scope{rels: pre.rels, outer: pre.outer, agg: nil}
	grouped := map[int]int{}
	for i, g := range st.groupBy {
		if c, ok := g.(*ColRef); ok {
			grouped[c.Idx] = i
		}
	}
	sc.cols = make([]scopeCol, len(st.groupBy))
	for i, g := range st.groupBy {
		sc.cols[i] = scopeCol{name: "?group?", t: g.Type(), fullUsing: -1, rel: &rel{}}
	}
	for p := range pre.cols {
		c := pre.cols[p]
		if i, ok := grouped[p]; ok {
			c.fullUsing = -1
			sc.cols[i] = c
			continue
		}
		c.ungrouped = true
		sc.cols = append(sc.cols, c)
	}
	return sc
}

// checkRecursiveTerm applies PostgreSQL's rules to the recursive term: it
// reads the CTE exactly once, not inside a subquery or an outer join, and
// has no aggregate.
func checkRecursiveTerm(sel *ast.SelectStmt, name string) error {
	v := &recursionChecker{name: name}
	sel.Accept(v)
	switch {
	case v.err != nil:
		return v.err
	case v.refs > 1:
		return pgerror.New(pgerror.CodeInvalidRecursion, "recursive reference to query %q must not appear more than once", name)
	case hasAggregate(sel.Fields) || sel.Having != nil && hasAggregate(sel.Having):
		return pgerror.New(pgerror.CodeInvalidRecursion, "aggregate functions are not allowed in a recursive query's recursive term")
	}
	return nil
}

type recursionChecker struct {
	name       string
	refs       int
	subqueries int
	outerJoins int
	err        error
}

func (v *recursionChecker) Enter(n ast.Node) (ast.Node, bool) {
	switch n := n.(type) {
	case *ast.SubqueryExpr:
		v.subqueries++
	case *ast.Join:
		if n.Tp == ast.LeftJoin || n.Tp == ast.RightJoin {
			v.outerJoins++
		}
	case *ast.TableName:
		if n.Schema.O == "" && n.Name.O == v.name {
			v.refs++
			switch {
			case v.err != nil:
			case v.subqueries > 0:
				v.err = pgerror.New(pgerror.CodeInvalidRecursion, "recursive reference to query %q must not appear within a subquery", v.name)
			case v.outerJoins > 0:
				v.err = pgerror.New(pgerror.CodeInvalidRecursion, "recursive reference to query %q must not appear within an outer join", v.name)
			}
		}
	}
	return n, false
}

func (v *recursionChecker) Leave(n ast.Node) (ast.Node, bool) {
	switch n := n.(type) {
	case *ast.SubqueryExpr:
		v.subqueries--
	case *ast.Join:
		if n.Tp == ast.LeftJoin || n.Tp == ast.RightJoin {
			v.outerJoins--
		}
	}
	return n, true
}
