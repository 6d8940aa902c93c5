package types

import (
	"bytes"
	"math"
	"testing"

	"github.com/widesql/widesql/pgwire/pgerror"
)

func TestBinaryRoundTrip(t *testing.T) {
	for _, c := range []struct {
		d    Datum
		t    T
		wire []byte
	}{
		{NewBool(true), TBool, []byte{1}},
		{NewBool(false), TBool, []byte{0}},
		{NewInt(Int2, -2), TInt2, []byte{0xff, 0xfe}},
		{NewInt(Int4, 258), TInt4, []byte{0, 0, 1, 2}},
		{NewInt(Int8, math.MinInt64), TInt8, []byte{0x80, 0, 0, 0, 0, 0, 0, 0}},
		{NewFloat(1), TFloat8, []byte{0x3f, 0xf0, 0, 0, 0, 0, 0, 0}},
		{NewFloat(math.Inf(-1)), TFloat8, []byte{0xff, 0xf0, 0, 0, 0, 0, 0, 0}},
		{NewText("héllo"), TText, []byte("héllo")},
		{NewText("ab"), T{Kind: Text, VarChar: true, Width: 2}, []byte("ab")},
		{NewBytea([]byte{0, 0xff}), TBytea, []byte{0, 0xff}},
		{NewTimestamp(PGEpochMicros), TTimestamp, make([]byte, 8)},
		{NewTimestamp(PGEpochMicros + 1), TTimestamp, []byte{0, 0, 0, 0, 0, 0, 0, 1}},
		{NewTimestamp(MinTimestamp), TTimestamp, AppendBinary(nil, NewInt(Int8, MinTimestamp-PGEpochMicros), TInt8)},
	} {
		wire := AppendBinary(nil, c.d, c.t)
		if !bytes.Equal(wire, c.wire) {
			t.Errorf("AppendBinary(%v, %s) = % x, want % x", c.d, c.t, wire, c.wire)
		}
		back, err := DecodeBinary(c.t, wire)
		if err != nil || back.K != c.t.Kind || Compare(back, c.d) != 0 {
			t.Errorf("DecodeBinary(%s, % x) = %v, %v; want %v", c.t, wire, back, err, c.d)
		}
	}
}

func TestDecodeBinaryFloat4(t *testing.T) {
	typ, ok := TypeFromOID(OIDFloat4)
	if !ok {
		t.Fatal("float4 OID not supported")
	}
	d, err := DecodeBinary(typ, []byte{0x3f, 0xc0, 0, 0})
	if err != nil || d.F != 1.5 {
		t.Fatalf("float4 1.5 decoded as %v, %v", d, err)
	}
}

func TestDecodeBinaryErrors(t *testing.T) {
	for _, c := range []struct {
		t    T
		b    []byte
		code string
	}{
		{TBool, nil, "22P03"},
		{TInt2, []byte{1, 2, 3, 4}, "22P03"},
		{TInt4, []byte{1, 2}, "22P03"},
		{TInt8, []byte{1, 2, 3, 4}, "22P03"},
		{TFloat8, []byte{1, 2}, "22P03"},
		{TTimestamp, []byte{1}, "22P03"},
		{TDate, []byte{1, 2}, "22P03"},
		{TInterval, []byte{1, 2}, "22P03"},
		{TUUID, []byte{1, 2}, "22P03"},
		{TNumeric, []byte{0, 1, 0, 0, 0, 0, 0, 0}, "22P03"},
		{TNumeric, []byte{0, 0, 0, 0, 0x12, 0x34, 0, 0}, "22P03"},
		{TJSONB, []byte("{}"), "22P03"},
		{TJSON, []byte("{"), "22P02"},
		{ArrayOf(TInt4), []byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 25}, "42804"},
		{TTimestamp, []byte{0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe}, "22008"},
		{TText, []byte{0xff}, "22021"},
		{TText, []byte("a\x00b"), "22021"}, // no text value holds a NUL
		{TName, []byte("a\x00"), "22021"},
		{T{Kind: Text, VarChar: true, Width: 1}, []byte("ab"), "22001"},
	} {
		d, err := DecodeBinary(c.t, c.b)
		if got := pgerror.CodeOf(err); got != c.code {
			t.Errorf("DecodeBinary(%s, % x) = %v, %v; want %s", c.t, c.b, d, err, c.code)
		}
	}
}

