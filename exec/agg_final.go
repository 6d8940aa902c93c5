package exec

import (
	"math"
	"slices"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// result returns a scalar aggregate's value over st (window functions
// use it too).
func result(a planner.AggCall, st *aggState) types.Datum {
	d, _ := scalarResult(&a, st)
	return d
}

func scalarResult(a *planner.AggCall, st *aggState) (types.Datum, error) {
	switch a.Func {
	case planner.AggCountStar, planner.AggCount:
		return types.NewInt(types.Int8, st.count), nil
	}
	if st.count == 0 {
		return types.Null, nil
	}
	switch a.Func {
	case planner.AggSum, planner.AggAvg:
		return sumResult(*a, st), nil // exec/aggsum.go
	case planner.AggBoolAnd, planner.AggBoolOr, planner.AggEvery:
		return types.NewBool(st.b), nil
	case planner.AggStddev, planner.AggStddevSamp, planner.AggStddevPop, planner.AggVariance, planner.AggVarSamp, planner.AggVarPop:
		return varianceResult(a, st)
	}
	return st.val, nil
}

// finalize returns f's value for a group whose state is st.
func (f *aggFn) finalize(st *aggState) (types.Datum, error) {
	a := &f.call
	if !f.list {
		return scalarResult(a, st)
	}
	list := st.list
	switch {
	case a.Func.OrderedSet():
		k := a.Order[0]
		slices.SortStableFunc(list, func(x, y []types.Datum) int { return compareKey(x[0], y[0], k) })
	case len(a.Order) > 0:
		slices.SortStableFunc(list, func(x, y []types.Datum) int {
			for i, k := range a.Order {
				if c := compareKey(x[f.keyOff+i], y[f.keyOff+i], k); c != 0 {
					return c
				}
			}
			return 0
		})
	case a.Distinct:
		// PostgreSQL sorts DISTINCT input by the arguments.
		slices.SortStableFunc(list, func(x, y []types.Datum) int {
			for i := range f.keyOff {
				if c := compareKey(x[i], y[i], planner.SortKey{}); c != 0 {
					return c
				}
			}
			return 0
		})
	}
	switch a.Func {
	case planner.AggArrayAgg:
		if len(list) == 0 {
			return types.Null, nil
		}
		elems := make([]types.Datum, len(list))
		for i, t := range list {
			elems[i] = t[0]
		}
		return types.NewArray(a.Arg.Type(), elems), nil
	case planner.AggStringAgg:
		if len(list) == 0 {
			return types.Null, nil
		}
		var b strings.Builder
		for i, t := range list {
			if i > 0 && !t[1].IsNull() {
				b.WriteString(t[1].S)
			}
			b.WriteString(t[0].S)
		}
		return types.NewText(b.String()).WithKind(a.T.Kind), nil
	case planner.AggPercentileCont, planner.AggPercentileDisc:
		return percentile(a, st.direct, list)
	case planner.AggMode:
		return mode(list), nil
	}
	var tmp aggState
	for _, t := range list {
		if err := accumulate(a, &tmp, t[0]); err != nil {
			return types.Null, err
		}
	}
	return scalarResult(a, &tmp)
}

// compareKey orders two values by one sort key: NULLs last ascending and
// first descending unless the key says otherwise, as in PostgreSQL.
func compareKey(x, y types.Datum, k planner.SortKey) int {
	switch {
	case x.IsNull() && y.IsNull():
		return 0
	case x.IsNull():
		if k.NullsFirst {
			return -1
		}
		return 1
	case y.IsNull():
		if k.NullsFirst {
			return 1
		}
		return -1
	}
	c := types.Compare(x, y)
	if k.Desc {
		c = -c
	}
	return c
}

// percentile computes percentile_cont or percentile_disc of the sorted
// values for a fraction or an array of fractions.
func percentile(a *planner.AggCall, frac types.Datum, sorted [][]types.Datum) (types.Datum, error) {
	if frac.IsNull() || len(sorted) == 0 {
		return types.Null, nil
	}
	if frac.K != types.Array {
		return percentileOf(a, types.ToFloat64(frac), sorted)
	}
	in := frac.ArrayValue().Elems
	out := make([]types.Datum, len(in))
	for i, p := range in {
		if p.IsNull() {
			continue
		}
		v, err := percentileOf(a, types.ToFloat64(p), sorted)
		if err != nil {
			return types.Null, err
		}
		out[i] = v
	}
	return types.NewArray(a.T.ElemType(), out), nil
}

func percentileOf(a *planner.AggCall, p float64, sorted [][]types.Datum) (types.Datum, error) {
	if p < 0 || p > 1 || math.IsNaN(p) {
		return types.Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "percentile value %g is not between 0 and 1", p)
	}
	n := float64(len(sorted))
	if a.Func == planner.AggPercentileDisc {
		row := int(math.Ceil(p * n))
		return sorted[max(row, 1)-1][0], nil
	}
	pos := p * (n - 1)
	first, second := math.Floor(pos), math.Ceil(pos)
	lo := sorted[int(first)][0]
	if first == second {
		return lo, nil
	}
	hi := sorted[int(second)][0]
	frac := pos - first
	if lo.K == types.Interval {
		diff, err := types.IntervalAdd(hi, mustNeg(lo))
		if err != nil {
			return types.Null, err
		}
		if diff, err = types.IntervalMul(diff, frac); err != nil {
			return types.Null, err
		}
		return types.IntervalAdd(lo, diff)
	}
	return types.NewFloat(lo.F + (hi.F-lo.F)*frac), nil
}

