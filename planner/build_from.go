package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// A FROM clause is planned in two steps. flatten walks the join tree into
// a joinGroup: its items (leaves) in FROM order and the conditions of its
// inner joins; an outer join is one leaf, planned as a group of its own
// on each side. Every leaf owns a contiguous range of slots of the query
// level's row (the scope), in FROM order. planGroup then chooses the join
// order and methods, and returns rows in that FROM-order layout, whatever
// order it joined in.

// leaf is one item of a join group.
type leaf struct {
	first, n int // its slots in the query level's row
	// A base table: planned as a Scan (possibly the inner side of a
	// lookup join).
	table *TableDesc
	rel   *rel
	// Otherwise its plan, producing rows of n columns, or an outer join
	// to plan.
	plan Plan
	join *outerSpec
	// lateral is a FROM-clause function reading earlier items, its
	// Input to be planned (planFrom, build_srf.go).
	lateral *ProjectSet
	// planning state
	local []Expr // conditions over this leaf only, leaf-relative slots
	scan  *Scan
}

// onCond is an ON condition and how much of the FROM clause it sees:
// the items up to its join.
type onCond struct {
	e            ast.ExprNode
	nrels, ncols int
}

// onScope is the scope an ON condition is built in.
func (c onCond) scope(sc *scope) *scope {
	v := *sc
	v.rels, v.cols = sc.rels[:c.nrels], sc.cols[:c.ncols]
	return &v
}

type joinGroup struct {
	leaves []*leaf
	on     []onCond // inner join ON conditions
	conds  []Expr   // built conditions (USING, NATURAL)
}

// fromClause plans FROM and WHERE. The plan's rows follow the returned
// scope's layout.
func (b *builder) fromClause(refs *ast.TableRefsClause, where ast.ExprNode, outer *scope) (Plan, *scope, error) {
	sc := &scope{outer: outer}
	g := &joinGroup{}
	if err := b.flatten(refs.TableRefs, sc, g); err != nil {
		return nil, nil, err
	}
	conds := g.conds
	for _, on := range g.on {
		c, err := b.boolExpr(on.e, on.scope(sc), "JOIN/ON")
		if err != nil {
			return nil, nil, err
		}
		conds = splitAnd(c, conds)
	}
	if where != nil {
		if hasAggregate(where) {
			return nil, nil, pgerror.New(pgerror.CodeGroupingError, "aggregate functions are not allowed in WHERE")
		}
		c, err := b.boolExpr(where, sc, "WHERE")
		if err != nil {
			return nil, nil, err
		}
		conds = splitAnd(c, conds)
	}
	p, err := b.planFrom(g, conds, sc) // build_srf.go: functions reading earlier items
	return p, sc, err
}

// flatten adds the FROM items of n to sc and g.
func (b *builder) flatten(n ast.ResultSetNode, sc *scope, g *joinGroup) error {
	switch n := n.(type) {
	case *ast.Join:
		if n.Right == nil {
			return b.flatten(n.Left, sc, g)
		}
		full := fullJoinMarker(n)
		if n.Tp == ast.LeftJoin || n.Tp == ast.RightJoin || full != "" {
			l, err := b.outerJoin(n, sc, full)
			if err != nil {
				return err
			}
			g.leaves = append(g.leaves, l)
			return nil
		}
		leftStart := len(sc.cols)
		if err := b.flatten(n.Left, sc, g); err != nil {
			return err
		}
		rightStart := len(sc.cols)
		if err := b.flatten(n.Right, sc, g); err != nil {
			return err
		}
		if n.On != nil {
			g.on = append(g.on, onCond{e: n.On.Expr, nrels: len(sc.rels), ncols: len(sc.cols)})
		}
		conds, err := b.using(n, sc, leftStart, rightStart, false)
		if err != nil {
			return err
		}
		g.conds = append(g.conds, conds...)
		return nil
	case *ast.TableSource:
		return b.fromItem(n, sc, g)
	}
	return pgerror.Unimplemented("FROM item " + nodeName(n))
}

