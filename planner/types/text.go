package types

import (
	"math"
	"strconv"
)

const hexDigits = "0123456789abcdef"

// AppendText appends PostgreSQL's text output of d to buf and returns the
// extended buffer: booleans as t/f, floats in shortest round-trip form
// ("1e+20", "1e-05", "Infinity", "NaN"), bytea in hex format ("\x0a0b"),
// timestamps as "2026-11-21 11:34:55.436997" (fraction trimmed, " BC" for
// years before 1). It allocates only to grow buf. A NULL d appends nothing;
// the caller encodes NULL out of band.
func AppendText(buf []byte, d Datum) []byte {
	if d.IsNull() {
		return buf
	}
	switch d.K {
	case Bool:
		if d.Bool() {
			return append(buf, 't')
		}
		return append(buf, 'f')
	case Int2, Int4, Int8:
		return strconv.AppendInt(buf, d.I, 10)
	case Float8:
		return appendFloat(buf, d.F)
	case Bytea:
		buf = append(buf, '\\', 'x')
		for i := 0; i < len(d.S); i++ {
			buf = append(buf, hexDigits[d.S[i]>>4], hexDigits[d.S[i]&0xf])
		}
		return buf
	case Timestamp:
		return appendTimestamp(buf, d.I)
	}
	return append(buf, d.S...)
}

// appendFloat formats f as PostgreSQL 12+ float8out does with the default
// extra_float_digits: the shortest string that round-trips, in positional
// notation when the decimal exponent is in [-4, 15), else in scientific
// notation with a signed exponent of at least two digits.
func appendFloat(buf []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(buf, "NaN"...)
	case math.IsInf(f, 1):
		return append(buf, "Infinity"...)
	case math.IsInf(f, -1):
		return append(buf, "-Infinity"...)
	case f == 0:
		if math.Signbit(f) {
			return append(buf, "-0"...)
		}
		return append(buf, '0')
	}
	start := len(buf)
	buf = strconv.AppendFloat(buf, f, 'e', -1, 64)
	// Parse the exponent strconv wrote: ...e[+-]dd[d].
	i := len(buf) - 1
	for buf[i] != 'e' {
		i--
	}
	exp := 0
	for _, c := range buf[i+2:] {
		exp = exp*10 + int(c-'0')
	}
	if buf[i+1] == '-' {
		exp = -exp
	}
	if exp < -4 || exp >= 15 {
		return buf
	}
	return strconv.AppendFloat(buf[:start], f, 'f', -1, 64)
}

// String formats d for debugging and EXPLAIN: like AppendText, but text,
// bytea and timestamp values are single-quoted SQL literals ('abc', 'it”s')
// and NULL is NULL.
func (d Datum) String() string {
	if d.IsNull() {
		return "NULL"
	}
	var scratch [64]byte
	b := AppendText(scratch[:0], d)
	switch d.K {
	case Text, Unknown, Bytea, Timestamp:
		q := make([]byte, 0, len(b)+2)
		q = append(q, '\'')
		for _, c := range b {
			if c == '\'' {
				q = append(q, '\'')
			}
			q = append(q, c)
		}
		return string(append(q, '\''))
	}
	return string(b)
}
