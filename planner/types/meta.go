package types

import (
	"strconv"
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// MaxVarCharWidth is PostgreSQL's largest n in varchar(n) and char(n).
const MaxVarCharWidth = 10485760

// MaxNumericPrecision is PostgreSQL's largest p in numeric(p,s).
const MaxNumericPrecision = 1000

// PostgreSQL type OIDs.
const (
	OIDBool        uint32 = 16
	OIDBytea       uint32 = 17
	OIDInt8        uint32 = 20
	OIDInt2        uint32 = 21
	OIDInt4        uint32 = 23
	OIDText        uint32 = 25
	OIDJSON        uint32 = 114
	OIDFloat4      uint32 = 700
	OIDFloat8      uint32 = 701
	OIDUnknown     uint32 = 705
	OIDBPChar      uint32 = 1042
	OIDVarChar     uint32 = 1043
	OIDDate        uint32 = 1082
	OIDTime        uint32 = 1083
	OIDTimestamp   uint32 = 1114
	OIDTimestampTZ uint32 = 1184
	OIDInterval    uint32 = 1186
	OIDNumeric     uint32 = 1700
	OIDUUID        uint32 = 2950
	OIDJSONB       uint32 = 3802
)

// scalarOIDs and arrayOIDs give the OID of each kind and of its array type
// (pg_type.typarray). varchar is special-cased (1043 / 1015).
var scalarOIDs = [...]uint32{
	Unknown: OIDUnknown, Bool: OIDBool, Int2: OIDInt2, Int4: OIDInt4, Int8: OIDInt8,
	Float8: OIDFloat8, Text: OIDText, Bytea: OIDBytea, Timestamp: OIDTimestamp,
	Float4: OIDFloat4, Numeric: OIDNumeric, Date: OIDDate, Time: OIDTime,
	TimestampTZ: OIDTimestampTZ, Interval: OIDInterval, UUID: OIDUUID, JSON: OIDJSON,
	JSONB: OIDJSONB, BPChar: OIDBPChar, Array: 0,
	Oid: OIDOid, Name: OIDName, Char: OIDChar, RegClass: OIDRegClass, RegType: OIDRegType,
	RegProc: OIDRegProc, RegNamespace: OIDRegNamespace, RegRole: OIDRegRole,
	Int2Vector: OIDInt2Vector, OidVector: OIDOidVector,
}

var arrayOIDs = [...]uint32{
	Unknown: 0, Bool: 1000, Int2: 1005, Int4: 1007, Int8: 1016,
	Float8: 1022, Text: 1009, Bytea: 1001, Timestamp: 1115,
	Float4: 1021, Numeric: 1231, Date: 1182, Time: 1183,
	TimestampTZ: 1185, Interval: 1187, UUID: 2951, JSON: 199,
	JSONB: 3807, BPChar: 1014, Array: 0,
	Oid: 1028, Name: 1003, Char: 1002, RegClass: 2210, RegType: 2211,
	RegProc: 1008, RegNamespace: 4090, RegRole: 4097, Int2Vector: 1006, OidVector: 1013,
}

const oidVarCharArray uint32 = 1015

// OID returns t's PostgreSQL type OID. varchar(n) and varchar are 1043, text
// is 25; arrays have their element type's array OID (int4[] is 1007).
func (t T) OID() uint32 {
	if t.Kind == Array {
		if t.Elem == Text && t.VarChar {
			return oidVarCharArray
		}
		if int(t.Elem) < len(arrayOIDs) && arrayOIDs[t.Elem] != 0 {
			return arrayOIDs[t.Elem]
		}
		return OIDUnknown
	}
	if t.Kind == Text && t.VarChar {
		return OIDVarChar
	}
	if int(t.Kind) < len(scalarOIDs) {
		return scalarOIDs[t.Kind]
	}
	return OIDUnknown
}

// TypeFromOID returns the type for a PostgreSQL type OID, as a client names
// it in Parse or RowDescription, including the array types of every
// supported element type. ok is false for an OID widesql does not support.
func TypeFromOID(oid uint32) (T, bool) {
	if oid == OIDVarChar {
		return TVarChar, true
	}
	if oid == oidVarCharArray {
		return ArrayOf(TVarChar), true
	}
	for k, o := range scalarOIDs {
		if o == oid && o != 0 {
			return T{Kind: Kind(k)}, true
		}
	}
	for k, o := range arrayOIDs {
		if o == oid && o != 0 {
			return ArrayOf(T{Kind: Kind(k)}), true
		}
	}
	return T{}, false
}

// String returns t's name as PostgreSQL's format_type prints it, for
// example "integer", "character varying(10)", "numeric(10,2)" or
// "integer[]".
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
	case Float4:
		return "real"
	case Float8:
		return "double precision"
	case Numeric:
		if t.Width > 0 {
			return "numeric(" + strconv.Itoa(int(t.Width)) + "," + strconv.Itoa(int(t.Scale)) + ")"
		}
		return "numeric"
	case Text:
		if !t.VarChar {
			return "text"
		}
		if t.Width > 0 {
			return "character varying(" + strconv.Itoa(int(t.Width)) + ")"
		}
		return "character varying"
	case BPChar:
		if t.Width > 0 {
			return "character(" + strconv.Itoa(int(t.Width)) + ")"
		}
		return "bpchar"
	case Bytea:
		return "bytea"
	case Timestamp:
		return "timestamp without time zone"
	case TimestampTZ:
		return "timestamp with time zone"
	case Date:
		return "date"
	case Time:
		return "time without time zone"
	case Interval:
		return "interval"
	case UUID:
		return "uuid"
	case JSON:
		return "json"
	case JSONB:
		return "jsonb"
	case Array:
		return t.ElemType().String() + "[]"
	case Oid:
		return "oid"
	case Name:
		return "name"
	case Char:
		return `"char"`
	case RegClass:
		return "regclass"
	case RegType:
		return "regtype"
	case RegProc:
		return "regproc"
	case RegNamespace:
		return "regnamespace"
	case RegRole:
		return "regrole"
	case Int2Vector:
		return "int2vector"
	case OidVector:
		return "oidvector"
	}
	return "unknown"
}

