package types

import (
	"math"
	"time"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// Cast converts d to type to as SQL CAST(d AS to) does in PostgreSQL, with
// timestamptz conversions in UTC: see CastIn.
func Cast(d Datum, to T) (Datum, error) { return cast(d, to, true, time.UTC) }

// CastIn converts d to type to as SQL CAST(d AS to) does in PostgreSQL,
// with loc as the session TimeZone (nil is UTC):
//
//   - integer to integer, range-checked (22003); integer to float4, float8
//     and numeric (exact); float to integer rounding to nearest, ties to
//     even, numeric to integer rounding half away from zero, range-checked
//     (22003; NaN and Infinity 0A000 from numeric, 22003 from floats);
//   - float8 to float4 (22003 on overflow or underflow), float4 to float8;
//     floats to numeric through 15 (float4: 6) significant digits, numeric
//     to floats; numeric to numeric(p,s) rounding half away from zero to s
//     digits, 22003 past p digits;
//   - boolean to and from integer (int4 only, as in PostgreSQL);
//   - date to timestamp (midnight) and timestamptz (midnight in loc),
//     timestamp(tz) to date and time, timestamp to timestamptz and back
//     through loc, time to interval and back;
//   - json to jsonb (normalized) and back; jsonb scalars to numeric,
//     integers, floats and boolean (22023 for other jsonb values);
//   - arrays to arrays element by element;
//   - any type to text, varchar or char through its output function
//     (booleans become "true"/"false"; char(n) to text drops trailing
//     spaces), and text to any type through the input function
//     (ParseTextIn), so text to bytea parses the bytea input syntax and
//     bytea to text yields the "\x" hex form;
//   - an explicit cast to varchar(n) or char(n) truncates to n characters
//     silently; char(n) pads with spaces;
//   - the system-catalog types as PostgreSQL's pg_cast has them: integers
//     to oid and the reg* kinds (int4 wraps, int8 is range-checked,
//     22003), oid and reg* to int4 (wrapping) and int8, reg* to oid and oid
//     to reg* (the value keeps no name: exec/regcast.go resolves it), text
//     to name (truncated to 63 bytes), text to "char" (its first byte),
//     "char" to and from int4 (-128..127, 22003), int2vector to int2[] and
//     oidvector to oid[]; text to a reg* kind parses numeric OIDs only
//     (ErrRegNeedsCatalog for names).
//
// Other pairs are 42846 "cannot cast type X to Y". NULL casts to NULL. A
// Datum of kind Unknown (an untyped literal) casts like text.
func CastIn(d Datum, to T, loc *time.Location) (Datum, error) { return cast(d, to, true, loc) }

// AssignCast converts d to the type of the column it is stored in, as
// PostgreSQL's assignment casts do for INSERT and UPDATE: like Cast, except
// that a value longer than a varchar(n) or char(n) column is an error
// (22001) unless the excess is spaces, instead of being truncated. Whether
// an assignment cast exists between two types (PostgreSQL forbids text to
// integer, 42804) is the planner's decision, not checked here. Timestamptz
// conversions are in UTC: see AssignCastIn.
func AssignCast(d Datum, to T) (Datum, error) { return cast(d, to, false, time.UTC) }

// AssignCastIn is AssignCast with loc as the session TimeZone.
func AssignCastIn(d Datum, to T, loc *time.Location) (Datum, error) {
	return cast(d, to, false, loc)
}

func cast(d Datum, to T, explicit bool, loc *time.Location) (Datum, error) {
	if d.IsNull() {
		return Null, nil
	}
	if loc == nil {
		loc = time.UTC
	}
	from := d.K
	if isCatalogKind(from) || isCatalogKind(to.Kind) {
		if r, ok, err := castCatalog(d, to); ok {
			return r, err
		}
		if from == Name && !to.Kind.IsString() && to.Kind != Name {
			// name is a string type: other targets go through their input
			// function, as PostgreSQL's I/O conversion casts do.
			return ParseTextIn(to, d.S, loc)
		}
	}
	switch {
	case from.IsString():
		switch to.Kind {
		case Text, Unknown:
			d.S = bpcharTrim(d)
			d.K = to.Kind
			return applyWidth(d, to, explicit)
		case BPChar:
			return applyWidth(d, to, explicit)
		case Array:
			if explicit && (to.Width > 0 || to.VarChar) {
				// Parse without the length, then coerce explicitly (truncate).
				bare := ArrayOf(T{Kind: to.Elem})
				a, err := ParseTextIn(bare, d.S, loc)
				if err != nil {
					return Null, err
				}
				return castArray(a, to, explicit, loc)
			}
		}
		return ParseTextIn(to, d.S, loc)
	case to.Kind == Text || to.Kind == BPChar:
		var s string
		if from == Bool {
			s = "false"
			if d.Bool() {
				s = "true"
			}
		} else {
			var scratch [64]byte
			s = string(AppendTextIn(scratch[:0], d, loc))
		}
		return applyWidth(NewText(s), to, explicit)
	case from == to.Kind && from == Numeric:
		return applyNumericTypmod(d, to)
	case from == to.Kind && from == Array:
		return castArray(d, to, explicit, loc)
	case from == to.Kind && !from.IsInt():
		return d, nil
	case from.IsInt() && to.Kind.IsInt():
		return castInt(d.I, to.Kind)
	case from.IsInt() && to.Kind == Float8:
		return NewFloat(float64(d.I)), nil
	case from.IsInt() && to.Kind == Float4:
		return NewFloat4(float32(d.I)), nil
	case from.IsNumeric() && to.Kind == Numeric:
		return applyNumericTypmod(ToNumeric(d), to)
	case from == Numeric && to.Kind.IsInt():
		return numericToInt(d.Numeric(), to.Kind)
	case from == Numeric && to.Kind == Float8:
		return NewFloat(numericToFloat(d.Numeric())), nil
	case from == Numeric && to.Kind == Float4, from == Float8 && to.Kind == Float4:
		return toFloat4(ToFloat64(d))
	case from == Float4 && to.Kind == Float8:
		return NewFloat(d.F), nil
	case from.IsFloat() && to.Kind.IsInt():
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
	case from == JSON && to.Kind == JSONB:
		n, err := NormalizeJSONB(d.S)
		if err != nil {
			return Null, err
		}
		return NewJSONB(n), nil
	case from == JSONB && to.Kind == JSON:
		return NewJSON(d.S), nil
	case from == JSONB && (to.Kind.IsNumeric() || to.Kind == Bool):
		return castJSONBScalar(d, to, explicit, loc)
	}
	if r, ok, err := castDateTime(d, to, loc); ok {
		return r, err
	}
	return Null, CannotCast(T{Kind: from}, to)
}

// castDateTime handles casts among date, time, timestamp, timestamptz and
// interval; ok is false for other pairs.
func castDateTime(d Datum, to T, loc *time.Location) (Datum, bool, error) {
	inf := d.I == PosInf || d.I == NegInf
	switch {
	case d.K == Date && (to.Kind == Timestamp || to.Kind == TimestampTZ):
		v, err := DateToTimestamp(d.I)
		if err != nil {
			return Null, true, err
		}
		if to.Kind == TimestampTZ && !inf {
			v = wallToUTC(v, loc)
		}
		return Datum{K: to.Kind, NotNull: true, I: v}, true, nil
	case (d.K == Timestamp || d.K == TimestampTZ) && to.Kind == Date:
		v := d.I
		if d.K == TimestampTZ && !inf {
			v += zoneOffset(v, loc) * microsPerSecond
		}
		return NewDate(TimestampToDate(v)), true, nil
	case (d.K == Timestamp || d.K == TimestampTZ) && to.Kind == Time:
		if inf {
			return Null, true, pgerror.New(pgerror.CodeDatetimeFieldOverflow, "cannot convert infinite timestamp to time")
		}
		v := d.I
		if d.K == TimestampTZ {
			v += zoneOffset(v, loc) * microsPerSecond
		}
		return NewTime(v - floorDiv(v, microsPerDay)*microsPerDay), true, nil
	case d.K == Timestamp && to.Kind == TimestampTZ:
		if inf {
			return NewTimestampTZ(d.I), true, nil
		}
		return NewTimestampTZ(wallToUTC(d.I, loc)), true, nil
	case d.K == TimestampTZ && to.Kind == Timestamp:
		if inf {
			return NewTimestamp(d.I), true, nil
		}
		return NewTimestamp(d.I + zoneOffset(d.I, loc)*microsPerSecond), true, nil
	case d.K == Time && to.Kind == Interval:
		return NewInterval(0, 0, d.I), true, nil
	case d.K == Interval && to.Kind == Time:
		_, _, u := d.Interval()
		return NewTime(u - floorDiv(u, microsPerDay)*microsPerDay), true, nil
	}
	return Null, false, nil
}

func toFloat4(f float64) (Datum, error) {
	r := float32(f)
	switch {
	case math.IsInf(float64(r), 0) && !math.IsInf(f, 0):
		return Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "value out of range: overflow")
	case r == 0 && f != 0:
		return Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "value out of range: underflow")
	}
	return NewFloat4(r), nil
}

func castArray(d Datum, to T, explicit bool, loc *time.Location) (Datum, error) {
	et := to.ElemType()
	a := d.ArrayValue()
	if a.Elem == et && et.Width == 0 {
		return d, nil
	}
	out := make([]Datum, len(a.Elems))
	for i, e := range a.Elems {
		v, err := cast(e, et, explicit, loc)
		if err != nil {
			return Null, err
		}
		out[i] = v
	}
	return NewArray(et, out), nil
}

// castJSONBScalar casts a jsonb number or boolean to a SQL type.
func castJSONBScalar(d Datum, to T, explicit bool, loc *time.Location) (Datum, error) {
	v := jsonOf(d)
	switch {
	case v.Kind == JSONNumber && to.Kind.IsNumeric():
		return cast(NewNumeric(v.Num), to, explicit, loc)
	case v.Kind == JSONBool && to.Kind == Bool:
		return NewBool(v.Bool), nil
	}
	names := map[JSONKind]string{JSONNull: "null", JSONString: "string", JSONNumber: "numeric",
		JSONBool: "boolean", JSONArray: "array", JSONObject: "object"}
	return Null, pgerror.New(pgerror.CodeInvalidParameterValue, "cannot cast jsonb %s to type %s", names[v.Kind], to)
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
