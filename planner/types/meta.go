package types

import (
	"strconv"
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// MaxVarCharWidth is PostgreSQL's largest n in varchar(n).
const MaxVarCharWidth = 10485760

// OID returns t's PostgreSQL type OID. varchar(n) and varchar are 1043, text
// is 25.
func (t T) OID() uint32 {
	switch t.Kind {
	case Bool:
		return OIDBool
	case Int2:
		return OIDInt2
	case Int4:
		return OIDInt4
	case Int8:
		return OIDInt8
	case Float8:
		return OIDFloat8
	case Text:
		if t.VarChar {
			return OIDVarChar
		}
		return OIDText
	case Bytea:
		return OIDBytea
	case Timestamp:
		return OIDTimestamp
	}
	return OIDUnknown
}

// String returns t's name as PostgreSQL's format_type prints it, for
// example "integer" or "character varying(10)".
func (t T) String() string {
	switch t.Kind {
	case Bool:
		return "boolean"
	case Int2:
		return "smallint"
	case Int4:
		return "integer"
	case Int8:
		return "bigint"
	case Float8:
		return "double precision"
	case Text:
		if !t.VarChar {
			return "text"
		}
		if t.Width > 0 {
			return "character varying(" + strconv.Itoa(int(t.Width)) + ")"
		}
		return "character varying"
	case Bytea:
		return "bytea"
	case Timestamp:
		return "timestamp without time zone"
	}
	return "unknown"
}

// TypeSize returns PostgreSQL's typlen for t: the fixed width in bytes, -1
// for variable-length types and -2 for unknown (a C string).
func (t T) TypeSize() int16 {
	switch t.Kind {
	case Bool:
		return 1
	case Int2:
		return 2
	case Int4:
		return 4
	case Int8, Float8, Timestamp:
		return 8
	case Text, Bytea:
		return -1
	}
	return -2
}

// TypeModifier returns PostgreSQL's atttypmod for t: n+4 for varchar(n),
// -1 otherwise.
func (t T) TypeModifier() int32 {
	if t.Kind == Text && t.VarChar && t.Width > 0 {
		return t.Width + 4
	}
	return -1
}

// TypeFromOID returns the type for a PostgreSQL type OID, as a client names
// it in Parse or RowDescription. float4 (700) maps to float8: widesql has one
// float type, and DecodeBinary accepts the 4-byte wire form. ok is false for
// an OID widesql does not support.
func TypeFromOID(oid uint32) (T, bool) {
	switch oid {
	case OIDBool:
		return TBool, true
	case OIDBytea:
		return TBytea, true
	case OIDInt8:
		return TInt8, true
	case OIDInt2:
		return TInt2, true
	case OIDInt4:
		return TInt4, true
	case OIDText:
		return TText, true
	case OIDFloat4, OIDFloat8:
		return TFloat8, true
	case OIDUnknown:
		return TUnknown, true
	case OIDVarChar:
		return TVarChar, true
	case OIDTimestamp:
		return TTimestamp, true
	}
	return T{}, false
}

var typeNames = map[string]T{
	"integer":                     TInt4,
	"int":                         TInt4,
	"int4":                        TInt4,
	"smallint":                    TInt2,
	"int2":                        TInt2,
	"bigint":                      TInt8,
	"int8":                        TInt8,
	"double precision":            TFloat8,
	"float":                       TFloat8,
	"float8":                      TFloat8,
	"real":                        TFloat8,
	"float4":                      TFloat8,
	"boolean":                     TBool,
	"bool":                        TBool,
	"text":                        TText,
	"varchar":                     TVarChar,
	"character varying":           TVarChar,
	"bytea":                       TBytea,
	"timestamp":                   TTimestamp,
	"timestamp without time zone": TTimestamp,
	"unknown":                     TUnknown,
}

// TypeByName resolves a SQL type name as written in DDL or a cast:
// case-insensitive, with PostgreSQL's aliases ("int", "int4", "float8",
// "bool", ...). real/float4 resolve to double precision. varchar(n) and
// character varying(n) take 1 <= n <= MaxVarCharWidth (22023 otherwise). An
// unknown name is 42704.
func TypeByName(name string) (T, error) {
	n := strings.ToLower(strings.Join(strings.Fields(name), " "))
	if t, ok := typeNames[n]; ok {
		return t, nil
	}
	if base, arg, ok := splitTypeMod(n); ok && (base == "varchar" || base == "character varying") {
		w, err := strconv.Atoi(arg)
		if err != nil {
			return T{}, pgerror.New(pgerror.CodeSyntaxError, "invalid type modifier in %q", name)
		}
		if w < 1 {
			return T{}, pgerror.New(pgerror.CodeInvalidParameterValue, "length for type varchar must be at least 1")
		}
		if w > MaxVarCharWidth {
			return T{}, pgerror.New(pgerror.CodeInvalidParameterValue, "length for type varchar cannot exceed %d", MaxVarCharWidth)
		}
		return T{Kind: Text, VarChar: true, Width: int32(w)}, nil
	}
	return T{}, pgerror.New(pgerror.CodeUndefinedObject, "type %q does not exist", strings.TrimSpace(name))
}

// splitTypeMod splits "base(arg)" into base and arg.
func splitTypeMod(n string) (base, arg string, ok bool) {
	i := strings.IndexByte(n, '(')
	if i < 0 || !strings.HasSuffix(n, ")") {
		return "", "", false
	}
	return strings.TrimSpace(n[:i]), strings.TrimSpace(n[i+1 : len(n)-1]), true
}
