package exec

import (
	"context"
	"io"

	"github.com/widesql/widesql/planner"
)

// Partial aggregation (PostgreSQL's Partial and Finalize Aggregate): a
// hash aggregation directly above a parallel scan has each scan worker
// fold its rows into a table of its own (partialTable) and hand its
// groups over when its table outgrows its share of work_mem and at the
// end. The aggregation merges them (aggOp.addPartial) with the same
// aggFn.merge that reads back spilled partial states, and finalizes as
// usual, spilling if the merged table outgrows work_mem. Aggregates that
// keep their input tuples (DISTINCT, ORDER BY, string_agg, array_agg,
// ordered-set aggregates) stay serial.

// partialAgg is what every worker's table shares: the aggregation's
// plan and functions (read-only) and each table's memory share.
type partialAgg struct {
	p     *planner.Aggregate
	fns   []aggFn
	limit int64
	// noKey reports that neither the aggregation nor the scan's filter
	// reads a key column: the workers then skip decoding rowkeys.
	noKey  bool
	direct []directAgg // by aggregate: how a row is folded in
	// keyCols are, by group key, the row slot a key that is a plain
	// column reference reads (eval's answer, without its call), or -1.
	keyCols []int
	// raw, when set, lets workers fold rows in from their raw cells
	// (scan_decode_agg.go).
	raw *rawAggPlan
}

// directAgg is how a worker folds a row into one aggregate's state:
// count(*), and count, sum or avg of an integer column without DISTINCT,
// ORDER BY or FILTER, read the row's slot directly, as aggFn.evalInput
// and apply would (NULLs skipped, integer sums in sumI spilling into a
// numeric on overflow); any other aggregate goes through them.
type directAgg struct {
	kind directKind
	col  int
}

type directKind uint8

const (
	directNone directKind = iota
	directCountStar
	directCount // count(col)
	directSumInt
)

func directAggs(fns []aggFn) []directAgg {
	ds := make([]directAgg, len(fns))
	for i := range fns {
		a := &fns[i].call
		if fns[i].list || a.Distinct || a.Filter != nil || len(a.Order) > 0 || a.Extra != nil {
			continue
		}
		if a.Func == planner.AggCountStar {
			ds[i].kind = directCountStar
			continue
		}
		c, ok := a.Arg.(*planner.ColRef)
		if !ok {
			continue
		}
		switch {
		case a.Func == planner.AggCount:
			ds[i] = directAgg{kind: directCount, col: c.Idx}
		case (a.Func == planner.AggSum || a.Func == planner.AggAvg) && c.T.Kind.IsInt():
			ds[i] = directAgg{kind: directSumInt, col: c.Idx}
		}
	}
	return ds
}

// partialAggregate hands the aggregation to in's workers when in is a
// parallel scan (possibly under EXPLAIN ANALYZE's statsOp) that has not
// started and every aggregate, group key and aggregate filter is
// parallel-safe and mergeable; it returns that scan, or nil.
func partialAggregate(o *aggOp, in operator) *parallelScanOp {
	var st *nodeStats
	if so, ok := in.(*statsOp); ok {
		in, st = so.in, so.st
	}
	ps, ok := in.(*parallelScanOp)
	if !ok || ps.started || ps.agg != nil {
		return nil
	}
	if !parallelSafeExprs(o.p.GroupBy...) {
		return nil
	}
	for i := range o.fns {
		f := &o.fns[i]
		if f.list || !parallelSafeExprs(f.call.Arg, f.call.Filter, f.call.Extra) {
			return nil
		}
	}
	ps.agg = &partialAgg{p: o.p, fns: o.fns, limit: max(ps.limit/int64(2*ps.nwork), 64<<10), noKey: !readsKey(o, ps.p),
		direct: directAggs(o.fns), keyCols: keyCols(o.p.GroupBy, len(ps.p.Table.Columns))}
	if !ps.lazy {
		if ra := newRawAggPlan(ps.agg, ps.p, ps.su); ra != nil && !rawDecodeOff(true) {
			ps.agg.raw = ra
		}
	}
	if st != nil {
		ps.scanRows = &st.rows
	}
	return ps
}

// keyCols returns partialAgg.keyCols of group keys exprs over rows of
// width slots.
func keyCols(exprs []planner.Expr, width int) []int {
	cols := make([]int, len(exprs))
	for i, e := range exprs {
		cols[i] = -1
		if c, ok := e.(*planner.ColRef); ok && c.Idx >= 0 && c.Idx < width {
			cols[i] = c.Idx
		}
	}
	return cols
}

// readsKey reports whether the aggregation o over scan p, or p's
// filter, may read one of the table's key columns.
func readsKey(o *aggOp, p *planner.Scan) bool {
	t := p.Table
	cols := make([]bool, len(t.Columns))
	exprs := append([]planner.Expr{p.Filter}, o.p.GroupBy...)
	for i := range o.fns {
		c := &o.fns[i].call
		exprs = append(exprs, c.Inputs()...)
		for _, k := range c.Order {
			exprs = append(exprs, k.Expr)
		}
	}
	for _, e := range exprs {
		if e != nil && !filterCols(e, cols) {
			return true
		}
	}
	for _, kc := range t.Key {
		if cols[kc.Col] {
			return true
		}
	}
	return false
}

// smallGroupKeys bounds the integer group keys partialTable.small holds:
// 8 KiB of pointers at most.
const smallGroupKeys = 1024