// fullJoinMarker recognizes sqlparse's FULL JOIN forms (fromsyntax.go):
// "pg_full_join", "pg_full_using", "pg_full_natural" or "".
func fullJoinMarker(j *ast.Join) string {
	if j.Tp != ast.LeftJoin || j.On == nil {
		return ""
	}
	if f, ok := j.On.Expr.(*ast.FuncCallExpr); ok {
		switch f.FnName.L {
		case "pg_full_join", "pg_full_using", "pg_full_natural":
			return f.FnName.L
		}
	}
	return ""
}

// fromItem adds a table, CTE reference or derived table.
func (b *builder) fromItem(ts *ast.TableSource, sc *scope, g *joinGroup) error {
	alias := ts.AsName.O
	for _, r := range sc.rels {
		if alias != "" && r.alias == alias {
			return pgerror.New(pgerror.CodeDuplicateAlias, "table name %q specified more than once", alias)
		}
	}
	switch src := ts.Source.(type) {
	case *ast.TableName:
		name := src.Name.O
		if alias == "" {
			alias = name
			for _, r := range sc.rels {
				if r.alias == alias {
					return pgerror.New(pgerror.CodeDuplicateAlias, "table name %q specified more than once", alias)
				}
			}
		}
		if src.Schema.O == "" {
			if def := sc.lookupCTE(name); def != nil {
				cols, err := aliasColumns(alias, def.cols, b.columnAliases[alias])
				if err != nil {
					return err
				}
				var p Plan = def.plan
				if def.work != nil {
					p = def.work
				}
				l := &leaf{first: len(sc.cols), n: len(cols), plan: p}
				l.rel = sc.addDerived(alias, cols)
				g.leaves = append(g.leaves, l)
				return nil
			}
		}
		t, err := b.lookupTable(src.Schema.O, name)
		if err != nil {
			return err
		}
		if src.AsOf != nil {
			if t, err = b.asOf(t, src.AsOf); err != nil { // build_time.go
				return err
			}
		}
		if t.Virtual == "" && b.writeTimesWanted() {
			t = withWriteTimes(t) // build_writetime.go: hidden write-time slots
		}
		l := &leaf{first: len(sc.cols), n: len(t.Columns), table: t}
		l.rel = sc.addTable(t, alias)
		if al := b.columnAliases[alias]; al != nil {
			vis := t.Visible()
			if len(al) > len(vis) {
				return pgerror.New(pgerror.CodeInvalidColumnReference,
					"table %q has %d columns available but %d columns specified", alias, len(vis), len(al))
			}
			for i, a := range al {
				sc.cols[l.first+vis[i]].name = a
			}
		}
		g.leaves = append(g.leaves, l)
		return nil
	case *ast.SelectStmt, *ast.SetOprStmt:
		if call, ord, ok := fromFuncCall(src); ok {
			return b.funcFromItem(call, ord, alias, sc, g) // build_srf.go
		}
		if alias == "" {
			return pgerror.New(pgerror.CodeSyntaxError, "subquery in FROM must have an alias").
				WithHint("For example, FROM (SELECT ...) [AS] foo.")
		}
		// A derived table sees the CTEs and the enclosing levels, not the
		// other FROM items (no LATERAL).
		carrier := &scope{outer: sc.outer, carrier: true}
		p, err := b.query(src, carrier)
		if err != nil {
			return err
		}
		cols, err := aliasColumns(alias, p.Columns(), b.columnAliases[alias])
		if err != nil {
			return err
		}
		l := &leaf{first: len(sc.cols), n: len(cols), plan: p}
		l.rel = sc.addDerived(alias, cols)
		g.leaves = append(g.leaves, l)
		return nil
	case *ast.Join:
		return b.flatten(src, sc, g)
	}
	return pgerror.Unimplemented("FROM item " + nodeName(ts.Source))
}

