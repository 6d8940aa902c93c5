package keyenc

import (
	"encoding/binary"
	"math"
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// Escape bytes of the string encoding, ASC form.
const (
	escape     byte = 0x00 // starts an escape pair
	escapedNul byte = 0xFF // 00 FF is a data byte 0x00
	terminator byte = 0x01 // 00 01 ends the string
)

// Array element markers: each element is arrayElem and its key, or
// arrayNull; arrayEnd closes the array, so a prefix sorts first and NULL
// elements sort after non-NULL ones.
const (
	arrayEnd  byte = 0x00
	arrayElem byte = 0x01
	arrayNull byte = 0x02
)

// HasKeyEncoding reports whether t can be a rowkey column. json cannot:
// PostgreSQL has no btree ordering for json (jsonb has one).
func HasKeyEncoding(t types.T) bool {
	switch t.Kind {
	case types.JSON:
		return false
	case types.Array:
		return HasKeyEncoding(t.ElemType())
	}
	return true
}

// canonicalNaN is the single NaN bit pattern written to keys.
const canonicalNaN uint64 = 0x7ff8000000000000

// AppendKey appends the order-preserving key encoding of d, a value of
// column type t, to buf and returns the extended buffer. desc inverts the
// column's order. d must be non-NULL (AppendKey panics on NULL: the executor
// rejects NULL key columns with 23502 first) and already of type t; an
// integer out of t's range is a caller bug and is truncated to t's width.
// AppendKey allocates only to grow buf.
func AppendKey(buf []byte, d types.Datum, t types.T, desc bool) []byte {
	if d.IsNull() {
		panic("keyenc: NULL key column")
	}
	start := len(buf)
	switch t.Kind {
	case types.Bool:
		buf = append(buf, byte(d.I&1))
	case types.Int2:
		buf = binary.BigEndian.AppendUint16(buf, uint16(d.I)^0x8000)
	case types.Int4:
		buf = binary.BigEndian.AppendUint32(buf, uint32(d.I)^0x80000000)
	case types.Int8, types.Timestamp:
		buf = binary.BigEndian.AppendUint64(buf, uint64(d.I)^(1<<63))
	case types.Float8:
		buf = binary.BigEndian.AppendUint64(buf, floatKeyBits(d.F))
	case types.Text, types.Bytea, types.Unknown, types.Name, types.Char:
		buf = appendEscaped(buf, d.S)
		buf = append(buf, escape, terminator)
	case types.Oid, types.RegClass, types.RegType, types.RegProc, types.RegNamespace, types.RegRole:
		buf = binary.BigEndian.AppendUint32(buf, uint32(d.I))
	case types.Int2Vector, types.OidVector:
		// Catalog vectors group and sort like arrays of their elements.
		et := types.TInt2
		if t.Kind == types.OidVector {
			et = types.TOid
		}
		for _, e := range d.ArrayValue().Elems {
			buf = AppendKey(append(buf, arrayElem), e, et, false)
		}
		buf = append(buf, arrayEnd)
	case types.BPChar:
		buf = appendEscaped(buf, strings.TrimRight(d.S, " "))
		buf = append(buf, escape, terminator)
	case types.Float4:
		buf = binary.BigEndian.AppendUint32(buf, float4KeyBits(float32(d.F)))
	case types.Numeric:
		buf = appendNumericKey(buf, d.Numeric())
	case types.Date:
		buf = binary.BigEndian.AppendUint32(buf, dateKey(d.I))
	case types.Time, types.TimestampTZ:
		buf = binary.BigEndian.AppendUint64(buf, uint64(d.I)^(1<<63))
	case types.Interval:
		days, micros := types.IntervalTotal(d)
		buf = binary.BigEndian.AppendUint64(buf, uint64(days)^(1<<63))
		buf = binary.BigEndian.AppendUint64(buf, uint64(micros))
	case types.UUID:
		buf = append(buf, d.S...)
	case types.JSONB:
		v := types.JSONDoc(d)
		buf = appendJSONKey(buf, &v)
	case types.Array:
		et := t.ElemType()
		for _, e := range d.ArrayValue().Elems {
			if e.IsNull() {
				buf = append(buf, arrayNull)
				continue
			}
			buf = AppendKey(append(buf, arrayElem), e, et, false)
		}
		buf = append(buf, arrayEnd)
	default:
		panic("keyenc: no key encoding for " + t.String())
	}
	if desc {
		invert(buf[start:])
	}
	return buf
}

func floatKeyBits(f float64) uint64 {
	switch {
	case f == 0:
		return 1 << 63 // -0 and +0 both encode as +0
	case f != f:
		return canonicalNaN ^ (1 << 63)
	}
	b := math.Float64bits(f)
	if b&(1<<63) != 0 {
		return ^b
	}
	return b ^ (1 << 63)
}

func floatFromKeyBits(b uint64) float64 {
	if b&(1<<63) != 0 {
		return math.Float64frombits(b ^ (1 << 63))
	}
	return math.Float64frombits(^b)
}

func appendEscaped(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == escape {
			buf = append(buf, escape, escapedNul)
		} else {
			buf = append(buf, s[i])
		}
	}
	return buf
}

