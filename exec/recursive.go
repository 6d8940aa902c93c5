package exec

import (
	"context"
	"io"

	"github.com/widesql/widesql/exec/spill"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
)

// recursiveOp evaluates WITH RECURSIVE: it streams Init's rows, keeping
// them as the working table, then runs Recursive over the working table
// until a round adds nothing. Without ALL, rows seen before are dropped.
// The working table and (without ALL) the seen set are held in memory
// within work_mem; they cannot spill, so a recursion larger than work_mem
// fails with 53200.
type recursiveOp struct {
	x      *executor
	p      *planner.RecursiveUnion
	cur    operator // the running round
	round  []Row    // rows the running round produced
	seen   map[string]bool
	key    []byte
	budget *spill.Budget
	held   int64
	init   bool
}

func (x *executor) recursiveUnion(p *planner.RecursiveUnion) (operator, error) {
	in, err := x.build(p.Init)
	if err != nil {
		return nil, err
	}
	o := &recursiveOp{x: x, p: p, cur: in, init: true, budget: x.newBudget()}
	if !p.All {
		o.seen = map[string]bool{}
	}
	return o, nil
}

func (o *recursiveOp) Next(ctx context.Context) (Row, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, pgerror.New(pgerror.CodeQueryCanceled, "canceling statement due to user request")
		}
		r, err := o.cur.Next(ctx)
		if err == io.EOF {
			o.cur.Close()
			if len(o.round) == 0 {
				o.cur = &rowsOp{}
				return nil, io.EOF
			}
			// The next round reads this round's rows.
			env := o.x.env
			if env.work == nil {
				env.work = map[int][]Row{}
			}
			env.work[o.p.ID] = o.round
			o.round = nil
			o.budget.Shrink(o.held)
			o.held = 0
			if o.cur, err = o.x.build(o.p.Recursive); err != nil {
				o.cur = &rowsOp{}
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		if o.seen != nil {
			o.key = rowKey(o.key[:0], r)
			if o.seen[string(o.key)] {
				continue
			}
			if err := o.budget.Grow(int64(len(o.key)) + 64); err != nil {
				return nil, err
			}
			o.seen[string(o.key)] = true
		}
		kept := append(Row(nil), r...)
		n := spill.RowSize(kept)
		if err := o.budget.Grow(n); err != nil {
			return nil, err
		}
		o.held += n
		o.round = append(o.round, kept)
		return kept, nil
	}
}

func (o *recursiveOp) Close() {
	if o.cur != nil {
		o.cur.Close()
	}
	delete(o.x.env.work, o.p.ID)
}

func (o *recursiveOp) spillStats() (spill.Stats, int64) { return spill.Stats{}, o.budget.Peak() }

// workTable reads a recursive CTE's working table.
func (x *executor) workTable(p *planner.WorkTable) (operator, error) {
	return &rowsOp{rows: x.env.work[p.ID]}, nil
}
