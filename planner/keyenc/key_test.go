package keyenc

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

var keyTypes = []types.T{types.TBool, types.TInt2, types.TInt4, types.TInt8, types.TFloat8,
	types.TText, types.TVarChar, types.TBytea, types.TTimestamp,
	types.TFloat4, types.TNumeric, {Kind: types.Numeric, Width: 10, Scale: 2}, types.TDate, types.TTime,
	types.TTimestampTZ, types.TInterval, types.TUUID, {Kind: types.BPChar, Width: 4}, types.TJSONB,
	types.ArrayOf(types.TInt4), types.ArrayOf(types.TText), types.ArrayOf(types.TNumeric)}

// randString draws from an alphabet rich in the escape bytes.
func randString(r *rand.Rand) string {
	const alphabet = "\x00\x01\xfe\xffab"
	b := make([]byte, r.IntN(5))
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

func randInt(r *rand.Rand, lo, hi int64) int64 {
	switch r.IntN(6) {
	case 0:
		return lo
	case 1:
		return hi
	case 2:
		return int64(r.IntN(5)) - 2
	}
	return int64(r.Uint64()>>1) % hi * (int64(r.IntN(2))*2 - 1)
}

// randDatum returns a value of t, biased to edge values and collisions.
func randDatum(r *rand.Rand, t types.T) types.Datum {
	switch t.Kind {
	case types.Bool:
		return types.NewBool(r.IntN(2) == 1)
	case types.Int2:
		return types.NewInt(t.Kind, randInt(r, math.MinInt16, math.MaxInt16))
	case types.Int4:
		return types.NewInt(t.Kind, randInt(r, math.MinInt32, math.MaxInt32))
	case types.Int8:
		return types.NewInt(t.Kind, randInt(r, math.MinInt64, math.MaxInt64))
	case types.Timestamp:
		return types.NewTimestamp(randInt(r, types.MinTimestamp, types.EndTimestamp-1))
	case types.Float8:
		edges := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
			math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 1, -1}
		if r.IntN(2) == 0 {
			return types.NewFloat(edges[r.IntN(len(edges))])
		}
		return types.NewFloat(r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20)))
	case types.Bytea:
		return types.NewBytea([]byte(randString(r)))
	}
	if d, ok := randNewDatum(r, t); ok {
		return d
	}
	return types.NewText(randString(r))
}

type column struct {
	t    types.T
	desc bool
}

func encode(cols []column, row []types.Datum) []byte {
	var k []byte
	for i, c := range cols {
		k = AppendKey(k, row[i], c.t, c.desc)
	}
	return k
}

func compareRows(cols []column, a, b []types.Datum) int {
	for i, c := range cols {
		if v := types.Compare(a[i], b[i]); v != 0 {
			if c.desc {
				return -v
			}
			return v
		}
	}
	return 0
}

func TestKeyOrderAndRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 20000; iter++ {
		cols := make([]column, 1+r.IntN(4))
		for i := range cols {
			cols[i] = column{t: keyTypes[r.IntN(len(keyTypes))], desc: r.IntN(2) == 1}
		}
		a, b := make([]types.Datum, len(cols)), make([]types.Datum, len(cols))
		for i, c := range cols {
			a[i], b[i] = randDatum(r, c.t), randDatum(r, c.t)
		}
		ka, kb := encode(cols, a), encode(cols, b)
		if got, want := bytes.Compare(ka, kb), compareRows(cols, a, b); got != want {
			t.Fatalf("cols %v: %v vs %v: bytes %d, SQL %d\n% x\n% x", cols, a, b, got, want, ka, kb)
		}
		rest := ka
		for i, c := range cols {
			var d types.Datum
			var err error
			d, rest, err = DecodeKey(rest, c.t, c.desc)
			if err != nil || d.K != c.t.Kind || types.Compare(d, a[i]) != 0 {
				t.Fatalf("decode col %d of %v: %v, %v", i, a, d, err)
			}
		}
		if len(rest) != 0 {
			t.Fatalf("%d bytes left", len(rest))
		}
	}
}

