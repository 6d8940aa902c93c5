package memstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/widesql/widesql/kv"
)

func newTestTable(t testing.TB, s *Store) kv.Table {
	t.Helper()
	ctx := context.Background()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "f"}}}); err != nil {
		t.Fatal(err)
	}
	tbl, err := s.Table(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

func set(key []byte, val string) kv.RowMutation {
	return kv.RowMutation{Key: key, Mutations: []kv.Mutation{{Kind: kv.SetCell, Family: "f", Qualifier: []byte("q"), Timestamp: 1000, Value: []byte(val)}}}
}

func rowKey(i int) []byte { return fmt.Appendf(nil, "row%06d", i) }

// TestSnapshotIsolation checks that a scan started before writes sees none
// of them, even when it is mid-way through the rows they touch.
func TestSnapshotIsolation(t *testing.T) {
	ctx := context.Background()
	tbl := newTestTable(t, New())
	tbl.(*Table).fillSize = 4 // the writes land between seeks
	var batch []kv.RowMutation
	for i := 0; i < 100; i += 2 {
		batch = append(batch, set(rowKey(i), "old"))
	}
	if err := tbl.Apply(ctx, batch); err != nil {
		t.Fatal(err)
	}
	it := tbl.Read(ctx, kv.RowSet{}, kv.ReadOptions{})
	defer it.Close()
	if !it.Next() {
		t.Fatal(it.Err())
	}
	var writes []kv.RowMutation
	for i := 0; i < 100; i++ {
		if i%2 == 1 {
			writes = append(writes, set(rowKey(i), "new")) // new rows between old ones
		} else if i%4 == 0 {
			writes = append(writes, set(rowKey(i), "new")) // overwrites
		} else {
			writes = append(writes, kv.RowMutation{Key: rowKey(i), Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}})
		}
	}
	if err := tbl.Apply(ctx, writes); err != nil {
		t.Fatal(err)
	}
	n := 1
	for it.Next() {
		r := it.Row()
		if want := rowKey(2 * n); !bytes.Equal(r.Key, want) || string(r.Cells[0].Value) != "old" {
			t.Fatalf("row %d: got %s=%s, want %s=old", n, r.Key, r.Cells[0].Value, want)
		}
		n++
	}
	if it.Err() != nil || n != 50 {
		t.Fatalf("saw %d rows, err %v", n, it.Err())
	}
	// A new read sees the writes.
	rows, _ := drain(t, tbl.Read(ctx, kv.RowSet{}, kv.ReadOptions{}))
	if len(rows) != 75 {
		t.Fatalf("after writes: %d rows, want 75", len(rows))
	}
}

// TestConcurrentReadersWriters runs writers that each rewrite a group of
// rows atomically and readers that check every snapshot shows each group
// with a single value. Run it with -race.
func TestConcurrentReadersWriters(t *testing.T) {
	ctx := context.Background()
	s := New()
	tbl := newTestTable(t, s)
	const writers, readers, groups, groupSize, rounds = 4, 4, 8, 16, 200
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range rounds {
				g := (w + i) % groups
				var batch []kv.RowMutation
				for j := range groupSize {
					batch = append(batch, set(rowKey(g*groupSize+j), fmt.Sprintf("w%d-%d", w, i)))
				}
				if i%10 == 0 {
					batch[0].Require = kv.RequireAbsent // fails once the group exists
				}
				if err := tbl.Apply(ctx, batch); err != nil && !errors.Is(err, kv.ErrConditionFailed) {
					t.Error(err)
					return
				}
			}
		})
	}
	for range readers {
		wg.Go(func() {
			for range rounds {
				it := tbl.Read(ctx, kv.RowSet{}, kv.ReadOptions{})
				values := map[int]string{}
				rows := map[int]int{}
				for it.Next() {
					r := it.Row()
					var i int
					fmt.Sscanf(string(r.Key), "row%d", &i)
					g := i / groupSize
					rows[g]++
					if v, ok := values[g]; ok && v != string(r.Cells[0].Value) {
						t.Errorf("group %d torn: %s and %s", g, v, r.Cells[0].Value)
					}
					values[g] = string(r.Cells[0].Value)
				}
				if err := it.Close(); err != nil || it.Err() != nil {
					t.Error(err, it.Err())
				}
				for g, n := range rows {
					if n != groupSize {
						t.Errorf("group %d has %d rows", g, n)
					}
				}
			}
		})
	}
	wg.Go(func() { // table-level churn alongside
		for i := range rounds {
			name := fmt.Sprintf("x%d", i%3)
			_ = s.CreateTable(ctx, name, kv.TableSpec{})
			_, _ = s.ListTables(ctx)
			_ = s.DropTable(ctx, name)
		}
	})
	wg.Wait()
}

