package keyenc

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/widesql/widesql/planner/types"
)

// randNewDatum draws values of the types added with issue 4, biased to
// collisions of equal values with different representations (1.5 and
// 1.50, '1 mon' and '30 days', 'ab' and 'ab  ' in char(4)).
func randNewDatum(r *rand.Rand, t types.T) (types.Datum, bool) {
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	parse := func(s string) types.Datum {
		d, err := types.Cast(types.NewText(s), t)
		if err != nil {
			panic(t.String() + " " + s + ": " + err.Error())
		}
		return d
	}
	switch t.Kind {
	case types.Float4:
		edges := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0,
			float32(math.Copysign(0, -1)), math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, 1, -1}
		if r.IntN(2) == 0 {
			return types.NewFloat4(edges[r.IntN(len(edges))]), true
		}
		return types.NewFloat4(float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(20)-10)))), true
	case types.Numeric:
		if r.IntN(6) == 0 {
			if t.Width > 0 {
				return parse("NaN"), true
			}
			return parse(pick("NaN", "Infinity", "-Infinity", "0", "-0.00")), true
		}
		digits := strconv.FormatInt(r.Int64N(int64(math.Pow10(1+r.IntN(12)))), 10)
		scale := r.IntN(8) - 2
		s := digits
		switch {
		case scale > 0 && scale < len(digits):
			s = digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
		case scale >= len(digits):
			s = "0." + strings.Repeat("0", scale-len(digits)) + digits
		case scale < 0:
			s = digits + "e" + strconv.Itoa(-scale)
		}
		if r.IntN(3) == 0 {
			s += strings.Repeat("0", r.IntN(3))
			if !strings.Contains(s, ".") && !strings.Contains(s, "e") {
				s += ".0"
			}
		}
		if r.IntN(2) == 0 {
			s = "-" + s
		}
		if t.Width > 0 {
			if d, err := types.Cast(types.NewText(s), t); err == nil {
				return d, true
			}
			return parse("1.5"), true
		}
		return parse(s), true
	case types.Date:
		if r.IntN(10) == 0 {
			return types.NewDate([]int64{types.PosInf, types.NegInf}[r.IntN(2)]), true
		}
		return types.NewDate(randInt(r, types.MinTimestamp/86400e6, types.EndTimestamp/86400e6-1)), true
	case types.Time:
		return types.NewTime(r.Int64N(86400e6 + 1)), true
	case types.TimestampTZ:
		if r.IntN(10) == 0 {
			return types.NewTimestampTZ([]int64{types.PosInf, types.NegInf}[r.IntN(2)]), true
		}
		return types.NewTimestampTZ(randInt(r, types.MinTimestamp, types.EndTimestamp-1)), true
	case types.Interval:
		return types.NewInterval(int32(r.IntN(5)-2), int32(r.IntN(70)-35), (r.Int64N(5)-2)*3600e6*12), true
	case types.UUID:
		var u [16]byte
		for i := range u {
			u[i] = []byte{0, 1, 0x7f, 0xff}[r.IntN(4)]
		}
		return types.NewUUID(u), true
	case types.BPChar:
		return parse(pick("", "a", "ab", "ab ", "a b", "b", " a", "abcd")), true
	case types.JSONB:
		return parse(randJSON(r, 0)), true
	case types.Array:
		n := r.IntN(4)
		elems := make([]types.Datum, n)
		for i := range elems {
			if r.IntN(5) == 0 {
				continue
			}
			elems[i] = randDatum(r, t.ElemType())
		}
		return types.NewArray(t.ElemType(), elems), true
	}
	return types.Null, false
}