// using returns the equalities of JOIN ... USING (cols) or NATURAL JOIN
// between the left slots [leftStart, rightStart) and the right ones after,
// and marks the right columns merged. For a FULL JOIN the left column
// stands for the COALESCE of both.
func (b *builder) using(j *ast.Join, sc *scope, leftStart, rightStart int, full bool) ([]Expr, error) {
	var names []string
	for _, c := range j.Using {
		names = append(names, c.Name.O)
	}
	if f, ok := usingMarker(j); ok {
		for _, a := range f.Args {
			c, ok := a.(*ast.ColumnNameExpr)
			if !ok {
				return nil, pgerror.New(pgerror.CodeSyntaxError, "syntax error in USING")
			}
			names = append(names, c.Name.Name.O)
		}
	}
	if j.NaturalJoin || fullJoinMarker(j) == "pg_full_natural" {
		seen := map[string]bool{}
		for i := leftStart; i < rightStart; i++ {
			c := &sc.cols[i]
			if c.hidden || c.merged || seen[c.name] {
				continue
			}
			for k := rightStart; k < len(sc.cols); k++ {
				if sc.cols[k].name == c.name && !sc.cols[k].hidden {
					names = append(names, c.name)
					seen[c.name] = true
					break
				}
			}
		}
	}
	var conds []Expr
	for _, name := range names {
		find := func(from, to int, side string) (int, error) {
			slot := -1
			for i := from; i < to; i++ {
				c := &sc.cols[i]
				if c.name == name && !c.hidden && !c.merged {
					if slot >= 0 {
						return -1, pgerror.New(pgerror.CodeAmbiguousColumn, "common column name %q appears more than once in %s table", name, side)
					}
					slot = i
				}
			}
			if slot < 0 {
				return -1, pgerror.New(pgerror.CodeUndefinedColumn, "column %q specified in USING clause does not exist in %s table", name, side)
			}
			return slot, nil
		}
		l, err := find(leftStart, rightStart, "left")
		if err != nil {
			return nil, err
		}
		r, err := find(rightStart, len(sc.cols), "right")
		if err != nil {
			return nil, err
		}
		le, re := b.slotRef(sc, l, 0, false), b.slotRef(sc, r, 0, false)
		eq, err := b.binOp(OpEQ, le, re)
		if err != nil {
			return nil, err
		}
		conds = append(conds, eq)
		sc.cols[r].merged = true
		if full {
			sc.cols[l].fullUsing = r
		}
	}
	return conds, nil
}

func usingMarker(j *ast.Join) (*ast.FuncCallExpr, bool) {
	if fullJoinMarker(j) != "pg_full_using" {
		return nil, false
	}
	return j.On.Expr.(*ast.FuncCallExpr), true
}

// outerJoin plans LEFT, RIGHT and FULL joins as one leaf.
func (b *builder) outerJoin(j *ast.Join, sc *scope, full string) (*leaf, error) {
	first := len(sc.cols)
	lg, rg := &joinGroup{}, &joinGroup{}
	if err := b.flatten(j.Left, sc, lg); err != nil {
		return nil, err
	}
	mid := len(sc.cols)
	if err := b.flatten(j.Right, sc, rg); err != nil {
		return nil, err
	}
	kind := LeftJoin
	switch {
	case full != "":
		kind = FullJoin
	case j.Tp == ast.RightJoin:
		kind = RightJoin
	}
	conds, err := b.using(j, sc, first, mid, kind == FullJoin)
	if err != nil {
		return nil, err
	}
	if j.On != nil && full != "pg_full_using" && full != "pg_full_natural" {
		on := j.On.Expr
		if full == "pg_full_join" {
			on = j.On.Expr.(*ast.FuncCallExpr).Args[0]
		}
		c, err := b.boolExpr(on, onCond{nrels: len(sc.rels), ncols: len(sc.cols)}.scope(sc), "JOIN/ON")
		if err != nil {
			return nil, err
		}
		conds = splitAnd(c, conds)
	}
	return &leaf{first: first, n: len(sc.cols) - first,
		join: &outerSpec{kind: kind, mid: mid, left: lg, right: rg, conds: conds}}, nil
}

// outerSpec is an outer join leaf, planned once the WHERE conditions that
// can go below it are known.
type outerSpec struct {
	kind        JoinKind
	mid         int // the first slot of the right side
	left, right *joinGroup
	conds       []Expr // ON and USING conditions
}

