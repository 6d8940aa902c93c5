package exec

import (
	"context"
	"io"

	"github.com/widesql/widesql/exec/spill"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// setOp runs UNION, INTERSECT and EXCEPT. UNION ALL appends the right
// rows to the left ones; UNION is a DISTINCT over both; INTERSECT and
// EXCEPT, with or without ALL, count each distinct row's copies on either
// side (setCountOp).
func (x *executor) setOp(p *planner.SetOp) (operator, error) {
	left, err := x.build(p.Left)
	if err != nil {
		return nil, err
	}
	right, err := x.build(p.Right)
	if err != nil {
		left.Close()
		return nil, err
	}
	both := &concatOp{ops: []operator{left, right}}
	switch {
	case p.Kind == planner.Union && p.All:
		return both, nil
	case p.Kind == planner.Union:
		return newDistinct(both, colTypes(p.Cols), nil, x), nil
	}
	o := &setCountOp{kind: p.Kind, all: p.All, left: left, right: right, types: colTypes(p.Cols),
		budget: x.newBudget(), dir: x.tempDir()}
	o.task = setTask{left: operatorSource{left}, right: operatorSource{right}}
	return o, nil
}

// concatOp returns the rows of each input in turn.
type concatOp struct {
	ops []operator
	i   int
}

func (o *concatOp) Next(ctx context.Context) (Row, error) {
	for o.i < len(o.ops) {
		r, err := o.ops[o.i].Next(ctx)
		if err != io.EOF {
			return r, err
		}
		o.i++
	}
	return nil, io.EOF
}

func (o *concatOp) Close() {
	for _, op := range o.ops {
		op.Close()
	}
}

// setCountOp runs INTERSECT [ALL] and EXCEPT [ALL] by hashing: it reads
// the left input into a table of distinct rows with their number of
// copies m, then counts each row's copies n in the right input, then
// returns every left row min(m, n) times (INTERSECT ALL), max(m-n, 0)
// times (EXCEPT ALL), or once if that is positive (without ALL). Rows
// equal as DISTINCT sees them (NULLs equal) are copies; the first left
// copy is the one returned.
//
// The table lives within work_mem. Past it, left rows whose key is not in
// the table go to hash partitions, and so do right rows whose key is not
// in it; each pair of partitions is then processed the same way, with a
// fresh table (and, if it overflows again, its own partitions).
type setCountOp struct {
	kind        planner.SetOpKind
	all         bool
	left, right operator
	types       []types.T
	budget      *spill.Budget
	dir         string

	task     setTask     // the inputs being processed
	table    *countTable // their rows, once both are read
	emit     int         // next entry of table to return
	copies   int64       // copies of the current entry still to return
	cur      Row
	pending  []*partPair // spilled partitions still to process
	finished bool
	stats    spill.Stats
}

// setTask is a pair of inputs: the operator's, or two partitions.
type setTask struct{ left, right rowSource }

// partPair is the left and right partitions of one spilled table, and the
// next partition number to process.
type partPair struct {
	left, right *spill.Partitions
	next        int
}

func (p *partPair) close() {
	p.left.Close()
	p.right.Close()
}

func (o *setCountOp) Next(ctx context.Context) (Row, error) {
	for {
		if o.copies > 0 {
			o.copies--
			return o.cur, nil
		}
		if o.table != nil && o.emit < len(o.table.entries) {
			e := o.table.entries[o.emit]
			o.emit++
			o.cur, o.copies = e.row, o.copiesOf(e.m, e.n)
			continue
		}
		if o.table != nil {
			if p := o.table.release(); p != nil {
				o.pending = append(o.pending, p)
				o.addStats(p.left.Stats())
				o.addStats(p.right.Stats())
			}
			o.table = nil
			if err := o.nextTask(); err != nil {
				return nil, err
			}
		}
		if o.finished {
			return nil, io.EOF
		}
		if err := o.runTask(ctx); err != nil {
			return nil, err
		}
	}
}

func (o *setCountOp) copiesOf(m, n int64) int64 {
	c := max(m-n, 0) // EXCEPT ALL
	if o.kind == planner.Intersect {
		c = min(m, n)
	} else if !o.all && n > 0 {
		c = 0 // EXCEPT: any copy on the right removes the row
	}
	if !o.all {
		c = min(c, 1)
	}
	return c
}

// runTask reads both inputs of the current task into a new table.
func (o *setCountOp) runTask(ctx context.Context) error {
	t := &countTable{budget: o.budget, types: o.types, dir: o.dir, index: map[string]*countEntry{}}
	o.table, o.emit = t, 0
	for {
		r, err := o.task.left.next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := t.addLeft(r); err != nil {
			return err
		}
	}
	if len(t.entries) == 0 && t.parts == nil {
		return nil // nothing on the left: nothing to return
	}
	for {
		r, err := o.task.right.next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := t.addRight(r); err != nil {
			return err
		}
	}
}

// nextTask moves to the next pair of spilled partitions with left rows,
// or sets finished.
func (o *setCountOp) nextTask() error {
	for len(o.pending) > 0 {
		p := o.pending[0]
		if p.next >= p.left.Len() {
			p.close()
			o.pending = o.pending[1:]
			continue
		}
		i := p.next
		p.next++
		if p.left.Rows(i) == 0 {
			continue
		}
		l, err := p.left.Read(i)
		if err != nil {
			return err
		}
		r, err := p.right.Read(i)
		if err != nil {
			return err
		}
		o.task = setTask{left: iterSource{l}, right: iterSource{r}}
		return nil
	}
	o.finished = true
	return nil
}

func (o *setCountOp) addStats(st spill.Stats) {
	o.stats.Spilled = o.stats.Spilled || st.Spilled
	o.stats.Partitions += st.Partitions
	o.stats.RowsWritten += st.RowsWritten
	o.stats.BytesWritten += st.BytesWritten
}

func (o *setCountOp) spillStats() (spill.Stats, int64) { return o.stats, o.budget.Peak() }

func (o *setCountOp) Close() {
	if o.table != nil {
		if p := o.table.release(); p != nil {
			p.close()
		}
	}
	for _, p := range o.pending {
		p.close()
	}
	o.pending = nil
	o.left.Close()
	o.right.Close()
}

// countTable holds the distinct rows of a set operation's inputs, with
// their copies on either side, within a budget.
type countTable struct {
	budget   *spill.Budget
	types    []types.T
	dir      string
	index    map[string]*countEntry
	entries  []*countEntry // in the order first seen
	reserved int64
	full     bool // over the budget: new keys go to parts
	parts    *partPair
	hasher   spill.Hasher
	key      []byte
}

type countEntry struct {
	row  Row
	m, n int64 // copies on the left and on the right
}

func (t *countTable) addLeft(r Row) error {
	t.key = rowKey(t.key[:0], r)
	if e := t.index[string(t.key)]; e != nil {
		e.m++
		return nil
	}
	if !t.full {
		n := int64(len(t.key)) + spill.RowSize(r) + keyEntryOverhead
		err := t.budget.Grow(n)
		if err == nil {
			e := &countEntry{row: append(Row(nil), r...), m: 1}
			t.index[string(t.key)] = e
			t.entries = append(t.entries, e)
			t.reserved += n
			return nil
		}
		if len(t.entries) == 0 || !t.budget.CanSpill() {
			return err
		}
		t.full = true
		t.parts = &partPair{
			left:  spill.NewPartitions(partitionFanOut, t.types, t.dir),
			right: spill.NewPartitions(partitionFanOut, t.types, t.dir),
		}
		t.hasher = spill.NewHasher()
	}
	return t.parts.left.Add(t.hasher.Partition(t.key, partitionFanOut), r)
}

func (t *countTable) addRight(r Row) error {
	t.key = rowKey(t.key[:0], r)
	if e := t.index[string(t.key)]; e != nil {
		e.n++
		return nil
	}
	if !t.full {
		return nil // not on the left at all
	}
	return t.parts.right.Add(t.hasher.Partition(t.key, partitionFanOut), r)
}

// release frees the table's memory and hands over its partitions (nil if
// it never spilled). The entries stay readable.
func (t *countTable) release() *partPair {
	t.budget.Shrink(t.reserved)
	t.reserved = 0
	t.index = nil
	p := t.parts
	t.parts = nil
	return p
}

var _ spiller = (*setCountOp)(nil)