func invert(b []byte) {
	for i := range b {
		b[i] = ^b[i]
	}
}

// AppendStringPrefix appends the key encoding of the string prefix s for a
// text, varchar or bytea column: the escaped bytes without the terminator,
// inverted when desc. Every string that starts with s has a key encoding
// that starts with these bytes, in ASC and DESC columns alike, so the keys
// matching LIKE 's%' (after the same preceding key columns) are exactly the
// span [k, PrefixEnd(k)) where k is the key prefix ending with these bytes.
func AppendStringPrefix(buf []byte, s string, desc bool) []byte {
	start := len(buf)
	buf = appendEscaped(buf, s)
	if desc {
		invert(buf[start:])
	}
	return buf
}

// PrefixEnd returns the smallest key greater than every key with prefix p:
// p with trailing 0xFF bytes removed and its last byte incremented. It
// returns nil when no such key exists (p is empty or all 0xFF), meaning the
// span is unbounded above. The result is a new slice; p is not modified.
func PrefixEnd(p []byte) []byte {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] != 0xFF {
			end := make([]byte, i+1)
			copy(end, p)
			end[i]++
			return end
		}
	}
	return nil
}

func corrupt(t types.T, format string, args ...any) error {
	return pgerror.New(pgerror.CodeDataCorrupted, "keyenc: corrupt %s key: "+format, append([]any{t}, args...)...)
}

// DecodeKey decodes one column of type t, encoded with the given direction,
// from the front of b, and returns it with the remaining bytes (a subslice
// of b). A decoded string does not alias b. A truncated or malformed
// encoding is XX001. Floats decode -0 as 0 and every NaN as one NaN.
func DecodeKey(b []byte, t types.T, desc bool) (types.Datum, []byte, error) {
	var mask byte
	if desc {
		mask = 0xFF
	}
	fixed := func(n int) (uint64, error) {
		if len(b) < n {
			return 0, corrupt(t, "%d bytes, want %d", len(b), n)
		}
		var v uint64
		for _, c := range b[:n] {
			v = v<<8 | uint64(c^mask)
		}
		return v, nil
	}
	switch t.Kind {
	case types.Bool:
		v, err := fixed(1)
		if err != nil {
			return types.Null, nil, err
		}
		if v > 1 {
			return types.Null, nil, corrupt(t, "byte %#x", v)
		}
		return types.NewBool(v == 1), b[1:], nil
	case types.Int2:
		v, err := fixed(2)
		if err != nil {
			return types.Null, nil, err
		}
		return types.NewInt(types.Int2, int64(int16(uint16(v)^0x8000))), b[2:], nil
	case types.Int4:
		v, err := fixed(4)
		if err != nil {
			return types.Null, nil, err
		}
		return types.NewInt(types.Int4, int64(int32(uint32(v)^0x80000000))), b[4:], nil
	case types.Int8, types.Timestamp:
		v, err := fixed(8)
		if err != nil {
			return types.Null, nil, err
		}
		if t.Kind == types.Timestamp {
			return types.NewTimestamp(int64(v ^ (1 << 63))), b[8:], nil
		}
		return types.NewInt(types.Int8, int64(v^(1<<63))), b[8:], nil
	case types.Float8:
		v, err := fixed(8)
		if err != nil {
			return types.Null, nil, err
		}
		return types.NewFloat(floatFromKeyBits(v)), b[8:], nil
	case types.Float4:
		v, err := fixed(4)
		if err != nil {
			return types.Null, nil, err
		}
		return types.NewFloat4(float4FromKeyBits(uint32(v))), b[4:], nil
	case types.Date:
		v, err := fixed(4)
		if err != nil {
			return types.Null, nil, err
		}
		return types.NewDate(dateFromKey(uint32(v))), b[4:], nil
	case types.Time, types.TimestampTZ:
		v, err := fixed(8)
		if err != nil {
			return types.Null, nil, err
		}
		return types.Datum{K: t.Kind, NotNull: true, I: int64(v ^ (1 << 63))}, b[8:], nil
	case types.Interval:
		if len(b) < 16 {
			return types.Null, nil, corrupt(t, "%d bytes, want 16", len(b))
		}
		v, _ := fixed(8)
		days := int64(v ^ (1 << 63))
		var micros uint64
		for _, c := range b[8:16] {
			micros = micros<<8 | uint64(c^mask)
		}
		if micros >= 86400e6 || days/30 > math.MaxInt32 || days/30 < math.MinInt32 {
			return types.Null, nil, corrupt(t, "interval total %d days %d micros", days, micros)
		}
		return intervalFromKey(days, int64(micros)), b[16:], nil
	case types.UUID:
		if len(b) < 16 {
			return types.Null, nil, corrupt(t, "%d bytes, want 16", len(b))
		}
		u := make([]byte, 16)
		for i := range u {
			u[i] = b[i] ^ mask
		}
		return types.NewBytea(u).WithKind(types.UUID), b[16:], nil
	case types.BPChar:
		s, rest, err := decodeString(b, mask, t)
		if err != nil {
			return types.Null, nil, err
		}
		d, err := types.Cast(types.NewText(s), t)
		return d, rest, err
	case types.Numeric, types.JSONB, types.Array:
		return decodeVarKey(b, t, desc)
	case types.Oid, types.RegClass, types.RegType, types.RegProc, types.RegNamespace, types.RegRole:
		v, err := fixed(4)
		if err != nil {
			return types.Null, nil, err
		}
		// A reg* value's name is not in the key: it prints as its OID.
		return types.Datum{K: t.Kind, NotNull: true, I: int64(v)}, b[4:], nil
	case types.Int2Vector, types.OidVector:
		at := types.ArrayOf(types.TInt2)
		if t.Kind == types.OidVector {
			at = types.ArrayOf(types.TOid)
		}
		a, rest, err := decodeVarKey(b, at, desc)
		if err != nil {
			return types.Null, nil, err
		}
		return vectorFromArray(t.Kind, a), rest, nil
	case types.Text, types.Bytea, types.Unknown, types.Name, types.Char:
		s, rest, err := decodeString(b, mask, t)
		if err != nil {
			return types.Null, nil, err
		}
		d := types.NewText(s)
		d.K = t.Kind
		return d, rest, nil
	}
	return types.Null, nil, corrupt(t, "no key encoding for the type")
}