// planOuter plans an outer join leaf. whereL and whereR are WHERE
// conditions over the preserved side only, which filter it below the join.
func (b *builder) planOuter(l *leaf, sc *scope, whereL, whereR []Expr) (Plan, error) {
	o, first, mid, kind := l.join, l.first, l.join.mid, l.join.kind
	lg, rg, conds := o.left, o.right, o.conds
	// ON conditions over the right side only filter it before a LEFT
	// join (and the left side before a RIGHT one); the rest are the join's.
	var joinConds []Expr
	lOnly, rOnly := whereL, whereR
	for _, c := range conds {
		lo, hi, ok := slotBounds(c)
		switch {
		case ok && lo >= mid && kind == LeftJoin && !hasSubquery(c):
			rOnly = append(rOnly, c)
		case ok && hi < mid && lo >= first && kind == RightJoin && !hasSubquery(c):
			lOnly = append(lOnly, c)
		default:
			joinConds = append(joinConds, shift(c, -first))
		}
	}
	// Each side is planned with its own inner-join conditions and the
	// ON conditions over it alone.
	lp, err := b.planSide(lg, sc, first, lOnly)
	if err != nil {
		return nil, err
	}
	rp, err := b.planSide(rg, sc, mid, rOnly)
	if err != nil {
		return nil, err
	}
	width := l.n
	if kind == LeftJoin && len(rg.leaves) == 1 && rg.leaves[0].table != nil && isBounded(lp) {
		rl := rg.leaves[0]
		if acc := b.lookupAccess(rl, joinConds, mid-first); acc != nil {
			scan := *rl.scan
			scan.Access, scan.FullScanReason = *acc, ""
			scan.Filter = andAll(rl.local)
			b.scans = append(b.scans, scanRel{&scan, rl.rel})
			rc := make([]ResultColumn, width)
			for i, c := range sc.cols[first:] {
				rc[i] = ResultColumn{Name: c.name, T: c.t}
			}
			return &LookupJoin{Kind: LeftJoin, Left: lp, Right: &scan, On: andAll(joinConds), Cols: rc}, nil
		}
	}
	return b.joinPlans(kind, lp, rp, mid-first, joinConds, sc.cols[first:first+width]), nil
}

// planSide plans one side of an outer join, its rows relative to first.
func (b *builder) planSide(g *joinGroup, sc *scope, first int, extra []Expr) (Plan, error) {
	conds := append(g.conds, extra...)
	for _, on := range g.on {
		c, err := b.boolExpr(on.e, on.scope(sc), "JOIN/ON")
		if err != nil {
			return nil, err
		}
		conds = splitAnd(c, conds)
	}
	return b.planGroup(g, conds, sc, first)
}

// joinPlans joins two plans by conditions over their combined row: a hash
// join on the equalities between the sides, else a nested loop.
func (b *builder) joinPlans(kind JoinKind, l, r Plan, lw int, conds []Expr, cols []scopeCol) Plan {
	var lk, rk, rest []Expr
	for _, c := range conds {
		if le, re, ok := equiPair(c, lw); ok {
			lk, rk = append(lk, le), append(rk, re)
			continue
		}
		rest = append(rest, c)
	}
	rc := make([]ResultColumn, len(cols))
	for i, c := range cols {
		rc[i] = ResultColumn{Name: c.name, T: c.t}
	}
	if len(lk) > 0 {
		return &HashJoin{Kind: kind, Left: l, Right: r, LeftKeys: lk, RightKeys: rk, On: andAll(rest), Cols: rc}
	}
	return &NestedLoopJoin{Kind: kind, Left: l, Right: r, On: andAll(conds), Cols: rc}
}

// equiPair splits a = b, with a over slots < lw and b over slots >= lw
// (or the reverse), into the left key and the right key (right-relative),
// both of one type.
func equiPair(c Expr, lw int) (Expr, Expr, bool) {
	eq, ok := c.(*BinOp)
	if !ok || eq.Op != OpEQ || hasSubquery(eq) {
		return nil, nil, false
	}
	side := func(e Expr) int { // 0 left, 1 right, -1 mixed or none
		lo, hi, ok := slotBounds(e)
		switch {
		case !ok:
			return -1
		case hi < lw:
			return 0
		case lo >= lw:
			return 1
		}
		return -1
	}
	l, r := eq.L, eq.R
	sl, sr := side(l), side(r)
	if sl == 1 && sr == 0 {
		l, r, sl, sr = r, l, sr, sl
	}
	if sl != 0 || sr != 1 {
		return nil, nil, false
	}
	return l, shift(r, -lw), true
}

