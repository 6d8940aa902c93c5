package types

import (
	"encoding/binary"
	"math"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// codeCharacterNotInRepertoire is 22021, PostgreSQL's code for text that is
// not valid in the server encoding (UTF8).
const codeCharacterNotInRepertoire = "22021"

// AppendBinary appends PostgreSQL's binary send format of d as type t to buf
// and returns the extended buffer: bool one byte, int2/int4/int8 big-endian
// in t's width, float4/float8 IEEE 754 big-endian, numeric as base-10000
// digits (ndigits, weight, sign, dscale, digits), text, char(n), json and
// bytea raw, jsonb a version byte 1 and the text, timestamp(tz) int64
// microseconds since 2000-01-01 (infinities the int64 extremes), date int32
// days since 2000-01-01, time int64 microseconds, interval int64 micros,
// int32 days, int32 months, uuid 16 bytes, arrays array_send's format,
// oid and reg* uint32, name raw, "char" one byte (0 for the empty value),
// int2vector and oidvector array_send's format with lower bound 0. Integer d of any width is written in
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
		if d.K.IsInt() || d.K == Numeric {
			f = ToFloat64(d)
		}
		return binary.BigEndian.AppendUint64(buf, math.Float64bits(f))
	case Float4:
		f := d.F
		if d.K.IsInt() || d.K == Numeric {
			f = ToFloat64(d)
		}
		return binary.BigEndian.AppendUint32(buf, math.Float32bits(float32(f)))
	case Numeric:
		if d.K != Numeric {
			d = ToNumeric(d)
		}
		return appendNumericBinary(buf, d.Numeric())
	case Timestamp, TimestampTZ:
		return binary.BigEndian.AppendUint64(buf, uint64(timestampToWire(d.I)))
	case Date:
		v := d.I - pgEpochDays
		switch d.I {
		case PosInf:
			v = math.MaxInt32
		case NegInf:
			v = math.MinInt32
		}
		return binary.BigEndian.AppendUint32(buf, uint32(int32(v)))
	case Time:
		return binary.BigEndian.AppendUint64(buf, uint64(d.I))
	case Interval:
		m, dd, u := d.Interval()
		buf = binary.BigEndian.AppendUint64(buf, uint64(u))
		buf = binary.BigEndian.AppendUint32(buf, uint32(dd))
		return binary.BigEndian.AppendUint32(buf, uint32(m))
	case UUID:
		if d.K == UUID {
			return append(buf, d.S...)
		}
	case JSONB:
		return append(append(buf, 1), d.S...)
	case Array:
		if d.K == Array {
			return appendArrayBinary(buf, d, t)
		}
	case Oid, RegClass, RegType, RegProc, RegNamespace, RegRole:
		return binary.BigEndian.AppendUint32(buf, uint32(d.I))
	case Char:
		if d.S == "" {
			return append(buf, 0)
		}
		return append(buf, d.S[0])
	case Int2Vector, OidVector:
		if d.K.IsVector() {
			return appendVectorBinary(buf, d)
		}
	case Name:
		return append(buf, d.S...)
	case Text, Bytea, BPChar, JSON:
		if d.K == Text || d.K == Bytea || d.K == Unknown || d.K == BPChar || d.K == JSON || d.K == JSONB {
			return append(buf, d.S...)
		}
	}
	return AppendText(buf, d)
}

// pgEpochDays is 2000-01-01 in days since 1970.
const pgEpochDays = PGEpochMicros / microsPerDay

func timestampToWire(v int64) int64 {
	switch v {
	case PosInf, NegInf:
		return v
	}
	return v - PGEpochMicros
}

