package types

import (
	"testing"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// textCase is one ParseText input: want is the AppendText output of the
// parsed value, or code the SQLSTATE of the error.
type textCase struct {
	typ  string
	in   string
	want string
	code string
}

var textCases = []textCase{
	{typ: "integer", in: "42", want: "42"},
	{typ: "integer", in: "  -42 \n", want: "-42"},
	{typ: "integer", in: "+7", want: "7"},
	{typ: "integer", in: "1_000", want: "1000"},
	{typ: "integer", in: "2147483647", want: "2147483647"},
	{typ: "integer", in: "-2147483648", want: "-2147483648"},
	{typ: "integer", in: "2147483648", code: "22003"},
	{typ: "integer", in: "99999999999999999999999", code: "22003"},
	{typ: "integer", in: "", code: "22P02"},
	{typ: "integer", in: "-", code: "22P02"},
	{typ: "integer", in: "4 2", code: "22P02"},
	{typ: "integer", in: "1.5", code: "22P02"},
	{typ: "integer", in: "abc", code: "22P02"},
	{typ: "smallint", in: "32767", want: "32767"},
	{typ: "smallint", in: "-32768", want: "-32768"},
	{typ: "smallint", in: "32768", code: "22003"},
	{typ: "bigint", in: "9223372036854775807", want: "9223372036854775807"},
	{typ: "bigint", in: "-9223372036854775808", want: "-9223372036854775808"},
	{typ: "bigint", in: "9223372036854775808", code: "22003"},
	{typ: "bigint", in: "-9223372036854775809", code: "22003"},
	{typ: "double precision", in: "1.5", want: "1.5"},
	{typ: "double precision", in: " 1e3 ", want: "1000"},
	{typ: "double precision", in: "1e20", want: "1e+20"},
	{typ: "double precision", in: "1e15", want: "1e+15"},
	{typ: "double precision", in: "123456789012345", want: "123456789012345"},
	{typ: "double precision", in: "0.0001", want: "0.0001"},
	{typ: "double precision", in: "0.00001", want: "1e-05"},
	{typ: "double precision", in: "0.1", want: "0.1"},
	{typ: "double precision", in: "-0", want: "-0"},
	{typ: "double precision", in: "1.7976931348623157e308", want: "1.7976931348623157e+308"},
	{typ: "double precision", in: "NaN", want: "NaN"},
	{typ: "double precision", in: "nan", want: "NaN"},
	{typ: "double precision", in: "Infinity", want: "Infinity"},
	{typ: "double precision", in: "-Infinity", want: "-Infinity"},
	{typ: "double precision", in: "-inf", want: "-Infinity"},
	{typ: "double precision", in: "1e400", code: "22003"},
	{typ: "double precision", in: "1e-400", code: "22003"},
	{typ: "double precision", in: "0e-400", want: "0"},
	{typ: "double precision", in: "x", code: "22P02"},
	{typ: "double precision", in: "", code: "22P02"},
	{typ: "boolean", in: "t", want: "t"},
	{typ: "boolean", in: " TRUE ", want: "t"},
	{typ: "boolean", in: "yes", want: "t"},
	{typ: "boolean", in: "on", want: "t"},
	{typ: "boolean", in: "1", want: "t"},
	{typ: "boolean", in: "f", want: "f"},
	{typ: "boolean", in: "False", want: "f"},
	{typ: "boolean", in: "no", want: "f"},
	{typ: "boolean", in: "off", want: "f"},
	{typ: "boolean", in: "0", want: "f"},
	{typ: "boolean", in: "o", code: "22P02"},
	{typ: "boolean", in: "maybe", code: "22P02"},
	{typ: "boolean", in: "", code: "22P02"},
	{typ: "text", in: "", want: ""},
	{typ: "text", in: " héllo ", want: " héllo "},
	{typ: "varchar(3)", in: "abc", want: "abc"},
	{typ: "varchar(3)", in: "héé", want: "héé"},
	{typ: "varchar(3)", in: "abc   ", want: "abc"},
	{typ: "varchar(3)", in: "abcd", code: "22001"},
	{typ: "varchar(3)", in: "abc d", code: "22001"},
	{typ: "varchar", in: "abcdef", want: "abcdef"},
	{typ: "bytea", in: `\x0a0B`, want: `\x0a0b`},
	{typ: "bytea", in: `\x`, want: `\x`},
	{typ: "bytea", in: `\x0a 0b`, want: `\x0a0b`},
	{typ: "bytea", in: "abc", want: `\x616263`},
	{typ: "bytea", in: `a\\b\000\377`, want: `\x615c6200ff`},
	{typ: "bytea", in: `\x0`, code: "22023"},
	{typ: "bytea", in: `\xzz`, code: "22023"},
	{typ: "bytea", in: `a\b`, code: "22P02"},
	{typ: "bytea", in: `\400`, code: "22P02"},
	{typ: "timestamp", in: "2026-11-21 11:34:55.436997", want: "2026-11-21 11:34:55.436997"},
	{typ: "timestamp", in: "2026-11-21T11:34:55", want: "2026-11-21 11:34:55"},
	{typ: "timestamp", in: "2026-11-21", want: "2026-11-21 00:00:00"},
	{typ: "timestamp", in: " 2026-11-21 11:34 ", want: "2026-11-21 11:34:00"},
	{typ: "timestamp", in: "2026-11-21 11:34:55.5", want: "2026-11-21 11:34:55.5"},
	{typ: "timestamp", in: "2026-11-21 11:34:55.1234567", want: "2026-11-21 11:34:55.123457"},
	{typ: "timestamp", in: "2026-11-21 11:34:55+00", want: "2026-11-21 11:34:55"},
	{typ: "timestamp", in: "2026-11-21 11:34:55-07:30", want: "2026-11-21 11:34:55"},
	{typ: "timestamp", in: "2026-11-21T11:34:55Z", want: "2026-11-21 11:34:55"},
	{typ: "timestamp", in: "2024-02-29 24:00:00", want: "2024-03-01 00:00:00"},
	{typ: "timestamp", in: "1969-12-31 23:59:59.999999", want: "1969-12-31 23:59:59.999999"},
	{typ: "timestamp", in: "0001-01-01", want: "0001-01-01 00:00:00"},
	{typ: "timestamp", in: "0001-12-31 BC", want: "0001-12-31 00:00:00 BC"},
	{typ: "timestamp", in: "4714-11-24 BC", want: "4714-11-24 00:00:00 BC"},
	{typ: "timestamp", in: "4714-11-23 BC", code: "22008"},
	{typ: "timestamp", in: "294246-12-31 23:59:59.999999", want: "294246-12-31 23:59:59.999999"},
	{typ: "timestamp", in: "294247-01-01", code: "22008"},
	{typ: "timestamp", in: "999999-01-01", code: "22008"},
	{typ: "timestamp", in: "epoch", want: "1970-01-01 00:00:00"},
	{typ: "timestamp", in: "2023-02-29", code: "22008"},
	{typ: "timestamp", in: "2026-13-01", code: "22008"},
	{typ: "timestamp", in: "2026-01-01 25:00", code: "22008"},
	{typ: "timestamp", in: "0000-01-01", code: "22008"},
	{typ: "timestamp", in: "2026/01/01", code: "22007"},
	{typ: "timestamp", in: "2026-01-01 x", code: "22007"},
	{typ: "timestamp", in: "", code: "22007"},
	{typ: "timestamp", in: "infinity", want: "infinity"},
	{typ: "timestamp", in: "now", code: "0A000"},
}

func mustType(t *testing.T, name string) T {
	t.Helper()
	typ, err := TypeByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

func TestParseText(t *testing.T) {
	for _, c := range textCases {
		typ := mustType(t, c.typ)
		d, err := ParseText(typ, c.in)
		if c.code != "" {
			if got := pgerror.CodeOf(err); got != c.code {
				t.Errorf("ParseText(%s, %q) = %v, %v; want error %s", c.typ, c.in, d, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseText(%s, %q): %v", c.typ, c.in, err)
			continue
		}
		if d.K != typ.Kind || d.IsNull() {
			t.Errorf("ParseText(%s, %q) = kind %d, want %d", c.typ, c.in, d.K, typ.Kind)
		}
		out := string(AppendText(nil, d))
		if out != c.want {
			t.Errorf("ParseText(%s, %q) prints %q, want %q", c.typ, c.in, out, c.want)
		}
		// The output is valid input for the same value.
		back, err := ParseText(typ, out)
		if err != nil || Compare(back, d) != 0 {
			t.Errorf("round trip of %q: %v, %v", out, back, err)
		}
	}
}

func TestAppendTextReusesBuffer(t *testing.T) {
	ds := []Datum{NewBool(true), NewInt(Int8, -5), NewFloat(1e20), NewBytea([]byte{1, 2}),
		NewTimestamp(1), NewText("x")}
	buf := make([]byte, 0, 128)
	allocs := testing.AllocsPerRun(100, func() {
		for _, d := range ds {
			buf = AppendText(buf[:0], d)
			buf = AppendBinary(buf[:0], d, T{Kind: d.K})
		}
	})
	if allocs != 0 {
		t.Errorf("AppendText/AppendBinary allocate %v times", allocs)
	}
}

func TestDatumString(t *testing.T) {
	for _, c := range []struct {
		d    Datum
		want string
	}{
		{Null, "NULL"},
		{NewText("it's"), "'it''s'"},
		{NewInt(Int4, -3), "-3"},
		{NewBool(false), "f"},
		{NewFloat(0.5), "0.5"},
		{NewBytea([]byte{0xab}), `'\xab'`},
		{NewTimestamp(0), "'1970-01-01 00:00:00'"},
	} {
		if got := c.d.String(); got != c.want {
			t.Errorf("String() = %s, want %s", got, c.want)
		}
	}
}
