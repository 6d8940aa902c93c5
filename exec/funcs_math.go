package exec

import (
	"math"
	"math/rand/v2"

	"github.com/cockroachdb/apd/v3"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// Math functions. The planner resolves each call to a float8 or a numeric
// overload (integers convert), so a function sees either Float8 or
// Numeric datums. float8 follows the C library as PostgreSQL does
// (round is rint: half to even); numeric rounds half away from zero and
// gives transcendental results PostgreSQL's scale: at least 16
// significant digits, and never fewer decimals than the input
// (numeric.c's rscale rules, reproduced in numericScale*).

var mathFuncs = map[string]builtinFunc{
	"abs": absFunc,
	"mod": modFunc,
	"div": divFunc,
	"round": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		return roundTo(a, apd.RoundHalfUp, math.RoundToEven)
	},
	"trunc": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		return roundTo(a, apd.RoundDown, math.Trunc)
	},
	"floor": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		return roundTo(a, apd.RoundFloor, math.Floor)
	},
	"ceil": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		return roundTo(a, apd.RoundCeiling, math.Ceil)
	},
	"sign": signFunc,
	"sqrt": sqrtFunc,
	"cbrt": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		return types.NewFloat(math.Cbrt(a[0].F)), nil
	},
	"exp":   expFunc,
	"ln":    func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) { return logFunc(a[0], false) },
	"log10": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) { return logFunc(a[0], true) },
	"log":   logBase,
	"power": powerFunc,
	"degrees": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		return floatResult(a[0].F*(180/math.Pi), a[0].F)
	},
	"radians": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		return floatResult(a[0].F*(math.Pi/180), a[0].F)
	},
	"pi": func([]types.Datum, *planner.Func, *evalEnv) (types.Datum, error) { return types.NewFloat(math.Pi), nil },
	"random": func([]types.Datum, *planner.Func, *evalEnv) (types.Datum, error) {
		return types.NewFloat(rand.Float64()), nil
	},
}

// floatResult checks a float8 result for overflow from finite input.
func floatResult(v, in float64) (types.Datum, error) {
	if math.IsInf(v, 0) && !math.IsInf(in, 0) {
		return types.Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "value out of range: overflow")
	}
	return types.NewFloat(v), nil
}

func absFunc(a []types.Datum, e *planner.Func, _ *evalEnv) (types.Datum, error) {
	switch x := a[0]; {
	case x.K == types.Numeric:
		return types.NumericAbs(x), nil
	case x.K.IsFloat():
		x.F = math.Abs(x.F)
		return x, nil
	case x.I < 0:
		return checkInt(e.T, -x.I, x.I == math.MinInt64)
	default:
		return x, nil
	}
}

func modFunc(a []types.Datum, e *planner.Func, _ *evalEnv) (types.Datum, error) {
	if a[0].K == types.Numeric {
		return types.NumericMod(a[0], a[1])
	}
	if a[1].I == 0 {
		return types.Null, types.DivisionByZero()
	}
	if a[1].I == -1 { // INT_MIN % -1 traps in C; PostgreSQL returns 0
		return types.NewInt(e.T.Kind, 0), nil
	}
	return types.NewInt(e.T.Kind, a[0].I%a[1].I), nil
}

// divFunc is div(numeric, numeric): the quotient truncated toward zero.
func divFunc(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
	x, y := a[0].Numeric(), a[1].Numeric()
	if y.IsZero() && y.Form == apd.Finite {
		return types.Null, types.DivisionByZero()
	}
	if x.Form != apd.Finite || y.Form != apd.Finite {
		return types.NumericDiv(a[0], a[1])
	}
	r := new(apd.Decimal)
	c := bigCtx(uint32(x.NumDigits() + int64(x.Exponent) - int64(y.Exponent) + 10))
	if _, err := c.QuoInteger(r, x, y); err != nil {
		return types.Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "value overflows numeric format")
	}
	return numericAt(r, 0)
}

// roundTo is round/trunc/floor/ceil: float8 with fl, numeric with mode to
// a scale (the second argument, default 0; a negative scale rounds to
// tens, hundreds, ... and displays no decimals).
func roundTo(a []types.Datum, mode apd.Rounder, fl func(float64) float64) (types.Datum, error) {
	if a[0].K != types.Numeric {
		return types.NewFloat(fl(a[0].F)), nil
	}
	x := a[0].Numeric()
	if x.Form != apd.Finite {
		return a[0], nil
	}
	s := int64(0)
	if len(a) > 1 {
		s = a[1].I
	}
	s = max(min(s, 2000), -2000)
	c := *quantizeCtx
	c.Rounding = mode
	r := new(apd.Decimal)
	if _, err := c.Quantize(r, x, int32(-s)); err != nil {
		return types.Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "value overflows numeric format")
	}
	if s < 0 {
		if _, err := c.Quantize(r, r, 0); err != nil {
			return types.Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "value overflows numeric format")
		}
	}
	return numericAt(r, max(s, 0))
}

