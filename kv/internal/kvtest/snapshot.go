package kvtest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/widesql/widesql/kv"
)

// RunSnapshot is the conformance test of kv.Snapshotter. store must be
// empty and implement it. settle, if set, runs engine maintenance (flush,
// compaction) between steps: a snapshot must survive it unchanged.
func RunSnapshot(t *testing.T, store kv.Store, settle func(t *testing.T)) {
	ctx := context.Background()
	sn, ok := store.(kv.Snapshotter)
	if !ok {
		t.Fatalf("%T is not a kv.Snapshotter", store)
	}
	spec := kv.TableSpec{Families: []kv.Family{{Name: "f", MaxVersions: 1}}}
	for _, name := range []string{"t1", "t2"} {
		if err := store.CreateTable(ctx, name, spec); err != nil {
			t.Fatal(err)
		}
	}
	set := func(table, key, val string, ts kv.Timestamp) {
		t.Helper()
		tbl, err := store.Table(ctx, table)
		if err != nil {
			t.Fatal(err)
		}
		err = tbl.Apply(ctx, []kv.RowMutation{{Key: []byte(key), Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "f", Qualifier: []byte("q"), Timestamp: ts, Value: []byte(val)}}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	del := func(table, key string) {
		tbl, _ := store.Table(ctx, table)
		if err := tbl.Apply(ctx, []kv.RowMutation{{Key: []byte(key), Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}}}); err != nil {
			t.Fatal(err)
		}
	}
	read := func(s kv.Snapshot, table string) string {
		t.Helper()
		it := s.Read(ctx, table, kv.RowSet{}, kv.ReadOptions{})
		defer it.Close()
		var b strings.Builder
		for it.Next() {
			r := it.Row()
			fmt.Fprintf(&b, "%s=%s ", r.Key, r.Cells[0].Value)
		}
		if err := it.Err(); err != nil {
			return "error: " + err.Error()
		}
		return strings.TrimSpace(b.String())
	}
	if settle == nil {
		settle = func(*testing.T) {}
	}

	set("t1", "a", "1", 1000)
	set("t1", "b", "1", 1000)
	set("t2", "x", "1", 1000)
	settle(t)
	s1, err := sn.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Later writes, overwrites with newer versions, deletes and a new
	// table are invisible to s1, on every table, across maintenance.
	set("t1", "a", "2", 2000)
	del("t1", "b")
	set("t1", "c", "2", 2000)
	set("t2", "x", "2", 2000)
	if err := store.CreateTable(ctx, "t3", spec); err != nil {
		t.Fatal(err)
	}
	set("t3", "z", "2", 2000)
	for round := range 2 {
		if got := read(s1, "t1"); got != "a=1 b=1" {
			t.Fatalf("round %d: s1 t1 = %q", round, got)
		}
		if got := read(s1, "t2"); got != "x=1" {
			t.Fatalf("round %d: s1 t2 = %q", round, got)
		}
		if got := read(s1, "t3"); !strings.Contains(got, kv.ErrTableNotFound.Error()) {
			t.Fatalf("round %d: s1 t3 = %q, want table not found", round, got)
		}
		settle(t)
	}
	s2, err := sn.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := read(s2, "t1"); got != "a=2 c=2" {
		t.Fatalf("s2 t1 = %q", got)
	}
	// An iterator opened before Release may be drained after it.
	it := s1.Read(ctx, "t1", kv.RowSet{}, kv.ReadOptions{})
	s1.Release()
	s1.Release()
	n := 0
	for it.Next() {
		n++
	}
	if it.Err() != nil || n != 2 {
		t.Fatalf("iterator across Release: %d rows, err %v", n, it.Err())
	}
	it.Close()
	it = s1.Read(ctx, "t1", kv.RowSet{}, kv.ReadOptions{})
	if it.Next() || !errors.Is(it.Err(), kv.ErrClosed) {
		t.Fatalf("read after Release: err %v, want ErrClosed", it.Err())
	}
	it.Close()
	s2.Release()
}
