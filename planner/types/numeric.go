package types

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// Numeric arithmetic follows PostgreSQL's numeric: exact + - * (the scale
// of a sum is the larger input scale, of a product the sum of the scales),
// division to PostgreSQL's select_div_scale digits rounded half away from
// zero, NaN and ±Infinity as in PostgreSQL 14+.

// exactCtx adds, subtracts and multiplies without rounding (apd precision
// 0 disables it). InvalidOperation is not trapped so that Infinity-Infinity
// yields NaN as in PostgreSQL.
var exactCtx = func() apd.Context {
	c := apd.BaseContext
	c.Traps &^= apd.InvalidOperation
	c.Rounding = apd.RoundHalfUp
	return c
}()

// quantizeCtx rounds half away from zero to a given exponent; its
// precision exceeds PostgreSQL's numeric limits (131072 digits before the
// point, 16383 after), so Quantize only fails on such overflow.
var quantizeCtx = func() apd.Context {
	c := exactCtx
	c.Precision = 150000
	c.Traps |= apd.InvalidOperation
	return c
}()

const (
	numericMinSigDigits    = 16
	numericMaxDisplayScale = 1000
)

var (
	decNaN    = &apd.Decimal{Form: apd.NaN}
	decPosInf = &apd.Decimal{Form: apd.Infinite}
	decNegInf = &apd.Decimal{Form: apd.Infinite, Negative: true}
)

func numericOverflow() error {
	return pgerror.New(pgerror.CodeNumericValueOutOfRange, "value overflows numeric format")
}

// DivisionByZero returns the 22012 error.
func DivisionByZero() error { return pgerror.New("22012", "division by zero") }

// parseNumeric parses numeric text input: optional whitespace and sign,
// digits with an optional point and exponent, or NaN, Infinity, inf
// (case-insensitive).
func parseNumeric(t T, s string) (Datum, error) {
	v := trimSpace(s)
	body := v
	if len(body) > 0 && (body[0] == '+' || body[0] == '-') {
		body = body[1:]
	}
	switch strings.ToLower(body) {
	case "nan":
		if body != v {
			return Null, syntaxError(t, s)
		}
		return NewNumeric(decNaN), nil
	case "infinity", "inf":
		if v[0] == '-' {
			return applyNumericTypmod(NewNumeric(decNegInf), t)
		}
		return applyNumericTypmod(NewNumeric(decPosInf), t)
	}
	digits, i := 0, 0
	for i < len(body) && body[i] >= '0' && body[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(body) && body[i] == '.' {
		i++
		for i < len(body) && body[i] >= '0' && body[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return Null, syntaxError(t, s)
	}
	if i < len(body) && (body[i] == 'e' || body[i] == 'E') {
		i++
		if i < len(body) && (body[i] == '+' || body[i] == '-') {
			i++
		}
		e := i
		for i < len(body) && body[i] >= '0' && body[i] <= '9' {
			i++
		}
		if e == i {
			return Null, syntaxError(t, s)
		}
		if i-e > 6 {
			return Null, numericOverflow()
		}
	}
	if i != len(body) {
		return Null, syntaxError(t, s)
	}
	d, _, err := apd.NewFromString(v)
	if err != nil {
		return Null, syntaxError(t, s)
	}
	if d.Exponent > 0 { // 1e5 is 100000 with scale 0
		if _, err := quantizeCtx.Quantize(d, d, 0); err != nil {
			return Null, numericOverflow()
		}
	}
	if d.Exponent < -numericMaxDisplayScale-1000 {
		return Null, numericOverflow()
	}
	d.Negative = d.Negative && !d.IsZero()
	return applyNumericTypmod(NewNumeric(d), t)
}

// applyNumericTypmod rounds d to numeric(p,s)'s scale (half away from
// zero) and checks that it fits p digits (22003 "numeric field overflow").
// An unconstrained t returns d unchanged.
func applyNumericTypmod(d Datum, t T) (Datum, error) {
	if t.Width <= 0 || d.IsNull() {
		return d, nil
	}
	v := d.Numeric()
	p, s := t.Width, t.Scale
	switch v.Form {
	case apd.NaN:
		return d, nil
	case apd.Infinite:
		return Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "numeric field overflow").
			WithDetail("A field with precision %d, scale %d cannot hold an infinite value.", p, s)
	}
	r := new(apd.Decimal)
	if v.Exponent != -s {
		if _, err := quantizeCtx.Quantize(r, v, -s); err != nil {
			return Null, numericOverflow()
		}
	} else {
		r.Set(v)
	}
	r.Negative = r.Negative && !r.IsZero()
	if !r.IsZero() {
		// Digits before the point must be at most p - s.
		intDigits := int64(r.NumDigits()) + int64(r.Exponent)
		if intDigits > int64(p-s) {
			return Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "numeric field overflow").
				WithDetail("A field with precision %d, scale %d must round to an absolute value less than %s.", p, s, pow10Text(p-s))
		}
	}
	return NewNumeric(r), nil
}

