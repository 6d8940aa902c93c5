package exec

import (
	"context"
	"errors"
	"io"
	"math"
	"time"

	"github.com/widesql/widesql/exec/spill"
	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
)

// operator is a pull-based row source: Next returns the next row or io.EOF.
// The returned Row is valid until the next call.
type operator interface {
	Next(ctx context.Context) (Row, error)
	Close()
}

// executor turns plans into operators for one statement execution.
type executor struct {
	eng *Engine
	env *evalEnv
	// stats, when non-nil, collects per-node figures for EXPLAIN ANALYZE.
	stats map[planner.Plan]*nodeStats
}

// nodeStats are the run-time figures of one plan node.
type nodeStats struct {
	rows    int64
	read    kv.ReadStats // what the node's kv reads did
	elapsed time.Duration
	spill   spill.Stats // what the node wrote to disk, if it spilled
	peakMem int64       // the most memory the node held, if it budgets
	// workers and pieces: a parallel scan's workers started and the key
	// ranges they shared (PostgreSQL's "Workers Launched").
	workers, pieces int64
}

// spiller is implemented by the operators that hold rows under a memory
// budget (sort, hash aggregation, hash join, set operations, windows).
// statsOp asks it on Close for EXPLAIN ANALYZE.
type spiller interface {
	spillStats() (st spill.Stats, peakMem int64)
}

// newBudget returns the memory budget of one blocking operator: the
// session's work_mem, as in PostgreSQL, where each sort or hash table of a
// query may use that much before it spills.
func (x *executor) newBudget() *spill.Budget {
	kb, _ := parseUnits(x.env.sess.values["work_mem"], "kB", memUnits)
	b := spill.NewBudget(kb << 10)
	if x.env.sess.values["widesql.spill"] == "off" {
		b.DisableSpill()
	}
	return b
}

// tempDir is where operators write spill files.
func (x *executor) tempDir() string { return x.eng.tempDir }

func (x *executor) build(p planner.Plan) (operator, error) {
	op, err := x.buildNode(p)
	if err != nil || x.stats == nil {
		return op, err
	}
	st := &nodeStats{}
	x.stats[p] = st
	return &statsOp{in: op, st: st}, nil
}

func (x *executor) buildNode(p planner.Plan) (operator, error) {
	switch p := p.(type) {
	case *planner.Scan:
		return x.scan(p)
	case *planner.ShowCreateTable:
		return x.showCreateTable(p) // alter.go
	case *planner.Values:
		return &valuesOp{rows: p.Rows, env: x.env}, nil
	case *planner.SetOp:
		return x.setOp(p) // exec/setop.go
	case *planner.HashJoin:
		return x.hashJoin(p) // exec/hashjoin.go
	case *planner.NestedLoopJoin:
		return x.nestedLoopJoin(p) // exec/nestloop.go
	case *planner.LookupJoin:
		return x.lookupJoin(p) // exec/lookupjoin.go
	case *planner.RecursiveUnion:
		return x.recursiveUnion(p) // exec/recursive.go
	case *planner.WorkTable:
		return x.workTable(p)
	case *planner.ProjectSet:
		return x.projectSet(p) // exec/srf.go
	}
	var input planner.Plan
	switch p := p.(type) {
	case *planner.Filter:
		input = p.Input
	case *planner.Project:
		input = p.Input
	case *planner.Sort:
		input = p.Input
	case *planner.Limit:
		input = p.Input
	case *planner.Distinct:
		input = p.Input
	case *planner.Aggregate:
		input = p.Input
	case *planner.Window:
		input = p.Input
	default:
		return nil, pgerror.New(pgerror.CodeInternalError, "cannot execute %T", p)
	}
	in, err := x.build(input)
	if err != nil {
		return nil, err
	}
	switch p := p.(type) {
	case *planner.Filter:
		return &filterOp{in: in, cond: p.Cond, env: x.env}, nil
	case *planner.Project:
		return &projectOp{in: in, exprs: p.Exprs, env: x.env, out: make(Row, len(p.Exprs))}, nil
	case *planner.Sort:
		return x.sort(p, in) // exec/sort.go
	case *planner.Limit:
		return x.limit(in, p)
	case *planner.Distinct:
		return x.distinct(p, in) // exec/distinct.go
	case *planner.Window:
		return x.window(p, in) // exec/window.go
	default:
		return x.aggregate(p.(*planner.Aggregate), in) // exec/aggregate.go
	}
}

