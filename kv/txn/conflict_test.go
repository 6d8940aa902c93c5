package txn

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/memstore"
)

func setKey(key, val string) []kv.RowMutation {
	return []kv.RowMutation{{Key: []byte(key), Mutations: []kv.Mutation{
		{Kind: kv.SetCell, Family: "a", Qualifier: []byte("q"), Timestamp: 1000, Value: []byte(val)}}}}
}

func newTestManager(t *testing.T) (*Manager, kv.Table) {
	t.Helper()
	store := memstore.New()
	ctx := context.Background()
	if err := store.CreateTable(ctx, "t", kv.TableSpec{Families: modelFams}); err != nil {
		t.Fatal(err)
	}
	live, _ := store.Table(ctx, "t")
	return NewManager(store, Options{}), live
}

func begin(t *testing.T, m *Manager) *Txn {
	t.Helper()
	tx, err := m.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

func TestConflictSameKey(t *testing.T) {
	ctx := context.Background()
	m, live := newTestManager(t)
	t1, t2 := begin(t, m), begin(t, m)
	if err := t1.Table("t", live, nil).Apply(ctx, setKey("k", "1")); err != nil {
		t.Fatal(err)
	}
	if err := t2.Table("t", live, nil).Apply(ctx, setKey("k", "2")); err != nil {
		t.Fatal(err)
	}
	if err := t1.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := t2.Commit(ctx); !errors.Is(err, ErrConflict) {
		t.Fatalf("second commit: %v, want ErrConflict", err)
	}
	if got := dump(t, live.Read(ctx, kv.RowSet{}, kv.ReadOptions{})); got != "k: a/q@1000=1\n" {
		t.Fatalf("store holds %q", got)
	}
}

func TestDisjointKeysCommit(t *testing.T) {
	ctx := context.Background()
	m, live := newTestManager(t)
	t1, t2 := begin(t, m), begin(t, m)
	_ = t1.Table("t", live, nil).Apply(ctx, setKey("a", "1"))
	_ = t2.Table("t", live, nil).Apply(ctx, setKey("b", "2"))
	if err := t1.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := t2.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if got := dump(t, live.Read(ctx, kv.RowSet{}, kv.ReadOptions{})); got != "a: a/q@1000=1\nb: a/q@1000=2\n" {
		t.Fatalf("store holds %q", got)
	}
}

func TestAutocommitAfterStartConflicts(t *testing.T) {
	ctx := context.Background()
	m, live := newTestManager(t)
	auto := m.Autocommit("t", live)
	// Before any transaction: no conflict with a later one.
	if err := auto.Apply(ctx, setKey("k", "0")); err != nil {
		t.Fatal(err)
	}
	tx := begin(t, m)
	ov := tx.Table("t", live, nil)
	if got := dump(t, ov.Read(ctx, kv.RowSet{}, kv.ReadOptions{})); got != "k: a/q@1000=0\n" {
		t.Fatalf("txn sees %q", got)
	}
	if err := auto.Apply(ctx, setKey("k", "auto")); err != nil {
		t.Fatal(err)
	}
	// Snapshot: the later autocommit write is invisible.
	if got := dump(t, ov.Read(ctx, kv.RowSet{}, kv.ReadOptions{})); got != "k: a/q@1000=0\n" {
		t.Fatalf("txn sees %q after a later write", got)
	}
	_ = ov.Apply(ctx, setKey("k", "tx"))
	if err := tx.Commit(ctx); !errors.Is(err, ErrConflict) {
		t.Fatalf("commit: %v, want ErrConflict", err)
	}
	// A read-only transaction never conflicts; a rolled-back one neither.
	tx = begin(t, m)
	_ = auto.Apply(ctx, setKey("k", "x"))
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if m.String() != "txn.Manager{next: 3, watermark: 3, live: 0, registered: 0}" {
		t.Fatalf("manager not pruned: %s", m)
	}
}

func TestSavepointRollback(t *testing.T) {
	ctx := context.Background()
	m, live := newTestManager(t)
	tx := begin(t, m)
	ov := tx.Table("t", live, nil)
	_ = ov.Apply(ctx, setKey("a", "1"))
	sp := tx.Savepoint()
	_ = ov.Apply(ctx, setKey("a", "2"))
	_ = ov.Apply(ctx, setKey("b", "2"))
	tx.RollbackTo(sp)
	if got := dump(t, ov.Read(ctx, kv.RowSet{}, kv.ReadOptions{})); got != "a: a/q@1000=1\n" {
		t.Fatalf("after RollbackTo: %q", got)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if got := dump(t, live.Read(ctx, kv.RowSet{}, kv.ReadOptions{})); got != "a: a/q@1000=1\n" {
		t.Fatalf("store holds %q", got)
	}
	if err := tx.Commit(ctx); !errors.Is(err, ErrDone) {
		t.Fatalf("second commit: %v", err)
	}
}

func TestWriteBufferBound(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	_ = store.CreateTable(ctx, "t", kv.TableSpec{Families: modelFams})
	live, _ := store.Table(ctx, "t")
	m := NewManager(store, Options{MaxWriteBytes: 4096})
	tx := begin(t, m)
	ov := tx.Table("t", live, nil)
	var err error
	for i := 0; err == nil && i < 1000; i++ {
		err = ov.Apply(ctx, setKey(fmt.Sprint(i), "0123456789"))
	}
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
	tx.Rollback()
}

// TestConcurrentCounters runs transactions incrementing shared counters
// and autocommit writers; with retries on ErrConflict no increment is lost.
// Run with -race.
func TestConcurrentCounters(t *testing.T) {
	ctx := context.Background()
	m, live := newTestManager(t)
	const keys, workers, perWorker = 3, 8, 40
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWorker {
				key := fmt.Sprint("c", (w+i)%keys)
				for {
					tx := begin(t, m)
					ov := tx.Table("t", live, modelFams)
					it := ov.Read(ctx, kv.RowSet{Keys: [][]byte{[]byte(key)}}, kv.ReadOptions{})
					n := 0
					if it.Next() {
						fmt.Sscan(string(it.Row().Cells[0].Value), &n)
					}
					it.Close()
					_ = ov.Apply(ctx, setKey(key, fmt.Sprint(n+1)))
					err := tx.Commit(ctx)
					if err == nil {
						break
					}
					if !errors.Is(err, ErrConflict) {
						t.Error(err)
						return
					}
				}
			}
		}()
		wg.Add(1)
		go func() { // autocommit writes to other keys, racing Begin
			defer wg.Done()
			auto := m.Autocommit("t", live)
			for i := range perWorker {
				_ = auto.Apply(ctx, setKey(fmt.Sprint("x", w, i), "v"))
			}
		}()
	}
	wg.Wait()
	total := 0
	it := live.Read(ctx, kv.RowSet{Ranges: []kv.KeyRange{{Start: []byte("c"), End: []byte("d")}}}, kv.ReadOptions{})
	for it.Next() {
		n := 0
		fmt.Sscan(string(it.Row().Cells[0].Value), &n)
		total += n
	}
	it.Close()
	if total != workers*perWorker {
		t.Fatalf("counters sum to %d, want %d", total, workers*perWorker)
	}
}
