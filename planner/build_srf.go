package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/sqlparse"
)

//
// Set-returning functions, in a FROM clause and in a select list. Both
// are typed as ordinary calls (build_funcs_array.go gives them impl names
// starting with SRFPrefix) and then lifted out of the expression into a
// ProjectSet (plan_srf.go).

// fromFuncCall recognizes sqlparse's form of a function in FROM,
// (SELECT pg_from_func('flags', f(args))) AS alias: it returns the call
// and whether WITH ORDINALITY was given.
func fromFuncCall(src ast.ResultSetNode) (*ast.FuncCallExpr, bool, bool) {
	sel, ok := src.(*ast.SelectStmt)
	if !ok || sel.From != nil || sel.Fields == nil || len(sel.Fields.Fields) != 1 || sel.Where != nil {
		return nil, false, false
	}
	m, ok := sel.Fields.Fields[0].Expr.(*ast.FuncCallExpr)
	if !ok || m.FnName.L != sqlparse.PgFromFunc || len(m.Args) != 2 {
		return nil, false, false
	}
	flags, ok := m.Args[0].(*driver.ValueExpr)
	call, isCall := m.Args[1].(*ast.FuncCallExpr)
	if !ok || !isCall {
		return nil, false, false
	}
	return call, strings.Contains(flags.GetString(), "ordinality"), true
}