func randJSON(r *rand.Rand, depth int) string {
	k := r.IntN(7)
	if depth > 2 {
		k = r.IntN(4)
	}
	switch k {
	case 0:
		return "null"
	case 1:
		return strconv.Quote([]string{"", "a", "b", "ab", "a\\u0001"}[r.IntN(5)])
	case 2:
		return []string{"0", "1", "1.0", "-2.5", "1e3", "1000"}[r.IntN(6)]
	case 3:
		return []string{"true", "false"}[r.IntN(2)]
	case 4, 5:
		n := r.IntN(3)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = randJSON(r, depth+1)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	n := r.IntN(3)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = strconv.Quote([]string{"a", "b", "aa"}[r.IntN(3)]) + ":" + randJSON(r, depth+1)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// TestNewTypeKeyEquality checks that equal values with different
// representations encode to the same key, and what a key decodes to.
func TestNewTypeKeyEquality(t *testing.T) {
	n102 := types.T{Kind: types.Numeric, Width: 10, Scale: 2}
	for _, c := range []struct {
		t       types.T
		a, b    string
		decoded string // AppendText of DecodeKey(AppendKey(a))
	}{
		{types.TNumeric, "1.5", "1.50", "1.5"},
		{types.TNumeric, "-0.0", "0", "0"},
		{types.TNumeric, "100", "1e2", "100"},
		{n102, "1.5", "1.50", "1.50"},
		{types.TInterval, "1 mon", "30 days", "1 mon"},
		{types.TInterval, "1 year", "360 days", "1 year"},
		{types.TInterval, "-1 day", "-24:00:00", "-1 days"},
		{types.TInterval, "1 day", "24:00:00", "1 day"},
		{types.T{Kind: types.BPChar, Width: 4}, "ab", "ab  ", "ab  "},
		{types.TJSONB, `{"a": 1.0}`, `{"a": 1}`, `{"a": 1}`},
		{types.TFloat4, "-0", "0", "0"},
	} {
		da, err1 := types.Cast(types.NewText(c.a), c.t)
		db, err2 := types.Cast(types.NewText(c.b), c.t)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		for _, desc := range []bool{false, true} {
			ka, kb := AppendKey(nil, da, c.t, desc), AppendKey(nil, db, c.t, desc)
			if !bytes.Equal(ka, kb) {
				t.Errorf("%s %q and %q encode differently: % x, % x", c.t, c.a, c.b, ka, kb)
			}
			d, rest, err := DecodeKey(ka, c.t, desc)
			if err != nil || len(rest) != 0 || string(types.AppendText(nil, d)) != c.decoded {
				t.Errorf("%s %q decodes to %v, %v (rest % x), want %s", c.t, c.a, d, err, rest, c.decoded)
			}
		}
	}
}

// TestNewTypeKeyGolden pins a few encodings.
func TestNewTypeKeyGolden(t *testing.T) {
	for _, c := range []struct {
		t    types.T
		in   string
		want string
	}{
		{types.TNumeric, "1.5", "04 80 00 00 00 10 00"},
		{types.TNumeric, "-1.5", "02 7f ff ff ff ef ff"},
		{types.TNumeric, "0", "03"},
		{types.TNumeric, "NaN", "06"},
		{types.TNumeric, "123", "04 80 00 00 02 0d 1f 00"},
		{types.TDate, "2000-01-01", "80 00 2a cd"},
		{types.TUUID, "00010203-0405-0607-0809-0a0b0c0d0e0f", "00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f"},
		{types.TJSONB, `[1, "a"]`, "06 00 00 00 02 03 04 80 00 00 00 0b 00 02 61 00 01"},
		{types.ArrayOf(types.TInt2), "{1,NULL}", "01 80 01 02 00"},
	} {
		d, err := types.Cast(types.NewText(c.in), c.t)
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		for i, b := range AppendKey(nil, d, c.t, false) {
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(strconv.FormatUint(uint64(b)|0x100, 16)[1:])
		}
		if sb.String() != c.want {
			t.Errorf("%s %q = %s, want %s", c.t, c.in, sb.String(), c.want)
		}
	}
	if HasKeyEncoding(types.TJSON) || !HasKeyEncoding(types.TJSONB) || HasKeyEncoding(types.ArrayOf(types.TJSON)) {
		t.Error("HasKeyEncoding")
	}
}
