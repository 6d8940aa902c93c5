package txn

import (
	"context"
	"fmt"
	"testing"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/memstore"
)

func TestRedoRoundTrip(t *testing.T) {
	in := []redoBatch{
		{table: "a", rows: []kv.RowMutation{{Key: []byte("k1"), Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "d", Qualifier: []byte{1}, Value: []byte("v"), Timestamp: 5000},
			{Kind: kv.DeleteCells, Family: "d", Qualifier: []byte{2}, Start: 1000, End: 2000},
		}}}},
		{table: "b", rows: []kv.RowMutation{{Key: []byte("k2"), Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}}}},
	}
	enc := encodeRedo(in)
	out, err := decodeRedo(enc)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(out) != fmt.Sprint(in) {
		t.Fatalf("round trip:\n got %v\nwant %v", out, in)
	}
	for i := 0; i < len(enc); i++ {
		if _, err := decodeRedo(enc[:i]); err == nil {
			t.Fatalf("decoding a record cut at %d of %d bytes succeeded", i, len(enc))
		}
	}
}

// TestRecoverCompletesCutCommit simulates a crash between the batches of a
// two-table commit: the redo record and the first table's batch are in the
// store, the second's is not. Recover must complete it and remove the
// record; a second Recover finds nothing.
func TestRecoverCompletesCutCommit(t *testing.T) {
	ctx := context.Background()
	s := memstore.New()
	for _, name := range []string{"a", "b"} {
		if err := s.CreateTable(ctx, name, kv.TableSpec{Families: []kv.Family{{Name: "d"}}}); err != nil {
			t.Fatal(err)
		}
	}
	set := func(key, val string) kv.RowMutation {
		return kv.RowMutation{Key: []byte(key), Mutations: []kv.Mutation{{Kind: kv.SetCell, Family: "d", Value: []byte(val), Timestamp: 7000}}}
	}
	batches := []redoBatch{{table: "a", rows: []kv.RowMutation{set("x", "1")}}, {table: "b", rows: []kv.RowMutation{set("y", "2")}}}
	m := NewManager(s, Options{})
	if _, err := m.writeRedo(ctx, batches); err != nil {
		t.Fatal(err)
	}
	ta, _ := s.Table(ctx, "a")
	if err := ta.Apply(ctx, batches[0].rows); err != nil {
		t.Fatal(err)
	}
	// "Restart": a new manager over the same store.
	m2 := NewManager(s, Options{})
	n, err := m2.Recover(ctx)
	if err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v; want 1 record", n, err)
	}
	for _, name := range []string{"a", "b"} {
		tb, _ := s.Table(ctx, name)
		it := tb.Read(ctx, kv.RowSet{}, kv.ReadOptions{})
		rows := 0
		for it.Next() {
			rows++
		}
		it.Close()
		if rows != 1 {
			t.Errorf("table %s has %d rows after recovery, want 1", name, rows)
		}
	}
	if n, err := NewManager(s, Options{}).Recover(ctx); err != nil || n != 0 {
		t.Fatalf("second Recover = %d, %v; want nothing left", n, err)
	}
}

// TestMultiTableCommitLeavesNoRedo checks the normal path: a commit over
// two tables applies both and deletes its redo record.
func TestMultiTableCommitLeavesNoRedo(t *testing.T) {
	ctx := context.Background()
	s := memstore.New()
	for _, name := range []string{"a", "b"} {
		if err := s.CreateTable(ctx, name, kv.TableSpec{Families: []kv.Family{{Name: "d"}}}); err != nil {
			t.Fatal(err)
		}
	}
	m := NewManager(s, Options{})
	tx, err := m.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b"} {
		live, _ := s.Table(ctx, name)
		tb := tx.Table(name, live, nil)
		if err := tb.Apply(ctx, []kv.RowMutation{{Key: []byte("k"), Mutations: []kv.Mutation{{Kind: kv.SetCell, Family: "d", Value: []byte(name), Timestamp: 1000}}}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	redo, err := s.Table(ctx, RedoTable)
	if err != nil {
		t.Fatalf("a two-table commit did not use the redo table: %v", err)
	}
	it := redo.Read(ctx, kv.RowSet{}, kv.ReadOptions{})
	defer it.Close()
	if it.Next() {
		t.Errorf("redo record left after a successful commit: %x", it.Row().Key)
	}
}
