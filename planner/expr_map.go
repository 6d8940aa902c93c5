package planner

// mapExpr returns e with fn applied bottom-up: fn sees every node after
// its children were mapped and returns its replacement (or the node). Only
// changed nodes are copied. A subquery's plan is not entered: its
// OuterRefs describe the layout the subquery was built in, so callers do
// not move expressions holding correlated subqueries.
func mapExpr(e Expr, fn func(Expr) Expr) Expr {
	if e == nil {
		return nil
	}
	switch x := e.(type) {
	case *BinOp:
		l, r := mapExpr(x.L, fn), mapExpr(x.R, fn)
		if l != x.L || r != x.R {
			c := *x
			c.L, c.R = l, r
			e = &c
		}
	case *UnaryOp:
		if in := mapExpr(x.E, fn); in != x.E {
			c := *x
			c.E = in
			e = &c
		}
	case *IsNull:
		if in := mapExpr(x.E, fn); in != x.E {
			c := *x
			c.E = in
			e = &c
		}
	case *Cast:
		if in := mapExpr(x.E, fn); in != x.E {
			c := *x
			c.E = in
			e = &c
		}
	case *InList:
		in := mapExpr(x.E, fn)
		list, changed := mapExprs(x.List, fn)
		if in != x.E || changed {
			c := *x
			c.E, c.List = in, list
			e = &c
		}
	case *Like:
		in, pat := mapExpr(x.E, fn), mapExpr(x.Pattern, fn)
		if in != x.E || pat != x.Pattern {
			c := *x
			c.E, c.Pattern = in, pat
			e = &c
		}
	case *Case:
		c := *x
		changed := false
		c.Operand = mapExpr(x.Operand, fn)
		c.Else = mapExpr(x.Else, fn)
		c.Whens = make([]When, len(x.Whens))
		for i, w := range x.Whens {
			c.Whens[i] = When{Cond: mapExpr(w.Cond, fn), Result: mapExpr(w.Result, fn)}
			changed = changed || c.Whens[i] != w
		}
		if changed || c.Operand != x.Operand || c.Else != x.Else {
			e = &c
		}
	case *Func:
		if args, changed := mapExprs(x.Args, fn); changed {
			c := *x
			c.Args = args
			e = &c
		}
	case *ElemsOf:
		if a := mapExpr(x.Array, fn); a != x.Array {
			c := *x
			c.Array = a
			e = &c
		}
	case *Subquery:
		if t := mapExpr(x.Test, fn); t != x.Test {
			c := *x
			c.Test = t
			e = &c
		}
	}
	return fn(e)
}

func mapExprs(es []Expr, fn func(Expr) Expr) ([]Expr, bool) {
	out := make([]Expr, len(es))
	changed := false
	for i, x := range es {
		out[i] = mapExpr(x, fn)
		changed = changed || out[i] != x
	}
	if !changed {
		return es, false
	}
	return out, true
}

// remapCols renumbers the ColRefs of e through slot (old index -> new).
func remapCols(e Expr, slot func(int) int) Expr {
	return mapExpr(e, func(x Expr) Expr {
		if c, ok := x.(*ColRef); ok {
			if n := slot(c.Idx); n != c.Idx {
				return &ColRef{Idx: n, Name: c.Name, T: c.T}
			}
		}
		return x
	})
}

// hasSubquery reports whether e holds a subquery.
func hasSubquery(e Expr) bool {
	found := false
	mapExpr(e, func(x Expr) Expr {
		if _, ok := x.(*Subquery); ok {
			found = true
		}
		return x
	})
	return found
}