func TestTypeMetadata(t *testing.T) {
	for _, c := range []struct {
		name string
		oid  uint32
		str  string
		size int16
		mod  int32
	}{
		{"int2", OIDInt2, "smallint", 2, -1},
		{"INT", OIDInt4, "integer", 4, -1},
		{"int8", OIDInt8, "bigint", 8, -1},
		{"double  precision", OIDFloat8, "double precision", 8, -1},
		{"real", OIDFloat4, "real", 4, -1},
		{"numeric(10,2)", OIDNumeric, "numeric(10,2)", -1, 655366},
		{"decimal", OIDNumeric, "numeric", -1, -1},
		{"char(3)", OIDBPChar, "character(3)", -1, 7},
		{"character", OIDBPChar, "character(1)", -1, 5},
		{"date", OIDDate, "date", 4, -1},
		{"time", OIDTime, "time without time zone", 8, -1},
		{"timestamptz", OIDTimestampTZ, "timestamp with time zone", 8, -1},
		{"timestamp with time zone", OIDTimestampTZ, "timestamp with time zone", 8, -1},
		{"interval", OIDInterval, "interval", 16, -1},
		{"uuid", OIDUUID, "uuid", 16, -1},
		{"json", OIDJSON, "json", -1, -1},
		{"jsonb", OIDJSONB, "jsonb", -1, -1},
		{"integer[]", 1007, "integer[]", -1, -1},
		{"_int8", 1016, "bigint[]", -1, -1},
		{"varchar(5)[]", 1015, "character varying(5)[]", -1, 9},
		{"numeric(4,1)[]", 1231, "numeric(4,1)[]", -1, 262149},
		{"uuid[]", 2951, "uuid[]", -1, -1},
		{"timestamp[]", 1115, "timestamp without time zone[]", -1, -1},
		{"bool", OIDBool, "boolean", 1, -1},
		{"text", OIDText, "text", -1, -1},
		{"varchar(10)", OIDVarChar, "character varying(10)", -1, 14},
		{"character varying ( 10 )", OIDVarChar, "character varying(10)", -1, 14},
		{"varchar", OIDVarChar, "character varying", -1, -1},
		{"bytea", OIDBytea, "bytea", -1, -1},
		{"timestamp", OIDTimestamp, "timestamp without time zone", 8, -1},
	} {
		typ, err := TypeByName(c.name)
		if err != nil {
			t.Errorf("TypeByName(%q): %v", c.name, err)
			continue
		}
		if typ.OID() != c.oid || typ.String() != c.str || typ.TypeSize() != c.size || typ.TypeModifier() != c.mod {
			t.Errorf("%q: oid %d %q size %d mod %d", c.name, typ.OID(), typ, typ.TypeSize(), typ.TypeModifier())
		}
		if back, ok := TypeFromOID(typ.OID()); !ok || back.Kind != typ.Kind || back.Elem != typ.Elem {
			t.Errorf("TypeFromOID(%d) = %v, %v", typ.OID(), back, ok)
		}
	}
	for name, code := range map[string]string{"money": "42704", "varchar(0)": "22023", "varchar(x)": "42601",
		"varchar(10485761)": "22023", "numeric(0)": "22023", "numeric(1001)": "22023", "char(0)": "22023",
		"money[]": "42704", "int(3)": "42601"} {
		if _, err := TypeByName(name); pgerror.CodeOf(err) != code {
			t.Errorf("TypeByName(%q) = %v, want %s", name, err, code)
		}
	}
	if _, ok := TypeFromOID(790); ok {
		t.Error("money OID accepted")
	}
	if TUnknown.OID() != OIDUnknown || TUnknown.String() != "unknown" {
		t.Error("unknown metadata")
	}
}
