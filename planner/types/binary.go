package types

import (
	"encoding/binary"
	"math"
	"unicode/utf8"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// codeCharacterNotInRepertoire is 22021, PostgreSQL's code for text that is
// not valid in the server encoding (UTF8).
const codeCharacterNotInRepertoire = "22021"

// AppendBinary appends PostgreSQL's binary send format of d as type t to buf
// and returns the extended buffer: bool one byte, int2/int4/int8 big-endian
// in t's width, float8 IEEE 754 big-endian, text and bytea raw, timestamp
// int64 microseconds since 2000-01-01. Integer d of any width is written in
// t's width; the caller has cast d to t, so the value fits. It allocates
// only to grow buf. A NULL d appends nothing. An Unknown t sends d's text
// form.
func AppendBinary(buf []byte, d Datum, t T) []byte {
	if d.IsNull() {
		return buf
	}
	switch t.Kind {
	case Bool:
		return append(buf, byte(d.I&1))
	case Int2:
		return binary.BigEndian.AppendUint16(buf, uint16(d.I))
	case Int4:
		return binary.BigEndian.AppendUint32(buf, uint32(d.I))
	case Int8:
		return binary.BigEndian.AppendUint64(buf, uint64(d.I))
	case Float8:
		f := d.F
		if d.K.IsInt() {
			f = float64(d.I)
		}
		return binary.BigEndian.AppendUint64(buf, math.Float64bits(f))
	case Timestamp:
		return binary.BigEndian.AppendUint64(buf, uint64(d.I-PGEpochMicros))
	case Text, Bytea:
		if d.K == Text || d.K == Bytea || d.K == Unknown {
			return append(buf, d.S...)
		}
	}
	return AppendText(buf, d)
}

func badBinary(t T, n int) error {
	return pgerror.New(pgerror.CodeInvalidBinaryRepresentation,
		"incorrect binary data format: %d bytes for type %s", n, t)
}

// DecodeBinary decodes b in PostgreSQL's binary receive format for t, the
// type of the parameter's OID. Integers must have t's wire width, float8
// accepts 8 bytes or the 4-byte float4 form; a wrong length is 22P03. Text
// must be valid UTF-8 (22021) and fit a varchar(n) (22001). The result does
// not alias b.
func DecodeBinary(t T, b []byte) (Datum, error) {
	switch t.Kind {
	case Bool:
		if len(b) != 1 {
			return Null, badBinary(t, len(b))
		}
		return NewBool(b[0] != 0), nil
	case Int2:
		if len(b) != 2 {
			return Null, badBinary(t, len(b))
		}
		return NewInt(Int2, int64(int16(binary.BigEndian.Uint16(b)))), nil
	case Int4:
		if len(b) != 4 {
			return Null, badBinary(t, len(b))
		}
		return NewInt(Int4, int64(int32(binary.BigEndian.Uint32(b)))), nil
	case Int8:
		if len(b) != 8 {
			return Null, badBinary(t, len(b))
		}
		return NewInt(Int8, int64(binary.BigEndian.Uint64(b))), nil
	case Float8:
		switch len(b) {
		case 4:
			return NewFloat(float64(math.Float32frombits(binary.BigEndian.Uint32(b)))), nil
		case 8:
			return NewFloat(math.Float64frombits(binary.BigEndian.Uint64(b))), nil
		}
		return Null, badBinary(t, len(b))
	case Timestamp:
		if len(b) != 8 {
			return Null, badBinary(t, len(b))
		}
		v := int64(binary.BigEndian.Uint64(b))
		if v == math.MaxInt64 || v == math.MinInt64 {
			return Null, pgerror.Unimplemented("timestamp infinity")
		}
		if v >= EndTimestamp-PGEpochMicros || v < MinTimestamp-PGEpochMicros {
			return Null, pgerror.New(pgerror.CodeDatetimeFieldOverflow, "timestamp out of range")
		}
		return NewTimestamp(v + PGEpochMicros), nil
	case Text, Unknown:
		if !utf8.Valid(b) {
			return Null, pgerror.New(codeCharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\"")
		}
		return applyWidth(NewText(string(b)), t, false)
	case Bytea:
		return NewBytea(b), nil
	}
	return Null, pgerror.New(pgerror.CodeInternalError, "types: no receive function for %s", t)
}