func signFunc(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
	if a[0].K != types.Numeric {
		switch f := a[0].F; {
		case f > 0:
			return types.NewFloat(1), nil
		case f < 0:
			return types.NewFloat(-1), nil
		}
		return types.NewFloat(0), nil
	}
	x := a[0].Numeric()
	switch {
	case x.Form == apd.NaN:
		return a[0], nil
	case x.IsZero():
		return types.NewNumericInt(0), nil
	case x.Negative:
		return types.NewNumericInt(-1), nil
	}
	return types.NewNumericInt(1), nil
}

func sqrtFunc(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
	neg := pgerror.New("2201F", "cannot take square root of a negative number")
	if a[0].K != types.Numeric {
		if a[0].F < 0 {
			return types.Null, neg
		}
		return types.NewFloat(math.Sqrt(a[0].F)), nil
	}
	x := a[0].Numeric()
	switch {
	case x.Form == apd.NaN:
		return a[0], nil
	case x.Negative && !x.IsZero():
		return types.Null, neg
	case x.Form == apd.Infinite:
		return a[0], nil
	}
	// numeric_sqrt: sweight = (weight+1)*DEC_DIGITS/2 - 1.
	sweight := (nbaseWeight(x)+1)*4/2 - 1
	rscale := resultScale(16-sweight, scaleOf(x))
	r := new(apd.Decimal)
	if _, err := bigCtx(uint32(rscale+sweight+10)).Sqrt(r, x); err != nil {
		return types.Null, err
	}
	return numericAt(r, rscale)
}

func expFunc(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
	if a[0].K != types.Numeric {
		v := math.Exp(a[0].F)
		if v == 0 && !math.IsInf(a[0].F, -1) {
			return types.Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "value out of range: underflow")
		}
		return floatResult(v, a[0].F)
	}
	x := a[0].Numeric()
	switch {
	case x.Form == apd.NaN:
		return a[0], nil
	case x.Form == apd.Infinite && x.Negative:
		return types.NewNumericInt(0), nil
	case x.Form == apd.Infinite:
		return a[0], nil
	}
	val := types.ToFloat64(a[0]) * 0.434294481903252
	if val > 6600 {
		return types.Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "value overflows numeric format")
	}
	val = max(min(val, 2000), -2000)
	rscale := resultScale(16-int64(val), scaleOf(x))
	r := new(apd.Decimal)
	if _, err := bigCtx(uint32(rscale+max(int64(val), 0)+10)).Exp(r, x); err != nil {
		return types.Null, err
	}
	return numericAt(r, rscale)
}

func logErr(x float64) error {
	if x == 0 {
		return pgerror.New("2201E", "cannot take logarithm of zero")
	}
	return pgerror.New("2201E", "cannot take logarithm of a negative number")
}

// logFunc is ln (base e) or log10.
func logFunc(a types.Datum, ten bool) (types.Datum, error) {
	if a.K != types.Numeric {
		if a.F <= 0 {
			return types.Null, logErr(a.F)
		}
		if ten {
			return types.NewFloat(math.Log10(a.F)), nil
		}
		return types.NewFloat(math.Log(a.F)), nil
	}
	if ten {
		return numericLog(types.NewNumericInt(10), a)
	}
	x := a.Numeric()
	if d, done, err := logSpecial(x); done {
		return d, err
	}
	rscale := resultScale(16-lnDWeight(x), scaleOf(x))
	r := new(apd.Decimal)
	if _, err := bigCtx(uint32(rscale+10+int64(x.NumDigits()))).Ln(r, x); err != nil {
		return types.Null, err
	}
	return numericAt(r, rscale)
}

// logSpecial handles NaN, infinities, zero and negative arguments of a
// numeric logarithm.
func logSpecial(x *apd.Decimal) (types.Datum, bool, error) {
	switch {
	case x.Form == apd.NaN:
		return types.NewNumeric(x), true, nil
	case x.IsZero():
		return types.Null, true, logErr(0)
	case x.Negative:
		return types.Null, true, logErr(-1)
	case x.Form == apd.Infinite:
		return types.NewNumeric(x), true, nil
	}
	return types.Null, false, nil
}

// logBase is log(b, x) on numerics.
func logBase(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
	return numericLog(a[0], a[1])
}

func numericLog(base, num types.Datum) (types.Datum, error) {
	b, x := base.Numeric(), num.Numeric()
	for _, v := range []*apd.Decimal{b, x} {
		if d, done, err := logSpecial(v); done && (err != nil || v.Form == apd.NaN) {
			return d, err
		}
	}
	if b.Form == apd.Infinite || x.Form == apd.Infinite {
		return types.Null, pgerror.Unimplemented("log of infinity")
	}
	if b.Cmp(apd.New(1, 0)) == 0 {
		return types.Null, types.DivisionByZero()
	}
	rscale := resultScale(16-(lnDWeight(x)-lnDWeight(b)), max(scaleOf(b), scaleOf(x)))
	c := bigCtx(uint32(rscale + 20 + int64(max(x.NumDigits(), b.NumDigits()))))
	lb, lx, r := new(apd.Decimal), new(apd.Decimal), new(apd.Decimal)
	if _, err := c.Ln(lb, b); err != nil {
		return types.Null, err
	}
	if _, err := c.Ln(lx, x); err != nil {
		return types.Null, err
	}
	if _, err := c.Quo(r, lx, lb); err != nil {
		return types.Null, err
	}
	return numericAt(r, rscale)
}

