package exec

import (
	"context"
	"hash/fnv"
	"io"

	"github.com/widesql/widesql/exec/spill"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// aggOp is a hash aggregation within the work_mem budget. With no GROUP
// BY it returns exactly one row, even over no input (count = 0, other
// aggregates NULL).
//
// Groups live in a hash table while the budget allows. A row's whole
// contribution (a new group, the tuples list aggregates keep) is reserved
// before it is applied. When the budget is exhausted and spilling is
// allowed, every group in the table is written as a partial state (the
// group key and the encoded aggregate states, exec/agg_codec.go) to one of
// aggFanout partition files by a hash of its key, the table is emptied and
// aggregation goes on. At the end of input the table is spilled too, and
// each partition is then read back in turn, merging the partial states of
// each group (aggFn.merge) and returning its groups. A partition whose
// merged states exceed the budget is split again with the next hash seed,
// up to aggMaxDepth levels; a single group larger than the budget, or
// spilling being off (widesql.spill = off), fails with the budget's 53200
// error naming work_mem.
type aggOp struct {
	in     operator
	p      *planner.Aggregate
	env    *evalEnv
	fns    []aggFn
	budget *spill.Budget
	dir    string

	groups map[string]*group
	order  []*group
	mem    int64 // bytes of the table reserved in budget
	key    []byte
	inputs []input

	spilled bool
	work    []*aggPartitions // partitions still to read, innermost last
	stats   spill.Stats
	out     []*group // the groups being returned
	i       int
	done    bool
	row     Row
	// par, when set, is the parallel scan below whose workers aggregate
	// partially (agg_partial.go); consume merges their groups.
	par *parallelScanOp
}

type group struct {
	keys   Row
	states []aggState
}

// aggPartitions is one level of spilled partial states.
type aggPartitions struct {
	parts *spill.Partitions
	next  int // the next partition to read
	level int
}

const (
	aggFanout   = 16
	aggMaxDepth = 4
	// groupOverhead approximates the memory of a table entry beyond its
	// key and states.
	groupOverhead = 96
)

func (x *executor) aggregate(p *planner.Aggregate, in operator) (operator, error) {
	o := newAggOp(p, in, x.env, x.newBudget(), x.tempDir())
	o.par = partialAggregate(o, in)
	return o, nil
}

// newAggOp returns the aggregation of in under budget, spilling to dir.
func newAggOp(p *planner.Aggregate, in operator, env *evalEnv, budget *spill.Budget, dir string) *aggOp {
	o := &aggOp{in: in, p: p, env: env, groups: map[string]*group{}, budget: budget, dir: dir}
	o.fns = make([]aggFn, len(p.Aggs))
	for i, a := range p.Aggs {
		o.fns[i] = newAggFn(a)
	}
	o.inputs = make([]input, len(p.Aggs))
	return o
}

func (o *aggOp) Next(ctx context.Context) (Row, error) {
	if !o.done {
		o.done = true
		if err := o.consume(ctx); err != nil {
			return nil, err
		}
		if len(o.order) == 0 && len(o.p.GroupBy) == 0 && !o.spilled {
			o.order = append(o.order, &group{states: make([]aggState, len(o.p.Aggs))})
		}
		if o.spilled {
			if err := o.spillTable(); err != nil {
				return nil, err
			}
		}
		o.out = o.order
	}
	for o.i >= len(o.out) {
		if len(o.work) == 0 {
			return nil, io.EOF
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		o.clearTable()
		if err := o.loadPartition(); err != nil {
			return nil, err
		}
		o.out, o.i = o.order, 0
	}
	g := o.out[o.i]
	o.i++
	o.row = append(o.row[:0], g.keys...)
	for i := range o.fns {
		v, err := o.fns[i].finalize(&g.states[i])
		if err != nil {
			return nil, err
		}
		o.row = append(o.row, v)
	}
	return o.row, nil
}

func (o *aggOp) consume(ctx context.Context) error {
	if o.par != nil {
		return o.consumePartial(ctx)
	}
	keys := make(Row, len(o.p.GroupBy))
	for {
		r, err := o.in.Next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		for i, e := range o.p.GroupBy {
			if keys[i], err = eval(e, r, o.env); err != nil {
				return err
			}
		}
		if err := o.add(keys, r); err != nil {
			return err
		}
	}
}

// add aggregates one input row into its group, spilling the table first
// when the row does not fit in the budget.
func (o *aggOp) add(keys, r Row) error {
	o.key = rowKey(o.key[:0], keys)
	for attempt := 0; ; attempt++ {
		g := o.groups[string(o.key)]
		need := int64(0)
		if g == nil {
			need = o.groupCost(keys)
		}
		for i := range o.fns {
			var st *aggState
			if g != nil {
				st = &g.states[i]
			}
			n, err := o.fns[i].evalInput(&o.inputs[i], st, r, o.env)
			if err != nil {
				return err
			}
			need += n
		}
		if err := o.budget.Grow(need); err != nil {
			if attempt > 0 || len(o.order) == 0 || !o.budget.CanSpill() {
				return err // spilling is off, or this row alone is too big
			}
			if err := o.spillTable(); err != nil {
				return err
			}
			continue
		}
		o.mem += need
		if g == nil {
			g = &group{keys: append(Row(nil), keys...), states: make([]aggState, len(o.fns))}
			o.groups[string(o.key)] = g
			o.order = append(o.order, g)
		}
		for i := range o.fns {
			if err := o.fns[i].apply(&o.inputs[i], &g.states[i], r, o.env); err != nil {
				return err
			}
		}
		return nil
	}
}

func (o *aggOp) groupCost(keys Row) int64 {
	return groupOverhead + int64(len(o.key)) + spill.RowSize(keys) + int64(len(o.fns))*stateOverhead
}

// spillTable writes every group of the table to the level-0 partitions
// (created on first use) and empties the table.
func (o *aggOp) spillTable() error {
	if !o.spilled {
		o.spilled = true
		o.work = append(o.work, &aggPartitions{parts: spill.NewPartitions(aggFanout, o.spillTypes(), o.dir)})
	}
	if err := o.writeTable(o.work[0].parts, 0); err != nil {
		return err
	}
	o.clearTable()
	return nil
}

func (o *aggOp) spillTypes() []types.T {
	ts := make([]types.T, 0, len(o.p.GroupBy)+1)
	for _, e := range o.p.GroupBy {
		ts = append(ts, e.Type())
	}
	return append(ts, types.TBytea)
}

// writeTable writes the table's groups to parts, partitioned with seed.
func (o *aggOp) writeTable(parts *spill.Partitions, seed int) error {
	row := make([]types.Datum, len(o.p.GroupBy)+1)
	var buf []byte
	for _, g := range o.order {
		copy(row, g.keys)
		buf = o.encodeStates(buf[:0], g.states)
		row[len(g.keys)] = types.NewBytea(buf)
		if err := parts.Add(partitionOf(rowKey(nil, g.keys), seed), row); err != nil {
			return err
		}
	}
	return nil
}

// partitionOf hashes a group key with a seed per spill level, so that a
// partition split again spreads over new partitions: FNV-1a of the key,
// mixed with the seed by splitmix64's finalizer (FNV's low bits alone
// would keep colliding keys together).
func partitionOf(key []byte, seed int) int {
	h := fnv.New64a()
	h.Write(key)
	x := h.Sum64() ^ uint64(seed+1)*0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	return int(x % aggFanout)
}

func (o *aggOp) clearTable() {
	clear(o.groups)
	o.order = o.order[:0]
	o.budget.Shrink(o.mem)
	o.mem = 0
}

// loadPartition reads the next spilled partition into the table, merging
// each group's partial states. If the merged states do not fit, the table
// and the partition's remaining rows are split into a deeper level, and
// the table is left empty.
func (o *aggOp) loadPartition() error {
	w := o.work[len(o.work)-1]
	if w.next >= w.parts.Len() {
		o.closeLevel()
		return nil
	}
	i := w.next
	w.next++
	it, err := w.parts.Read(i)
	if err != nil {
		return err
	}
	nk := len(o.p.GroupBy)
	states := make([]aggState, len(o.fns))
	for {
		row, err := it.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := o.decodeStates([]byte(row[nk].S), states); err != nil {
			return err
		}
		o.key = rowKey(o.key[:0], row[:nk])
		g := o.groups[string(o.key)]
		need := int64(0)
		if g == nil {
			need = o.groupCost(row[:nk])
		}
		for j := range states {
			need += stateCost(&states[j]) - stateOverhead
		}
		if err := o.budget.Grow(need); err != nil {
			alone := len(o.order) == 0 || (len(o.order) == 1 && g != nil)
			if alone || w.level+1 >= aggMaxDepth {
				return err // one group alone exceeds the budget
			}
			return o.split(w.level+1, row, it)
		}
		o.mem += need
		if g == nil {
			g = &group{keys: append(Row(nil), row[:nk]...), states: make([]aggState, len(o.fns))}
			o.groups[string(o.key)] = g
			o.order = append(o.order, g)
		}
		for j := range o.fns {
			if err := o.fns[j].merge(&g.states[j], &states[j]); err != nil {
				return err
			}
		}
	}
}

// split moves the table, the row that did not fit and the rest of it
// into new partitions at level, to be read before the current level goes
// on.
func (o *aggOp) split(level int, row []types.Datum, it spill.Iterator) error {
	parts := spill.NewPartitions(aggFanout, o.spillTypes(), o.dir)
	o.work = append(o.work, &aggPartitions{parts: parts, level: level})
	if err := o.writeTable(parts, level); err != nil {
		return err
	}
	nk := len(o.p.GroupBy)
	for {
		if err := parts.Add(partitionOf(rowKey(nil, row[:nk]), level), row); err != nil {
			return err
		}
		var err error
		if row, err = it.Next(); err == io.EOF {
			break
		} else if err != nil {
			return err
		}
	}
	o.clearTable()
	return nil
}

// closeLevel removes the innermost level's files, keeping their figures.
func (o *aggOp) closeLevel() {
	w := o.work[len(o.work)-1]
	st := w.parts.Stats()
	o.stats.Spilled = o.stats.Spilled || st.Spilled
	o.stats.Partitions += st.Partitions
	o.stats.RowsWritten += st.RowsWritten
	o.stats.BytesWritten += st.BytesWritten
	w.parts.Close()
	o.work = o.work[:len(o.work)-1]
}

// spillStats implements spiller for EXPLAIN ANALYZE.
func (o *aggOp) spillStats() (spill.Stats, int64) {
	st := o.stats
	for _, w := range o.work {
		s := w.parts.Stats()
		st.Spilled = st.Spilled || s.Spilled
		st.Partitions += s.Partitions
		st.RowsWritten += s.RowsWritten
		st.BytesWritten += s.BytesWritten
	}
	return st, o.budget.Peak()
}

func (o *aggOp) Close() {
	for len(o.work) > 0 {
		o.closeLevel()
	}
	o.clearTable()
	o.in.Close()
}

var _ spiller = (*aggOp)(nil)