func firstByte(b []byte) int {
	if len(b) == 0 {
		return -1
	}
	return int(b[0])
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
	case Float4:
		if len(b) != 4 {
			return Null, badBinary(t, len(b))
		}
		return NewFloat4(math.Float32frombits(binary.BigEndian.Uint32(b))), nil
	case Numeric:
		d, err := decodeNumericBinary(b)
		if err != nil {
			return Null, err
		}
		return applyNumericTypmod(d, t)
	case Date:
		if len(b) != 4 {
			return Null, badBinary(t, len(b))
		}
		switch v := int32(binary.BigEndian.Uint32(b)); v {
		case math.MaxInt32:
			return NewDate(PosInf), nil
		case math.MinInt32:
			return NewDate(NegInf), nil
		default:
			days := int64(v) + pgEpochDays
			if days < MinTimestamp/microsPerDay || days >= EndTimestamp/microsPerDay {
				return Null, pgerror.New(pgerror.CodeDatetimeFieldOverflow, "date out of range")
			}
			return NewDate(days), nil
		}
	case Time:
		if len(b) != 8 {
			return Null, badBinary(t, len(b))
		}
		v := int64(binary.BigEndian.Uint64(b))
		if v < 0 || v > microsPerDay {
			return Null, pgerror.New(pgerror.CodeDatetimeFieldOverflow, "time out of range")
		}
		return NewTime(v), nil
	case Interval:
		if len(b) != 16 {
			return Null, badBinary(t, len(b))
		}
		return NewInterval(int32(binary.BigEndian.Uint32(b[12:])), int32(binary.BigEndian.Uint32(b[8:])), int64(binary.BigEndian.Uint64(b))), nil
	case UUID:
		if len(b) != 16 {
			return Null, badBinary(t, len(b))
		}
		return Datum{K: UUID, NotNull: true, S: string(b)}, nil
	case JSON, JSONB:
		if t.Kind == JSONB {
			if len(b) == 0 || b[0] != 1 {
				return Null, pgerror.New(pgerror.CodeInvalidBinaryRepresentation, "unsupported jsonb version number %d", firstByte(b))
			}
			b = b[1:]
		}
		if err := CheckUTF8(b); err != nil {
			return Null, err
		}
		return ParseText(t, string(b))
	case BPChar:
		if err := CheckUTF8(b); err != nil {
			return Null, err
		}
		return applyWidth(NewBPChar(string(b)), t, false)
	case Array:
		return decodeArrayBinary(t, b)
	case Float8:
		switch len(b) {
		case 4:
			return NewFloat(float64(math.Float32frombits(binary.BigEndian.Uint32(b)))), nil
		case 8:
			return NewFloat(math.Float64frombits(binary.BigEndian.Uint64(b))), nil
		}
		return Null, badBinary(t, len(b))
	case Timestamp, TimestampTZ:
		if len(b) != 8 {
			return Null, badBinary(t, len(b))
		}
		v := int64(binary.BigEndian.Uint64(b))
		switch {
		case v == math.MaxInt64:
			v = PosInf
		case v == math.MinInt64:
			v = NegInf
		case v >= EndTimestamp-PGEpochMicros || v < MinTimestamp-PGEpochMicros:
			return Null, pgerror.New(pgerror.CodeDatetimeFieldOverflow, "timestamp out of range")
		default:
			v += PGEpochMicros
		}
		return Datum{K: t.Kind, NotNull: true, I: v}, nil
	case Text, Unknown:
		if err := CheckUTF8(b); err != nil {
			return Null, err
		}
		return applyWidth(NewText(string(b)), t, false)
	case Bytea:
		return NewBytea(b), nil
	case Oid, RegClass, RegType, RegProc, RegNamespace, RegRole:
		if len(b) != 4 {
			return Null, badBinary(t, len(b))
		}
		v := binary.BigEndian.Uint32(b)
		if t.Kind == Oid {
			return NewOid(v), nil
		}
		return NewReg(t.Kind, v, ""), nil
	case Name:
		if err := CheckUTF8(b); err != nil {
			return Null, err
		}
		if len(b) > MaxNameLen {
			return Null, pgerror.New(codeNameTooLong, "identifier too long").
				WithDetail("Identifier must be less than %d characters.", MaxNameLen+1)
		}
		return NewName(string(b)), nil
	case Char:
		if len(b) != 1 {
			return Null, badBinary(t, len(b))
		}
		if b[0] == 0 {
			return NewChar(""), nil
		}
		return NewChar(string(b)), nil
	case Int2Vector, OidVector:
		return decodeVectorBinary(t, b)
	}
	return Null, pgerror.New(pgerror.CodeInternalError, "types: no receive function for %s", t)
}
