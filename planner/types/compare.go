package types

import (
	"math"
	"strings"
)

// Compare returns -1, 0 or +1 as a sorts before, equal to or after b in SQL
// order. Integers of any width compare with each other and with floats
// numerically, exactly (no rounding through float64). Floats follow
// PostgreSQL's total order: NaN equals NaN and sorts after every other
// value, -0 equals 0. Text (and Unknown literals) compare bytewise (the C
// collation), as does bytea; false < true; timestamps by instant.
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
	case a.K == Float8 && b.K == Float8:
		return cmpFloat(a.F, b.F)
	case a.K.IsInt() && b.K == Float8:
		return cmpIntFloat(a.I, b.F)
	case a.K == Float8 && b.K.IsInt():
		return -cmpIntFloat(b.I, a.F)
	case isString(a.K) && isString(b.K), a.K == Bytea && b.K == Bytea:
		return strings.Compare(a.S, b.S)
	case a.K == b.K && (a.K == Bool || a.K == Timestamp):
		return cmpInt(a.I, b.I)
	}
	return cmpInt(int64(a.K), int64(b.K))
}

func isString(k Kind) bool { return k == Text || k == Unknown }

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
