package ikey

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	cases := []struct {
		row, qual []byte
		fam       string
		ts        int64
		seq       uint64
		kind      Kind
	}{
		{[]byte("r"), []byte("q"), "f", 1000, 7, KindSet},
		{[]byte{0, 0, 1}, []byte{}, "a\x00b", 0, 0, KindSet},
		{[]byte("row"), nil, "", TombstoneTS, math.MaxUint64, KindDeleteRow},
		{[]byte{0xff, 0}, []byte{0}, "f", TombstoneTS, 1, KindDeleteCells},
	}
	for _, c := range cases {
		k := Append(nil, c.row, c.fam, c.qual, c.ts, c.seq, c.kind)
		p, err := Parse(k)
		if err != nil {
			t.Fatalf("%q: %v", k, err)
		}
		if got := Unescape(nil, p.Row); !bytes.Equal(got, c.row) {
			t.Errorf("row %q != %q", got, c.row)
		}
		if got := Unescape(nil, p.Family); string(got) != c.fam {
			t.Errorf("family %q != %q", got, c.fam)
		}
		if got := Unescape(nil, p.Qualifier); !bytes.Equal(got, c.qual) {
			t.Errorf("qualifier %q != %q", got, c.qual)
		}
		if p.TS != c.ts || p.Seq != c.seq || p.Kind != c.kind {
			t.Errorf("trailer %d %d %d", p.TS, p.Seq, p.Kind)
		}
		if !bytes.Equal(RowPrefixOf(k), RowPrefix(nil, c.row)) {
			t.Errorf("row prefix mismatch")
		}
	}
}

func TestOrder(t *testing.T) {
	// Each key must sort strictly before the next.
	keys := [][]byte{
		Append(nil, []byte("a"), "", nil, TombstoneTS, 9, KindDeleteRow),
		Append(nil, []byte("a"), "", nil, TombstoneTS, 3, KindDeleteRow),
		Append(nil, []byte("a"), "\x00", nil, TombstoneTS, 3, KindDeleteFamily),
		Append(nil, []byte("a"), "f", nil, TombstoneTS, 3, KindDeleteFamily),
		Append(nil, []byte("a"), "f", nil, 5000, 3, KindSet),
		Append(nil, []byte("a"), "f", []byte{0}, 5000, 3, KindSet),
		Append(nil, []byte("a"), "f", []byte("q"), TombstoneTS, 1, KindDeleteCells),
		Append(nil, []byte("a"), "f", []byte("q"), 5000, 9, KindSet),
		Append(nil, []byte("a"), "f", []byte("q"), 5000, 3, KindSet),
		Append(nil, []byte("a"), "f", []byte("q"), 0, 30, KindSet),
		Append(nil, []byte("a"), "f", []byte("q\x00"), 0, 30, KindSet),
		Append(nil, []byte("a"), "g", nil, 0, 30, KindSet),
		Append(nil, []byte("a\x00"), "", nil, TombstoneTS, 3, KindDeleteRow),
		Append(nil, []byte("a\x00\x00"), "f", nil, 0, 1, KindSet),
		Append(nil, []byte("a\x01"), "f", nil, 0, 1, KindSet),
		Append(nil, []byte("ab"), "f", nil, 0, 1, KindSet),
	}
	for i := 1; i < len(keys); i++ {
		if bytes.Compare(keys[i-1], keys[i]) >= 0 {
			t.Errorf("key %d %q !< key %d %q", i-1, keys[i-1], i, keys[i])
		}
	}
}

func TestRange(t *testing.T) {
	v := AppendRange(nil, 1000, 0)
	s, e, err := DecodeRange(v)
	if err != nil || s != 1000 || e != 0 {
		t.Fatal(s, e, err)
	}
	if _, _, err := DecodeRange(v[:1]); err == nil {
		t.Fatal("truncated range decoded")
	}
}

func FuzzParse(f *testing.F) {
	f.Add(Append(nil, []byte("row"), "fam", []byte("q"), 1000, 5, KindSet))
	f.Add([]byte{0, 1, 0, 1})
	f.Fuzz(func(t *testing.T, k []byte) {
		for n := range len(k) + 2 {
			ParseInRow(k, n) // any length: no panic
		}
		p, err := Parse(k)
		if err != nil {
			return
		}
		// Given the row's length, ParseInRow agrees with Parse.
		if q, err := ParseInRow(k, len(p.Row)); err != nil || !reflect.DeepEqual(p, q) {
			t.Fatalf("ParseInRow(%q, %d) = %+v, %v; Parse gave %+v", k, len(p.Row), q, err, p)
		}
		// SetInRowFam agrees with it given the family's length, or none.
		for _, famLen := range []int{0, len(p.Family)} {
			var q Parsed
			if err := q.SetInRowFam(k, len(p.Row), famLen); err != nil || !reflect.DeepEqual(p, q) {
				t.Fatalf("SetInRowFam(%q, %d, %d) = %+v, %v; Parse gave %+v", k, len(p.Row), famLen, q, err, p)
			}
		}
		// A key that parses re-encodes to itself.
		re := Append(nil, Unescape(nil, p.Row), string(Unescape(nil, p.Family)), Unescape(nil, p.Qualifier), p.TS, p.Seq, p.Kind)
		if !bytes.Equal(re, k) {
			t.Fatalf("re-encoding %q gave %q", k, re)
		}
	})
}