// statsOp counts rows and time for EXPLAIN ANALYZE.
type statsOp struct {
	in operator
	st *nodeStats
}

func (o *statsOp) Next(ctx context.Context) (Row, error) {
	start := time.Now()
	r, err := o.in.Next(ctx)
	o.st.elapsed += time.Since(start)
	if err == nil {
		o.st.rows++
	}
	return r, err
}

func (o *statsOp) Close() {
	if sp, ok := o.in.(spiller); ok {
		o.st.spill, o.st.peakMem = sp.spillStats()
	}
	o.in.Close()
}

type valuesOp struct {
	rows [][]planner.Expr
	env  *evalEnv
	i    int
}

func (o *valuesOp) Next(ctx context.Context) (Row, error) {
	if o.i >= len(o.rows) {
		return nil, io.EOF
	}
	exprs := o.rows[o.i]
	o.i++
	row := make(Row, len(exprs))
	for i, e := range exprs {
		v, err := eval(e, nil, o.env)
		if err != nil {
			return nil, err
		}
		row[i] = v
	}
	return row, nil
}

func (o *valuesOp) Close() {}

type filterOp struct {
	in   operator
	cond planner.Expr
	env  *evalEnv
}

func (o *filterOp) Next(ctx context.Context) (Row, error) {
	for {
		r, err := o.in.Next(ctx)
		if err != nil {
			return nil, err
		}
		if ok, err := evalBool(o.cond, r, o.env); err != nil || ok {
			return r, err
		}
	}
}

func (o *filterOp) Close() { o.in.Close() }

type projectOp struct {
	in    operator
	exprs []planner.Expr
	env   *evalEnv
	out   Row
}

func (o *projectOp) Next(ctx context.Context) (Row, error) {
	r, err := o.in.Next(ctx)
	if err != nil {
		return nil, err
	}
	for i, e := range o.exprs {
		// Most output columns are input columns: copying them here skips
		// eval's call and type switch, once per column and row.
		if c, ok := e.(*planner.ColRef); ok {
			o.out[i] = r[c.Idx]
			continue
		}
		if o.out[i], err = eval(e, r, o.env); err != nil {
			return nil, err
		}
	}
	return o.out, nil
}

func (o *projectOp) Close() { o.in.Close() }

type limitOp struct {
	in            operator
	count, offset int64 // count < 0: no limit
	n             int64
}

func (x *executor) limit(in operator, p *planner.Limit) (operator, error) {
	o := &limitOp{in: in}
	if err := x.setLimit(o, p); err != nil {
		return nil, err
	}
	return o, nil
}

// setLimit evaluates p's bounds into o for this execution.
func (x *executor) setLimit(o *limitOp, p *planner.Limit) error {
	o.count, o.offset, o.n = -1, 0, 0
	for _, part := range []struct {
		e   planner.Expr
		dst *int64
		w   string
	}{{p.Count, &o.count, "LIMIT"}, {p.Offset, &o.offset, "OFFSET"}} {
		if part.e == nil {
			continue
		}
		v, err := eval(part.e, nil, x.env)
		if err != nil {
			return err
		}
		if v.IsNull() {
			continue
		}
		if v.I < 0 {
			code := "2201W" // invalid_row_count_in_limit_clause
			if part.w == "OFFSET" {
				code = "2201X" // invalid_row_count_in_result_offset_clause
			}
			return pgerror.New(code, "%s must not be negative", part.w)
		}
		*part.dst = v.I
	}
	return nil
}

