package exec

import (
	"context"
	"encoding/binary"
	"io"
	"sort"
	"time"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
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
	rows      int64
	rowsRead  int64
	cellsRead int64
	elapsed   time.Duration
}

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
	case *planner.Values:
		return &valuesOp{rows: p.Rows, env: x.env}, nil
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
		return &sortOp{in: in, keys: p.Keys, env: x.env}, nil
	case *planner.Limit:
		return x.limit(in, p)
	case *planner.Distinct:
		return &distinctOp{in: in, seen: map[string]bool{}}, nil
	default:
		return newAggOp(in, p.(*planner.Aggregate), x.env), nil
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

func (o *statsOp) Close() { o.in.Close() }

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
		if o.out[i], err = eval(e, r, o.env); err != nil {
			return nil, err
		}
	}
	return o.out, nil
}

func (o *projectOp) Close() { o.in.Close() }

// sortOp materializes its input and sorts it. NULLs sort last ascending
// and first descending, as in PostgreSQL.
type sortOp struct {
	in   operator
	keys []planner.SortKey
	env  *evalEnv
	rows []Row
	vals [][]types.Datum
	i    int
	done bool
}

func (o *sortOp) Next(ctx context.Context) (Row, error) {
	if !o.done {
		o.done = true
		for {
			r, err := o.in.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			kv := make([]types.Datum, len(o.keys))
			for i, k := range o.keys {
				if kv[i], err = eval(k.Expr, r, o.env); err != nil {
					return nil, err
				}
			}
			o.rows = append(o.rows, append(Row(nil), r...))
			o.vals = append(o.vals, kv)
		}
		idx := make([]int, len(o.rows))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return o.less(o.vals[idx[a]], o.vals[idx[b]]) })
		sorted := make([]Row, len(idx))
		for i, j := range idx {
			sorted[i] = o.rows[j]
		}
		o.rows, o.vals = sorted, nil
	}
	if o.i >= len(o.rows) {
		return nil, io.EOF
	}
	o.i++
	return o.rows[o.i-1], nil
}

func (o *sortOp) less(a, b []types.Datum) bool {
	for i, k := range o.keys {
		c := compareNullable(a[i], b[i], k.NullsFirst)
		if k.Desc {
			c = -c
			if a[i].IsNull() != b[i].IsNull() {
				c = -c // NULL placement does not flip with direction
			}
		}
		if c != 0 {
			return c < 0
		}
	}
	return false
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

func (o *sortOp) Close() { o.in.Close() }

type limitOp struct {
	in            operator
	count, offset int64 // count < 0: no limit
	n             int64
}

func (x *executor) limit(in operator, p *planner.Limit) (operator, error) {
	o := &limitOp{in: in, count: -1}
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
			return nil, err
		}
		if v.IsNull() {
			continue
		}
		if v.I < 0 {
			code := "2201W" // invalid_row_count_in_limit_clause
			if part.w == "OFFSET" {
				code = "2201X" // invalid_row_count_in_result_offset_clause
			}
			return nil, pgerror.New(code, "%s must not be negative", part.w)
		}
		*part.dst = v.I
	}
	return o, nil
}

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

type distinctOp struct {
	in   operator
	seen map[string]bool
	key  []byte
}

func (o *distinctOp) Next(ctx context.Context) (Row, error) {
	for {
		r, err := o.in.Next(ctx)
		if err != nil {
			return nil, err
		}
		o.key = rowKey(o.key[:0], r)
		if !o.seen[string(o.key)] {
			o.seen[string(o.key)] = true
			return r, nil
		}
	}
}

func (o *distinctOp) Close() { o.in.Close() }

// rowKey encodes values for hashing: equal values (by SQL equality within
// a type) give equal keys.
func rowKey(buf []byte, r Row) []byte {
	for _, d := range r {
		if d.IsNull() {
			buf = append(buf, 0)
			continue
		}
		buf = append(buf, 1, byte(d.K))
		if d.K.IsInt() {
			d.K = types.Int8 // 1::int2 and 1::int8 group together
			buf[len(buf)-1] = byte(types.Int8)
		}
		n := len(buf)
		buf = types.AppendText(append(buf, 0, 0, 0, 0), d)
		binary.BigEndian.PutUint32(buf[n:], uint32(len(buf)-n-4))
	}
	return buf
}
