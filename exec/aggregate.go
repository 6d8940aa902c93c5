package exec

import (
	"context"
	"io"

	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// aggOp is a hash aggregation. With no GROUP BY it returns exactly one row,
// even over no input (count = 0, other aggregates NULL).
type aggOp struct {
	in     operator
	p      *planner.Aggregate
	env    *evalEnv
	groups map[string]*group
	order  []*group
	i      int
	done   bool
	key    []byte
}

type group struct {
	keys   Row
	states []aggState
}

type aggState struct {
	count int64
	sumI  int64
	sumF  float64
	val   types.Datum // min/max; the numeric or interval sum of sum/avg
	seen  map[string]bool
}

func (x *executor) aggregate(p *planner.Aggregate, in operator) (operator, error) {
	return &aggOp{in: in, p: p, env: x.env, groups: map[string]*group{}}, nil
}

func (o *aggOp) Next(ctx context.Context) (Row, error) {
	if !o.done {
		o.done = true
		if err := o.consume(ctx); err != nil {
			return nil, err
		}
		if len(o.order) == 0 && len(o.p.GroupBy) == 0 {
			o.order = append(o.order, &group{states: make([]aggState, len(o.p.Aggs))})
		}
	}
	if o.i >= len(o.order) {
		return nil, io.EOF
	}
	g := o.order[o.i]
	o.i++
	out := make(Row, 0, len(g.keys)+len(g.states))
	out = append(out, g.keys...)
	for i, a := range o.p.Aggs {
		out = append(out, result(a, &g.states[i]))
	}
	return out, nil
}

func (o *aggOp) consume(ctx context.Context) error {
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
		o.key = rowKey(o.key[:0], keys)
		g := o.groups[string(o.key)]
		if g == nil {
			g = &group{keys: append(Row(nil), keys...), states: make([]aggState, len(o.p.Aggs))}
			o.groups[string(o.key)] = g
			o.order = append(o.order, g)
		}
		for i, a := range o.p.Aggs {
			if err := o.accumulate(a, &g.states[i], r); err != nil {
				return err
			}
		}
	}
}

func (o *aggOp) accumulate(a planner.AggCall, st *aggState, r Row) error {
	if a.Func == planner.AggCountStar {
		st.count++
		return nil
	}
	v, err := eval(a.Arg, r, o.env)
	if err != nil || v.IsNull() {
		return err
	}
	if a.Distinct {
		if st.seen == nil {
			st.seen = map[string]bool{}
		}
		k := string(rowKey(nil, Row{v}))
		if st.seen[k] {
			return nil
		}
		st.seen[k] = true
	}
	st.count++
	switch a.Func {
	case planner.AggSum, planner.AggAvg:
		return accumulateSum(a, st, v) // exec/aggsum.go
	case planner.AggMin:
		if st.val.IsNull() || types.Compare(v, st.val) < 0 {
			st.val = v
		}
	case planner.AggMax:
		if st.val.IsNull() || types.Compare(v, st.val) > 0 {
			st.val = v
		}
	}
	return nil
}

func result(a planner.AggCall, st *aggState) types.Datum {
	switch a.Func {
	case planner.AggCountStar, planner.AggCount:
		return types.NewInt(types.Int8, st.count)
	}
	if st.count == 0 {
		return types.Null
	}
	switch a.Func {
	case planner.AggSum, planner.AggAvg:
		return sumResult(a, st) // exec/aggsum.go
	}
	return st.val
}

func (o *aggOp) Close() { o.in.Close() }
