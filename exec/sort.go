package exec

import (
	"cmp"
	"container/heap"
	"context"
	"io"
	"slices"

	"github.com/widesql/widesql/exec/spill"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// topNMax is the largest LIMIT a top-N sort serves from a heap; beyond it
// the sort is a full (external) sort.
const topNMax = 1 << 16

func (x *executor) sort(p *planner.Sort, in operator) (operator, error) {
	cols := p.Input.Columns()
	o := &sortOp{in: in, env: x.env, width: len(cols), budget: x.newBudget(), dir: x.tempDir()}
	for _, c := range cols {
		o.types = append(o.types, c.T)
	}
	// A key that is an input column is compared in place; any other is
	// evaluated once per row into an extra column.
	for _, k := range p.Keys {
		sk := sortCol{desc: k.Desc, nullsFirst: k.NullsFirst, col: -1}
		if c, ok := k.Expr.(*planner.ColRef); ok && c.Idx < len(cols) {
			sk.col = c.Idx
		} else {
			sk.col = len(o.types)
			sk.expr = k.Expr
			o.types = append(o.types, k.Expr.Type())
		}
		o.keys = append(o.keys, sk)
	}
	if p.Limit > 0 && p.Limit <= topNMax {
		o.topN = int(p.Limit)
	}
	return o, nil
}

// sortCol is one sort key: column col of the stored row.
type sortCol struct {
	col        int
	expr       planner.Expr // non-nil when col is an evaluated extra column
	desc       bool
	nullsFirst bool
}

// sortOp sorts its input stably: in memory within work_mem, by an external
// merge sort (spill.Sorter) beyond it. With topN > 0 only the first topN
// rows are wanted, and a heap keeps just those. NULLs sort last ascending
// and first descending unless the keys say otherwise, as in PostgreSQL.
type sortOp struct {
	in     operator
	env    *evalEnv
	keys   []sortCol
	width  int       // input columns; stored rows add the evaluated keys
	types  []types.T // of stored rows
	budget *spill.Budget
	dir    string
	topN   int

	sorter *spill.Sorter
	top    *topHeap
	out    spill.Iterator
	done   bool
}

// compareNullable orders NULLs first or last.
func compareNullable(a, b types.Datum, nullsFirst bool) int {
	switch {
	case a.IsNull() && b.IsNull():
		return 0
	case a.IsNull():
		if nullsFirst {
			return -1
		}
		return 1
	case b.IsNull():
		if nullsFirst {
			return 1
		}
		return -1
	}
	return types.Compare(a, b)
}

// compare orders two stored rows by the keys.
func (o *sortOp) compare(a, b []types.Datum) int {
	for _, k := range o.keys {
		x, y := a[k.col], b[k.col]
		c := compareNullable(x, y, k.nullsFirst)
		if k.desc && !x.IsNull() && !y.IsNull() {
			c = -c // NULL placement does not flip with direction
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// stored copies r and appends the evaluated keys: the row the sort keeps.
func (o *sortOp) stored(r Row) (Row, error) {
	if len(r) != o.width {
		return nil, pgerror.New(pgerror.CodeInternalError, "sort input has %d columns, its plan %d", len(r), o.width)
	}
	row := make(Row, len(o.types))
	copy(row, r)
	for _, k := range o.keys {
		if k.expr != nil {
			v, err := eval(k.expr, r, o.env)
			if err != nil {
				return nil, err
			}
			row[k.col] = v
		}
	}
	return row, nil
}

func (o *sortOp) Next(ctx context.Context) (Row, error) {
	if !o.done {
		o.done = true
		if err := o.consume(ctx); err != nil {
			return nil, err
		}
	}
	row, err := o.out.Next()
	if err != nil {
		return nil, err
	}
	return row[:o.width], nil
}

// consume reads the whole input and prepares o.out.
func (o *sortOp) consume(ctx context.Context) error {
	if o.topN > 0 {
		o.top = &topHeap{cmp: o.compare}
	} else {
		o.sorter = spill.NewSorter(o.types, o.compare, o.budget, o.dir)
	}
	for seq := int64(0); ; seq++ {
		r, err := o.in.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		row, err := o.stored(r)
		if err != nil {
			return err
		}
		if o.top != nil {
			if err := o.addTop(row, seq); err != nil {
				return err
			}
			continue
		}
		if err := o.sorter.Add(row); err != nil {
			return err
		}
	}
	if o.top != nil {
		rows := o.top.sorted()
		o.out = &rowsIter{rows: rows}
		return nil
	}
	it, err := o.sorter.Sort()
	if err != nil {
		return err
	}
	o.out = it
	return nil
}

// addTop offers a row to the top-N heap. When the heap's rows outgrow the
// budget, the sort becomes a full sort of the rows kept so far (in input
// order, so ties stay stable) and the rest.
func (o *sortOp) addTop(row Row, seq int64) error {
	h, item := o.top, topItem{row: row, seq: seq}
	if len(h.items) == o.topN {
		if !h.less(item, h.items[0]) {
			return nil
		}
		o.budget.Shrink(spill.RowSize(heap.Pop(h).(topItem).row)) // no longer among the best
	}
	if err := o.budget.Grow(spill.RowSize(row)); err != nil {
		if !o.budget.CanSpill() {
			return err
		}
		for _, it := range h.items {
			o.budget.Shrink(spill.RowSize(it.row))
		}
		kept := append(h.items, item)
		slices.SortFunc(kept, func(a, b topItem) int { return cmp.Compare(a.seq, b.seq) })
		o.top = nil
		o.sorter = spill.NewSorter(o.types, o.compare, o.budget, o.dir)
		for _, it := range kept {
			if err := o.sorter.Add(it.row); err != nil {
				return err
			}
		}
		return nil
	}
	heap.Push(h, item)
	return nil
}

func (o *sortOp) spillStats() (spill.Stats, int64) {
	var st spill.Stats
	if o.sorter != nil {
		st = o.sorter.Stats()
	}
	return st, o.budget.Peak()
}

func (o *sortOp) Close() {
	if o.sorter != nil {
		o.sorter.Close()
	}
	o.top = nil
	o.in.Close()
}

// topItem is a row of a top-N sort and its input position.
type topItem struct {
	row Row
	seq int64
}

// topHeap is a max-heap of the best rows so far: its root is the row the
// next better one replaces. Ties are broken by input position, so the
// result is what a stable full sort would return first.
type topHeap struct {
	items []topItem
	cmp   func(a, b []types.Datum) int
}

func (h *topHeap) less(a, b topItem) bool {
	if c := h.cmp(a.row, b.row); c != 0 {
		return c < 0
	}
	return a.seq < b.seq
}

func (h *topHeap) Len() int           { return len(h.items) }
func (h *topHeap) Less(i, j int) bool { return h.less(h.items[j], h.items[i]) } // max-heap
func (h *topHeap) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *topHeap) Push(x any)         { h.items = append(h.items, x.(topItem)) }
func (h *topHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

// sorted returns the heap's rows best first.
func (h *topHeap) sorted() [][]types.Datum {
	slices.SortFunc(h.items, func(a, b topItem) int {
		if h.less(a, b) {
			return -1
		}
		return 1
	})
	rows := make([][]types.Datum, len(h.items))
	for i, it := range h.items {
		rows[i] = it.row
	}
	return rows
}

// rowsIter returns rows held in memory.
type rowsIter struct {
	rows [][]types.Datum
	i    int
}

func (it *rowsIter) Next() ([]types.Datum, error) {
	if it.i >= len(it.rows) {
		return nil, io.EOF
	}
	it.i++
	return it.rows[it.i-1], nil
}

var (
	_ spiller        = (*sortOp)(nil)
	_ spill.Iterator = (*rowsIter)(nil)
)
