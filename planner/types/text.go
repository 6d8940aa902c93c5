package types

import (
	"math"
	"strconv"
	"time"
)

const hexDigits = "0123456789abcdef"

// AppendText appends PostgreSQL's text output of d to buf and returns the
// extended buffer, with timestamptz shown in UTC: see AppendTextIn.
func AppendText(buf []byte, d Datum) []byte { return AppendTextIn(buf, d, time.UTC) }

// AppendTextIn appends PostgreSQL 15's text output of d (DateStyle ISO,
// IntervalStyle postgres) to buf and returns the extended buffer: booleans
// as t/f, floats in shortest round-trip form ("1e+20", "1e-05",
// "Infinity", "NaN"), numeric with its scale ("1.50"), bytea in hex format
// ("\x0a0b"), timestamps as "2026-11-21 11:34:55.436997" (fraction
// trimmed, " BC" for years before 1, "infinity"), timestamptz in loc with
// its offset ("2026-11-21 12:34:55+01"), dates, times, intervals ("1 year
// 2 mons 3 days 04:05:06"), uuids lower-case hyphenated, json as given,
// jsonb normalized, char(n) blank-padded, arrays as "{1,2,NULL}". It
// allocates only to grow buf (and for numeric and json). A NULL d appends
// nothing; the caller encodes NULL out of band. A nil loc is UTC.
func AppendTextIn(buf []byte, d Datum, loc *time.Location) []byte {
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
		return appendFloat(buf, d.F, 64)
	case Float4:
		return appendFloat(buf, d.F, 32)
	case Numeric:
		return appendNumeric(buf, d.Numeric())
	case Bytea:
		buf = append(buf, '\\', 'x')
		for i := 0; i < len(d.S); i++ {
			buf = append(buf, hexDigits[d.S[i]>>4], hexDigits[d.S[i]&0xf])
		}
		return buf
	case Timestamp:
		return appendTimestamp(buf, d.I)
	case TimestampTZ:
		return appendTimestampTZ(buf, d.I, loc)
	case Date:
		return appendDate(buf, d.I)
	case Time:
		return appendTime(buf, d.I)
	case Interval:
		return appendInterval(buf, d)
	case UUID:
		return appendUUID(buf, d.S)
	case Array:
		return appendArrayText(buf, d, loc)
	case Oid:
		return strconv.AppendUint(buf, uint64(uint32(d.I)), 10)
	case RegClass, RegType, RegProc, RegNamespace, RegRole:
		return appendReg(buf, d)
	case Char:
		return appendChar(buf, d.S)
	case Int2Vector, OidVector:
		for i, e := range d.ArrayValue().Elems {
			if i > 0 {
				buf = append(buf, ' ')
			}
			buf = AppendTextIn(buf, e, loc)
		}
		return buf
	}
	return append(buf, d.S...)
}

// appendReg appends a reg* value's output: the name it was made with,
// "-" for OID 0, else the OID in decimal (an object that does not exist).
func appendReg(buf []byte, d Datum) []byte {
	switch {
	case d.S != "":
		return append(buf, d.S...)
	case d.I == 0:
		return append(buf, '-')
	}
	return strconv.AppendUint(buf, uint64(uint32(d.I)), 10)
}

// appendChar appends charout's form of a "char": nothing for the empty
// value, a byte with the high bit set as a backslash and three octal
// digits (it is not a character on its own), any other byte as itself.
func appendChar(buf []byte, s string) []byte {
	if s == "" {
		return buf
	}
	c := s[0]
	if c&0x80 != 0 {
		return append(buf, '\\', '0'+c>>6, '0'+c>>3&7, '0'+c&7)
	}
	return append(buf, c)
}

// appendFloat formats f as PostgreSQL 12+ float8out (bits 64) or float4out
// (bits 32) does with the default extra_float_digits: the shortest string
// that round-trips, in positional notation when the decimal exponent is in
// [-4, 15) (float4: [-4, 6)), else in scientific notation with a signed
// exponent of at least two digits.
func appendFloat(buf []byte, f float64, bits int) []byte {
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
	buf = strconv.AppendFloat(buf, f, 'e', -1, bits)
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
	limit := 15
	if bits == 32 {
		limit = 6
	}
	if exp < -4 || exp >= limit {
		return buf
	}
	return strconv.AppendFloat(buf[:start], f, 'f', -1, bits)
}

// String formats d for debugging and EXPLAIN: like AppendText, but values
// other than numbers and booleans are single-quoted SQL literals ('abc',
// 'it”s') and NULL is NULL.
func (d Datum) String() string {
	if d.IsNull() {
		return "NULL"
	}
	var scratch [64]byte
	b := AppendText(scratch[:0], d)
	switch d.K {
	case Text, Unknown, Bytea, Timestamp, BPChar, Date, Time, TimestampTZ, Interval, UUID, JSON, JSONB, Array,
		Name, Char, RegClass, RegType, RegProc, RegNamespace, RegRole, Int2Vector, OidVector:
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