// partialTable is one worker's hash table of partial groups.
type partialTable struct {
	a      *partialAgg
	env    *evalEnv
	groups map[string]*group
	// intGroups holds the groups of a single non-NULL integer key, but
	// for the small ones: those in [0, smallGroupKeys) are in small, by
	// key (the common GROUP BY of a small code or bucket number costs an
	// index instead of a hash lookup). small grows to the largest such
	// key seen.
	intGroups map[int64]*group
	small     []*group
	order     []*group
	mem       int64
	keys      Row
	key       []byte
	inputs    []input
}

func (a *partialAgg) newTable(env *evalEnv) *partialTable {
	return &partialTable{a: a, env: env, groups: map[string]*group{}, intGroups: map[int64]*group{},
		keys: make(Row, len(a.p.GroupBy)), inputs: make([]input, len(a.fns))}
}

// add folds one scanned row into its group, first handing the table to
// the consumer when a new group would outgrow the table's share.
func (t *partialTable) add(o *parallelScanOp, r Row) error {
	var err error
	for i, e := range t.a.p.GroupBy {
		if c := t.a.keyCols[i]; c >= 0 {
			t.keys[i] = r[c]
		} else if t.keys[i], err = eval(e, r, t.env); err != nil {
			return err
		}
	}
	// One non-NULL integer group key (the common GROUP BY of an integer
	// column) is looked up by value, without encoding and hashing a
	// string key. Every non-NULL value of the key has the expression's
	// one integer kind, so no group can also be in the string-keyed map.
	intKey := len(t.keys) == 1 && t.keys[0].NotNull && t.keys[0].K.IsInt()
	var g *group
	if intKey {
		if k := uint64(t.keys[0].I); k < uint64(len(t.small)) {
			g = t.small[k]
		} else if k >= smallGroupKeys {
			g = t.intGroups[t.keys[0].I]
		}
	} else {
		t.key = rowKey(t.key[:0], t.keys)
		g = t.groups[string(t.key)]
	}
	if g == nil {
		if g, err = t.newGroup(o, intKey); err != nil {
			return err
		}
	}
	for i := range t.a.fns {
		switch d := t.a.direct[i]; d.kind {
		case directCountStar:
			g.states[i].count++
			continue
		case directCount:
			if r[d.col].NotNull {
				g.states[i].count++
			}
			continue
		case directSumInt:
			v := &r[d.col]
			if !v.NotNull {
				continue
			}
			if v.K.IsInt() {
				st := &g.states[i]
				st.count++
				if err := accumulateSumInt(st, v.I); err != nil {
					return err
				}
				continue
			}
		}
		f := &t.a.fns[i]
		if _, err := f.evalInput(&t.inputs[i], &g.states[i], r, t.env); err != nil {
			return err
		}
		if err := f.apply(&t.inputs[i], &g.states[i], r, t.env); err != nil {
			return err
		}
	}
	return nil
}

// newGroup adds the group of t.keys, flushing the table first when it
// would outgrow its share.
func (t *partialTable) newGroup(o *parallelScanOp, intKey bool) (*group, error) {
	if intKey {
		t.key = rowKey(t.key[:0], t.keys) // its length is the group's cost
	}
	cost := groupOverhead + int64(len(t.key)) + rowMem(t.keys) + int64(len(t.a.fns))*stateOverhead
	if t.mem+cost > t.a.limit && len(t.order) > 0 {
		if err := t.flush(o); err != nil {
			return nil, err
		}
	}
	t.mem += cost
	g := &group{keys: append(Row(nil), t.keys...), states: make([]aggState, len(t.a.fns))}
	switch {
	case intKey && uint64(t.keys[0].I) < smallGroupKeys:
		k := int(t.keys[0].I)
		if k >= len(t.small) {
			t.small = append(t.small, make([]*group, k+1-len(t.small))...)
		}
		t.small[k] = g
	case intKey:
		t.intGroups[t.keys[0].I] = g
	default:
		t.groups[string(t.key)] = g
	}
	t.order = append(t.order, g)
	return g, nil
}

// flush hands the table's groups to the consumer and empties the table.
// The consumer owns them from then on.
func (t *partialTable) flush(o *parallelScanOp) error {
	if len(t.order) == 0 {
		return nil
	}
	o.sh.groups <- t.order // Close drains the channel: this never blocks for good
	t.order = nil
	clear(t.groups)
	clear(t.intGroups)
	clear(t.small)
	t.mem = 0
	return nil
}

// consumePartial merges the groups the parallel scan's workers
// aggregated: aggOp.consume for partial aggregation.
func (o *aggOp) consumePartial(ctx context.Context) error {
	for {
		gs, err := o.par.partialGroups(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		for _, g := range gs {
			if err := o.addPartial(g); err != nil {
				return err
			}
		}
	}
}

// addPartial merges a worker's group src into the table, spilling the
// table first when a new group does not fit in the budget. A new group
// adopts src.
func (o *aggOp) addPartial(src *group) error {
	o.key = rowKey(o.key[:0], src.keys)
	for attempt := 0; ; attempt++ {
		g := o.groups[string(o.key)]
		if g != nil {
			for i := range o.fns {
				if err := o.fns[i].merge(&g.states[i], &src.states[i]); err != nil {
					return err
				}
			}
			return nil
		}
		need := o.groupCost(src.keys)
		if err := o.budget.Grow(need); err != nil {
			if attempt > 0 || len(o.order) == 0 || !o.budget.CanSpill() {
				return err
			}
			if err := o.spillTable(); err != nil {
				return err
			}
			continue
		}
		o.mem += need
		o.groups[string(o.key)] = src
		o.order = append(o.order, src)
		return nil
	}
}
