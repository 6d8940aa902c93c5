// Package types defines widesql's SQL types and values: the type set with its
// PostgreSQL OIDs, the Datum value representation, comparison, casts, and the
// PostgreSQL text and binary wire formats.
//
// # Representation contract
//
// A Datum is a small value type; ints, floats, bools, dates, times,
// timestamps and intervals do not allocate. Kind by kind (the zero Datum is
// NULL, and NotNull is true for every other value):
//
//	Bool         I is 0 or 1
//	Int2/4/8     I
//	Float4       F, a float64 holding a float32 value exactly
//	Float8       F
//	Numeric      an *apd.Decimal (Numeric()), never modified after NewNumeric;
//	             its exponent is -scale, so 1.50 keeps its scale; NaN and
//	             ±Infinity are apd forms
//	Text         S (text and varchar(n))
//	BPChar       S, blank-padded to the type's width by casts (char(n))
//	Bytea        S holds the raw bytes
//	Date         I, days since 1970-01-01; PosInf/NegInf are 'infinity'
//	Time         I, microseconds since midnight, 0..86400000000
//	Timestamp    I, microseconds since 1970-01-01 00:00:00; PosInf/NegInf
//	TimestampTZ  I, microseconds since 1970-01-01 00:00:00 UTC; PosInf/NegInf
//	Interval     I microseconds; months and days packed in F's bits (use
//	             NewInterval and Interval(), never F directly)
//	UUID         S, the 16 raw bytes
//	JSON         S, the input text exactly as given (validated)
//	JSONB        S, the normalized text (NormalizeJSONB): keys sorted by
//	             length then bytes, last duplicate wins, PostgreSQL spacing
//	Array        an *ArrayVal (ArrayValue()): element type and elements, one
//	             dimension, lower bound 1; elements may be NULL
//	Unknown      S (an untyped literal)
//
// Datum values may be copied and compared field by field only through
// Compare; == on Datums is not value equality for Numeric and Array.
package types

import (
	"math"

	"github.com/cockroachdb/apd/v3"
)

// Kind is the family of a type.
type Kind uint8

// Kinds. Unknown is the type of an untyped literal or parameter not yet
// inferred (PostgreSQL's "unknown", OID 705). The numeric values are
// persisted in the catalog: append new kinds at the end.
const (
	Unknown Kind = iota
	Bool
	Int2
	Int4
	Int8
	Float8
	Text // text and varchar(n)
	Bytea
	Timestamp // timestamp without time zone, microseconds since 1970-01-01
	Float4
	Numeric
	Date
	Time // time without time zone
	TimestampTZ
	Interval
	UUID
	JSON
	JSONB
	BPChar // character(n), blank-padded
	Array
	// System-catalog types (pgtypes.go). Oid is I (0..2^32-1); Name is S
	// (at most 63 bytes); Char is PostgreSQL's one-byte "char", S of
	// length 0 or 1; the reg* kinds are an object's OID in I and the name
	// their output shows in S (resolved when the value was made);
	// Int2Vector and OidVector are *ArrayVal of Int2 / Oid elements, whose
	// subscripts start at 0 and whose text form is space-separated.
	Oid
	Name
	Char
	RegClass
	RegType
	RegProc
	RegNamespace
	RegRole
	Int2Vector
	OidVector
)

// T is a SQL type: a Kind plus modifiers. T is comparable with ==.
type T struct {
	Kind Kind
	// Width is n for varchar(n) and char(n), the precision p for
	// numeric(p,s); 0 means unbounded. VarChar distinguishes varchar from
	// text.
	Width   int32
	VarChar bool
	// Scale is s for numeric(p,s); meaningful only when Width > 0.
	Scale int32 `json:",omitempty"`
	// Elem is the element kind of an Array; the element's modifiers are
	// Width, VarChar and Scale above (varchar(10)[] is {Array, Width: 10,
	// VarChar: true, Elem: Text}). See ElemType and ArrayOf.
	Elem Kind `json:",omitempty"`
}

