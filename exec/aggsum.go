package exec

import (
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// sum and avg follow PostgreSQL's result types (planner/build_dml.go
// aggCall): integers sum in an int64 (sumI) and spill into an exact
// numeric (val) only when it would overflow, so sum(bigint) never fails
// and costs no allocation per row until then; numeric and interval sums
// accumulate in val; real sums round to float4 at each step as
// PostgreSQL's float4pl does, while avg(real) and float8 accumulate in
// float64 (sumF). avg divides the sum by the count with numeric division
// (scale as PostgreSQL's: avg of 1 and 2 is 1.5000000000000000) or
// interval division.

func accumulateSum(a planner.AggCall, st *aggState, v types.Datum) error {
	var err error
	switch v.K {
	case types.Float8:
		st.sumF += v.F
	case types.Float4:
		if a.Func == planner.AggSum {
			st.sumF = float64(float32(st.sumF + v.F))
		} else {
			st.sumF += v.F
		}
	case types.Int2, types.Int4, types.Int8:
		return accumulateSumInt(st, v.I)
	case types.Numeric:
		st.val, err = addNumeric(st.val, v)
	case types.Interval:
		if st.val.IsNull() {
			st.val = v
			return nil
		}
		st.val, err = types.IntervalAdd(st.val, v)
	default:
		return pgerror.New(pgerror.CodeInternalError, "sum over %s", types.T{Kind: v.K})
	}
	return err
}

func addNumeric(sum, v types.Datum) (types.Datum, error) {
	if sum.IsNull() {
		return types.ToNumeric(v), nil
	}
	return types.NumericAdd(sum, types.ToNumeric(v))
}

// sumResult returns sum or avg over st.count > 0 values.
func sumResult(a planner.AggCall, st *aggState) types.Datum {
	switch a.Arg.Type().Kind {
	case types.Float8, types.Float4:
		if a.Func == planner.AggAvg {
			return types.NewFloat(st.sumF / float64(st.count))
		}
		if a.T.Kind == types.Float4 {
			return types.NewFloat4(float32(st.sumF))
		}
		return types.NewFloat(st.sumF)
	case types.Interval:
		if a.Func == planner.AggAvg {
			d, err := types.IntervalDiv(st.val, float64(st.count))
			if err != nil {
				return types.Null
			}
			return d
		}
		return st.val
	}
	sum := st.val
	if a.Arg.Type().Kind.IsInt() {
		if sum.IsNull() && a.T.Kind == types.Int8 {
			return types.NewInt(types.Int8, st.sumI)
		}
		var err error
		if sum, err = addNumeric(sum, types.NewInt(types.Int8, st.sumI)); err != nil {
			return types.Null
		}
	}
	if a.Func == planner.AggSum {
		return sum
	}
	avg, err := types.NumericDiv(sum, types.ToNumeric(types.NewInt(types.Int8, st.count)))
	if err != nil {
		return types.Null
	}
	return avg
}

// mergeSum adds src's partial sum into st's (counts are added by the
// caller).
func mergeSum(a planner.AggCall, st, src *aggState) error {
	var err error
	switch a.Arg.Type().Kind {
	case types.Float4:
		if a.Func == planner.AggSum {
			st.sumF = float64(float32(st.sumF + src.sumF))
			return nil
		}
		st.sumF += src.sumF
	case types.Float8:
		st.sumF += src.sumF
	case types.Interval:
		if st.val.IsNull() {
			st.val = src.val
		} else if !src.val.IsNull() {
			st.val, err = types.IntervalAdd(st.val, src.val)
		}
	default:
		if !src.val.IsNull() {
			if st.val, err = addNumeric(st.val, src.val); err != nil {
				return err
			}
		}
		if a.Arg.Type().Kind.IsInt() {
			return accumulateSumInt(st, src.sumI)
		}
	}
	return err
}

// accumulateSumInt adds i to the int64 partial sum, moving that sum into
// the numeric one when the addition would overflow.
func accumulateSumInt(st *aggState, i int64) error {
	s := st.sumI + i
	if (i > 0 && s < st.sumI) || (i < 0 && s > st.sumI) {
		var err error
		if st.val, err = addNumeric(st.val, types.NewInt(types.Int8, st.sumI)); err != nil {
			return err
		}
		s = i
	}
	st.sumI = s
	return nil
}