func pow10Text(n int32) string {
	if n <= 0 {
		return "1"
	}
	return "10^" + strconv.Itoa(int(n))
}

// appendNumeric appends numeric_out's text: plain notation with the
// value's scale, "NaN", "Infinity", "-Infinity".
func appendNumeric(buf []byte, v *apd.Decimal) []byte {
	switch v.Form {
	case apd.NaN, apd.NaNSignaling:
		return append(buf, "NaN"...)
	case apd.Infinite:
		if v.Negative {
			return append(buf, "-Infinity"...)
		}
		return append(buf, "Infinity"...)
	}
	if v.IsZero() && v.Negative {
		c := *v
		c.Negative = false
		return append(buf, c.Text('f')...)
	}
	return append(buf, v.Text('f')...)
}

// numericScale is the display scale of a finite decimal.
func numericScale(v *apd.Decimal) int32 {
	if v.Exponent < 0 {
		return -v.Exponent
	}
	return 0
}

// NumericAdd, NumericSub, NumericMul, NumericDiv and NumericMod implement
// numeric arithmetic (a and b are non-NULL Numeric datums). Division and
// modulo by zero are 22012.
func NumericAdd(a, b Datum) (Datum, error) {
	return numericOp(a, b, exactCtx.Add)
}

// NumericSub returns a - b.
func NumericSub(a, b Datum) (Datum, error) { return numericOp(a, b, exactCtx.Sub) }

// NumericMul returns a * b.
func NumericMul(a, b Datum) (Datum, error) { return numericOp(a, b, exactCtx.Mul) }

func numericOp(a, b Datum, op func(d, x, y *apd.Decimal) (apd.Condition, error)) (Datum, error) {
	r := new(apd.Decimal)
	if _, err := op(r, a.Numeric(), b.Numeric()); err != nil {
		return Null, numericOverflow()
	}
	if r.Form == apd.NaNSignaling {
		r.Form = apd.NaN
	}
	r.Negative = r.Negative && !(r.Form == apd.Finite && r.IsZero()) && r.Form != apd.NaN
	return NewNumeric(r), nil
}

// NumericNeg returns -a.
func NumericNeg(a Datum) Datum {
	v := a.Numeric()
	if v.Form == apd.NaN || v.Form == apd.Finite && v.IsZero() {
		return a
	}
	r := new(apd.Decimal)
	r.Neg(v)
	return NewNumeric(r)
}

// NumericAbs returns |a|.
func NumericAbs(a Datum) Datum {
	v := a.Numeric()
	if !v.Negative {
		return a
	}
	r := new(apd.Decimal)
	r.Abs(v)
	return NewNumeric(r)
}

