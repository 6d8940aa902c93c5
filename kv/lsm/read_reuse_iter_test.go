package lsm

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/widesql/widesql/kv"
)

// TestReadReuse: ReadReuse reads into a closed iterator of its store,
// giving the same rows as Read, and leaves anything else alone: an open
// iterator (still usable afterwards), another store's, or nil.
func TestReadReuse(t *testing.T) {
	ctx := context.Background()
	open := func() (*Store, kv.Table) {
		s, err := Open(t.TempDir(), Options{NoSync: true, BlockSize: 256})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "f"}}}); err != nil {
			t.Fatal(err)
		}
		tbl, _ := s.Table(ctx, "t")
		var batch []kv.RowMutation
		for i := range 200 {
			batch = append(batch, kv.RowMutation{Key: fmt.Appendf(nil, "k%03d", i), Mutations: []kv.Mutation{
				{Kind: kv.SetCell, Family: "f", Qualifier: []byte("q"), Timestamp: 1000, Value: fmt.Appendf(nil, "v%d", i)}}})
		}
		if err := tbl.Apply(ctx, batch); err != nil {
			t.Fatal(err)
		}
		if err := s.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		return s, tbl
	}
	_, tbl := open()
	_, other := open()
	reuser := tbl.(kv.ReadReuser)
	sets := []kv.RowSet{
		{Keys: [][]byte{[]byte("k007")}},
		{Keys: [][]byte{[]byte("k100"), []byte("k005"), []byte("nope")}},
		{Ranges: []kv.KeyRange{{Start: []byte("k010"), End: []byte("k020")}}},
		{Keys: [][]byte{[]byte("k199")}},
	}
	want := func(rs kv.RowSet, opts kv.ReadOptions) []string { return readRows(t, tbl.Read(ctx, rs, opts)) }

	var old kv.RowIterator
	for round := range 3 {
		for i, rs := range sets {
			opts := kv.ReadOptions{Reverse: round == 1, Limit: int64(round)}
			it := kv.ReadReusing(ctx, tbl, rs, opts, old)
			if old != nil && it != old {
				t.Fatalf("round %d set %d: a closed iterator of the store was not reused", round, i)
			}
			if got, w := readRows(t, it), want(rs, opts); !slices.Equal(got, w) {
				t.Fatalf("round %d set %d: reused read %q, Read %q", round, i, got, w)
			}
			old = it // readRows closed it
		}
	}

	// An open iterator is not reused, and still reads its rows.
	open1 := tbl.Read(ctx, sets[2], kv.ReadOptions{})
	if !open1.Next() {
		t.Fatal("no first row")
	}
	it := reuser.ReadReuse(ctx, sets[0], kv.ReadOptions{}, open1)
	if it == open1 {
		t.Fatal("an open iterator was reused")
	}
	if got := readRows(t, it); len(got) != 1 {
		t.Fatalf("read beside an open iterator: %q", got)
	}
	if n := 1 + len(readRows(t, open1)); n != 10 {
		t.Fatalf("the open iterator read %d rows after a ReadReuse was given it, want 10", n)
	}

	// Another store's closed iterator is not reused.
	foreign := other.Read(ctx, sets[0], kv.ReadOptions{})
	readRows(t, foreign)
	if it := reuser.ReadReuse(ctx, sets[0], kv.ReadOptions{}, foreign); it == foreign {
		t.Fatal("another store's iterator was reused")
	} else {
		it.Close()
	}
}
