package txn

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/internal/kvtest"
	"github.com/widesql/widesql/kv/memstore"
)

// noSnapshots hides the store's kv.Snapshotter: transactions over it read
// committed.
type noSnapshots struct{ kv.Store }

func newMultiReadTable(t *testing.T, store kv.Store) kv.Table {
	t.Helper()
	ctx := context.Background()
	if err := store.CreateTable(ctx, "m", kv.TableSpec{Families: []kv.Family{{Name: "f"}}}); err != nil {
		t.Fatal(err)
	}
	live, err := store.Table(ctx, "m")
	if err != nil {
		t.Fatal(err)
	}
	return live
}

// TestMultiRead runs the kv.MultiReader conformance test on the overlay
// (its own buffered writes are the writes it must not see), with and
// without a store snapshot, and on the autocommit handle.
func TestMultiRead(t *testing.T) {
	for _, tc := range []struct {
		name  string
		store func() kv.Store
	}{
		{"snapshot", func() kv.Store { return memstore.New() }},
		{"read-committed", func() kv.Store { return noSnapshots{memstore.New()} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := tc.store()
			defer store.Close()
			live := newMultiReadTable(t, store)
			m := NewManager(store, Options{})
			tx := begin(t, m)
			defer tx.Rollback()
			kvtest.RunMultiRead(t, tx.Table("m", live, []kv.Family{{Name: "f"}}))
		})
	}
	t.Run("autocommit", func(t *testing.T) {
		store := memstore.New()
		defer store.Close()
		live := newMultiReadTable(t, store)
		kvtest.RunMultiRead(t, NewManager(store, Options{}).Autocommit("m", live))
	})
	t.Run("done", func(t *testing.T) {
		store := memstore.New()
		live := newMultiReadTable(t, store)
		tx := begin(t, NewManager(store, Options{}))
		ov := tx.Table("m", live, nil).(kv.MultiReader)
		tx.Rollback()
		its := ov.ReadMulti(context.Background(), []kv.RowSet{{}, {}}, kv.ReadOptions{})
		if len(its) != 2 || its[0].Next() || !errors.Is(its[1].Err(), ErrDone) {
			t.Fatalf("ReadMulti after Rollback: %d iterators, err %v", len(its), its[1].Err())
		}
	})
}

// TestOverlayColumnCondition: RequireColumn is checked against the
// snapshot plus buffered writes, and again by the store at Commit, where a
// concurrent change that breaks it is a conflict.
func TestOverlayColumnCondition(t *testing.T) {
	ctx := context.Background()
	m, live := newTestManager(t)
	col := func(q string) *kv.Column { return &kv.Column{Family: "a", Qualifier: []byte(q)} }
	put := func(q string, req kv.Precondition, c *kv.Column) []kv.RowMutation {
		return []kv.RowMutation{{Key: []byte("k"), Require: req, RequireColumn: c, Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "a", Qualifier: []byte(q), Timestamp: 1000, Value: []byte(q)}}}}
	}
	if err := live.Apply(ctx, put("x", kv.NoPrecondition, nil)); err != nil {
		t.Fatal(err)
	}
	tx := begin(t, m)
	ov := tx.Table("t", live, modelFams)
	if err := ov.Apply(ctx, put("y", kv.RequireAbsent, col("y"))); err != nil {
		t.Fatalf("absent y over the snapshot: %v", err)
	}
	var ce *kv.ConditionError
	if err := ov.Apply(ctx, put("y", kv.RequireAbsent, col("y"))); !errors.As(err, &ce) {
		t.Fatalf("absent y over the buffered write: %v, want a ConditionError", err)
	}
	if err := ov.Apply(ctx, put("z", kv.RequirePresent, col("x"))); err != nil {
		t.Fatalf("present x from the snapshot: %v", err)
	}
	// Another writer sets y first: the store's check at commit fails.
	if err := m.Autocommit("t", live).Apply(ctx, put("y", kv.NoPrecondition, nil)); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); !errors.Is(err, ErrConflict) {
		t.Fatalf("commit: %v, want ErrConflict", err)
	}
}

// TestOverlayTTL: cells past their family's TTL are invisible in the
// overlay as in the store, buffered or not, and do not make a row or
// column present.
func TestOverlayTTL(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	fams := []kv.Family{{Name: "a", TTL: time.Hour}}
	if err := store.CreateTable(ctx, "t", kv.TableSpec{Families: fams}); err != nil {
		t.Fatal(err)
	}
	live, _ := store.Table(ctx, "t")
	const future = kv.Timestamp(9000000000000000)
	set := func(key, q string, ts kv.Timestamp, req kv.Precondition) []kv.RowMutation {
		return []kv.RowMutation{{Key: []byte(key), Require: req, Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "a", Qualifier: []byte(q), Timestamp: ts, Value: []byte(q)}}}}
	}
	if err := live.Apply(ctx, set("s", "old", 1000, kv.NoPrecondition)); err != nil {
		t.Fatal(err)
	}
	tx := begin(t, NewManager(store, Options{}))
	defer tx.Rollback()
	ov := tx.Table("t", live, fams)
	for _, b := range [][]kv.RowMutation{
		set("b", "old", 2000, kv.NoPrecondition),
		set("b", "new", future, kv.NoPrecondition),
		set("s", "new", future, kv.RequireAbsent), // only expired cells: absent
	} {
		if err := ov.Apply(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	got := dump(t, ov.Read(ctx, kv.RowSet{}, kv.ReadOptions{MaxVersions: 9}))
	if want := "b: a/new@9000000000000000=new\ns: a/new@9000000000000000=new\n"; got != want {
		t.Fatalf("overlay read:\n%s\nwant:\n%s", got, want)
	}
}