// Common types.
var (
	TUnknown     = T{Kind: Unknown}
	TBool        = T{Kind: Bool}
	TInt2        = T{Kind: Int2}
	TInt4        = T{Kind: Int4}
	TInt8        = T{Kind: Int8}
	TFloat4      = T{Kind: Float4}
	TFloat8      = T{Kind: Float8}
	TNumeric     = T{Kind: Numeric}
	TText        = T{Kind: Text}
	TVarChar     = T{Kind: Text, VarChar: true}
	TBPChar      = T{Kind: BPChar} // bpchar without a width (char is char(1))
	TBytea       = T{Kind: Bytea}
	TTimestamp   = T{Kind: Timestamp}
	TTimestampTZ = T{Kind: TimestampTZ}
	TDate        = T{Kind: Date}
	TTime        = T{Kind: Time}
	TInterval    = T{Kind: Interval}
	TUUID        = T{Kind: UUID}
	TJSON        = T{Kind: JSON}
	TJSONB       = T{Kind: JSONB}

	TOid          = T{Kind: Oid}
	TName         = T{Kind: Name}
	TChar         = T{Kind: Char}
	TRegClass     = T{Kind: RegClass}
	TRegType      = T{Kind: RegType}
	TRegProc      = T{Kind: RegProc}
	TRegNamespace = T{Kind: RegNamespace}
	TRegRole      = T{Kind: RegRole}
	TInt2Vector   = T{Kind: Int2Vector}
	TOidVector    = T{Kind: OidVector}
)

// ArrayOf returns the type "array of elem". An array of arrays is the same
// type as the array (PostgreSQL's int[][] is int[]).
func ArrayOf(elem T) T {
	if elem.Kind == Array {
		return elem
	}
	elem.Elem, elem.Kind = elem.Kind, Array
	return elem
}

// ElemType returns the element type of an array type t (TUnknown when t is
// not an array).
func (t T) ElemType() T {
	if t.Kind != Array {
		return TUnknown
	}
	t.Kind, t.Elem = t.Elem, 0
	return t
}

// Special I values of Date, Timestamp and TimestampTZ: 'infinity' and
// '-infinity'. Every finite value lies strictly between them.
const (
	PosInf int64 = math.MaxInt64
	NegInf int64 = math.MinInt64
)

// Datum is one SQL value. The zero Datum is NULL. See the package comment
// for each kind's representation.
type Datum struct {
	K Kind // the value's kind; meaningful only when !Null
	// Null is false for every non-NULL value. The zero Datum has NotNull
	// false, so it is NULL.
	NotNull bool
	I       int64
	F       float64
	S       string
	// x is *apd.Decimal for Numeric and *ArrayVal for Array, nil otherwise.
	x any
}

// ArrayVal is the value of an array Datum. It is immutable once wrapped in a
// Datum by NewArray.
type ArrayVal struct {
	Elem  T       // element type
	Elems []Datum // one dimension, lower bound 1; NULL elements allowed
}

// Null is the SQL NULL.
var Null = Datum{}

// IsNull reports whether d is NULL.
func (d Datum) IsNull() bool { return !d.NotNull }

// NewBool returns a boolean datum.
func NewBool(b bool) Datum {
	d := Datum{K: Bool, NotNull: true}
	if b {
		d.I = 1
	}
	return d
}

// NewInt returns an integer datum of kind k (Int2, Int4 or Int8).
func NewInt(k Kind, v int64) Datum { return Datum{K: k, NotNull: true, I: v} }

// NewFloat returns a float8 datum.
func NewFloat(v float64) Datum { return Datum{K: Float8, NotNull: true, F: v} }

// NewFloat4 returns a real (float4) datum.
func NewFloat4(v float32) Datum { return Datum{K: Float4, NotNull: true, F: float64(v)} }

// NewNumeric returns a numeric datum holding v. The datum takes ownership
// of v: neither the caller nor anyone else may modify it afterwards.
func NewNumeric(v *apd.Decimal) Datum { return Datum{K: Numeric, NotNull: true, x: v} }

// NewNumericInt returns the numeric datum of an integer (scale 0).
func NewNumericInt(v int64) Datum { return NewNumeric(apd.New(v, 0)) }

// NewText returns a text datum.
func NewText(s string) Datum { return Datum{K: Text, NotNull: true, S: s} }

// NewBPChar returns a character(n) datum. s should already be blank-padded
// to the column's width (Cast and AssignCast pad).
func NewBPChar(s string) Datum { return Datum{K: BPChar, NotNull: true, S: s} }

// NewBytea returns a bytea datum; b is copied.
func NewBytea(b []byte) Datum { return Datum{K: Bytea, NotNull: true, S: string(b)} }