// slotBounds returns the lowest and highest slot e reads; ok is false
// when it reads none.
func slotBounds(e Expr) (lo, hi int, ok bool) {
	lo, hi = 1<<30, -1
	WalkCols(e, func(c *ColRef) {
		lo, hi = min(lo, c.Idx), max(hi, c.Idx)
	})
	return lo, hi, hi >= 0
}

func shift(e Expr, d int) Expr {
	if d == 0 {
		return e
	}
	return remapCols(e, func(i int) int { return i + d })
}

// leafOf returns the index of the leaf owning slot.
func leafOf(g *joinGroup, slot int) int {
	for i, l := range g.leaves {
		if slot >= l.first && slot < l.first+l.n {
			return i
		}
	}
	return -1
}

// planGroup plans a join group whose slots start at base; conds are over
// the query level's slots. The result's rows are the group's slots in
// FROM order, relative to base.
func (b *builder) planGroup(g *joinGroup, conds []Expr, sc *scope, base int) (Plan, error) {
	// Classify the conditions by the leaves they read.
	var multi []*groupCond
	var top []Expr
	for _, c := range conds {
		var set uint64
		WalkCols(c, func(r *ColRef) {
			if i := leafOf(g, r.Idx); i >= 0 && i < 64 {
				set |= 1 << i
			}
		})
		switch {
		case len(g.leaves) > 64:
			return nil, pgerror.Unimplemented("joins of more than 64 tables")
		case len(g.leaves) == 1 && g.leaves[0].first == 0 && g.leaves[0].n == len(sc.cols):
			// The whole level is one item: its layout is the level's, so
			// even correlated subqueries can run inside the scan.
			g.leaves[0].local = append(g.leaves[0].local, c)
		case set != 0 && set&(set-1) == 0 && !hasSubquery(c):
			l := g.leaves[bitIndex(set)]
			l.local = append(l.local, shift(c, -l.first))
		case set == 0 || hasSubquery(c):
			top = append(top, shift(c, -base))
		default:
			multi = append(multi, &groupCond{e: c, leaves: set})
		}
	}
	// Plan each leaf on its own.
	rank := make([]int, len(g.leaves))
	for i, l := range g.leaves {
		if l.table != nil {
			l.scan = b.newScan(l.table, l.rel, l.local)
			rank[i] = int(l.scan.Access.Kind)
			if l.scan.Access.Kind == FullScan && l.scan.Filter != nil {
				rank[i] = int(FullScan) // filtered, but still a full scan
			}
			continue
		}
		rank[i] = int(FullScan) + 1
		local := l.local
		if l.join != nil {
			// WHERE conditions over the preserved side alone go below.
			var whereL, whereR, rest []Expr
			for _, c := range local {
				lo, hi, ok := slotBounds(c)
				switch abs := shift(c, l.first); {
				case ok && !hasSubquery(c) && l.join.kind == LeftJoin && hi+l.first < l.join.mid:
					whereL = append(whereL, abs)
				case ok && !hasSubquery(c) && l.join.kind == RightJoin && lo+l.first >= l.join.mid:
					whereR = append(whereR, abs)
				default:
					rest = append(rest, c)
				}
			}
			p, err := b.planOuter(l, sc, whereL, whereR)
			if err != nil {
				return nil, err
			}
			l.plan, local = p, rest
			if isBounded(p) {
				rank[i] = int(RangeScan)
			}
		}
		if len(local) > 0 {
			l.plan = &Filter{Input: l.plan, Cond: andAll(local)}
		}
	}
	leafPlan := func(l *leaf) Plan {
		if l.scan != nil {
			return l.scan
		}
		return l.plan
	}
	if len(g.leaves) == 1 {
		p := leafPlan(g.leaves[0])
		if len(top) > 0 {
			p = &Filter{Input: p, Cond: andAll(top)}
		}
		return p, nil
	}

	// Greedy join order: start from the most selective access; then
	// repeatedly add a leaf joined to the current set by an equality,
	// preferring a lookup join into a table's rowkey, then the narrowest
	// access, then FROM order; a cross product only when nothing connects.
	var order []int
	var joined uint64
	start := 0
	for i := range g.leaves {
		if rank[i] < rank[start] {
			start = i
		}
	}
	order, joined = append(order, start), 1<<start
	cur := leafPlan(g.leaves[start])
	bounded := isBounded(cur)
	// pos maps a level slot to its position in cur's row.
	pos := map[int]int{}
	width := 0
	addLayout := func(l *leaf) {
		for s := 0; s < l.n; s++ {
			pos[l.first+s] = width + s
		}
		width += l.n
	}
	addLayout(g.leaves[start])
	for len(order) < len(g.leaves) {
		best, bestScore := -1, [3]int{}
		for i := range g.leaves {
			if joined&(1<<i) != 0 {
				continue
			}
			jc := joinConds(multi, joined, i, g, pos, width)
			score := [3]int{1, 1, rank[i]} // not connected, no lookup, access rank
			for _, c := range jc {
				if _, _, ok := equiPair(c, width); ok {
					score[0] = 0
				}
			}
			if score[0] == 0 && bounded && b.lookupAccess(g.leaves[i], jc, width) != nil {
				score[1] = 0
			}
			if best < 0 || score[0] < bestScore[0] || score[0] == bestScore[0] && (score[1] < bestScore[1] ||
				score[1] == bestScore[1] && score[2] < bestScore[2]) {
				best, bestScore = i, score
			}
		}
		l := g.leaves[best]
		jc := joinConds(multi, joined, best, g, pos, width)
		for _, c := range multi {
			if !c.used && c.leaves&(1<<best) != 0 && c.leaves&^(joined|1<<best) == 0 {
				c.used = true
			}
		}
		var cols []scopeCol
		for _, i := range order {
			cols = append(cols, sc.cols[g.leaves[i].first:g.leaves[i].first+g.leaves[i].n]...)
		}
		cols = append(cols, sc.cols[l.first:l.first+l.n]...)
		if acc := b.lookupAccess(l, jc, width); acc != nil && bounded {
			scan := *l.scan
			scan.Access, scan.FullScanReason = *acc, ""
			scan.Filter = andAll(l.local)
			b.scans = append(b.scans, scanRel{&scan, l.rel})
			rc := make([]ResultColumn, len(cols))
			for i, c := range cols {
				rc[i] = ResultColumn{Name: c.name, T: c.t}
			}
			cur = &LookupJoin{Kind: InnerJoin, Left: cur, Right: &scan, On: andAll(jc), Cols: rc}
		} else {
			cur = b.joinPlans(InnerJoin, cur, leafPlan(l), width, jc, cols)
			bounded = false // a hash join's output is as large as its inputs
		}
		order, joined = append(order, best), joined|1<<best
		addLayout(l)
	}
	// Back to FROM order.
	identity := true
	for i, o := range order {
		identity = identity && i == o
	}
	if !identity {
		var exprs []Expr
		var rc []ResultColumn
		for _, l := range g.leaves {
			for s := 0; s < l.n; s++ {
				c := &sc.cols[l.first+s]
				exprs = append(exprs, &ColRef{Idx: pos[l.first+s], Name: sc.colName(c), T: c.t})
				rc = append(rc, ResultColumn{Name: c.name, T: c.t})
			}
		}
		cur = &Project{Input: cur, Exprs: exprs, Cols: rc}
	}
	if len(top) > 0 {
		cur = &Filter{Input: cur, Cond: andAll(top)}
	}
	return cur, nil
}