// divWeight returns the base-10000 weight and first base-10000 digit of a
// nonzero finite decimal, as PostgreSQL's NumericVar would hold them.
func divWeight(v *apd.Decimal) (weight int64, first int64) {
	nd := int64(v.NumDigits())
	e10 := nd - 1 + int64(v.Exponent) // power of ten of the leading digit
	weight = floorDiv(e10, 4)
	lead := e10 - 4*weight + 1 // digits of the leading group, 1..4
	digits := v.Coeff.String()
	if int64(len(digits)) < lead {
		digits += strings.Repeat("0", int(lead)-len(digits))
	}
	first, _ = strconv.ParseInt(digits[:lead], 10, 64)
	return weight, first
}

// divScale is PostgreSQL's select_div_scale.
func divScale(a, b *apd.Decimal) int32 {
	var w1, f1, w2, f2 int64
	if a.Form == apd.Finite && !a.IsZero() {
		w1, f1 = divWeight(a)
	}
	if b.Form == apd.Finite && !b.IsZero() {
		w2, f2 = divWeight(b)
	}
	qweight := w1 - w2
	if f1 <= f2 {
		qweight--
	}
	rscale := numericMinSigDigits - qweight*4
	rscale = max(rscale, int64(numericScale(a)), int64(numericScale(b)), 0)
	return int32(min(rscale, numericMaxDisplayScale))
}

// NumericDiv returns a / b with PostgreSQL's result scale.
func NumericDiv(a, b Datum) (Datum, error) {
	x, y := a.Numeric(), b.Numeric()
	if x.Form == apd.NaN || y.Form == apd.NaN {
		return NewNumeric(decNaN), nil
	}
	if y.Form == apd.Finite && y.IsZero() {
		return Null, DivisionByZero()
	}
	if x.Form == apd.Infinite || y.Form == apd.Infinite {
		switch {
		case x.Form == apd.Infinite && y.Form == apd.Infinite:
			return NewNumeric(decNaN), nil
		case x.Form == apd.Infinite:
			if x.Negative != y.Negative {
				return NewNumeric(decNegInf), nil
			}
			return NewNumeric(decPosInf), nil
		}
		return NewNumericInt(0), nil
	}
	rscale := divScale(x, y)
	e1 := int64(x.NumDigits()) + int64(x.Exponent)
	e2 := int64(y.NumDigits()) + int64(y.Exponent)
	prec := e1 - e2 + 2 + int64(rscale) + 2
	if prec < 1 {
		prec = 1
	}
	ctx := exactCtx
	ctx.Precision = uint32(prec)
	ctx.Rounding = apd.RoundDown
	r := new(apd.Decimal)
	if _, err := ctx.Quo(r, x, y); err != nil {
		return Null, numericOverflow()
	}
	if _, err := quantizeCtx.Quantize(r, r, -rscale); err != nil {
		return Null, numericOverflow()
	}
	r.Negative = r.Negative && !r.IsZero()
	return NewNumeric(r), nil
}

// NumericMod returns a % b: the remainder of truncating division, with the
// sign of a and the larger scale of the two.
func NumericMod(a, b Datum) (Datum, error) {
	x, y := a.Numeric(), b.Numeric()
	if x.Form == apd.NaN || y.Form == apd.NaN {
		return NewNumeric(decNaN), nil
	}
	if y.Form == apd.Finite && y.IsZero() {
		return Null, DivisionByZero()
	}
	if x.Form == apd.Infinite {
		return NewNumeric(decNaN), nil
	}
	if y.Form == apd.Infinite {
		return a, nil
	}
	ctx := exactCtx
	ctx.Precision = uint32(max(int64(x.NumDigits())-int64(x.Exponent)+int64(y.NumDigits())-int64(y.Exponent), 1) + 2)
	r := new(apd.Decimal)
	if _, err := ctx.Rem(r, x, y); err != nil {
		return Null, numericOverflow()
	}
	r.Negative = r.Negative && !r.IsZero()
	return NewNumeric(r), nil
}

