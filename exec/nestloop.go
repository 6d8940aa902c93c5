package exec

import (
	"context"
	"io"

	"github.com/widesql/widesql/exec/spill"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// nestedLoopJoin joins every left row with every right row for which On
// holds. Right is materialized once, in memory within work_mem; beyond it
// (when spilling is allowed) it goes to a row file and the join becomes a
// block nested loop: left rows are read in blocks that fill the budget and
// the file is scanned once per block. With Right in memory a block is one
// left row, so the join streams.
func (x *executor) nestedLoopJoin(p *planner.NestedLoopJoin) (operator, error) {
	left, err := x.build(p.Left)
	if err != nil {
		return nil, err
	}
	right, err := x.build(p.Right)
	if err != nil {
		left.Close()
		return nil, err
	}
	lt, rt := joinColumnTypes(p.Left.Columns()), joinColumnTypes(p.Right.Columns())
	return &nestLoopOp{
		kind: p.Kind, on: p.On, env: x.env, budget: x.newBudget(), dir: x.tempDir(),
		nl: len(lt), rightTypes: rt, left: left, right: right,
		out: make(Row, len(lt)+len(rt)),
	}, nil
}

// nestLoopOp runs the join block by block: for each block of left rows it
// scans the right rows and, for each right row, checks every row of the
// block. RIGHT and FULL joins remember which right rows matched (by their
// position in the scan) and emit the others after the last block.
type nestLoopOp struct {
	kind       planner.JoinKind
	on         planner.Expr
	env        *evalEnv
	budget     *spill.Budget
	dir        string
	nl         int
	rightTypes []types.T
	left       operator
	right      operator

	started      bool
	rightRows    []Row             // the right side in memory, or
	rightFile    *spill.Partitions // its file (partition 0) when spilled
	rightMatched []bool            // by position, for RIGHT and FULL
	rightMem     int64             // memory reserved for rightRows

	block        []Row // the current block of left rows
	blockMatched []bool
	blockMem     int64 // memory reserved for copied block rows
	nMatched     int   // rows of the block matched so far
	leftDone     bool

	state   nestLoopState
	it      spill.Iterator // the current scan of the right file
	cur     Row            // the current right row
	ri      int            // right rows scanned so far (cur is ri-1)
	li      int            // next block row to check against cur
	ticks   int
	out     Row
	closed  bool
	unmatch int // next block row to check for unmatched output
}

type nestLoopState uint8

const (
	nlNextBlock nestLoopState = iota // read the next block of left rows
	nlNextRight                      // advance the right scan
	nlPairs                          // check cur against the block
	nlBlockEnd                       // emit the block's unmatched rows
	nlRightRest                      // emit unmatched right rows
	nlDone
)

var (
	_ operator = (*nestLoopOp)(nil)
	_ spiller  = (*nestLoopOp)(nil)
)

func (o *nestLoopOp) tick(ctx context.Context) error {
	if o.ticks++; o.ticks&1023 == 0 {
		if ctx.Err() != nil {
			return joinCanceled()
		}
	}
	return nil
}

func (o *nestLoopOp) Next(ctx context.Context) (Row, error) {
	if !o.started {
		o.started = true
		if err := o.materialize(ctx); err != nil {
			return nil, err
		}
	}
	for {
		if err := o.tick(ctx); err != nil {
			return nil, err
		}
		switch o.state {
		case nlNextBlock:
			if err := o.readBlock(ctx); err != nil {
				return nil, err
			}
			if len(o.block) == 0 {
				o.state = nlDone
				if o.kind == planner.RightJoin || o.kind == planner.FullJoin {
					o.state = nlRightRest
					if err := o.startScan(); err != nil {
						return nil, err
					}
				}
				continue
			}
			if err := o.startScan(); err != nil {
				return nil, err
			}
			o.state = nlNextRight
		case nlNextRight:
			if o.nMatched == len(o.block) && (o.kind == planner.SemiJoin || o.kind == planner.AntiJoin) {
				o.state, o.unmatch = nlBlockEnd, 0 // every row has its answer
				continue
			}
			r, err := o.nextRight()
			if err == io.EOF {
				o.state, o.unmatch = nlBlockEnd, 0
				continue
			}
			if err != nil {
				return nil, err
			}
			o.cur, o.li = r, 0
			o.state = nlPairs
		case nlPairs:
			if out, err := o.pairs(ctx); out != nil || err != nil {
				return out, err
			}
		case nlBlockEnd:
			for o.unmatch < len(o.block) {
				i := o.unmatch
				o.unmatch++
				if o.blockMatched[i] {
					continue
				}
				switch o.kind {
				case planner.AntiJoin:
					return o.block[i], nil
				case planner.LeftJoin, planner.FullJoin:
					copy(o.out, o.block[i])
					clear(o.out[o.nl:])
					return o.out, nil
				}
			}
			o.state = nlNextBlock
		case nlRightRest:
			r, err := o.nextRight()
			if err == io.EOF {
				o.state = nlDone
				continue
			}
			if err != nil {
				return nil, err
			}
			if !o.rightMatched[o.ri-1] {
				clear(o.out[:o.nl])
				copy(o.out[o.nl:], r)
				return o.out, nil
			}
		case nlDone:
			return nil, io.EOF
		}
	}
}

// pairs checks the current right row against the rest of the block and
// returns the next joined row; at the end of the block it goes back to
// the right scan.
func (o *nestLoopOp) pairs(ctx context.Context) (Row, error) {
	for o.li < len(o.block) {
		i := o.li
		o.li++
		if o.blockMatched[i] && (o.kind == planner.SemiJoin || o.kind == planner.AntiJoin) {
			continue // already answered
		}
		if err := o.tick(ctx); err != nil {
			return nil, err
		}
		copy(o.out, o.block[i])
		copy(o.out[o.nl:], o.cur)
		if o.on != nil {
			ok, err := evalBool(o.on, o.out, o.env)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		if !o.blockMatched[i] {
			o.blockMatched[i] = true
			o.nMatched++
		}
		switch o.kind {
		case planner.SemiJoin:
			return o.block[i], nil
		case planner.AntiJoin:
			continue
		case planner.RightJoin, planner.FullJoin:
			o.rightMatched[o.ri-1] = true
		}
		return o.out, nil
	}
	o.state = nlNextRight
	return nil, nil
}

// materialize reads the right side into memory or, beyond the budget,
// into a row file.
func (o *nestLoopOp) materialize(ctx context.Context) error {
	n := 0
	for {
		r, err := o.right.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := o.tick(ctx); err != nil {
			return err
		}
		n++
		if o.rightFile != nil {
			if err := o.rightFile.Add(0, r); err != nil {
				return err
			}
			continue
		}
		sz := spill.RowSize(r)
		if err := o.budget.Grow(sz); err != nil {
			if !o.budget.CanSpill() {
				return err
			}
			if err := o.spillRight(); err != nil {
				return err
			}
			if err := o.rightFile.Add(0, r); err != nil {
				return err
			}
			continue
		}
		o.rightMem += sz
		o.rightRows = append(o.rightRows, append(Row(nil), r...))
	}
	if o.kind == planner.RightJoin || o.kind == planner.FullJoin {
		o.rightMatched = make([]bool, n)
	}
	if n == 0 && (o.kind == planner.InnerJoin || o.kind == planner.SemiJoin || o.kind == planner.RightJoin) {
		o.state = nlDone // nothing can match: skip the left side
	}
	return nil
}

// spillRight moves the right rows held in memory to a row file.
func (o *nestLoopOp) spillRight() error {
	o.rightFile = spill.NewPartitions(1, o.rightTypes, o.dir)
	for _, r := range o.rightRows {
		if err := o.rightFile.Add(0, r); err != nil {
			return err
		}
	}
	o.rightRows = nil
	o.budget.Shrink(o.rightMem)
	o.rightMem = 0
	return nil
}

// startScan starts a scan of the right rows from the first.
func (o *nestLoopOp) startScan() error {
	o.ri = 0
	if o.rightFile == nil {
		return nil
	}
	it, err := o.rightFile.Read(0)
	o.it = it
	return err
}

// nextRight returns the scan's next right row or io.EOF.
func (o *nestLoopOp) nextRight() (Row, error) {
	if o.rightFile == nil {
		if o.ri >= len(o.rightRows) {
			return nil, io.EOF
		}
		o.ri++
		return o.rightRows[o.ri-1], nil
	}
	r, err := o.it.Next()
	if err != nil {
		return nil, err
	}
	o.ri++
	return r, nil
}

// readBlock reads the next block of left rows: one row (not copied: it
// stays valid until the next left.Next) while the right side is in
// memory, else as many copied rows as the budget holds, at least one.
func (o *nestLoopOp) readBlock(ctx context.Context) error {
	o.budget.Shrink(o.blockMem)
	o.blockMem = 0
	clear(o.block)
	o.block, o.blockMatched, o.nMatched = o.block[:0], o.blockMatched[:0], 0
	for !o.leftDone {
		r, err := o.left.Next(ctx)
		if err == io.EOF {
			o.leftDone = true
			break
		}
		if err != nil {
			return err
		}
		if o.rightFile == nil {
			o.block, o.blockMatched = append(o.block, r), append(o.blockMatched, false)
			return nil
		}
		sz := spill.RowSize(r)
		full := o.budget.Grow(sz) != nil
		if !full {
			o.blockMem += sz
		}
		o.block, o.blockMatched = append(o.block, append(Row(nil), r...)), append(o.blockMatched, false)
		if full {
			break // this row is over the budget; it ends the block
		}
		if err := o.tick(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (o *nestLoopOp) spillStats() (spill.Stats, int64) {
	var st spill.Stats
	if o.rightFile != nil {
		st = o.rightFile.Stats()
	}
	return st, o.budget.Peak()
}

// Close releases the rows and removes the right side's file, also when the
// join was not read to the end.
func (o *nestLoopOp) Close() {
	if o.closed {
		return
	}
	o.closed = true
	if o.rightFile != nil {
		o.rightFile.Close()
	}
	o.budget.Shrink(o.rightMem + o.blockMem)
	o.rightRows, o.block, o.it = nil, nil, nil
	o.left.Close()
	o.right.Close()
}
