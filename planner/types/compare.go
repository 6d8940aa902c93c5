package types

import (
	"math"
	"strings"
)

// Compare returns -1, 0 or +1 as a sorts before, equal to or after b in SQL
// order. Integers of any width compare with each other and with floats
// numerically, exactly (no rounding through float64), and with numerics
// exactly. Floats (float4 and float8) follow PostgreSQL's total order: NaN
// equals NaN and sorts after every other value, -0 equals 0; numeric NaN
// likewise sorts after +Infinity. Text (and Unknown literals) compare
// bytewise (the C collation), as does bytea; char(n) ignores trailing
// spaces; false < true; dates, times and timestamps by instant (a date is
// its midnight when compared with a timestamp); intervals by PostgreSQL's
// total with 30-day months; uuids bytewise; jsonb by PostgreSQL's jsonb
// order (CompareJSON); arrays element by element, then by length; oid and
// the reg* kinds by OID, with each other and with integers; name as text;
// "char" bytewise; int2vector and oidvector by length, then elements.
//
// Compare is total so that sorts never misbehave: NULL equals NULL and sorts
// after every value (PostgreSQL's default NULLS LAST), and values of kinds
// that SQL cannot compare (the planner rejects such comparisons) order by
// Kind.
func Compare(a, b Datum) int {
	switch {
	case a.IsNull() || b.IsNull():
		return cmpBool(a.IsNull(), b.IsNull())
	case a.K.IsInt() && b.K.IsInt():
		return cmpInt(a.I, b.I)
	case a.K.IsFloat() && b.K.IsFloat():
		return cmpFloat(a.F, b.F)
	case a.K.IsInt() && b.K.IsFloat():
		return cmpIntFloat(a.I, b.F)
	case a.K.IsFloat() && b.K.IsInt():
		return -cmpIntFloat(b.I, a.F)
	case a.K == Numeric || b.K == Numeric:
		if a.K.IsNumeric() && b.K.IsNumeric() {
			if a.K.IsFloat() || b.K.IsFloat() {
				return cmpFloat(ToFloat64(a), ToFloat64(b))
			}
			return compareNumeric(ToNumeric(a).Numeric(), ToNumeric(b).Numeric())
		}
	case a.K == BPChar || b.K == BPChar:
		if a.K.IsString() && b.K.IsString() {
			return strings.Compare(bpcharTrim(a), bpcharTrim(b))
		}
	case isString(a.K) && isString(b.K), a.K == b.K && (a.K == Bytea || a.K == UUID || a.K == JSON):
		return strings.Compare(a.S, b.S)
	case a.K == b.K && (a.K == Bool || a.K == Timestamp || a.K == TimestampTZ || a.K == Date || a.K == Time):
		return cmpInt(a.I, b.I)
	case a.K == Interval && b.K == Interval:
		return compareInterval(a, b)
	case a.K == JSONB && b.K == JSONB:
		if a.S == b.S {
			return 0
		}
		x, y := jsonOf(a), jsonOf(b)
		return CompareJSON(&x, &y)
	case a.K == Array && b.K == Array:
		return compareArray(a, b)
	case a.K.IsOidLike() && (b.K.IsOidLike() || b.K.IsInt()), b.K.IsOidLike() && a.K.IsInt():
		return cmpInt(a.I, b.I)
	case a.K == Char && b.K == Char:
		return strings.Compare(a.S, b.S)
	case a.K == b.K && a.K.IsVector():
		// oidvector's btree order: the shorter vector first, then element
		// by element.
		if c := cmpInt(int64(len(a.ArrayValue().Elems)), int64(len(b.ArrayValue().Elems))); c != 0 {
			return c
		}
		return compareArray(a, b)
	case isTimeline(a.K) && isTimeline(b.K):
		return cmpInt(timelineMicros(a), timelineMicros(b))
	}
	return cmpInt(int64(a.K), int64(b.K))
}

// isTimeline reports kinds that compare on one timeline: date, timestamp,
// timestamptz (a timestamp compared with a timestamptz is taken as UTC;
// the planner casts through the session zone first).
func isTimeline(k Kind) bool { return k == Date || k == Timestamp || k == TimestampTZ }

func timelineMicros(d Datum) int64 {
	if d.K == Date && d.I != PosInf && d.I != NegInf {
		if v, err := DateToTimestamp(d.I); err == nil {
			return v
		}
		if d.I < 0 {
			return NegInf + 1
		}
		return PosInf - 1
	}
	return d.I
}

// bpcharTrim returns a string's value for comparison: char(n) values
// without trailing spaces, other strings as they are.
func bpcharTrim(d Datum) string {
	if d.K == BPChar {
		return strings.TrimRight(d.S, " ")
	}
	return d.S
}

// isString reports the kinds compared as plain strings: text, unknown
// literals and name (name = name and name = text compare bytewise).
func isString(k Kind) bool { return k == Text || k == Unknown || k == Name }

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpFloat(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an || bn:
		return cmpBool(an, bn)
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpIntFloat compares an integer with a float exactly.
func cmpIntFloat(i int64, f float64) int {
	switch {
	case math.IsNaN(f) || f >= 9223372036854775808:
		return -1
	case f < -9223372036854775808:
		return 1
	}
	t := math.Trunc(f)
	if c := cmpInt(i, int64(t)); c != 0 {
		return c
	}
	// Same integer part: the fraction decides.
	return cmpFloat(0, f-t)
}