func mustNeg(iv types.Datum) types.Datum {
	d, err := types.IntervalNeg(iv)
	if err != nil {
		return iv
	}
	return d
}

// mode returns the most frequent of the sorted values, the first in sort
// order among equally frequent ones.
func mode(sorted [][]types.Datum) types.Datum {
	best, bestN := types.Null, 0
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && types.Compare(sorted[j][0], sorted[i][0]) == 0 {
			j++
		}
		if j-i > bestN {
			best, bestN = sorted[i][0], j-i
		}
		i = j
	}
	return best
}

// varianceResult finishes the variance family as PostgreSQL does: float
// input from Youngs-Cramer's Sxx; integer and numeric input exactly,
// (N*Σx² - (Σx)²) / (N*(N-1)) (or N*N) with numeric division's scale,
// and the standard deviation as that variance's square root rounded to
// the same scale (numeric_stddev_internal).
func varianceResult(a *planner.AggCall, st *aggState) (types.Datum, error) {
	var sample, root bool
	switch a.Func {
	case planner.AggStddev, planner.AggStddevSamp:
		sample, root = true, true
	case planner.AggVariance, planner.AggVarSamp:
		sample = true
	case planner.AggStddevPop:
		root = true
	}
	if sample && st.count <= 1 {
		return types.Null, nil
	}
	n := float64(st.count)
	if k := a.Arg.Type().Kind; k == types.Float4 || k == types.Float8 {
		v := st.sxx / n
		if sample {
			v = st.sxx / (n - 1)
		}
		if root {
			v = math.Sqrt(v)
		}
		return types.NewFloat(v), nil
	}
	if st.val.Numeric().Form != apd.Finite || st.sq.Numeric().Form != apd.Finite {
		return types.NewNumeric(&apd.Decimal{Form: apd.NaN}), nil
	}
	cnt := types.NewNumericInt(st.count)
	sx2, err := types.NumericMul(st.val, st.val)
	if err != nil {
		return types.Null, err
	}
	nsq, err := types.NumericMul(cnt, st.sq)
	if err != nil {
		return types.Null, err
	}
	num, err := types.NumericSub(nsq, sx2)
	if err != nil {
		return types.Null, err
	}
	if num.Numeric().Sign() <= 0 {
		return types.NewNumericInt(0), nil // roundoff cannot make it negative, but PostgreSQL guards
	}
	den := types.NewNumericInt(st.count * st.count)
	if sample {
		den = types.NewNumericInt(st.count * (st.count - 1))
	}
	v, err := types.NumericDiv(num, den)
	if err != nil || !root {
		return v, err
	}
	return numericSqrt(v)
}

// numericSqrt returns the square root of a non-negative numeric rounded
// half away from zero to the input's scale.
func numericSqrt(v types.Datum) (types.Datum, error) {
	x := v.Numeric()
	scale := max(-x.Exponent, 0)
	intDigits := max(int64(x.NumDigits())+int64(x.Exponent), 0)
	ctx := apd.BaseContext
	ctx.Precision = uint32(intDigits/2 + 2 + int64(scale) + 8)
	ctx.Rounding = apd.RoundHalfUp
	r := new(apd.Decimal)
	if _, err := ctx.Sqrt(r, x); err != nil {
		return types.Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "value overflows numeric format")
	}
	if _, err := ctx.Quantize(r, r, -scale); err != nil {
		return types.Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "value overflows numeric format")
	}
	return types.NewNumeric(r), nil
}