// NewTimestamp returns a timestamp datum from microseconds since the Unix
// epoch (or PosInf/NegInf).
func NewTimestamp(micros int64) Datum { return Datum{K: Timestamp, NotNull: true, I: micros} }

// NewTimestampTZ returns a timestamptz datum from microseconds since
// 1970-01-01 00:00:00 UTC (or PosInf/NegInf).
func NewTimestampTZ(micros int64) Datum { return Datum{K: TimestampTZ, NotNull: true, I: micros} }

// NewDate returns a date datum from days since 1970-01-01 (or PosInf/NegInf).
func NewDate(days int64) Datum { return Datum{K: Date, NotNull: true, I: days} }

// NewTime returns a time datum from microseconds since midnight.
func NewTime(micros int64) Datum { return Datum{K: Time, NotNull: true, I: micros} }

// NewInterval returns an interval datum. The three fields are kept apart
// as in PostgreSQL ('1 mon' is not '30 days', though they compare equal).
func NewInterval(months, days int32, micros int64) Datum {
	return Datum{K: Interval, NotNull: true, I: micros,
		F: math.Float64frombits(uint64(uint32(months))<<32 | uint64(uint32(days)))}
}

// NewUUID returns a uuid datum.
func NewUUID(u [16]byte) Datum { return Datum{K: UUID, NotNull: true, S: string(u[:])} }

// NewJSON returns a json datum holding s, which must be valid JSON text
// (ParseText validates; use it for untrusted input).
func NewJSON(s string) Datum { return Datum{K: JSON, NotNull: true, S: s} }

// NewJSONB returns a jsonb datum holding s, which must be normalized JSON
// text as NormalizeJSONB returns (ParseText normalizes; use it for
// untrusted input).
func NewJSONB(s string) Datum { return Datum{K: JSONB, NotNull: true, S: s} }

// NewArray returns an array datum of element type elem. The datum takes
// ownership of elems: it must not be modified afterwards. Each element is
// NULL or already of type elem.
func NewArray(elem T, elems []Datum) Datum {
	return Datum{K: Array, NotNull: true, x: &ArrayVal{Elem: elem, Elems: elems}}
}

// Bool returns d's boolean value (d must be a non-NULL Bool).
func (d Datum) Bool() bool { return d.I != 0 }

// Numeric returns d's decimal (d must be a non-NULL Numeric). The result
// is shared: callers must not modify it.
func (d Datum) Numeric() *apd.Decimal {
	if v, ok := d.x.(*apd.Decimal); ok {
		return v
	}
	return &apd.Decimal{}
}

// Interval returns d's months, days and microseconds (d must be a non-NULL
// Interval).
func (d Datum) Interval() (months, days int32, micros int64) {
	b := math.Float64bits(d.F)
	return int32(uint32(b >> 32)), int32(uint32(b)), d.I
}

// UUID returns d's 16 bytes (d must be a non-NULL UUID).
func (d Datum) UUID() (u [16]byte) {
	copy(u[:], d.S)
	return u
}

// ArrayValue returns d's array (d must be a non-NULL Array). The result is
// shared: callers must not modify it.
func (d Datum) ArrayValue() *ArrayVal {
	if v, ok := d.x.(*ArrayVal); ok {
		return v
	}
	return &ArrayVal{}
}

// IsInt reports whether k is an integer kind.
func (k Kind) IsInt() bool { return k == Int2 || k == Int4 || k == Int8 }

// IsFloat reports whether k is float4 or float8.
func (k Kind) IsFloat() bool { return k == Float4 || k == Float8 }

// IsNumeric reports whether k is an integer, float or numeric kind.
func (k Kind) IsNumeric() bool { return k.IsInt() || k.IsFloat() || k == Numeric }

// IsString reports whether k is a character-string kind: text, varchar,
// char(n) or an unknown literal.
func (k Kind) IsString() bool { return k == Text || k == BPChar || k == Unknown }

// IsDateTime reports whether k is date, time, timestamp or timestamptz.
func (k Kind) IsDateTime() bool {
	return k == Date || k == Time || k == Timestamp || k == TimestampTZ
}

// WithKind returns d relabelled as kind k, for decoders that build a
// string-backed value (uuid, json, jsonb, bpchar) from raw bytes.
func (d Datum) WithKind(k Kind) Datum {
	d.K = k
	return d
}