func TestKeyGolden(t *testing.T) {
	for _, c := range []struct {
		d    types.Datum
		t    types.T
		desc bool
		want []byte
	}{
		{types.NewInt(types.Int2, -1), types.TInt2, false, []byte{0x7f, 0xff}},
		{types.NewInt(types.Int4, 5), types.TInt4, false, []byte{0x80, 0, 0, 5}},
		{types.NewInt(types.Int4, 5), types.TInt4, true, []byte{0x7f, 0xff, 0xff, 0xfa}},
		{types.NewBool(true), types.TBool, false, []byte{1}},
		{types.NewFloat(0), types.TFloat8, false, []byte{0x80, 0, 0, 0, 0, 0, 0, 0}},
		{types.NewFloat(math.Copysign(0, -1)), types.TFloat8, false, []byte{0x80, 0, 0, 0, 0, 0, 0, 0}},
		{types.NewFloat(math.NaN()), types.TFloat8, false, []byte{0xff, 0xf8, 0, 0, 0, 0, 0, 0}},
		{types.NewText("ab"), types.TText, false, []byte{0x61, 0x62, 0, 1}},
		{types.NewText("ab\x00"), types.TText, false, []byte{0x61, 0x62, 0, 0xff, 0, 1}},
		{types.NewText("ab"), types.TText, true, []byte{0x9e, 0x9d, 0xff, 0xfe}},
		{types.NewText("x"), types.TText, true, []byte{0x87, 0xff, 0xfe}},
	} {
		if got := AppendKey(nil, c.d, c.t, c.desc); !bytes.Equal(got, c.want) {
			t.Errorf("AppendKey(%v, %s, desc=%v) = % x, want % x", c.d, c.t, c.desc, got, c.want)
		}
	}
}

func TestStringPrefixSpan(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	lead := types.NewInt(types.Int4, 7)
	for iter := 0; iter < 20000; iter++ {
		desc := r.IntN(2) == 1
		p, s := randString(r), randString(r)
		if r.IntN(3) == 0 {
			s = p + s
		}
		start := AppendStringPrefix(AppendKey(nil, lead, types.TInt4, false), p, desc)
		end := PrefixEnd(start)
		key := AppendKey(AppendKey(nil, lead, types.TInt4, false), types.NewText(s), types.TText, desc)
		key = AppendKey(key, types.NewInt(types.Int8, r.Int64()), types.TInt8, r.IntN(2) == 1)
		in := bytes.Compare(key, start) >= 0 && (end == nil || bytes.Compare(key, end) < 0)
		if in != strings.HasPrefix(s, p) || in != bytes.HasPrefix(key, start) {
			t.Fatalf("prefix %q desc=%v, string %q: in span %v", p, desc, s, in)
		}
	}
}

func TestPrefixEnd(t *testing.T) {
	for _, c := range []struct{ p, want []byte }{
		{nil, nil},
		{[]byte{0xff, 0xff}, nil},
		{[]byte{1, 2}, []byte{1, 3}},
		{[]byte{1, 0xff}, []byte{2}},
		{[]byte{0, 0xfe, 0xff}, []byte{0, 0xff}},
	} {
		if got := PrefixEnd(c.p); !bytes.Equal(got, c.want) || (got == nil) != (c.want == nil) {
			t.Errorf("PrefixEnd(% x) = % x, want % x", c.p, got, c.want)
		}
	}
}

