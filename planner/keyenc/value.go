package keyenc

import (
	"encoding/binary"
	"math"

	"github.com/cockroachdb/apd/v3"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// AppendValue appends the compact, unordered cell encoding of d, a non-NULL
// value of column type t, to buf and returns the extended buffer: integers,
// dates, times and timestamps as zigzag varints, float4/float8 as 4/8 bytes
// IEEE 754 big-endian, bool as one byte, text, char(n), json, jsonb, uuid
// and bytea as their raw bytes, intervals as three varints (months, days,
// micros), numeric as a form byte, a varint exponent and the coefficient's
// big-endian bytes (keeping its scale), arrays as a uvarint count and per
// element a uvarint length+1 (0 for NULL) and its value encoding. NULL is never stored
// (it is the absence of the cell); AppendValue panics on NULL. It allocates
// only to grow buf.
func AppendValue(buf []byte, d types.Datum, t types.T) []byte {
	if d.IsNull() {
		panic("keyenc: NULL value")
	}
	switch t.Kind {
	case types.Bool:
		return append(buf, byte(d.I&1))
	case types.Int2, types.Int4, types.Int8, types.Timestamp:
		return binary.AppendVarint(buf, d.I)
	case types.Float8:
		return binary.BigEndian.AppendUint64(buf, math.Float64bits(d.F))
	case types.Text, types.Bytea, types.Unknown, types.BPChar, types.UUID, types.JSON, types.JSONB:
		return append(buf, d.S...)
	case types.Float4:
		return binary.BigEndian.AppendUint32(buf, math.Float32bits(float32(d.F)))
	case types.Date, types.Time, types.TimestampTZ:
		return binary.AppendVarint(buf, d.I)
	case types.Interval:
		m, dd, u := d.Interval()
		buf = binary.AppendVarint(buf, int64(m))
		buf = binary.AppendVarint(buf, int64(dd))
		return binary.AppendVarint(buf, u)
	case types.Numeric:
		return appendNumericValue(buf, d.Numeric())
	case types.Array:
		et := t.ElemType()
		elems := d.ArrayValue().Elems
		buf = binary.AppendUvarint(buf, uint64(len(elems)))
		var scratch []byte
		for _, e := range elems {
			if e.IsNull() {
				buf = append(buf, 0)
				continue
			}
			scratch = AppendValue(scratch[:0], e, et)
			buf = binary.AppendUvarint(buf, uint64(len(scratch))+1)
			buf = append(buf, scratch...)
		}
		return buf
	}
	panic("keyenc: no value encoding for " + t.String())
}

func corruptValue(t types.T, format string, args ...any) error {
	return pgerror.New(pgerror.CodeDataCorrupted, "keyenc: corrupt %s value: "+format, append([]any{t}, args...)...)
}

// DecodeValue decodes a whole cell value of column type t. The cell must
// hold exactly one encoded value; trailing bytes, a short cell, or an
// integer outside t's range are XX001. A decoded string does not alias b.
func DecodeValue(b []byte, t types.T) (types.Datum, error) {
	switch t.Kind {
	case types.Bool:
		if len(b) != 1 || b[0] > 1 {
			return types.Null, corruptValue(t, "% x", b)
		}
		return types.NewBool(b[0] == 1), nil
	case types.Int2, types.Int4, types.Int8, types.Timestamp:
		v, n := binary.Varint(b)
		if n <= 0 || n != len(b) {
			return types.Null, corruptValue(t, "bad varint % x", b)
		}
		if t.Kind == types.Timestamp {
			return types.NewTimestamp(v), nil
		}
		if (t.Kind == types.Int2 && v != int64(int16(v))) || (t.Kind == types.Int4 && v != int64(int32(v))) {
			return types.Null, corruptValue(t, "%d out of range", v)
		}
		return types.NewInt(t.Kind, v), nil
	case types.Float8:
		if len(b) != 8 {
			return types.Null, corruptValue(t, "%d bytes, want 8", len(b))
		}
		return types.NewFloat(math.Float64frombits(binary.BigEndian.Uint64(b))), nil
	case types.Text, types.Bytea, types.Unknown, types.BPChar, types.JSON, types.JSONB:
		return types.NewText(string(b)).WithKind(t.Kind), nil
	case types.UUID:
		if len(b) != 16 {
			return types.Null, corruptValue(t, "%d bytes, want 16", len(b))
		}
		return types.NewText(string(b)).WithKind(t.Kind), nil
	case types.Float4:
		if len(b) != 4 {
			return types.Null, corruptValue(t, "%d bytes, want 4", len(b))
		}
		return types.NewFloat4(math.Float32frombits(binary.BigEndian.Uint32(b))), nil
	case types.Date, types.Time, types.TimestampTZ:
		v, n := binary.Varint(b)
		if n <= 0 || n != len(b) {
			return types.Null, corruptValue(t, "bad varint % x", b)
		}
		return types.Datum{K: t.Kind, NotNull: true, I: v}, nil
	case types.Interval:
		var f [3]int64
		for i := range f {
			v, n := binary.Varint(b)
			if n <= 0 {
				return types.Null, corruptValue(t, "bad varint % x", b)
			}
			f[i], b = v, b[n:]
		}
		if len(b) != 0 || f[0] != int64(int32(f[0])) || f[1] != int64(int32(f[1])) {
			return types.Null, corruptValue(t, "bad interval")
		}
		return types.NewInterval(int32(f[0]), int32(f[1]), f[2]), nil
	case types.Numeric:
		return decodeNumericValue(b, t)
	case types.Array:
		return decodeArrayValue(b, t)
	}
	return types.Null, corruptValue(t, "no value encoding for the type")
}

// Numeric value forms.
const (
	numValPos    byte = 0
	numValNeg    byte = 1
	numValNaN    byte = 2
	numValPosInf byte = 3
	numValNegInf byte = 4
)

func appendNumericValue(buf []byte, v *apd.Decimal) []byte {
	switch v.Form {
	case apd.NaN, apd.NaNSignaling:
		return append(buf, numValNaN)
	case apd.Infinite:
		if v.Negative {
			return append(buf, numValNegInf)
		}
		return append(buf, numValPosInf)
	}
	form := numValPos
	if v.Negative {
		form = numValNeg
	}
	buf = append(buf, form)
	buf = binary.AppendVarint(buf, int64(v.Exponent))
	return append(buf, v.Coeff.Bytes()...)
}

func decodeNumericValue(b []byte, t types.T) (types.Datum, error) {
	if len(b) == 0 {
		return types.Null, corruptValue(t, "empty numeric")
	}
	d := new(apd.Decimal)
	switch b[0] {
	case numValNaN:
		d.Form = apd.NaN
	case numValPosInf, numValNegInf:
		d.Form, d.Negative = apd.Infinite, b[0] == numValNegInf
	case numValPos, numValNeg:
		e, n := binary.Varint(b[1:])
		if n <= 0 || e != int64(int32(e)) {
			return types.Null, corruptValue(t, "bad numeric exponent")
		}
		d.Exponent, d.Negative = int32(e), b[0] == numValNeg
		d.Coeff.SetBytes(b[1+n:])
	default:
		return types.Null, corruptValue(t, "numeric form %#x", b[0])
	}
	if len(b) > 1 && d.Form != apd.Finite {
		return types.Null, corruptValue(t, "numeric trailing bytes")
	}
	return types.NewNumeric(d), nil
}

func decodeArrayValue(b []byte, t types.T) (types.Datum, error) {
	et := t.ElemType()
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return types.Null, corruptValue(t, "bad array count")
	}
	b = b[k:]
	elems := make([]types.Datum, 0, n)
	for i := uint64(0); i < n; i++ {
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k)+1 {
			return types.Null, corruptValue(t, "bad array element length")
		}
		b = b[k:]
		if l == 0 {
			elems = append(elems, types.Null)
			continue
		}
		e, err := DecodeValue(b[:l-1], et)
		if err != nil {
			return types.Null, err
		}
		elems, b = append(elems, e), b[l-1:]
	}
	if len(b) != 0 {
		return types.Null, corruptValue(t, "array trailing bytes")
	}
	return types.NewArray(et, elems), nil
}