// numericFromFloat converts a float as PostgreSQL's float8_numeric does:
// through its text with digits significant digits (15 for float8, 6 for
// float4), NaN and ±Infinity to their numeric forms.
func numericFromFloat(f float64, digits int) Datum {
	switch {
	case math.IsNaN(f):
		return NewNumeric(decNaN)
	case math.IsInf(f, 1):
		return NewNumeric(decPosInf)
	case math.IsInf(f, -1):
		return NewNumeric(decNegInf)
	}
	d, _, err := apd.NewFromString(strconv.FormatFloat(f, 'e', digits-1, 64))
	if err != nil {
		return NewNumeric(decNaN)
	}
	// %g drops trailing zeros: PostgreSQL's scale is that of the shortest
	// digits.
	d.Reduce(d)
	if d.Exponent > 0 {
		_, _ = quantizeCtx.Quantize(d, d, 0)
	}
	d.Negative = d.Negative && !d.IsZero()
	return NewNumeric(d)
}

// numericToFloat converts a numeric to the nearest float64.
func numericToFloat(v *apd.Decimal) float64 {
	switch v.Form {
	case apd.NaN, apd.NaNSignaling:
		return math.NaN()
	case apd.Infinite:
		if v.Negative {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	f, err := strconv.ParseFloat(v.Text('e'), 64)
	if err != nil { // out of float64 range: ParseFloat returns ±Inf
		return f
	}
	return f
}

// numericToInt rounds v half away from zero to an integer of kind k
// (22003 out of range; NaN and Infinity are 0A000 as in PostgreSQL).
func numericToInt(v *apd.Decimal, k Kind) (Datum, error) {
	switch v.Form {
	case apd.NaN, apd.NaNSignaling:
		return Null, pgerror.New(pgerror.CodeFeatureNotSupported, "cannot convert NaN to %s", T{Kind: k})
	case apd.Infinite:
		return Null, pgerror.New(pgerror.CodeFeatureNotSupported, "cannot convert infinity to %s", T{Kind: k})
	}
	r := new(apd.Decimal)
	if _, err := quantizeCtx.Quantize(r, v, 0); err != nil {
		return Null, intOutOfRange(k)
	}
	i, err := r.Int64()
	if err != nil {
		return Null, intOutOfRange(k)
	}
	return castInt(i, k)
}

// ToNumeric converts an integer, float or numeric datum to numeric (floats
// as PostgreSQL's float8_numeric does). It is what mixed int/numeric
// arithmetic promotes its operands with.
func ToNumeric(d Datum) Datum {
	switch {
	case d.K.IsInt():
		return NewNumericInt(d.I)
	case d.K == Float8:
		return numericFromFloat(d.F, 15)
	case d.K == Float4:
		return numericFromFloat(d.F, 6)
	}
	return d
}

// ToFloat64 converts an integer, float or numeric datum to float64.
func ToFloat64(d Datum) float64 {
	switch {
	case d.K.IsInt():
		return float64(d.I)
	case d.K == Numeric:
		return numericToFloat(d.Numeric())
	}
	return d.F
}

// compareNumeric compares numerics as PostgreSQL does: NaN equals NaN and
// sorts after everything, including +Infinity.
func compareNumeric(a, b *apd.Decimal) int {
	an, bn := a.Form == apd.NaN || a.Form == apd.NaNSignaling, b.Form == apd.NaN || b.Form == apd.NaNSignaling
	if an || bn {
		return cmpBool(an, bn)
	}
	return a.Cmp(b)
}

// Numeric binary sign words.
const (
	numericPos  = 0x0000
	numericNeg  = 0x4000
	numericNaN  = 0xC000
	numericPInf = 0xD000
	numericNInf = 0xF000
)

// appendNumericBinary appends numeric_send's format: int16 ndigits, int16
// weight, uint16 sign, int16 dscale, then ndigits base-10000 digits.
func appendNumericBinary(buf []byte, v *apd.Decimal) []byte {
	put := func(x uint16) { buf = append(buf, byte(x>>8), byte(x)) }
	switch v.Form {
	case apd.NaN, apd.NaNSignaling:
		put(0)
		put(0)
		put(numericNaN)
		put(0)
		return buf
	case apd.Infinite:
		put(0)
		put(0)
		if v.Negative {
			put(numericNInf)
		} else {
			put(numericPInf)
		}
		put(0)
		return buf
	}
	dscale := numericScale(v)
	digits := v.Coeff.String()
	if v.IsZero() {
		put(0)
		put(0)
		put(numericPos)
		put(uint16(dscale))
		return buf
	}
	var intPart, frac string
	if e := int(v.Exponent); e >= 0 {
		intPart = digits + strings.Repeat("0", e)
	} else if n := len(digits) + e; n > 0 {
		intPart, frac = digits[:n], digits[n:]
	} else {
		frac = strings.Repeat("0", -n) + digits
	}
	if r := len(intPart) % 4; r != 0 {
		intPart = strings.Repeat("0", 4-r) + intPart
	}
	if r := len(frac) % 4; r != 0 {
		frac += strings.Repeat("0", 4-r)
	}
	all := intPart + frac
	weight := len(intPart)/4 - 1
	groups := make([]uint16, 0, len(all)/4)
	for i := 0; i < len(all); i += 4 {
		g, _ := strconv.Atoi(all[i : i+4])
		groups = append(groups, uint16(g))
	}
	for len(groups) > 0 && groups[0] == 0 {
		groups, weight = groups[1:], weight-1
	}
	for len(groups) > 0 && groups[len(groups)-1] == 0 {
		groups = groups[:len(groups)-1]
	}
	put(uint16(len(groups)))
	put(uint16(int16(weight)))
	if v.Negative {
		put(numericNeg)
	} else {
		put(numericPos)
	}
	put(uint16(dscale))
	for _, g := range groups {
		put(g)
	}
	return buf
}

// decodeNumericBinary decodes numeric_recv's format (22P03 when malformed).
func decodeNumericBinary(b []byte) (Datum, error) {
	bad := func() (Datum, error) {
		return Null, pgerror.New(pgerror.CodeInvalidBinaryRepresentation, "invalid numeric binary data")
	}
	if len(b) < 8 {
		return bad()
	}
	n := int(binary.BigEndian.Uint16(b))
	weight := int(int16(binary.BigEndian.Uint16(b[2:])))
	sign := binary.BigEndian.Uint16(b[4:])
	dscale := int(int16(binary.BigEndian.Uint16(b[6:])))
	if len(b) != 8+2*n || dscale < 0 || dscale > 0x3FFF {
		return bad()
	}
	switch sign {
	case numericNaN:
		return NewNumeric(decNaN), nil
	case numericPInf:
		return NewNumeric(decPosInf), nil
	case numericNInf:
		return NewNumeric(decNegInf), nil
	case numericPos, numericNeg:
	default:
		return bad()
	}
	var sb strings.Builder
	for i := 0; i < n; i++ {
		g := binary.BigEndian.Uint16(b[8+2*i:])
		if g >= 10000 {
			return bad()
		}
		s := strconv.Itoa(int(g))
		sb.WriteString(strings.Repeat("0", 4-len(s)))
		sb.WriteString(s)
	}
	coeff := sb.String()
	if coeff == "" {
		coeff = "0"
	}
	d, _, err := apd.NewFromString(coeff)
	if err != nil {
		return bad()
	}
	d.Exponent = int32((weight - n + 1) * 4)
	d.Negative = sign == numericNeg
	r := new(apd.Decimal)
	if _, err := quantizeCtx.Quantize(r, d, int32(-dscale)); err != nil {
		return bad()
	}
	r.Negative = r.Negative && !r.IsZero()
	return NewNumeric(r), nil
}