func TestDecodeKeyCorrupt(t *testing.T) {
	for _, c := range []struct {
		b    []byte
		t    types.T
		desc bool
	}{
		{nil, types.TInt4, false},
		{[]byte{1, 2, 3}, types.TInt8, false},
		{[]byte{2}, types.TBool, false},
		{[]byte{'a', 'b'}, types.TText, false},
		{[]byte{'a', 0}, types.TText, false},
		{[]byte{'a', 0, 2}, types.TText, false},
		{[]byte{0x9e, 0xff, 0x01}, types.TText, true},
		{[]byte{0x9e, 0, 1}, types.TBytea, true},
	} {
		if _, _, err := DecodeKey(c.b, c.t, c.desc); pgerror.CodeOf(err) != pgerror.CodeDataCorrupted {
			t.Errorf("DecodeKey(% x, %s, %v) = %v, want XX001", c.b, c.t, c.desc, err)
		}
	}
}

func TestAppendKeyNullPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	AppendKey(nil, types.Null, types.TInt4, false)
}

// FuzzDecodeKey decodes a sequence of columns from arbitrary bytes: it must
// never panic, and what decodes must re-encode to the bytes consumed
// (floats and char(n) excepted: -0, NaN payloads and trailing spaces are
// normalized).
func FuzzDecodeKey(f *testing.F) {
	f.Add([]byte{0x12}, []byte{0x61, 0, 0xff, 0, 1, 0x80, 0, 0, 1})
	f.Add([]byte{0x85, 0x03}, []byte{0x9e, 0xff, 0x00, 0xff, 0xfe, 1})
	f.Fuzz(func(t *testing.T, schema, b []byte) {
		rest := b
		for _, s := range schema {
			typ, desc := keyTypes[int(s&0x7f)%len(keyTypes)], s&0x80 != 0
			d, next, err := DecodeKey(rest, typ, desc)
			if err != nil {
				return
			}
			if typ.Kind != types.Float8 && typ.Kind != types.Float4 && typ.Kind != types.BPChar {
				if enc := AppendKey(nil, d, typ, desc); !bytes.Equal(enc, rest[:len(rest)-len(next)]) {
					t.Fatalf("%s desc=%v: % x re-encodes as % x", typ, desc, rest[:len(rest)-len(next)], enc)
				}
			}
			rest = next
		}
	})
}

func BenchmarkAppendKey3(b *testing.B) {
	cols := []column{{types.TInt8, false}, {types.TText, false}, {types.TTimestamp, true}}
	row := []types.Datum{types.NewInt(types.Int8, 123456789), types.NewText("user-0042/profile"),
		types.NewTimestamp(1795260895436997)}
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		buf = buf[:0]
		for i, c := range cols {
			buf = AppendKey(buf, row[i], c.t, c.desc)
		}
	}
}

// TestCatalogKindsRoundTrip checks the key encodings grouping and sorting
// use for the system-catalog types.
func TestCatalogKindsRoundTrip(t *testing.T) {
	vals := []struct {
		d types.Datum
		t types.T
	}{
		{types.NewOid(4294967295), types.TOid},
		{types.NewName("pg_class"), types.TName},
		{types.NewChar("r"), types.TChar},
		{types.NewReg(types.RegClass, 1259, "pg_class"), types.TRegClass},
		{types.NewInt2Vector([]int16{1, -3}), types.TInt2Vector},
		{types.NewOidVector([]uint32{23, 4294967295}), types.TOidVector},
	}
	for _, v := range vals {
		for _, desc := range []bool{false, true} {
			k := AppendKey(nil, v.d, v.t, desc)
			got, rest, err := DecodeKey(k, v.t, desc)
			if err != nil || len(rest) != 0 {
				t.Fatalf("%s desc=%v: %v, %d bytes left", v.t, desc, err, len(rest))
			}
			if types.Compare(got, v.d) != 0 {
				t.Errorf("%s desc=%v: got %v, want %v", v.t, desc, got, v.d)
			}
		}
	}
	if a, b := AppendKey(nil, types.NewOid(2), types.TOid, false), AppendKey(nil, types.NewOid(3000000000), types.TOid, false); string(a) >= string(b) {
		t.Errorf("oid keys out of order")
	}
}