// TypeSize returns PostgreSQL's typlen for t: the fixed width in bytes, -1
// for variable-length types and -2 for unknown (a C string).
func (t T) TypeSize() int16 {
	switch t.Kind {
	case Bool, Char:
		return 1
	case Int2:
		return 2
	case Int4, Float4, Date, Oid, RegClass, RegType, RegProc, RegNamespace, RegRole:
		return 4
	case Name:
		return MaxNameLen + 1
	case Int8, Float8, Timestamp, TimestampTZ, Time:
		return 8
	case Interval, UUID:
		return 16
	case Unknown:
		return -2
	}
	return -1
}

// TypeModifier returns PostgreSQL's atttypmod for t: n+4 for varchar(n)
// and char(n), ((p<<16)|s)+4 for numeric(p,s), the element's for an array,
// -1 otherwise.
func (t T) TypeModifier() int32 {
	k := t.Kind
	if k == Array {
		k = t.Elem
	}
	switch {
	case (k == Text && t.VarChar || k == BPChar) && t.Width > 0:
		return t.Width + 4
	case k == Numeric && t.Width > 0:
		return (t.Width<<16 | t.Scale&0xffff) + 4
	}
	return -1
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
	"real":                        TFloat4,
	"float4":                      TFloat4,
	"numeric":                     TNumeric,
	"decimal":                     TNumeric,
	"boolean":                     TBool,
	"bool":                        TBool,
	"text":                        TText,
	"varchar":                     TVarChar,
	"character varying":           TVarChar,
	"char":                        {Kind: BPChar, Width: 1},
	"character":                   {Kind: BPChar, Width: 1},
	"bpchar":                      TBPChar,
	"bytea":                       TBytea,
	"timestamp":                   TTimestamp,
	"timestamp without time zone": TTimestamp,
	"timestamptz":                 TTimestampTZ,
	"timestamp with time zone":    TTimestampTZ,
	"date":                        TDate,
	"time":                        TTime,
	"time without time zone":      TTime,
	"interval":                    TInterval,
	"uuid":                        TUUID,
	"json":                        TJSON,
	"jsonb":                       TJSONB,
	"unknown":                     TUnknown,
	"oid":                         TOid,
	"name":                        TName,
	`"char"`:                      TChar, // quoted: char alone is character(1)
	"regclass":                    TRegClass,
	"regtype":                     TRegType,
	"regproc":                     TRegProc,
	"regnamespace":                TRegNamespace,
	"regrole":                     TRegRole,
	"int2vector":                  TInt2Vector,
	"oidvector":                   TOidVector,
}

