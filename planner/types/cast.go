package types

import (
	"math"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// Cast converts d to type to as SQL CAST(d AS to) does in PostgreSQL:
//
//   - integer to integer, range-checked (22003);
//   - integer to float8; float8 to integer rounding to nearest, ties to even,
//     range-checked, NaN out of range (22003);
//   - boolean to and from integer (int4 only, as in PostgreSQL);
//   - any type to text or varchar through its output function (booleans
//     become "true"/"false"), and text to any type through the input
//     function (ParseText), so text to bytea parses the bytea input syntax
//     and bytea to text yields the "\x" hex form;
//   - an explicit cast to varchar(n) truncates to n characters silently.
//
// Other pairs are 42846 "cannot cast type X to Y". NULL casts to NULL. A
// Datum of kind Unknown (an untyped literal) casts like text.
func Cast(d Datum, to T) (Datum, error) { return cast(d, to, true) }

// AssignCast converts d to the type of the column it is stored in, as
// PostgreSQL's assignment casts do for INSERT and UPDATE: like Cast, except
// that a value longer than a varchar(n) column is an error (22001) unless
// the excess is spaces, instead of being truncated. Whether an assignment
// cast exists between two types (PostgreSQL forbids text to integer, 42804)
// is the planner's decision, not checked here.
func AssignCast(d Datum, to T) (Datum, error) { return cast(d, to, false) }

func cast(d Datum, to T, explicit bool) (Datum, error) {
	if d.IsNull() {
		return Null, nil
	}
	from := d.K
	switch {
	case from == Text || from == Unknown:
		if to.Kind == Text || to.Kind == Unknown {
			d.K = Text
			if to.Kind == Unknown {
				d.K = Unknown
			}
			return applyWidth(d, to, explicit)
		}
		return ParseText(to, d.S)
	case to.Kind == Text:
		var s string
		if from == Bool {
			s = "false"
			if d.Bool() {
				s = "true"
			}
		} else {
			var scratch [64]byte
			s = string(AppendText(scratch[:0], d))
		}
		return applyWidth(NewText(s), to, explicit)
	case from == to.Kind && !from.IsInt():
		return d, nil
	case from.IsInt() && to.Kind.IsInt():
		return castInt(d.I, to.Kind)
	case from.IsInt() && to.Kind == Float8:
		return NewFloat(float64(d.I)), nil
	case from == Float8 && to.Kind.IsInt():
		f := math.RoundToEven(d.F)
		// -2^63 is exact in float64; 2^63 is the first value above the range.
		if math.IsNaN(f) || f < -9223372036854775808 || f >= 9223372036854775808 {
			return Null, intOutOfRange(to.Kind)
		}
		return castInt(int64(f), to.Kind)
	case from == Int4 && to.Kind == Bool:
		return NewBool(d.I != 0), nil
	case from == Bool && to.Kind == Int4:
		return NewInt(Int4, d.I), nil
	}
	return Null, CannotCast(T{Kind: from}, to)
}

// CannotCast returns the 42846 error for an unsupported cast.
func CannotCast(from, to T) *pgerror.Error {
	return pgerror.New("42846", "cannot cast type %s to %s", from, to)
}

func castInt(v int64, k Kind) (Datum, error) {
	lo, hi := intRange(k)
	if v < lo || v > hi {
		return Null, intOutOfRange(k)
	}
	return NewInt(k, v), nil
}

func intOutOfRange(k Kind) error {
	return pgerror.New(pgerror.CodeNumericValueOutOfRange, "%s out of range", T{Kind: k})
}