func powerFunc(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
	if a[0].K != types.Numeric {
		return power(a[0].F, a[1].F)
	}
	b, x := a[0].Numeric(), a[1].Numeric()
	if b.Form != apd.Finite || x.Form != apd.Finite {
		d, err := power(types.ToFloat64(a[0]), types.ToFloat64(a[1]))
		if err != nil {
			return d, err
		}
		return types.ToNumeric(d), nil
	}
	integral := x.Exponent >= 0 || isIntegral(x)
	switch {
	case b.IsZero() && x.Negative && !x.IsZero():
		return types.Null, pgerror.New("2201F", "zero raised to a negative power is undefined")
	case b.Negative && !b.IsZero() && !integral:
		return types.Null, pgerror.New("2201F", "a negative number raised to a non-integer power yields a complex result")
	case b.IsZero() && !x.IsZero():
		return numericAt(apd.New(0, 0), 16)
	}
	// The decimal weight of the result, estimated in float8.
	val := types.ToFloat64(a[1]) * math.Log10(math.Abs(types.ToFloat64(a[0])))
	if val > 131072*1.01 {
		return types.Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "value overflows numeric format")
	}
	if val+1 < -1000 {
		return numericAt(apd.New(0, 0), 1000)
	}
	rscale := resultScale(16-int64(val), max(scaleOf(b), scaleOf(x)))
	r := new(apd.Decimal)
	if _, err := bigCtx(uint32(rscale+max(int64(val), 0)+20)).Pow(r, b, x); err != nil {
		return types.Null, err
	}
	return numericAt(r, rscale)
}

func isIntegral(x *apd.Decimal) bool {
	var f apd.Decimal
	x.Modf(nil, &f)
	return f.IsZero()
}

// quantizeCtx rounds half away from zero to an exponent; its precision
// exceeds numeric's limits, so Quantize fails only on such overflow.
var quantizeCtx = func() *apd.Context {
	c := bigCtx(150000)
	return c
}()

// bigCtx is an apd context rounding half away from zero with prec
// significant digits (0: exact).
func bigCtx(prec uint32) *apd.Context {
	c := apd.BaseContext.WithPrecision(prec)
	c.Rounding = apd.RoundHalfUp
	c.MaxExponent, c.MinExponent = 200000, -200000
	return c
}

// numericAt rounds r half away from zero to scale decimals.
func numericAt(r *apd.Decimal, scale int64) (types.Datum, error) {
	if _, err := quantizeCtx.Quantize(r, r, int32(-scale)); err != nil {
		return types.Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "value overflows numeric format")
	}
	if r.IsZero() {
		r.Negative = false
	}
	return types.NewNumeric(r), nil
}

// scaleOf is a numeric's display scale.
func scaleOf(x *apd.Decimal) int64 { return int64(max(-x.Exponent, 0)) }

// resultScale is PostgreSQL's clamp of a transcendental result's scale:
// at least the input scale, between 0 and 1000.
func resultScale(want, inScale int64) int64 {
	return min(max(want, inScale, 0), 1000)
}

// decimalExp is the exponent of x's most significant digit (x != 0).
func decimalExp(x *apd.Decimal) int64 { return int64(x.Exponent) + x.NumDigits() - 1 }

// nbaseWeight is PostgreSQL's weight of a numeric: the power of 10000 of
// its first base-10000 digit (0 for zero).
func nbaseWeight(x *apd.Decimal) int64 {
	if x.IsZero() {
		return 0
	}
	e := decimalExp(x)
	if e < 0 {
		return -((-e + 3) / 4)
	}
	return e / 4
}

// lnDWeight is numeric.c's estimate_ln_dweight: the decimal weight of
// ln(x), from x-1 near 1 and from x's first base-10000 digits otherwise.
func lnDWeight(x *apd.Decimal) int64 {
	if x.Negative || x.IsZero() {
		return 0
	}
	lo, hi := apd.New(9, -1), apd.New(11, -1)
	if x.Cmp(lo) >= 0 && x.Cmp(hi) <= 0 {
		d := new(apd.Decimal)
		_, _ = quantizeCtx.Sub(d, x, apd.New(1, 0))
		if d.IsZero() {
			return 0
		}
		return decimalExp(d)
	}
	// PostgreSQL takes the first base-10000 digits; the first 15 decimal
	// digits give the same estimate.
	e := decimalExp(x)
	m := new(apd.Decimal).Set(x)
	m.Exponent -= int32(e)
	f, _ := m.Float64()
	lnVar := math.Log(f) + float64(e)*2.302585092994046
	return int64(math.Log10(math.Abs(lnVar)))
}