// TypeByName resolves a SQL type name as written in DDL or a cast:
// case-insensitive, with PostgreSQL's aliases ("int", "int4", "float8",
// "bool", "decimal", "timestamptz", ...), modifiers and array suffixes:
// varchar(n) and char(n) take 1 <= n <= MaxVarCharWidth, numeric(p[,s])
// takes 1 <= p <= 1000 and -1000 <= s <= 1000 (22023 otherwise);
// "integer[]" and "_int4" are arrays. The fractional-second precision of
// time(p), timestamp(p) and interval(p) is accepted and ignored. An
// unknown name is 42704.
func TypeByName(name string) (T, error) {
	n := strings.ToLower(strings.Join(strings.Fields(name), " "))
	if strings.HasSuffix(n, "[]") || strings.HasPrefix(n, "_") {
		base := strings.TrimPrefix(n, "_")
		for strings.HasSuffix(base, "[]") {
			base = strings.TrimSpace(strings.TrimSuffix(base, "[]"))
		}
		elem, err := TypeByName(base)
		if err != nil || elem.Kind == Unknown {
			return T{}, pgerror.New(pgerror.CodeUndefinedObject, "type %q does not exist", strings.TrimSpace(name))
		}
		return ArrayOf(elem), nil
	}
	if t, ok := typeNames[n]; ok {
		return t, nil
	}
	base, arg, ok := splitTypeMod(n)
	if !ok {
		return T{}, pgerror.New(pgerror.CodeUndefinedObject, "type %q does not exist", strings.TrimSpace(name))
	}
	if base == "time" || base == "timestamp" || base == "timestamptz" || base == "interval" {
		// "time(3) with time zone" style suffixes were folded by sqlparse.
		if p, err := strconv.Atoi(arg); err != nil || p < 0 {
			return T{}, pgerror.New(pgerror.CodeSyntaxError, "invalid type modifier in %q", name)
		}
		return typeNames[base], nil
	}
	t, known := typeNames[base]
	if !known {
		return T{}, pgerror.New(pgerror.CodeUndefinedObject, "type %q does not exist", strings.TrimSpace(name))
	}
	switch {
	case t.Kind == Text && t.VarChar || t.Kind == BPChar:
		w, err := strconv.Atoi(arg)
		if err != nil {
			return T{}, pgerror.New(pgerror.CodeSyntaxError, "invalid type modifier in %q", name)
		}
		kind := "varchar"
		if t.Kind == BPChar {
			kind = "char"
		}
		if w < 1 {
			return T{}, pgerror.New(pgerror.CodeInvalidParameterValue, "length for type %s must be at least 1", kind)
		}
		if w > MaxVarCharWidth {
			return T{}, pgerror.New(pgerror.CodeInvalidParameterValue, "length for type %s cannot exceed %d", kind, MaxVarCharWidth)
		}
		t.Width = int32(w)
		return t, nil
	case t.Kind == Numeric:
		ps := strings.Split(arg, ",")
		p, err1 := strconv.Atoi(strings.TrimSpace(ps[0]))
		s, err2 := 0, error(nil)
		if len(ps) == 2 {
			s, err2 = strconv.Atoi(strings.TrimSpace(ps[1]))
		}
		if err1 != nil || err2 != nil || len(ps) > 2 {
			return T{}, pgerror.New(pgerror.CodeSyntaxError, "invalid NUMERIC type modifier")
		}
		if p < 1 || p > MaxNumericPrecision {
			return T{}, pgerror.New(pgerror.CodeInvalidParameterValue, "NUMERIC precision %d must be between 1 and %d", p, MaxNumericPrecision)
		}
		if s < -1000 || s > 1000 {
			return T{}, pgerror.New(pgerror.CodeInvalidParameterValue, "NUMERIC scale %d must be between -1000 and 1000", s)
		}
		t.Width, t.Scale = int32(p), int32(s)
		return t, nil
	}
	return T{}, pgerror.New(pgerror.CodeSyntaxError, "type modifier is not allowed for type %q", base)
}

// splitTypeMod splits "base(arg)" into base and arg.
func splitTypeMod(n string) (base, arg string, ok bool) {
	i := strings.IndexByte(n, '(')
	if i < 0 || !strings.HasSuffix(n, ")") {
		return "", "", false
	}
	return strings.TrimSpace(n[:i]), strings.TrimSpace(n[i+1 : len(n)-1]), true
}
