package exec

import (
	"context"
	"io"

	"github.com/widesql/widesql/exec/spill"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// A Window node runs as PostgreSQL's WindowAgg: its calls are grouped by
// window (same PARTITION BY and ORDER BY), and each group sorts the rows
// by partition and order keys (spill.Sorter, within work_mem, spilling
// beyond it), then reads them back one partition at a time, filling its
// calls' slots. The rows of one group feed the sorter of the next; the
// last group's partitions are the output.
//
// Rows are widened once to the output width (input + one slot per call);
// while a group sorts them they carry its key values after that width, so
// the sorter compares plain columns and evaluates nothing.
//
// A partition is held in memory while its calls are computed (the sort
// above it is what spills). Its rows are charged to the group's budget
// when the sort spilled; a partition larger than work_mem is held anyway
// (PostgreSQL would spill it to a tuplestore) and shows in peak memory.

func (x *executor) window(p *planner.Window, in operator) (operator, error) {
	o := &windowOp{in: in, env: x.env, base: len(p.Input.Columns()), width: len(p.Cols)}
	for _, c := range p.Cols {
		o.types = append(o.types, c.T)
	}
	byKey := map[string]*winGroup{}
	for i := range p.Funcs {
		f := &p.Funcs[i]
		sortSpec := planner.WindowSpec{Partition: f.Spec.Partition, Order: f.Spec.Order}
		key := sortSpec.String()
		g := byKey[key]
		if g == nil {
			g = &winGroup{op: o, partition: f.Spec.Partition, order: f.Spec.Order, budget: x.newBudget()}
			ts := append([]types.T(nil), o.types...)
			for _, e := range f.Spec.Partition {
				ts = append(ts, e.Type())
			}
			for _, k := range f.Spec.Order {
				ts = append(ts, k.Expr.Type())
			}
			g.sorter = spill.NewSorter(ts, g.compare, g.budget, x.tempDir())
			byKey[key] = g
			o.groups = append(o.groups, g)
		}
		c := winCall{f: f, slot: o.base + i}
		for j, b := range []planner.FrameBound{f.Spec.Frame.Start, f.Spec.Frame.End} {
			if b.Offset == nil {
				continue
			}
			v, err := eval(b.Offset, nil, x.env)
			if err != nil {
				return nil, err
			}
			which := [2]string{"starting", "ending"}[j]
			if v.IsNull() {
				return nil, pgerror.New("22004", "frame %s offset must not be null", which)
			}
			if v.I < 0 {
				return nil, pgerror.New("22013", "frame %s offset must not be negative", which)
			}
			c.off[j] = v.I
		}
		g.calls = append(g.calls, c)
	}
	return o, nil
}

// windowOp is the operator of a Window node.
type windowOp struct {
	in          operator
	env         *evalEnv
	base, width int // input width; output width
	types       []types.T
	groups      []*winGroup

	started bool
	src     spill.Iterator // the last group's sorted rows
	part    []Row          // the partition being returned
	i       int
	pending Row   // the first row of the next partition
	charged int64 // bytes of part reserved in the last group's budget
	over    int64 // bytes of part held beyond the budget
	peak    int64 // the most bytes held beyond the budgets
}

var _ spiller = (*windowOp)(nil)

// winGroup computes the calls that share one PARTITION BY and ORDER BY.
type winGroup struct {
	op        *windowOp
	partition []planner.Expr
	order     []planner.SortKey
	calls     []winCall
	sorter    *spill.Sorter
	budget    *spill.Budget
	peerStart []int // scratch: first row of each row's peer group
	peerEnd   []int // scratch: one past the last row of each row's peer group
	vals      []types.Datum
}

// winCall is one call and where its value goes.
type winCall struct {
	f    *planner.WindowFunc
	slot int
	off  [2]int64 // the ROWS frame start and end offsets
}

func (o *windowOp) Next(ctx context.Context) (Row, error) {
	if !o.started {
		o.started = true
		if err := o.start(ctx); err != nil {
			return nil, err
		}
	}
	for o.i >= len(o.part) {
		last := o.groups[len(o.groups)-1]
		last.budget.Shrink(o.charged)
		o.charged, o.over = 0, 0
		part, err := o.readPartition(last, o.src, true)
		if err != nil {
			return nil, err
		}
		if part == nil {
			return nil, io.EOF
		}
		if err := last.compute(part); err != nil {
			return nil, err
		}
		o.part, o.i = part, 0
	}
	o.i++
	return o.part[o.i-1][:o.width], nil
}

// start reads the input into the first group's sorter and runs every
// group but the last, each feeding the next.
func (o *windowOp) start(ctx context.Context) error {
	g := o.groups[0]
	for {
		r, err := o.in.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		row := make(Row, o.width, o.width+len(g.partition)+len(g.order))
		copy(row, r)
		if err := g.add(row); err != nil {
			return err
		}
	}
	for gi, g := range o.groups {
		it, err := g.sorter.Sort()
		if err != nil {
			return err
		}
		if gi == len(o.groups)-1 {
			o.src = it
			return nil
		}
		next := o.groups[gi+1]
		for {
			part, err := o.readPartition(g, it, false)
			if err != nil {
				return err
			}
			if part == nil {
				break
			}
			if err := g.compute(part); err != nil {
				return err
			}
			for _, r := range part {
				row := make(Row, o.width, o.width+len(next.partition)+len(next.order))
				copy(row, r)
				if err := next.add(row); err != nil {
					return err
				}
			}
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		g.sorter.Close()
	}
	return nil
}

// add appends g's key values to row and gives it to g's sorter.
func (g *winGroup) add(row Row) error {
	env := g.op.env
	for _, e := range g.partition {
		v, err := eval(e, row, env)
		if err != nil {
			return err
		}
		row = append(row, v)
	}
	for _, k := range g.order {
		v, err := eval(k.Expr, row, env)
		if err != nil {
			return err
		}
		row = append(row, v)
	}
	return g.sorter.Add(row)
}

// compare orders rows by partition keys, then by order keys as ORDER BY
// does (NULLs last ascending, first descending, unless told otherwise).
func (g *winGroup) compare(a, b []types.Datum) int {
	w := g.op.width
	for i := range g.partition {
		if c := compareNullable(a[w+i], b[w+i], false); c != 0 {
			return c
		}
	}
	w += len(g.partition)
	for i, k := range g.order {
		c := compareNullable(a[w+i], b[w+i], k.NullsFirst)
		if k.Desc && a[w+i].IsNull() == b[w+i].IsNull() {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// sameKeys reports whether a and b agree on n key columns from column from
// (NULL agrees with NULL).
func sameKeys(a, b Row, from, n int) bool {
	for i := from; i < from+n; i++ {
		if compareNullable(a[i], b[i], false) != 0 {
			return false
		}
	}
	return true
}

// readPartition returns the next partition of g's sorted rows, nil at the
// end. With charge (the output group), rows read from a spilled sort are
// reserved in g's budget until the partition has been returned.
func (o *windowOp) readPartition(g *winGroup, it spill.Iterator, charge bool) ([]Row, error) {
	var part []Row
	if o.pending != nil {
		part = append(part, o.pending)
		o.pending = nil
	}
	charge = charge && g.sorter.Stats().Spilled
	for {
		r, err := it.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(part) > 0 && !sameKeys(part[0], r, o.width, len(g.partition)) {
			o.pending = r
			break
		}
		if charge {
			n := spill.RowSize(r)
			if g.budget.Grow(n) == nil {
				o.charged += n
			} else {
				o.over += n
				o.peak = max(o.peak, o.over)
			}
		}
		part = append(part, r)
	}
	return part, nil
}

func (o *windowOp) spillStats() (spill.Stats, int64) {
	var st spill.Stats
	var peak int64
	for _, g := range o.groups {
		s := g.sorter.Stats()
		st.Spilled = st.Spilled || s.Spilled
		st.Runs += s.Runs
		st.RowsWritten += s.RowsWritten
		st.BytesWritten += s.BytesWritten
		peak = max(peak, g.budget.Peak())
	}
	return st, peak + o.peak
}

func (o *windowOp) Close() {
	for _, g := range o.groups {
		g.sorter.Close()
	}
	o.in.Close()
}
