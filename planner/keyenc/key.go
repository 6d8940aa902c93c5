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
	case types.Text, types.Bytea, types.Unknown:
		buf = appendEscaped(buf, d.S)
		buf = append(buf, escape, terminator)
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
	case types.Text, types.Bytea, types.Unknown:
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
