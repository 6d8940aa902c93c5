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
	ps.agg = &partialAgg{p: o.p, fns: o.fns, limit: max(ps.limit/int64(2*ps.nwork), 64<<10)}
	if st != nil {
		ps.scanRows = &st.rows
	}
	return ps
}

// partialTable is one worker's hash table of partial groups.
type partialTable struct {
	a      *partialAgg
	env    *evalEnv
	groups map[string]*group
	order  []*group
	mem    int64
	keys   Row
	key    []byte
	inputs []input
}

func (a *partialAgg) newTable(env *evalEnv) *partialTable {
	return &partialTable{a: a, env: env, groups: map[string]*group{},
		keys: make(Row, len(a.p.GroupBy)), inputs: make([]input, len(a.fns))}
}

// add folds one scanned row into its group, first handing the table to
// the consumer when a new group would outgrow the table's share.
func (t *partialTable) add(o *parallelScanOp, r Row) error {
	var err error
	for i, e := range t.a.p.GroupBy {
		if t.keys[i], err = eval(e, r, t.env); err != nil {
			return err
		}
	}
	t.key = rowKey(t.key[:0], t.keys)
	g := t.groups[string(t.key)]
	if g == nil {
		cost := groupOverhead + int64(len(t.key)) + rowMem(t.keys) + int64(len(t.a.fns))*stateOverhead
		if t.mem+cost > t.a.limit && len(t.order) > 0 {
			if err := t.flush(o); err != nil {
				return err
			}
		}
		t.mem += cost
		g = &group{keys: append(Row(nil), t.keys...), states: make([]aggState, len(t.a.fns))}
		t.groups[string(t.key)] = g
		t.order = append(t.order, g)
	}
	for i := range t.a.fns {
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

// flush hands the table's groups to the consumer and empties the table.
// The consumer owns them from then on.
func (t *partialTable) flush(o *parallelScanOp) error {
	if len(t.order) == 0 {
		return nil
	}
	o.sh.groups <- t.order // Close drains the channel: this never blocks for good
	t.order = nil
	clear(t.groups)
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