// groupCond is a condition over several leaves of a join group.
type groupCond struct {
	e      Expr
	leaves uint64
	used   bool
}

// joinConds returns the unused multi-leaf conditions that become
// evaluable once leaf i joins the set, over the row cur ++ leaf i.
func joinConds(multi []*groupCond, joined uint64, i int, g *joinGroup, pos map[int]int, width int) []Expr {
	l := g.leaves[i]
	var out []Expr
	for _, c := range multi {
		if c.used || c.leaves&(1<<i) == 0 || c.leaves&^(joined|1<<i) != 0 {
			continue
		}
		out = append(out, remapCols(c.e, func(s int) int {
			if s >= l.first && s < l.first+l.n {
				return width + s - l.first
			}
			return pos[s]
		}))
	}
	return out
}

// keyArg stands, while a lookup join's access path is derived, for a
// value of the left row: DeriveAccess takes it as a constant.
type keyArg struct {
	Idx  int
	Name string
	T    types.T
}

func (e *keyArg) Type() types.T  { return e.T }
func (e *keyArg) String() string { return "$left" }

// lookupAccess derives the access path of leaf l's table for the join
// conditions jc (over cur ++ l, cur width = the first slot of l in jc):
// nil unless the join's values fix a prefix of the rowkey. Key values are
// ColRefs of the left row.
func (b *builder) lookupAccess(l *leaf, jc []Expr, width int) *Access {
	if l.table == nil || len(jc) == 0 {
		return nil
	}
	conj := append([]Expr(nil), l.local...)
	for _, c := range jc {
		if hasSubquery(c) {
			continue
		}
		conj = append(conj, mapExpr(c, func(x Expr) Expr {
			if r, ok := x.(*ColRef); ok {
				if r.Idx >= width {
					return &ColRef{Idx: r.Idx - width, Name: r.Name, T: r.T}
				}
				return &keyArg{Idx: r.Idx, Name: r.Name, T: r.T}
			}
			return x
		}))
	}
	acc, _ := b.access(l.table, conj)
	if acc.Kind == FullScan {
		return nil
	}
	uses := false
	back := func(e Expr) Expr {
		return mapExpr(e, func(x Expr) Expr {
			if k, ok := x.(*keyArg); ok {
				uses = true
				return &ColRef{Idx: k.Idx, Name: k.Name, T: k.T}
			}
			return x
		})
	}
	for i := range acc.Spans {
		sp := &acc.Spans[i]
		eq := make([]Expr, len(sp.Eq))
		for j, e := range sp.Eq {
			eq[j] = back(e)
		}
		sp.Eq, sp.Lo, sp.Hi = eq, back(sp.Lo), back(sp.Hi)
	}
	if !uses {
		return nil
	}
	return &acc
}

