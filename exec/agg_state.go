package exec

import (
	"math"

	"github.com/widesql/widesql/exec/spill"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// aggState is one aggregate's running state in one group.
//
// A scalar aggregate (count, sum, avg, min, max, bool_and/or, the
// variance family, without DISTINCT or ORDER BY) folds each value in as it
// comes: count, and per function sumI/sumF/val (exec/aggsum.go), val as
// min/max, b for bool_and/or, and for variance either count/sumF/sxx
// (float input, PostgreSQL's Youngs-Cramer float8_accum) or count/val/sq
// (exact numeric sums of x and x², as numeric_accum).
//
// A list aggregate (string_agg, array_agg, the ordered-set aggregates, and
// any aggregate with DISTINCT or ORDER BY) keeps its input tuples in list
// and computes the result at the end (exec/agg_final.go): that state
// grows with the group, and its memory is charged to the budget.
type aggState struct {
	count  int64
	sumI   int64
	sumF   float64
	sxx    float64
	val    types.Datum
	sq     types.Datum
	b      bool
	direct types.Datum // an ordered-set aggregate's fraction
	hasDir bool
	list   [][]types.Datum
	seen   map[string]struct{} // DISTINCT list aggregates: the tuples in list
}

// aggFn is what the executor derives once from a planner.AggCall.
type aggFn struct {
	call planner.AggCall
	list bool
	// tuple are the types of a list aggregate's tuples: the argument, the
	// string_agg delimiter, then the ORDER BY keys (none for ordered-set
	// aggregates, whose one key is the argument).
	tuple   []types.T
	keyOff  int     // index of the first ORDER BY key in a tuple
	valType types.T // the type of val in the codec
}

func newAggFn(a planner.AggCall) aggFn {
	f := aggFn{call: a}
	switch a.Func {
	case planner.AggStringAgg, planner.AggArrayAgg, planner.AggPercentileCont, planner.AggPercentileDisc, planner.AggMode:
		f.list = true
	default:
		f.list = a.Distinct || len(a.Order) > 0
	}
	if a.Arg != nil {
		f.tuple = append(f.tuple, a.Arg.Type())
		f.valType = a.Arg.Type()
	}
	if a.Func == planner.AggStringAgg {
		f.tuple = append(f.tuple, a.Extra.Type())
	}
	f.keyOff = len(f.tuple)
	if !a.Func.OrderedSet() {
		for _, k := range a.Order {
			f.tuple = append(f.tuple, k.Expr.Type())
		}
	}
	switch a.Func {
	case planner.AggSum, planner.AggAvg:
		if f.valType.Kind != types.Interval {
			f.valType = types.TNumeric
		}
	case planner.AggStddev, planner.AggStddevSamp, planner.AggStddevPop, planner.AggVariance, planner.AggVarSamp, planner.AggVarPop:
		f.valType = types.TNumeric
	}
	return f
}

// stateOverhead approximates an aggState's fixed memory.
const stateOverhead = 160

// tupleCost is the memory a retained list tuple costs; a DISTINCT
// aggregate also keeps its key.
func tupleCost(tuple []types.Datum, key string) int64 {
	n := spill.RowSize(tuple)
	if key != "" {
		n += int64(len(key)) + 48
	}
	return n
}

// input is one row's contribution to one aggregate, evaluated before the
// memory it needs is reserved, so that a row is applied whole or not at
// all.
type input struct {
	skip  bool
	v     types.Datum
	tuple []types.Datum // list aggregates
	key   string        // DISTINCT: the tuple's identity
}

// evalInput evaluates f's inputs over r for the group state st (nil for
// a new group) and returns the memory applying it needs.
func (f *aggFn) evalInput(in *input, st *aggState, r Row, env *evalEnv) (int64, error) {
	*in = input{}
	a := &f.call
	if a.Filter != nil {
		ok, err := evalBool(a.Filter, r, env)
		if err != nil {
			return 0, err
		}
		if !ok {
			in.skip = true
			return 0, nil
		}
	}
	if a.Func == planner.AggCountStar {
		return 0, nil
	}
	v, err := eval(a.Arg, r, env)
	if err != nil {
		return 0, err
	}
	if v.IsNull() && a.Func != planner.AggArrayAgg {
		in.skip = true
		return 0, nil
	}
	in.v = v
	if !f.list {
		return 0, nil
	}
	in.tuple = make([]types.Datum, len(f.tuple))
	in.tuple[0] = v
	if a.Func == planner.AggStringAgg {
		if in.tuple[1], err = eval(a.Extra, r, env); err != nil {
			return 0, err
		}
	}
	if !a.Func.OrderedSet() {
		for i, k := range a.Order {
			if in.tuple[f.keyOff+i], err = eval(k.Expr, r, env); err != nil {
				return 0, err
			}
		}
	}
	if a.Distinct {
		in.key = string(rowKey(nil, in.tuple[:f.keyOff]))
		if st != nil {
			if _, dup := st.seen[in.key]; dup {
				in.skip = true
				return 0, nil
			}
		}
	}
	return tupleCost(in.tuple, in.key), nil
}

// apply folds an evaluated input into st. For an ordered-set aggregate,
// the direct argument is evaluated over the group's first row.
func (f *aggFn) apply(in *input, st *aggState, r Row, env *evalEnv) error {
	a := &f.call
	if a.Extra != nil && a.Func.OrderedSet() && !st.hasDir {
		d, err := eval(a.Extra, r, env)
		if err != nil {
			return err
		}
		st.direct, st.hasDir = d, true
	}
	if in.skip {
		return nil
	}
	if a.Func == planner.AggCountStar {
		st.count++
		return nil
	}
	if !f.list {
		return accumulate(a, st, in.v)
	}
	if a.Distinct {
		if st.seen == nil {
			st.seen = map[string]struct{}{}
		}
		st.seen[in.key] = struct{}{}
	}
	st.list = append(st.list, in.tuple)
	return nil
}

// accumulate folds one non-NULL value into a scalar aggregate's state.
func accumulate(a *planner.AggCall, st *aggState, v types.Datum) error {
	st.count++
	switch a.Func {
	case planner.AggSum, planner.AggAvg:
		return accumulateSum(*a, st, v) // exec/aggsum.go
	case planner.AggMin:
		if st.val.IsNull() || types.Compare(v, st.val) < 0 {
			st.val = v
		}
	case planner.AggMax:
		if st.val.IsNull() || types.Compare(v, st.val) > 0 {
			st.val = v
		}
	case planner.AggBoolAnd, planner.AggEvery:
		st.b = (st.count == 1 || st.b) && v.Bool()
	case planner.AggBoolOr:
		st.b = st.b || v.Bool()
	case planner.AggStddev, planner.AggStddevSamp, planner.AggStddevPop, planner.AggVariance, planner.AggVarSamp, planner.AggVarPop:
		return accumulateVariance(st, v)
	}
	return nil
}

// accumulateVariance is float8_accum for floats (Youngs-Cramer) and
// numeric_accum (exact sums of x and x*x) for integers and numeric.
func accumulateVariance(st *aggState, v types.Datum) error {
	switch v.K {
	case types.Float4, types.Float8:
		n, oldSx := float64(st.count), st.sumF
		st.sumF += v.F
		if st.count > 1 {
			tmp := v.F*n - st.sumF
			st.sxx += tmp * tmp / (n * (n - 1))
			if math.IsInf(st.sumF, 0) || math.IsInf(st.sxx, 0) {
				if !math.IsInf(oldSx, 0) && !math.IsInf(v.F, 0) {
					return pgerror.New(pgerror.CodeNumericValueOutOfRange, "value out of range: overflow")
				}
				st.sxx = math.NaN()
			}
		} else if math.IsNaN(v.F) || math.IsInf(v.F, 0) {
			st.sxx = math.NaN()
		}
		return nil
	}
	x := types.ToNumeric(v)
	x2, err := types.NumericMul(x, x)
	if err != nil {
		return err
	}
	if st.val, err = addNumeric(st.val, x); err != nil {
		return err
	}
	st.sq, err = addNumeric(st.sq, x2)
	return err
}

// merge folds src, a partial state of the same group, into st.
func (f *aggFn) merge(st, src *aggState) error {
	a := &f.call
	if a.Func.OrderedSet() && !st.hasDir {
		st.direct, st.hasDir = src.direct, src.hasDir
	}
	if f.list {
		for _, t := range src.list {
			if a.Distinct {
				k := string(rowKey(nil, t[:f.keyOff]))
				if _, dup := st.seen[k]; dup {
					continue
				}
				if st.seen == nil {
					st.seen = map[string]struct{}{}
				}
				st.seen[k] = struct{}{}
			}
			st.list = append(st.list, t)
		}
		return nil
	}
	if src.count == 0 {
		return nil
	}
	if st.count == 0 {
		*st = *src
		return nil
	}
	var err error
	switch a.Func {
	case planner.AggMin, planner.AggMax:
		if c := types.Compare(src.val, st.val); (c < 0) == (a.Func == planner.AggMin) && c != 0 {
			st.val = src.val
		}
	case planner.AggBoolAnd, planner.AggEvery:
		st.b = st.b && src.b
	case planner.AggBoolOr:
		st.b = st.b || src.b
	case planner.AggSum, planner.AggAvg:
		err = mergeSum(*a, st, src) // exec/aggsum.go
	case planner.AggStddev, planner.AggStddevSamp, planner.AggStddevPop, planner.AggVariance, planner.AggVarSamp, planner.AggVarPop:
		if a.Arg.Type().Kind == types.Float4 || a.Arg.Type().Kind == types.Float8 {
			// float8_combine.
			n1, n2 := float64(st.count), float64(src.count)
			tmp := st.sumF/n1 - src.sumF/n2
			st.sxx = st.sxx + src.sxx + n1*n2*tmp*tmp/(n1+n2)
			st.sumF += src.sumF
		} else {
			if st.val, err = addNumeric(st.val, src.val); err == nil {
				st.sq, err = addNumeric(st.sq, src.sq)
			}
		}
	}
	st.count += src.count
	return err
}

// stateCost is the memory a decoded state holds.
func stateCost(st *aggState) int64 {
	n := int64(stateOverhead)
	for _, t := range st.list {
		n += spill.RowSize(t)
		if st.seen != nil {
			n += 48 + 16*int64(len(t))
		}
	}
	return n
}