// TestSetInRowFam checks the parse given the family's length: the parts
// of SetInRow, and an error for a malformed qualifier or trailer after it.
func TestSetInRowFam(t *testing.T) {
	row := AppendEscaped(nil, []byte("r\x00w"))
	fam := len(AppendEscaped(nil, []byte("d")))
	for _, k := range [][]byte{
		Append(nil, []byte("r\x00w"), "d", []byte("grp"), 5, 7, KindSet),
		Append(nil, []byte("r\x00w"), "d", nil, TombstoneTS, 7, KindDeleteFamily),
		Append(nil, []byte("r\x00w"), "d", []byte("q\x00"), 5, 7, KindSet),
	} {
		var want, got Parsed
		if err := want.SetInRow(k, len(row)); err != nil {
			t.Fatal(err)
		}
		if err := got.SetInRowFam(k, len(row), fam); err != nil || !reflect.DeepEqual(want, got) {
			t.Errorf("%q: SetInRowFam = %+v, %v; want %+v", k, got, err, want)
		}
	}
	trailer := AppendTrailer(nil, 5, 7, KindSet)
	for _, body := range []string{"d\x00\x01q\x00\x02", "d\x00\x01q\x00\x01x", "d\x00\x01q"} {
		k := append(append(slices.Clone(row), body...), trailer...)
		var p Parsed
		if err := p.SetInRowFam(k, len(row), fam); err == nil {
			t.Errorf("%q: SetInRowFam accepted a malformed qualifier: %+v", k, p)
		}
	}
	k := Append(nil, []byte("r\x00w"), "d", []byte("q"), 5, 7, KindSet)
	k[len(k)-1] = 9
	var p Parsed
	if err := p.SetInRowFam(k, len(row), fam); err == nil {
		t.Errorf("%q: SetInRowFam accepted kind 9", k)
	}
}

func FuzzOrder(f *testing.F) {
	f.Add([]byte("a"), []byte("b"), []byte("q"), []byte("r"))
	f.Fuzz(func(t *testing.T, r1, r2, q1, q2 []byte) {
		k1 := Append(nil, r1, "f", q1, 0, 0, KindSet)
		k2 := Append(nil, r2, "f", q2, 0, 0, KindSet)
		want := bytes.Compare(r1, r2)
		if want == 0 {
			want = bytes.Compare(q1, q2)
		}
		if got := bytes.Compare(k1, k2); got != want {
			t.Fatalf("order of (%q,%q) vs (%q,%q): %d, want %d", r1, q1, r2, q2, got, want)
		}
	})
}

// TestRowPrefixFrom checks the pieces of a scan's incremental row prefix
// (RowPrefixFrom, PairStart, UnescapedLen) against RowPrefixOf and
// Unescape, for rowkeys dense in 0x00, 0x01 and 0xff bytes and every
// starting point that holds no terminator.
func TestRowPrefixFrom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte{0, 0, 1, 0xff, 'a'}
	for range 2000 {
		row := make([]byte, rng.IntN(20))
		for i := range row {
			row[i] = alphabet[rng.IntN(len(alphabet))]
		}
		k := Append(nil, row, "f", []byte("q"), 1, 1, KindSet)
		want := RowPrefixOf(k)
		for from := 0; from < len(want); from++ {
			if got := RowPrefixFrom(k, from); !bytes.Equal(got, want) {
				t.Fatalf("RowPrefixFrom(%x, %d) = %x, want %x", k, from, got, want)
			}
			n := PairStart(k, from)
			if n > from || n < from-1 || (n > 0 && k[n-1] == 0) {
				t.Fatalf("PairStart(%x, %d) = %d", k, from, n)
			}
			if got, raw := UnescapedLen(k[:n]), Unescape(nil, k[:n]); got != len(raw) {
				t.Fatalf("UnescapedLen(%x) = %d, want %d", k[:n], got, len(raw))
			}
			if raw := Unescape(nil, want); !bytes.Equal(raw[:UnescapedLen(k[:n])], Unescape(nil, k[:n])) {
				t.Fatalf("the raw row of %x does not start with that of its first %d bytes", want, n)
			}
		}
		if !bytes.Equal(Unescape(nil, want), row) {
			t.Fatalf("row %x: prefix %x", row, want)
		}
	}
}
