package keyenc

import (
	"encoding/binary"
	"math"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// AppendValue appends the compact, unordered cell encoding of d, a non-NULL
// value of column type t, to buf and returns the extended buffer: integers
// and timestamps as zigzag varints, float8 as 8 bytes IEEE 754 big-endian,
// bool as one byte, text and bytea as their raw bytes. NULL is never stored
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
	case types.Text, types.Bytea, types.Unknown:
		return append(buf, d.S...)
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
	case types.Text, types.Bytea, types.Unknown:
		d := types.NewText(string(b))
		d.K = t.Kind
		return d, nil
	}
	return types.Null, corruptValue(t, "no value encoding for the type")
}
