// Package types defines widesql's SQL types and values: the type set with its
// PostgreSQL OIDs, the Datum value representation, comparison, casts, and the
// PostgreSQL text and binary wire formats.
//
// A Datum is a small value type; ints, floats, bools and timestamps do not
// allocate. Strings and bytea share the S field.
package types

// Kind is the family of a type.
type Kind uint8

// Kinds. Unknown is the type of an untyped literal or parameter not yet
// inferred (PostgreSQL's "unknown", OID 705).
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
)

// T is a SQL type: a Kind plus modifiers.
type T struct {
	Kind Kind
	// Width is n for varchar(n); 0 means unbounded. VarChar distinguishes
	// varchar from text.
	Width   int32
	VarChar bool
}

// Common types.
var (
	TUnknown   = T{Kind: Unknown}
	TBool      = T{Kind: Bool}
	TInt2      = T{Kind: Int2}
	TInt4      = T{Kind: Int4}
	TInt8      = T{Kind: Int8}
	TFloat8    = T{Kind: Float8}
	TText      = T{Kind: Text}
	TVarChar   = T{Kind: Text, VarChar: true}
	TBytea     = T{Kind: Bytea}
	TTimestamp = T{Kind: Timestamp}
)

// PostgreSQL type OIDs.
const (
	OIDBool      uint32 = 16
	OIDBytea     uint32 = 17
	OIDInt8      uint32 = 20
	OIDInt2      uint32 = 21
	OIDInt4      uint32 = 23
	OIDText      uint32 = 25
	OIDFloat4    uint32 = 700
	OIDFloat8    uint32 = 701
	OIDUnknown   uint32 = 705
	OIDVarChar   uint32 = 1043
	OIDTimestamp uint32 = 1114
)

// Datum is one SQL value. The zero Datum is NULL.
//
//	Bool:            I is 0 or 1
//	Int2/Int4/Int8:  I
//	Float8:          F
//	Text/Bytea:      S (bytea holds raw bytes)
//	Timestamp:       I, microseconds since 1970-01-01 00:00:00
type Datum struct {
	K Kind // the value's kind; meaningful only when !Null
	// Null is false for every non-NULL value. The zero Datum has NotNull
	// false, so it is NULL.
	NotNull bool
	I       int64
	F       float64
	S       string
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

// NewText returns a text datum.
func NewText(s string) Datum { return Datum{K: Text, NotNull: true, S: s} }

// NewBytea returns a bytea datum; b is copied.
func NewBytea(b []byte) Datum { return Datum{K: Bytea, NotNull: true, S: string(b)} }

// NewTimestamp returns a timestamp datum from microseconds since the Unix epoch.
func NewTimestamp(micros int64) Datum { return Datum{K: Timestamp, NotNull: true, I: micros} }

// Bool returns d's boolean value (d must be a non-NULL Bool).
func (d Datum) Bool() bool { return d.I != 0 }

// IsInt reports whether k is an integer kind.
func (k Kind) IsInt() bool { return k == Int2 || k == Int4 || k == Int8 }

// IsNumeric reports whether k is an integer or float kind.
func (k Kind) IsNumeric() bool { return k.IsInt() || k == Float8 }
