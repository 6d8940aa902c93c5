package spill

import (
	"bytes"
	"cmp"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/widesql/widesql/planner/types"
)

func mustCast(t *testing.T, s string, to types.T) types.Datum {
	t.Helper()
	d, err := types.Cast(types.NewText(s), to)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestAppendKeyEquality checks that values DISTINCT calls equal encode
// equally and that others do not.
func TestAppendKeyEquality(t *testing.T) {
	bp4 := types.T{Kind: types.BPChar, Width: 4}
	for _, tc := range []struct {
		name  string
		a, b  []types.Datum
		equal bool
	}{
		{"numeric scale", []types.Datum{mustCast(t, "1.5", types.TNumeric)}, []types.Datum{mustCast(t, "1.50", types.TNumeric)}, true},
		{"numeric values", []types.Datum{mustCast(t, "1.5", types.TNumeric)}, []types.Datum{mustCast(t, "1.51", types.TNumeric)}, false},
		{"int widths", []types.Datum{types.NewInt(types.Int2, 7)}, []types.Datum{types.NewInt(types.Int8, 7)}, true},
		{"negative zero", []types.Datum{types.NewFloat(math.Copysign(0, -1))}, []types.Datum{types.NewFloat(0)}, true},
		{"char padding", []types.Datum{mustCast(t, "ab", bp4)}, []types.Datum{mustCast(t, "ab  ", bp4)}, true},
		{"NULLs", []types.Datum{types.Null, types.NewText("x")}, []types.Datum{types.Null, types.NewText("x")}, true},
		{"NULL is not empty", []types.Datum{types.Null}, []types.Datum{types.NewText("")}, false},
		// Column boundaries are unambiguous.
		{"boundaries", []types.Datum{types.NewText("a"), types.NewText("bc")}, []types.Datum{types.NewText("ab"), types.NewText("c")}, false},
		{"json text", []types.Datum{mustCast(t, `{"a":1}`, types.TJSON), types.NewText("x")}, []types.Datum{mustCast(t, `{"a":1}`, types.TJSON), types.NewText("y")}, false},
		{"arrays", []types.Datum{types.NewArray(types.TInt4, []types.Datum{types.NewInt(types.Int4, 1), types.Null})},
			[]types.Datum{types.NewArray(types.TInt4, []types.Datum{types.NewInt(types.Int4, 1), types.Null})}, true},
	} {
		ka, kb := AppendKey(nil, tc.a), AppendKey(nil, tc.b)
		if got := bytes.Equal(ka, kb); got != tc.equal {
			t.Errorf("%s: equal keys = %v, want %v (%x vs %x)", tc.name, got, tc.equal, ka, kb)
		}
	}
}

// TestAppendKeyOrder checks that keys sort as the values do, NULLs last.
func TestAppendKeyOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	rows := randomRows(r, 500)
	byValue := func(a, b []types.Datum) int {
		for i := range a {
			switch {
			case a[i].IsNull() && b[i].IsNull():
			case a[i].IsNull():
				return 1
			case b[i].IsNull():
				return -1
			default:
				if c := types.Compare(a[i], b[i]); c != 0 {
					return c
				}
			}
		}
		return 0
	}
	for i := 0; i+1 < len(rows); i++ {
		a, b := rows[i], rows[i+1]
		want := byValue(a, b)
		got := bytes.Compare(AppendKey(nil, a), AppendKey(nil, b))
		if cmp.Compare(got, 0) != cmp.Compare(want, 0) {
			t.Fatalf("%v vs %v: keys compare %d, values %d", a, b, got, want)
		}
	}
}

// TestSorterStable checks that rows with equal sort keys come out in the
// order added, across spilled runs and merge passes.
func TestSorterStable(t *testing.T) {
	for _, budget := range []int64{0, 16 << 10, 2 << 10} {
		rows := randomRows(rand.New(rand.NewPCG(4, 4)), 3000)
		for i, r := range rows {
			r[0] = types.NewInt(types.Int8, r[0].I%10) // many ties
			r[2] = types.NewFloat(float64(i))          // the input position
		}
		byFirst := func(a, b []types.Datum) int { return cmp.Compare(a[0].I, b[0].I) }
		s := NewSorter(rowTypes, byFirst, NewBudget(budget), t.TempDir())
		for _, r := range rows {
			if err := s.Add(r); err != nil {
				t.Fatal(err)
			}
		}
		it, err := s.Sort()
		if err != nil {
			t.Fatal(err)
		}
		var prev []types.Datum
		n := 0
		for {
			row, err := it.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			n++
			if prev != nil {
				if c := byFirst(prev, row); c > 0 || c == 0 && prev[2].F > row[2].F {
					t.Fatalf("budget %d: %v before %v", budget, prev, row)
				}
			}
			prev = row
		}
		if n != len(rows) {
			t.Fatalf("budget %d: %d rows, want %d", budget, n, len(rows))
		}
		if budget > 0 && !s.Stats().Spilled {
			t.Errorf("budget %d: did not spill", budget)
		}
		s.Close()
	}
}

func TestHasherPartition(t *testing.T) {
	h1, h2 := NewHasher(), NewHasher()
	counts := make([]int, 16)
	moved := 0
	for i := 0; i < 4000; i++ {
		k := AppendKey(nil, []types.Datum{types.NewInt(types.Int8, int64(i))})
		p := h1.Partition(k, 16)
		if p != h1.Partition(k, 16) {
			t.Fatal("partition of a key changed")
		}
		counts[p]++
		if h2.Partition(k, 16) != p {
			moved++
		}
	}
	for i, c := range counts {
		if c < 150 { // 250 expected
			t.Errorf("partition %d has %d of 4000 keys", i, c)
		}
	}
	if moved < 3000 { // a new seed spreads a partition's keys again
		t.Errorf("only %d of 4000 keys changed partition with a new seed", moved)
	}
}

// TestRowFileKindMismatch checks that a value whose kind is not its
// column's survives a spill file as its own kind.
func TestRowFileKindMismatch(t *testing.T) {
	ts := []types.T{types.TInt4, types.TNumeric, types.TUnknown}
	p := NewPartitions(1, ts, t.TempDir())
	defer p.Close()
	row := []types.Datum{types.NewInt(types.Int8, 1<<40), types.NewFloat(2.5), types.NewText("x")}
	if err := p.Add(0, row); err != nil {
		t.Fatal(err)
	}
	it, err := p.Read(0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := it.Next()
	if err != nil {
		t.Fatal(err)
	}
	for i := range row {
		if got[i].K != row[i].K || types.Compare(got[i], row[i]) != 0 {
			t.Errorf("column %d: got %v (kind %d), want %v (kind %d)", i, got[i], got[i].K, row[i], row[i].K)
		}
	}
}