// scanRel is a scan and the FROM item whose used columns it must read.
type scanRel struct {
	scan *Scan
	rel  *rel
}

// newScan plans the scan of a base table filtered by conds (table-column
// slots). Its columns are settled by finishScans once the statement is
// built.
func (b *builder) newScan(t *TableDesc, r *rel, conds []Expr) *Scan {
	s := &Scan{Table: t, AsOf: t.AsOf}
	var rest []Expr
	s.Access, rest = b.access(t, conds)
	s.Filter = andAll(rest)
	if s.Access.Kind == FullScan {
		s.FullScanReason = fullScanReason(t, conds)
	}
	for i := range t.Columns {
		c := &t.Columns[i]
		s.cols = append(s.cols, ResultColumn{Name: c.Name, T: c.Type})
	}
	b.scans = append(b.scans, scanRel{s, r})
	return s
}

// finishScans records, in every scan of the statement, the columns and
// families the statement reads.
func (b *builder) finishScans() {
	for _, sr := range b.scans {
		finishScan(sr.scan, sr.rel.used)
	}
}

// isBounded reports whether a plan reads a bounded part of its tables:
// a keyed access, or lookups driven by one. A lookup join is chosen only
// below such a plan; over a full scan a hash join reads less.
func isBounded(p Plan) bool {
	switch p := p.(type) {
	case *Scan:
		return p.Access.Kind != FullScan
	case *LookupJoin:
		return isBounded(p.Left)
	case *Filter:
		return isBounded(p.Input)
	case *Project:
		return isBounded(p.Input)
	}
	return false
}

func bitIndex(set uint64) int {
	for i := 0; i < 64; i++ {
		if set&(1<<i) != 0 {
			return i
		}
	}
	return -1
}
