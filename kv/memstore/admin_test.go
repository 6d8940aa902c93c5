package memstore

import (
	"context"
	"testing"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/internal/kvtest"
)

func TestRegionLoad(t *testing.T) {
	s := New()
	defer s.Close()
	kvtest.RunRegionLoad(t, s)
}

func TestMultiRead(t *testing.T) {
	s := New()
	defer s.Close()
	ctx := context.Background()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "f"}}}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	kvtest.RunMultiRead(t, tbl)
}

// TestRegionRowsBytes checks memstore's exact region sizes: live rows and
// the bytes of their keys, qualifiers and values, kept by writes and
// recounted by a split.
func TestRegionRowsBytes(t *testing.T) {
	s := New()
	defer s.Close()
	ctx := context.Background()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "f"}}, SplitKeys: [][]byte{[]byte("m")}}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	set := func(key, val string) kv.RowMutation {
		return kv.RowMutation{Key: []byte(key), Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "f", Qualifier: []byte("q"), Timestamp: 1000, Value: []byte(val)}}}
	}
	apply := func(batch ...kv.RowMutation) {
		t.Helper()
		if err := tbl.Apply(ctx, batch); err != nil {
			t.Fatal(err)
		}
	}
	sizes := func() [][2]int64 {
		t.Helper()
		regions, err := s.Regions(ctx, "t")
		if err != nil {
			t.Fatal(err)
		}
		var out [][2]int64
		for _, r := range regions {
			out = append(out, [2]int64{r.Rows, r.Bytes})
		}
		return out
	}
	apply(set("a", "xx"), set("b", "yyy"), set("z", "1"))
	if got := sizes(); got[0] != [2]int64{2, 4 + 5} || got[1] != [2]int64{1, 3} {
		t.Fatalf("after inserts: %v", got)
	}
	// An overwrite at the same version resizes; a delete removes the row;
	// a failed batch changes nothing.
	apply(set("a", "x"), kv.RowMutation{Key: []byte("b"), Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}})
	err := tbl.Apply(ctx, []kv.RowMutation{set("c", "1"), {Key: []byte("a"), Require: kv.RequireAbsent, Mutations: set("a", "").Mutations}})
	if err == nil {
		t.Fatal("precondition did not fail")
	}
	if got := sizes(); got[0] != [2]int64{1, 3} || got[1] != [2]int64{1, 3} {
		t.Fatalf("after overwrite and delete: %v", got)
	}
	apply(set("d", "1"))
	if err := s.Split(ctx, "t", [][]byte{[]byte("c")}); err != nil {
		t.Fatal(err)
	}
	if got := sizes(); len(got) != 3 || got[0] != [2]int64{1, 3} || got[1] != [2]int64{1, 3} || got[2] != [2]int64{1, 3} {
		t.Fatalf("after split: %v", got)
	}
}
