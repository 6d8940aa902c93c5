package bench

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

type testCell struct {
	row, family, qual []byte
	ts                int64
}

// kvOrder is the kv contract's order: rowkey, family, qualifier bytes,
// then timestamp descending.
func kvOrder(a, b testCell) int {
	if c := bytes.Compare(a.row, b.row); c != 0 {
		return c
	}
	if c := bytes.Compare(a.family, b.family); c != 0 {
		return c
	}
	if c := bytes.Compare(a.qual, b.qual); c != 0 {
		return c
	}
	return -cmpInt(a.ts, b.ts)
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func randBytes(r *rand.Rand, max int) []byte {
	b := make([]byte, r.IntN(max+1))
	for i := range b {
		b[i] = []byte{0x00, 0x01, 0xFF, 'a', 'b'}[r.IntN(5)]
	}
	return b
}

// TestPebbleKeyOrder checks that cell keys sort in kv order, that Split
// finds the rowkey, and that the suffix decodes back.
func TestPebbleKeyOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	cells := make([]testCell, 2000)
	for i := range cells {
		cells[i] = testCell{randBytes(r, 4), append([]byte{'d'}, randBytes(r, 1)...), randBytes(r, 3), r.Int64N(5) * 1000}
	}
	keys := make([][]byte, len(cells))
	for i, c := range cells {
		k := appendCellKey(nil, c.row, string(c.family), c.qual, c.ts)
		keys[i] = k
		prefix := appendRowPrefix(nil, c.row)
		if n := splitRowKey(k); !bytes.Equal(k[:n], prefix) {
			t.Fatalf("split %x = %x, want %x", k, k[:n], prefix)
		}
		fam, qual, ts, _ := cellSuffix(nil, k[len(prefix):])
		if !bytes.Equal(fam, c.family) || !bytes.Equal(qual, c.qual) || ts != c.ts {
			t.Fatalf("decode %x = %x %x %d, want %x %x %d", k, fam, qual, ts, c.family, c.qual, c.ts)
		}
	}
	for i := range cells {
		for j := range cells {
			if got, want := bytes.Compare(keys[i], keys[j]), kvOrder(cells[i], cells[j]); got != want {
				t.Fatalf("compare %+v %+v = %d, want %d", cells[i], cells[j], got, want)
			}
		}
	}
	// The immediate successor of a prefix is the prefix of rowkey+"\x00".
	p := appendRowPrefix(nil, []byte("ab"))
	if got, want := rowComparer.ImmediateSuccessor(nil, p), appendRowPrefix(nil, []byte("ab\x00")); !bytes.Equal(got, want) {
		t.Fatalf("immediate successor %x, want %x", got, want)
	}
}