// reusablePlan reports whether the operator tree of p may be kept by a
// prepared statement and readied for each execution (reuseTree) instead
// of being built again: a keyed read of a stored table (a point Get,
// multi-get or range; never a full scan, which may run in parallel or
// prefetch on another goroutine), optionally under filters, projections
// and limits. Every operator of such a tree keeps its state in fields
// that reuseTree sets again, the evaluation environment included.
func reusablePlan(p planner.Plan) bool {
	s := scanUnder(p)
	return s != nil && s.Table.Virtual == "" && s.Access.Kind != planner.FullScan
}

// scanUnder returns the scan p reads through projections, filters and
// limits only, or nil when p has another shape.
func scanUnder(p planner.Plan) *planner.Scan {
	for {
		switch n := p.(type) {
		case *planner.Project:
			p = n.Input
		case *planner.Filter:
			p = n.Input
		case *planner.Limit:
			p = n.Input
		case *planner.Scan:
			return n
		default:
			return nil
		}
	}
}

// reuseTree readies op, a closed operator tree that x.build made for the
// reusable plan p (reusablePlan) in an earlier execution, for this one:
// parameters, limits, the kv read and the environment are this
// execution's. An error leaves op unusable for this execution only: a
// later reuseTree sets every field again.
func (x *executor) reuseTree(p planner.Plan, op operator) error {
	// Inputs first, as build evaluates them: the first error is the same.
	switch n := p.(type) {
	case *planner.Project:
		o, ok := op.(*projectOp)
		if !ok {
			return errTreeShape
		}
		o.env, o.exprs = x.env, n.Exprs
		return x.reuseTree(n.Input, o.in)
	case *planner.Filter:
		o, ok := op.(*filterOp)
		if !ok {
			return errTreeShape
		}
		o.env, o.cond = x.env, n.Cond
		return x.reuseTree(n.Input, o.in)
	case *planner.Limit:
		o, ok := op.(*limitOp)
		if !ok {
			return errTreeShape
		}
		if err := x.reuseTree(n.Input, o.in); err != nil {
			return err
		}
		return x.setLimit(o, n)
	case *planner.Scan:
		if o, ok := op.(*scanOp); ok {
			return x.resetScan(o, n) // scan.go
		}
	}
	return errTreeShape
}

// errTreeShape is reuseTree's error for a kept tree whose operators are
// not the ones it knows how to ready (a build that wrapped or replaced
// one): the caller builds a new tree instead.
var errTreeShape = errors.New("exec: kept operator tree does not match its plan")

func (o *limitOp) Next(ctx context.Context) (Row, error) {
	for o.offset > 0 {
		if _, err := o.in.Next(ctx); err != nil {
			return nil, err
		}
		o.offset--
	}
	if o.count >= 0 && o.n >= o.count {
		return nil, io.EOF
	}
	o.n++
	return o.in.Next(ctx)
}

func (o *limitOp) Close() { o.in.Close() }

// scanLimit is the most rows the consumer of scan p will pull, for
// kv.ReadOptions.Limit: p.LimitHint, or the bound value of a parameter
// LIMIT (p.LimitCount); 0 when unknown. A NULL or negative bound gives 0:
// the Limit operator above reports a negative one.
func scanLimit(p *planner.Scan, env *evalEnv) int64 {
	if p.LimitHint > 0 || p.LimitCount == nil || env == nil {
		return p.LimitHint
	}
	bound := func(e planner.Expr) (int64, bool) {
		d, err := eval(e, nil, env)
		if err != nil || d.IsNull() || d.I < 0 {
			return 0, false
		}
		return d.I, true
	}
	n, ok := bound(p.LimitCount)
	if !ok {
		return 0
	}
	if p.LimitOffset != nil {
		o, ok := bound(p.LimitOffset)
		if !ok || n > math.MaxInt64-o {
			return 0
		}
		n += o
	}
	return n
}