func TestHandlesAfterDropAndClose(t *testing.T) {
	ctx := context.Background()
	s := New()
	tbl := newTestTable(t, s)
	if err := tbl.Apply(ctx, []kv.RowMutation{set([]byte("k"), "v")}); err != nil {
		t.Fatal(err)
	}
	open := tbl.Read(ctx, kv.RowSet{}, kv.ReadOptions{})
	if err := s.DropTable(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if !open.Next() || string(open.Row().Key) != "k" {
		t.Fatal("an open iterator keeps its snapshot after DropTable")
	}
	open.Close()
	if err := tbl.Apply(ctx, []kv.RowMutation{set([]byte("k"), "v")}); !errors.Is(err, kv.ErrTableNotFound) {
		t.Fatalf("apply on dropped table: %v", err)
	}
	if it := tbl.Read(ctx, kv.RowSet{}, kv.ReadOptions{}); it.Next() || !errors.Is(it.Err(), kv.ErrTableNotFound) {
		t.Fatalf("read on dropped table: %v", it.Err())
	}
	tbl = newTestTable(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Apply(ctx, []kv.RowMutation{set([]byte("k"), "v")}); !errors.Is(err, kv.ErrClosed) {
		t.Fatalf("apply after close: %v", err)
	}
	if _, err := s.Table(ctx, "t"); !errors.Is(err, kv.ErrClosed) {
		t.Fatalf("table after close: %v", err)
	}
}

func TestReadCancelled(t *testing.T) {
	tbl := newTestTable(t, New())
	var batch []kv.RowMutation
	for i := range 1000 {
		batch = append(batch, set(rowKey(i), "v"))
	}
	if err := tbl.Apply(context.Background(), batch); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	it := tbl.Read(ctx, kv.RowSet{}, kv.ReadOptions{})
	defer it.Close()
	n := 0
	for it.Next() {
		if n++; n == 10 {
			cancel()
		}
	}
	if !errors.Is(it.Err(), context.Canceled) || n > 10+ctxCheckInterval {
		t.Fatalf("after %d rows: %v", n, it.Err())
	}
	if err := tbl.Apply(ctx, batch[:1]); !errors.Is(err, context.Canceled) {
		t.Fatalf("apply with cancelled ctx: %v", err)
	}
}

// TestReadAllocs checks the scan path does not allocate per row or cell.
func TestReadAllocs(t *testing.T) {
	ctx := context.Background()
	tbl := newTestTable(t, New())
	var batch []kv.RowMutation
	for i := range 20000 {
		batch = append(batch, set(rowKey(i), "v"))
	}
	if err := tbl.Apply(ctx, batch); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(10, func() {
		it := tbl.Read(ctx, kv.RowSet{}, kv.ReadOptions{})
		for it.Next() {
		}
		it.Close()
	})
	t.Logf("full scan of 20000 rows: %.0f allocs", allocs)
	if allocs > 20 {
		t.Fatalf("full scan of 20000 rows: %.0f allocs", allocs)
	}
}