// funcFromItem adds a function call in FROM to sc and g. Its arguments may
// read the FROM items to its left (implicitly LATERAL, as in PostgreSQL);
// then the leaf is planned over them by planFrom.
func (b *builder) funcFromItem(call *ast.FuncCallExpr, ordinality bool, alias string, sc *scope, g *joinGroup) error {
	e, err := b.expr(call, sc)
	if err != nil {
		return err
	}
	f, ok := e.(*Func)
	if !ok {
		e = resolveUnknown(e)
		f = &Func{Name: "pg_identity", Args: []Expr{e}, T: e.Type()}
	}
	name := strings.ToLower(call.FnName.O)
	if alias == "" {
		alias = name
	}
	cols := srfColumns(f, alias)
	if al := b.columnAliases[alias]; al != nil {
		if len(al) > len(cols)+btoi(ordinality) {
			return pgerror.New(pgerror.CodeSyntaxError, "too many column aliases specified for function %s", name)
		}
	}
	ps := &ProjectSet{SRFs: []SRFCall{{Func: f, Cols: cols}}, Ordinality: ordinality}
	all := append([]ResultColumn(nil), cols...)
	if ordinality {
		all = append(all, ordinalityCol)
	}
	if all, err = aliasColumns(alias, all, b.columnAliases[alias]); err != nil {
		return err
	}
	copy(ps.SRFs[0].Cols, all)
	lateral := false
	WalkCols(f, func(*ColRef) { lateral = true })
	l := &leaf{first: len(sc.cols), n: len(all)}
	if lateral {
		l.lateral = ps
	} else {
		ps.Input, ps.Cols = oneRow(), all
		l.plan = ps
	}
	l.rel = sc.addDerived(alias, all)
	g.leaves = append(g.leaves, l)
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// planFrom plans a FROM clause's join group. A function reading earlier
// FROM items (a lateral leaf) is run over the join of the items to its
// left; the result is one leaf joined with the items after it.
func (b *builder) planFrom(g *joinGroup, conds []Expr, sc *scope) (Plan, error) {
	k := -1
	for i, l := range g.leaves {
		if l.lateral != nil {
			k = i
			break
		}
	}
	if k < 0 {
		return b.planGroup(g, conds, sc, 0)
	}
	at := g.leaves[k].first
	var before, after []Expr
	for _, c := range conds {
		if _, hi, ok := slotBounds(c); ok && hi < at && !hasSubquery(c) {
			before = append(before, c)
		} else {
			after = append(after, c)
		}
	}
	var left Plan = oneRow()
	if k > 0 {
		var err error
		if left, err = b.planGroup(&joinGroup{leaves: g.leaves[:k]}, before, sc, 0); err != nil {
			return nil, err
		}
	} else {
		after = append(after, before...)
	}
	ps := *g.leaves[k].lateral
	ps.Input = left
	ps.Cols = append(append([]ResultColumn(nil), left.Columns()...), ps.SRFs[0].Cols...)
	if ps.Ordinality {
		ps.Cols = append(ps.Cols, ordinalityCol)
	}
	merged := &leaf{first: 0, n: len(ps.Cols), plan: &ps}
	rest := &joinGroup{leaves: append([]*leaf{merged}, g.leaves[k+1:]...)}
	return b.planFrom(rest, after, sc)
}

// projectSet lifts the set-returning function calls out of a select
// list's expressions: when there are any, it returns a ProjectSet over
// input that appends their values to each row, and exprs reading those
// columns instead. ok is false when exprs call none.
func (b *builder) projectSet(input Plan, exprs []Expr, cols []ResultColumn) (_ Plan, _ []Expr, ok bool, err error) {
	base := len(input.Columns())
	ps := &ProjectSet{Input: input, Cols: append([]ResultColumn(nil), input.Columns()...)}
	// records maps the slot of a _pg_expandarray record to its call.
	records := map[int]int{}
	lift := func(x Expr) Expr {
		f, isFunc := x.(*Func)
		if !isFunc || err != nil {
			return x
		}
		if f.Name == "record_field" {
			// (srf(...)).x: the field's own column.
			r, isRef := f.Args[0].(*ColRef)
			field, isConst := f.Args[1].(*Const)
			if !isRef || !isConst {
				return x
			}
			if _, isRec := records[r.Idx]; !isRec {
				return x
			}
			switch field.D.S {
			case "x":
				c := ps.Cols[r.Idx+1]
				return &ColRef{Idx: r.Idx + 1, Name: c.Name, T: c.T}
			case "n":
				c := ps.Cols[r.Idx+2]
				return &ColRef{Idx: r.Idx + 2, Name: c.Name, T: c.T}
			}
			err = pgerror.New(pgerror.CodeUndefinedColumn, "column %q not found in data type record", field.D.S)
			return x
		}
		if !strings.HasPrefix(f.Name, SRFPrefix) {
			return x
		}
		for _, a := range f.Args {
			nested := false
			WalkCols(a, func(c *ColRef) { nested = nested || c.Idx >= base })
			if nested {
				err = pgerror.Unimplemented("set-returning functions in the arguments of a set-returning function")
				return x
			}
		}
		slot := len(ps.Cols)
		c := SRFCall{Func: f}
		if f.Name == srfExpandArray {
			records[slot] = len(ps.SRFs)
			c.Cols = append([]ResultColumn{{Name: "_pg_expandarray", T: recordT}}, srfColumns(f, "")...)
		} else {
			c.Cols = srfColumns(f, strings.TrimPrefix(f.Name, SRFPrefix))
		}
		ps.SRFs = append(ps.SRFs, c)
		ps.Cols = append(ps.Cols, c.Cols...)
		return &ColRef{Idx: slot, Name: c.Cols[0].Name, T: c.Cols[0].T}
	}
	out := make([]Expr, len(exprs))
	for i, e := range exprs {
		out[i] = mapExpr(e, lift)
		if err != nil {
			return nil, nil, false, err
		}
		if out[i] != e && i < len(cols) {
			cols[i].T = out[i].Type()
		}
	}
	if len(ps.SRFs) == 0 {
		return input, exprs, false, nil
	}
	return ps, out, true, nil
}

// srfOutputName names a select-list column for the bridge's subscript and
// field-selection forms, as PostgreSQL's FigureColname does: a[i] after
// a, (rec).f after f. ok is false for other calls.
func srfOutputName(name string, args []ast.ExprNode) (string, bool) {
	switch name {
	case "pg_subscript", "pg_slice":
		if len(args) > 0 {
			return outputName(args[0]), true
		}
	case "pg_field":
		if len(args) == 2 {
			if v, ok := args[1].(*driver.ValueExpr); ok {
				return v.GetString(), true
			}
		}
	}
	return "", false
}
