package kvtest

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/widesql/widesql/kv"
)

// RunRegionLoad is the conformance test of kv.Admin's load counters.
// store must be empty and implement kv.Admin. Two tables are pre-split
// into 8 regions by the leading key byte; monotonically increasing keys
// go to one region in the table that writes them as they are (the
// hotspot), and to all 8 evenly in the table that prefixes them with a
// salt byte. Reads count per region alike.
func RunRegionLoad(t *testing.T, store kv.Store) {
	ctx := context.Background()
	admin, ok := store.(kv.Admin)
	if !ok {
		t.Fatalf("%T is not a kv.Admin", store)
	}
	const buckets, perBucket = 8, 25
	var splits [][]byte
	for b := 1; b < buckets; b++ {
		splits = append(splits, []byte{byte(b * 256 / buckets)})
	}
	spec := kv.TableSpec{Families: []kv.Family{{Name: "f"}}}
	for _, name := range []string{"plain", "salted"} {
		if err := store.CreateTable(ctx, name, spec); err != nil {
			t.Fatal(err)
		}
		if err := admin.Split(ctx, name, splits); err != nil {
			t.Fatal(err)
		}
	}
	key := func(salted bool, i int) []byte {
		k := binary.BigEndian.AppendUint64(nil, uint64(i))
		if salted {
			k = append([]byte{byte(i % buckets * 256 / buckets)}, k...)
		}
		return k
	}
	for _, name := range []string{"plain", "salted"} {
		tbl, err := store.Table(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		for i := range buckets * perBucket {
			err := tbl.Apply(ctx, []kv.RowMutation{{Key: key(name == "salted", i), Mutations: []kv.Mutation{
				{Kind: kv.SetCell, Family: "f", Qualifier: []byte("q"), Timestamp: 1000, Value: []byte("v")}}}})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	load := func(name string, field func(r kv.RegionInfo) string) string {
		t.Helper()
		regions, err := admin.Regions(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range regions {
			out = append(out, field(r))
		}
		return strings.Join(out, " ")
	}
	writes := func(r kv.RegionInfo) string { return fmt.Sprint(r.Writes) }
	reads := func(r kv.RegionInfo) string { return fmt.Sprint(r.Reads) }
	bounds := func(r kv.RegionInfo) string { return fmt.Sprintf("[%x,%x)", r.Start, r.End) }
	if got, want := load("salted", bounds), "[,20) [20,40) [40,60) [60,80) [80,a0) [a0,c0) [c0,e0) [e0,)"; got != want {
		t.Errorf("regions = %s, want %s", got, want)
	}
	if got, want := load("plain", writes), "200 0 0 0 0 0 0 0"; got != want {
		t.Errorf("plain table: writes per region %s, want %s (all in the first)", got, want)
	}
	if got, want := load("salted", writes), "25 25 25 25 25 25 25 25"; got != want {
		t.Errorf("salted table: writes per region %s, want %s", got, want)
	}
	recent := func(r kv.RegionInfo) string { return fmt.Sprint(r.WriteRate > 0) }
	if got, want := load("salted", recent), "true true true true true true true true"; got != want {
		t.Errorf("salted table: WriteRate > 0 per region: %s", got)
	}
	if got, want := load("plain", recent), "true false false false false false false false"; got != want {
		t.Errorf("plain table: WriteRate > 0 per region: %s", got)
	}

	// A full scan reads every row once, in its region; a Get one row.
	tbl, _ := store.Table(ctx, "salted")
	n := drain(t, tbl.Read(ctx, kv.RowSet{}, kv.ReadOptions{}))
	n += drain(t, tbl.Read(ctx, kv.RowSet{Keys: [][]byte{key(true, 3)}}, kv.ReadOptions{}))
	if n != buckets*perBucket+1 {
		t.Fatalf("read %d rows", n)
	}
	if got, want := load("salted", reads), "25 25 25 26 25 25 25 25"; got != want {
		t.Errorf("salted table: reads per region %s, want %s", got, want)
	}
	readRecent := func(r kv.RegionInfo) string { return fmt.Sprint(r.ReadRate > 0) }
	if got, want := load("salted", readRecent), "true true true true true true true true"; got != want {
		t.Errorf("salted table: ReadRate > 0 per region: %s", got)
	}
	if got, want := load("plain", reads), "0 0 0 0 0 0 0 0"; got != want {
		t.Errorf("plain table: reads per region %s, want none", got)
	}
}

func drain(t *testing.T, it kv.RowIterator) int {
	t.Helper()
	defer it.Close()
	n := 0
	for it.Next() {
		n++
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}

// RunMultiRead is the conformance test of kv.MultiReader. tbl must be an
// empty table with family "f" implementing it; the test writes through
// tbl.Apply. The iterators of one ReadMulti read one snapshot: a write
// applied after the call and before the reads is seen by none of them.
func RunMultiRead(t *testing.T, tbl kv.Table) {
	ctx := context.Background()
	mr, ok := tbl.(kv.MultiReader)
	if !ok {
		t.Fatalf("%T is not a kv.MultiReader", tbl)
	}
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
	apply(set("a", "1"), set("b", "1"), set("c", "1"), set("m", "1"))
	sets := []kv.RowSet{
		{Keys: [][]byte{[]byte("a"), []byte("c")}},
		{Ranges: []kv.KeyRange{{Start: []byte("b"), End: []byte("n")}}},
		{},
	}
	its := mr.ReadMulti(ctx, sets, kv.ReadOptions{})
	if len(its) != len(sets) {
		t.Fatalf("ReadMulti returned %d iterators for %d sets", len(its), len(sets))
	}
	apply(set("a", "2"), set("d", "2"), kv.RowMutation{Key: []byte("c"), Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}})
	want := []string{"a=1 c=1", "b=1 c=1 m=1", "a=1 b=1 c=1 m=1"}
	for i, it := range its {
		var got []string
		for it.Next() {
			r := it.Row()
			got = append(got, fmt.Sprintf("%s=%s", r.Key, r.Cells[0].Value))
		}
		if err := it.Err(); err != nil {
			t.Fatal(err)
		}
		it.Close()
		if g := strings.Join(got, " "); g != want[i] {
			t.Errorf("set %d: read %q, want %q (the snapshot of the call)", i, g, want[i])
		}
	}
	// A later ReadMulti sees the write; an empty list gives no iterators.
	its = mr.ReadMulti(ctx, []kv.RowSet{{Keys: [][]byte{[]byte("a"), []byte("c"), []byte("d")}}}, kv.ReadOptions{})
	var got []string
	for its[0].Next() {
		r := its[0].Row()
		got = append(got, fmt.Sprintf("%s=%s", r.Key, r.Cells[0].Value))
	}
	its[0].Close()
	if g := strings.Join(got, " "); g != "a=2 d=2" {
		t.Errorf("after the write: read %q, want %q", g, "a=2 d=2")
	}
	if its := mr.ReadMulti(ctx, nil, kv.ReadOptions{}); len(its) != 0 {
		t.Errorf("ReadMulti(nil) returned %d iterators", len(its))
	}
}
