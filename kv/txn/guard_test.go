package txn

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/widesql/widesql/kv"
)

func guard(t *testing.T, m *Manager) *Guard {
	t.Helper()
	g, err := m.Guard(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestGuardConflicts: a write to the guarded row by any kind of writer
// after Guard makes Apply fail with ErrConflict and apply nothing.
func TestGuardConflicts(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		write func(t *testing.T, m *Manager, live kv.Table) // writes k = "other" after Guard
	}{
		{"autocommit", func(t *testing.T, m *Manager, live kv.Table) {
			if err := m.Autocommit("t", live).Apply(ctx, setKey("k", "other")); err != nil {
				t.Fatal(err)
			}
		}},
		{"transaction", func(t *testing.T, m *Manager, live kv.Table) {
			tx := begin(t, m)
			_ = tx.Table("t", live, nil).Apply(ctx, setKey("k", "other"))
			if err := tx.Commit(ctx); err != nil {
				t.Fatal(err)
			}
		}},
		{"guard", func(t *testing.T, m *Manager, live kv.Table) {
			g := guard(t, m)
			defer g.Release()
			if err := g.Apply(ctx, "t", live, setKey("k", "other")); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, live := newTestManager(t)
			if err := m.Autocommit("t", live).Apply(ctx, setKey("k", "0")); err != nil {
				t.Fatal(err)
			}
			g := guard(t, m)
			c.write(t, m, live)
			err := g.Table("t", live).Apply(ctx, setKey("k", "guarded"))
			if !errors.Is(err, ErrConflict) {
				t.Fatalf("Apply: %v, want ErrConflict", err)
			}
			g.Release()
			if got := dump(t, live.Read(ctx, kv.RowSet{}, kv.ReadOptions{})); got != "k: a/q@1000=other\n" {
				t.Fatalf("store holds %q", got)
			}
			if got := m.String(); got != "txn.Manager{next: 2, watermark: 2, live: 0, registered: 0}" {
				t.Fatalf("manager after Release: %s", got)
			}
		})
	}
}

// TestGuardNoConflict: writes before the Guard, to other rows, or of the
// Guard's own earlier Apply do not conflict; a transaction that started
// before the Guard and writes its row after the Guard's Apply does.
func TestGuardNoConflict(t *testing.T) {
	ctx := context.Background()
	m, live := newTestManager(t)
	auto := m.Autocommit("t", live)
	_ = auto.Apply(ctx, setKey("k", "0"))
	tx := begin(t, m) // live throughout: the Guard's commits are registered
	g := guard(t, m)
	if got := dump(t, live.Read(ctx, kv.RowSet{}, kv.ReadOptions{})); got != "k: a/q@1000=0\n" {
		t.Fatalf("guarded read sees %q", got)
	}
	_ = auto.Apply(ctx, setKey("other", "x"))
	gt := g.Table("t", live)
	if err := gt.Apply(ctx, setKey("k", "1")); err != nil {
		t.Fatalf("first Apply: %v", err)
	}
	if err := gt.Apply(ctx, setKey("k", "2")); err != nil {
		t.Fatalf("second Apply of the same row: %v", err)
	}
	g.Release()
	if err := g.Apply(ctx, "t", live, setKey("k", "3")); !errors.Is(err, ErrDone) {
		t.Fatalf("Apply after Release: %v, want ErrDone", err)
	}
	_ = tx.Table("t", live, nil).Apply(ctx, setKey("k", "tx"))
	if err := tx.Commit(ctx); !errors.Is(err, ErrConflict) {
		t.Fatalf("transaction commit: %v, want ErrConflict", err)
	}
	if got := dump(t, live.Read(ctx, kv.RowSet{}, kv.ReadOptions{})); got != "k: a/q@1000=2\nother: a/q@1000=x\n" {
		t.Fatalf("store holds %q", got)
	}
	if got := m.String(); got != "txn.Manager{next: 4, watermark: 4, live: 0, registered: 0}" {
		t.Fatalf("manager: %s", got)
	}
}

// TestGuardPrecondition: Apply returns the live table's precondition
// failure as it is, and the Manager stays consistent.
func TestGuardPrecondition(t *testing.T) {
	ctx := context.Background()
	m, live := newTestManager(t)
	g := guard(t, m)
	batch := setKey("absent", "1")
	batch[0].Require = kv.RequirePresent
	if err := g.Apply(ctx, "t", live, batch); !errors.Is(err, kv.ErrConditionFailed) {
		t.Fatalf("Apply: %v, want kv.ErrConditionFailed", err)
	}
	g.Release()
	g.Release() // twice is fine
	if got := m.String(); got != "txn.Manager{next: 1, watermark: 1, live: 0, registered: 0}" {
		t.Fatalf("manager: %s", got)
	}
	tx := begin(t, m) // Begin does not wait forever on the failed commit
	tx.Rollback()
}

// TestStartGuardReuse: a released Guard value starts again, at the
// current watermark; a live one does not.
func TestStartGuardReuse(t *testing.T) {
	ctx := context.Background()
	m, live := newTestManager(t)
	var g Guard
	for i := range 3 {
		if err := m.StartGuard(ctx, &g); err != nil {
			t.Fatal(err)
		}
		if err := m.StartGuard(ctx, &g); err == nil {
			t.Fatal("StartGuard of a live Guard succeeded")
		}
		if err := g.Apply(ctx, "t", live, setKey("k", fmt.Sprint(i))); err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		g.Release()
	}
	if got := m.String(); got != "txn.Manager{next: 3, watermark: 3, live: 0, registered: 0}" {
		t.Fatalf("manager: %s", got)
	}
}

// TestGuardConcurrentIncrements: guarded read-modify-writes and
// transactions increment shared counters while autocommit writers and
// guarded blind writers hit other rows; with a retry on ErrConflict no
// increment is lost. Run with -race.
func TestGuardConcurrentIncrements(t *testing.T) {
	ctx := context.Background()
	m, live := newTestManager(t)
	const keys, workers, perWorker = 2, 6, 60
	read := func(tb kv.Table, key string) int {
		it := tb.Read(ctx, kv.RowSet{Keys: [][]byte{[]byte(key)}}, kv.ReadOptions{})
		defer it.Close()
		n := 0
		if it.Next() {
			fmt.Sscan(string(it.Row().Cells[0].Value), &n)
		}
		return n
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWorker {
				key := fmt.Sprint("c", (w+i)%keys)
				for attempt := 0; ; attempt++ {
					var err error
					if w%3 == 2 { // a transaction
						tx := begin(t, m)
						ov := tx.Table("t", live, modelFams)
						_ = ov.Apply(ctx, setKey(key, fmt.Sprint(read(ov, key)+1)))
						err = tx.Commit(ctx)
					} else { // a Guard
						g := guard(t, m)
						n := read(live, key)
						runtime.Gosched() // let racers in between the read and the write
						err = g.Apply(ctx, "t", live, setKey(key, fmt.Sprint(n+1)))
						g.Release()
					}
					if err == nil {
						break
					}
					if !errors.Is(err, ErrConflict) || attempt > 10000 {
						t.Error(err)
						return
					}
				}
			}
		}()
		wg.Add(1)
		go func() { // writes to other rows, racing Guard and Begin
			defer wg.Done()
			auto := m.Autocommit("t", live)
			for i := range perWorker {
				if i%2 == 0 {
					_ = auto.Apply(ctx, setKey(fmt.Sprint("x", w, i), "v"))
					continue
				}
				g := guard(t, m)
				if err := g.Apply(ctx, "t", live, setKey(fmt.Sprint("y", w, i), "v")); err != nil {
					t.Error(err)
				}
				g.Release()
			}
		}()
	}
	wg.Wait()
	total := 0
	for k := range keys {
		total += read(live, fmt.Sprint("c", k))
	}
	if total != workers*perWorker {
		t.Fatalf("counters sum to %d, want %d", total, workers*perWorker)
	}
	if got := m.String(); !strings.HasSuffix(got, "live: 0, registered: 0}") {
		t.Fatalf("manager after the run: %s", got)
	}
}
