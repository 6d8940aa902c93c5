package exec

import (
	"context"
	"io"

	"github.com/widesql/widesql/exec/spill"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// hashJoin builds the hash table from Right and streams Left through it.
// Within work_mem the join is one in-memory pass. When the build side
// outgrows the budget the join becomes a hybrid Grace hash join
// (join_grace.go): rows are spread over partition files by a hash of the
// key, partition 0 stays in memory and is joined while the probe side
// streams, and every other partition pair is joined afterwards, one at a
// time, repartitioned again when its build side still does not fit.
func (x *executor) hashJoin(p *planner.HashJoin) (operator, error) {
	if len(p.LeftKeys) == 0 || len(p.LeftKeys) != len(p.RightKeys) {
		return nil, pgerror.New(pgerror.CodeInternalError, "hash join with %d left keys and %d right keys", len(p.LeftKeys), len(p.RightKeys))
	}
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
	o := &hashJoinOp{
		kind: p.Kind, leftKeys: p.LeftKeys, rightKeys: p.RightKeys, on: p.On,
		env: x.env, budget: x.newBudget(), dir: x.tempDir(),
		leftTypes: lt, rightTypes: rt, left: left, right: right,
		hasher:    newJoinHasher(),
		probeKeys: make([]types.Datum, len(p.LeftKeys)),
		buildKeys: make([]types.Datum, len(p.RightKeys)),
		out:       make(Row, len(lt)+len(rt)),
	}
	o.table.budget = o.budget
	o.tasks = []*joinTask{{build: joinOpSource{right}, probe: joinOpSource{left}, buildRows: -1}}
	return o, nil
}

func joinColumnTypes(cols []planner.ResultColumn) []types.T {
	ts := make([]types.T, len(cols))
	for i, c := range cols {
		ts[i] = c.T
	}
	return ts
}

// hashJoinOp runs a hash join as a list of tasks, each joining one build
// source with one probe source: first the two inputs, then spilled
// partition pairs.
type hashJoinOp struct {
	kind                planner.JoinKind
	leftKeys, rightKeys []planner.Expr
	on                  planner.Expr
	env                 *evalEnv
	budget              *spill.Budget
	dir                 string
	leftTypes           []types.T
	rightTypes          []types.T
	left, right         operator
	hasher              joinHasher

	tasks   []*joinTask // pending, the last first
	task    *joinTask   // the task being joined
	table   joinTable   // the task's in-memory build rows
	parts   *gracePair  // the partitions the task spills to, nil if none
	memPart bool        // the table holds parts' partition 0

	state        hashJoinState
	probe        Row // the probe row being matched
	probeKeys    []types.Datum
	probeHash    uint64
	probeMatched bool
	cand         int32 // next row of the probe row's chain, -1 at the end
	unmatched    int   // next table row to check for RIGHT and FULL output
	buildKeys    []types.Datum
	out          Row
	ticks        int
	nullRows     uint64 // build rows with a NULL key so far

	open   []*gracePair // partitions not yet released
	spills spill.Stats  // of released partitions
	closed bool
}

type hashJoinState uint8

const (
	hjNextTask  hashJoinState = iota // start the next task, or end
	hjProbe                          // read the next probe row
	hjMatch                          // walk the probe row's chain
	hjUnmatched                      // emit unmatched build rows, then finish the task
	hjDone
)

// joinTask joins one build source with one probe source.
type joinTask struct {
	build, probe joinSource
	level        int   // repartitioning depth: 0 for the inputs
	buildRows    int64 // rows of the build source, -1 if unknown
	// from, when set, is the partition pair the sources read (partition
	// idx); the sources are opened when the task starts.
	from *gracePair
	idx  int
}

var (
	_ operator = (*hashJoinOp)(nil)
	_ spiller  = (*hashJoinOp)(nil)
)

// tick checks for cancellation every 1024 calls, for loops that may run
// long without returning a row.
func (o *hashJoinOp) tick(ctx context.Context) error {
	if o.ticks++; o.ticks&1023 == 0 {
		if ctx.Err() != nil {
			return joinCanceled()
		}
	}
	return nil
}

func joinCanceled() error {
	return pgerror.New(pgerror.CodeQueryCanceled, "canceling statement due to user request")
}

func (o *hashJoinOp) Next(ctx context.Context) (Row, error) {
	nl := len(o.leftTypes)
	for {
		switch o.state {
		case hjNextTask:
			if err := o.startTask(ctx); err != nil {
				return nil, err
			}
		case hjProbe:
			r, err := o.task.probe.next(ctx)
			if err == io.EOF {
				o.state, o.unmatched = hjUnmatched, 0
				continue
			}
			if err != nil {
				return nil, err
			}
			if err := o.tick(ctx); err != nil {
				return nil, err
			}
			if out, err := o.startProbe(r); out != nil || err != nil {
				return out, err
			}
		case hjMatch:
			if out, err := o.match(ctx); out != nil || err != nil {
				return out, err
			}
		case hjUnmatched:
			if o.kind == planner.RightJoin || o.kind == planner.FullJoin {
				for o.unmatched < len(o.table.rows) {
					i := o.unmatched
					o.unmatched++
					if err := o.tick(ctx); err != nil {
						return nil, err
					}
					if !o.table.matched[i] {
						clear(o.out[:nl])
						copy(o.out[nl:], o.table.rows[i][:len(o.rightTypes)])
						return o.out, nil
					}
				}
			}
			if err := o.finishTask(); err != nil {
				return nil, err
			}
		case hjDone:
			return nil, io.EOF
		}
	}
}

// startTask builds the next task's table, or ends the join.
func (o *hashJoinOp) startTask(ctx context.Context) error {
	if len(o.tasks) == 0 {
		o.state = hjDone
		return nil
	}
	t := o.tasks[len(o.tasks)-1]
	o.tasks = o.tasks[:len(o.tasks)-1]
	o.task = t
	if t.from != nil {
		if err := t.open(); err != nil {
			return err
		}
	}
	if err := o.buildTable(ctx); err != nil {
		return err
	}
	o.state = hjProbe
	if len(o.table.rows) == 0 && o.parts == nil &&
		(o.kind == planner.InnerJoin || o.kind == planner.SemiJoin || o.kind == planner.RightJoin) {
		o.state = hjUnmatched // nothing can match: skip the probe side
	}
	return nil
}

// buildTable reads the task's build side into the table, spilling to
// partitions beyond the budget.
func (o *hashJoinOp) buildTable(ctx context.Context) error {
	nr := len(o.rightTypes)
	for {
		r, err := o.task.build.next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := o.tick(ctx); err != nil {
			return err
		}
		hasNull, err := evalJoinKeys(o.buildKeys, o.rightKeys, r, o.env)
		if err != nil {
			return err
		}
		if hasNull && o.kind != planner.RightJoin && o.kind != planner.FullJoin {
			continue // matches nothing and is not emitted
		}
		var h uint64
		if hasNull {
			// Kept only to be emitted unmatched: any partition will do, so
			// spread these rows rather than pile them into one.
			o.nullRows++
			h = o.nullRows * 0x9e3779b97f4a7c15
		} else {
			h = o.hasher.hash(o.buildKeys)
		}
		for {
			if o.parts != nil {
				p := joinPartition(h, o.task.level, o.parts.n)
				if p != 0 || !o.memPart {
					if err := o.parts.build.Add(p, r[:nr]); err != nil {
						return err
					}
					break
				}
			}
			stored := make(Row, nr+len(o.buildKeys))
			copy(stored, r[:nr])
			copy(stored[nr:], o.buildKeys)
			err := o.budget.Grow(joinEntrySize(stored))
			if err == nil {
				o.table.add(stored, h, !hasNull)
				break
			}
			if !o.budget.CanSpill() || o.task.level >= maxJoinDepth {
				return err
			}
			if err := o.spillTable(); err != nil {
				return err
			}
		}
	}
}

// startProbe looks up probe row r. It returns the row to emit at once, if
// any, else sets the state to go on with.
func (o *hashJoinOp) startProbe(r Row) (Row, error) {
	hasNull, err := evalJoinKeys(o.probeKeys, o.leftKeys, r, o.env)
	if err != nil {
		return nil, err
	}
	if hasNull {
		return o.noMatch(r), nil
	}
	h := o.hasher.hash(o.probeKeys)
	if o.parts != nil {
		p := joinPartition(h, o.task.level, o.parts.n)
		if p != 0 || !o.memPart {
			if o.parts.build.Rows(p) == 0 {
				return o.noMatch(r), nil
			}
			return nil, o.parts.probe.Add(p, r)
		}
	}
	o.probe, o.probeHash, o.probeMatched = r, h, false
	o.cand = o.table.head(h)
	o.state = hjMatch
	return nil, nil
}

// noMatch returns what a probe row without a match emits: itself for an
// anti join, itself with NULLs for LEFT and FULL, nothing otherwise.
func (o *hashJoinOp) noMatch(r Row) Row {
	switch o.kind {
	case planner.AntiJoin:
		return r
	case planner.LeftJoin, planner.FullJoin:
		nl := len(o.leftTypes)
		copy(o.out, r[:nl])
		clear(o.out[nl:])
		return o.out
	}
	return nil
}

// match walks the probe row's chain and returns the next joined row; at
// the end of the chain it returns the unmatched output, if any, and goes
// back to probing.
func (o *hashJoinOp) match(ctx context.Context) (Row, error) {
	nl, nr := len(o.leftTypes), len(o.rightTypes)
	t := &o.table
	for o.cand >= 0 {
		i := o.cand
		o.cand = t.next[i]
		if err := o.tick(ctx); err != nil {
			return nil, err
		}
		b := t.rows[i]
		if t.hashes[i] != o.probeHash || !joinKeysEqual(o.probeKeys, b[nr:]) {
			continue
		}
		copy(o.out, o.probe[:nl])
		copy(o.out[nl:], b[:nr])
		if o.on != nil {
			ok, err := evalBool(o.on, o.out, o.env)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		o.probeMatched = true
		switch o.kind {
		case planner.SemiJoin:
			o.state = hjProbe
			return o.probe, nil
		case planner.AntiJoin:
			o.state = hjProbe
			return nil, nil
		}
		t.matched[i] = true
		return o.out, nil
	}
	o.state = hjProbe
	if o.probeMatched {
		return nil, nil
	}
	return o.noMatch(o.probe), nil
}

func (o *hashJoinOp) spillStats() (spill.Stats, int64) {
	st := o.spills
	for _, pp := range o.open {
		addJoinSpillStats(&st, pp.stats())
	}
	return st, o.budget.Peak()
}

func addJoinSpillStats(dst *spill.Stats, s spill.Stats) {
	dst.Spilled = dst.Spilled || s.Spilled
	dst.Runs += s.Runs
	dst.Partitions += s.Partitions
	dst.RowsWritten += s.RowsWritten
	dst.BytesWritten += s.BytesWritten
}

// Close releases the table and removes every spill file, also when the
// join was not read to the end.
func (o *hashJoinOp) Close() {
	if o.closed {
		return
	}
	o.closed = true
	o.table.reset()
	for _, pp := range o.open {
		pp.close()
		addJoinSpillStats(&o.spills, pp.final)
	}
	o.open, o.tasks, o.task, o.parts = nil, nil, nil, nil
	o.left.Close()
	o.right.Close()
}