// decodeVarKey decodes the variable-length encodings that are not strings
// (numeric, jsonb, arrays). A DESC column is un-inverted into a copy.
func decodeVarKey(b []byte, t types.T, desc bool) (types.Datum, []byte, error) {
	in := b
	if desc {
		in = make([]byte, len(b))
		for i, c := range b {
			in[i] = ^c
		}
	}
	d, rest, err := decodeVarKeyAsc(in, t)
	if err != nil {
		return types.Null, nil, err
	}
	return d, b[len(b)-len(rest):], nil
}

func decodeVarKeyAsc(b []byte, t types.T) (types.Datum, []byte, error) {
	switch t.Kind {
	case types.Numeric:
		v, rest, err := decodeNumericKey(b, t)
		if err != nil {
			return types.Null, nil, err
		}
		return numericFromKey(v, t), rest, nil
	case types.JSONB:
		v, rest, err := decodeJSONKey(b, t, 0)
		if err != nil {
			return types.Null, nil, err
		}
		return types.NewJSONB(string(v.AppendJSONB(nil))), rest, nil
	}
	et := t.ElemType()
	elems := []types.Datum{}
	for {
		if len(b) == 0 {
			return types.Null, nil, corrupt(t, "unterminated array")
		}
		switch b[0] {
		case arrayEnd:
			return types.NewArray(et, elems), b[1:], nil
		case arrayNull:
			elems, b = append(elems, types.Null), b[1:]
		case arrayElem:
			e, rest, err := DecodeKey(b[1:], et, false)
			if err != nil {
				return types.Null, nil, err
			}
			elems, b = append(elems, e), rest
		default:
			return types.Null, nil, corrupt(t, "array marker %#x", b[0])
		}
	}
}

// intervalFromKey rebuilds an interval from its key total: days (months
// counted as 30 days) and micros within the day. Equal intervals share one
// key, so the original split is not kept: whole multiples of 30 days read
// back as months ('1 mon' and '1 year' round-trip, '30 days' reads back as
// '1 mon', '45 days' as '1 mon 15 days'), like PostgreSQL's
// justify_days.
func intervalFromKey(days, micros int64) types.Datum {
	months := days / 30
	return types.NewInterval(int32(months), int32(days-months*30), micros)
}

// decodeString decodes an escaped, terminated string; mask is 0xFF for DESC.
func decodeString(b []byte, mask byte, t types.T) (string, []byte, error) {
	// Fast path: find the terminator and check for escapes.
	n := 0
	for i := 0; i < len(b); i++ {
		if b[i]^mask != escape {
			n++
			continue
		}
		if i+1 >= len(b) {
			return "", nil, corrupt(t, "truncated escape at %d", i)
		}
		switch b[i+1] ^ mask {
		case escapedNul:
			n++
			i++
		case terminator:
			var sb strings.Builder
			sb.Grow(n)
			for j := 0; j < i; j++ {
				c := b[j] ^ mask
				sb.WriteByte(c)
				if c == escape {
					j++
				}
			}
			return sb.String(), b[i+2:], nil
		default:
			return "", nil, corrupt(t, "bad escape %#x at %d", b[i+1]^mask, i)
		}
	}
	return "", nil, corrupt(t, "unterminated string")
}

// vectorFromArray turns a decoded array of Int2 or Oid elements back into
// an int2vector or oidvector.
func vectorFromArray(k types.Kind, a types.Datum) types.Datum {
	elems := a.ArrayValue().Elems
	if k == types.Int2Vector {
		v := make([]int16, len(elems))
		for i, e := range elems {
			v[i] = int16(e.I)
		}
		return types.NewInt2Vector(v)
	}
	v := make([]uint32, len(elems))
	for i, e := range elems {
		v[i] = uint32(e.I)
	}
	return types.NewOidVector(v)
}
