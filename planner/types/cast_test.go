package types

import (
	"math"
	"testing"

	"github.com/widesql/widesql/pgwire/pgerror"
)

func TestCast(t *testing.T) {
	vc3 := T{Kind: Text, VarChar: true, Width: 3}
	for _, c := range []struct {
		d    Datum
		to   T
		want Datum
		code string
	}{
		{Null, TInt4, Null, ""},
		{NewInt(Int8, 32767), TInt2, NewInt(Int2, 32767), ""},
		{NewInt(Int8, 32768), TInt2, Null, "22003"},
		{NewInt(Int4, -5), TInt8, NewInt(Int8, -5), ""},
		{NewInt(Int8, math.MaxInt64), TInt4, Null, "22003"},
		{NewInt(Int4, 3), TFloat8, NewFloat(3), ""},
		{NewFloat(2.5), TInt4, NewInt(Int4, 2), ""},
		{NewFloat(3.5), TInt4, NewInt(Int4, 4), ""},
		{NewFloat(-2.5), TInt8, NewInt(Int8, -2), ""},
		{NewFloat(-2.6), TInt2, NewInt(Int2, -3), ""},
		{NewFloat(math.NaN()), TInt8, Null, "22003"},
		{NewFloat(math.Inf(1)), TInt4, Null, "22003"},
		{NewFloat(9223372036854775807), TInt8, Null, "22003"},
		{NewFloat(-9223372036854775808), TInt8, NewInt(Int8, math.MinInt64), ""},
		{NewFloat(2147483647.4), TInt4, NewInt(Int4, math.MaxInt32), ""},
		{NewFloat(2147483647.5), TInt4, Null, "22003"},
		{NewInt(Int4, 0), TBool, NewBool(false), ""},
		{NewInt(Int4, -7), TBool, NewBool(true), ""},
		{NewBool(true), TInt4, NewInt(Int4, 1), ""},
		{NewInt(Int8, 1), TBool, Null, "42846"},
		{NewBool(true), TInt2, Null, "42846"},
		{NewBool(true), TFloat8, Null, "42846"},
		{NewBool(true), TText, NewText("true"), ""},
		{NewBool(false), TVarChar, NewText("false"), ""},
		{NewFloat(1e20), TText, NewText("1e+20"), ""},
		{NewInt(Int2, -1), TText, NewText("-1"), ""},
		{NewText(" 12 "), TInt2, NewInt(Int2, 12), ""},
		{NewText("x"), TInt2, Null, "22P02"},
		{NewText("yes"), TBool, NewBool(true), ""},
		{NewText("abcdef"), vc3, NewText("abc"), ""},
		{NewText("héllo"), vc3, NewText("hél"), ""},
		{NewInt(Int4, 12345), vc3, NewText("123"), ""},
		{NewText("abc"), TBytea, NewBytea([]byte("abc")), ""},
		{NewText(`\x00ff`), TBytea, NewBytea([]byte{0, 0xff}), ""},
		{NewBytea([]byte{0xab}), TText, NewText(`\xab`), ""},
		{NewTimestamp(0), TText, NewText("1970-01-01 00:00:00"), ""},
		{NewText("2026-11-21 11:34:55"), TTimestamp, NewTimestamp(1795260895000000), ""},
		{Datum{K: Unknown, NotNull: true, S: "42"}, TInt8, NewInt(Int8, 42), ""},
		{NewTimestamp(0), TTimestamp, NewTimestamp(0), ""},
		{NewTimestamp(0), TInt8, Null, "42846"},
		{NewInt(Int8, 0), TTimestamp, Null, "42846"},
		{NewFloat(1), TBool, Null, "42846"},
		{NewBytea(nil), TInt4, Null, "42846"},
		{NewInt(Int4, 1), TBytea, Null, "42846"},
		{NewInt(Int4, 1), TUnknown, Null, "42846"},
	} {
		got, err := Cast(c.d, c.to)
		if c.code != "" {
			if pgerror.CodeOf(err) != c.code {
				t.Errorf("Cast(%v, %s) = %v, %v; want %s", c.d, c.to, got, err, c.code)
			}
			continue
		}
		if err != nil || got.IsNull() != c.want.IsNull() || (!got.IsNull() && (got.K != c.to.Kind || Compare(got, c.want) != 0)) {
			t.Errorf("Cast(%v, %s) = %v (kind %d), %v; want %v", c.d, c.to, got, got.K, err, c.want)
		}
	}
	if _, err := AssignCast(NewText("abcd"), vc3); pgerror.CodeOf(err) != "22001" {
		t.Errorf("AssignCast to varchar(3): %v", err)
	}
	if d, err := AssignCast(NewInt(Int4, 123), vc3); err != nil || d.S != "123" {
		t.Errorf("AssignCast 123 to varchar(3): %v, %v", d, err)
	}
	if d, err := AssignCast(NewText("ab   "), vc3); err != nil || d.S != "ab " {
		t.Errorf("AssignCast 'ab   ' to varchar(3): %q, %v", d.S, err)
	}
	if err := CannotCast(TInt8, TBool); err.Error() != "cannot cast type bigint to boolean" {
		t.Errorf("message %q", err.Error())
	}
}

func TestCompare(t *testing.T) {
	nan := NewFloat(math.NaN())
	ordered := [][]Datum{
		{NewFloat(math.Inf(-1)), NewFloat(-9.3e18), NewInt(Int8, math.MinInt64), NewInt(Int2, -1), NewFloat(-0.5), NewFloat(0),
			NewInt(Int4, 1), NewFloat(1.5), NewInt(Int8, math.MaxInt64), NewFloat(9.3e18), NewFloat(math.Inf(1)), nan, Null},
		{NewText(""), NewText("a"), NewText("a\x00"), NewText("ab"), NewText("b"), NewText("\xff")},
		{NewBytea(nil), NewBytea([]byte{0}), NewBytea([]byte{0xff})},
		{NewBool(false), NewBool(true)},
		{NewTimestamp(MinTimestamp), NewTimestamp(-1), NewTimestamp(0), NewTimestamp(EndTimestamp - 1)},
	}
	for _, seq := range ordered {
		for i, a := range seq {
			for j, b := range seq {
				want := cmpInt(int64(i), int64(j))
				if got := Compare(a, b); got != want {
					t.Errorf("Compare(%v, %v) = %d, want %d", a, b, got, want)
				}
			}
		}
	}
	for _, eq := range [][2]Datum{
		{NewFloat(math.Copysign(0, -1)), NewFloat(0)},
		{nan, NewFloat(-math.NaN())},
		{NewInt(Int2, 3), NewFloat(3)},
		{NewInt(Int2, 3), NewInt(Int8, 3)},
		{NewText("x"), {K: Unknown, NotNull: true, S: "x"}},
		{Null, Null},
	} {
		if Compare(eq[0], eq[1]) != 0 || Compare(eq[1], eq[0]) != 0 {
			t.Errorf("%v != %v", eq[0], eq[1])
		}
	}
	// 2^53+1 is not a float64; exact comparison still orders it.
	if Compare(NewInt(Int8, 1<<53+1), NewFloat(1<<53)) != 1 {
		t.Error("int/float comparison rounds")
	}
}
