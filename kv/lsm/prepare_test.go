package lsm

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// TestPreconditionFastPath checks prepare's absence shortcut (absence)
// against a model: rows of a small key space are written, deleted,
// flushed into files (of a family with a bloom filter and one without),
// compacted and split into regions, and batches of RequireAbsent and
// RequirePresent rows, sorted (the range and per-row checks) or not (the
// simulation of earlier rows of the same key), must fail at exactly the
// first row whose precondition the model says fails, or apply.
func TestPreconditionFastPath(t *testing.T) {
	ctx := context.Background()
	s, err := Open("db", Options{FS: vfs.NewMem(), MemtableSize: 8 << 10, BlockSize: 256})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	spec := kv.TableSpec{Families: []kv.Family{{Name: "a"}, {Name: "b", Bloom: "none"}}}
	if err := s.CreateTable(ctx, "t", spec); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	rng := rand.New(rand.NewPCG(11, 12))
	present := map[string]bool{}
	key := func() string { return fmt.Sprintf("k%04d", rng.IntN(3000)) }
	set := func(k string) kv.RowMutation {
		fam := []string{"a", "b"}[rng.IntN(2)]
		return kv.RowMutation{Key: []byte(k), Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: fam, Qualifier: []byte("q"), Timestamp: 1000, Value: []byte(k)}}}
	}
	split := 0
	var fastChecks, conflicts int
	for round := range 400 {
		switch op := rng.IntN(10); {
		case op < 3: // plain writes and deletes
			var batch []kv.RowMutation
			for range 1 + rng.IntN(40) {
				k := key()
				if rng.IntN(4) == 0 {
					batch = append(batch, kv.RowMutation{Key: []byte(k), Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}})
					present[k] = false
				} else {
					batch = append(batch, set(k))
					present[k] = true
				}
			}
			// A batch may repeat a key: the model applies rows in order.
			if err := tbl.Apply(ctx, batch); err != nil {
				t.Fatal(err)
			}
		case op == 3:
			if err := s.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		case op == 4 && round%40 == 0:
			if err := s.Compact(ctx); err != nil {
				t.Fatal(err)
			}
		case op == 4 && split < 3:
			split++
			if err := s.Split(ctx, "t", [][]byte{[]byte(fmt.Sprintf("k%d", split*7))}); err != nil {
				t.Fatal(err)
			}
		default: // a conditional batch
			var batch []kv.RowMutation
			n := 1 + rng.IntN(60)
			if rng.IntN(3) == 0 { // a fresh range above every key
				base := 5000 + round*100
				for i := range n {
					batch = append(batch, set(fmt.Sprintf("k%04d", base+i)))
				}
			} else {
				for range n {
					batch = append(batch, set(key()))
				}
			}
			sorted := rng.IntN(2) == 0
			if sorted {
				slices.SortFunc(batch, func(x, y kv.RowMutation) int { return bytesCompare(x.Key, y.Key) })
				batch = slices.CompactFunc(batch, func(x, y kv.RowMutation) bool { return string(x.Key) == string(y.Key) })
			}
			// Each row gets the precondition the model says holds, or
			// none; half the batches get one wrong one.
			wrong := -1
			if rng.IntN(2) == 0 {
				wrong = rng.IntN(len(batch))
			}
			want := -1
			sim := map[string]bool{}
			for i := range batch {
				k := string(batch[i].Key)
				now, ok := sim[k]
				if !ok {
					now = present[k]
				}
				if rng.IntN(3) > 0 || i == wrong {
					if now != (i == wrong) {
						batch[i].Require = kv.RequirePresent
					} else {
						batch[i].Require = kv.RequireAbsent
					}
				}
				if want < 0 && i == wrong {
					want = i
				}
				sim[k] = true
			}
			err := tbl.Apply(ctx, batch)
			var ce *kv.ConditionError
			switch {
			case want < 0 && err != nil:
				t.Fatalf("round %d: batch of %d rows (sorted %v) failed: %v", round, len(batch), sorted, err)
			case want >= 0 && !errors.As(err, &ce):
				t.Fatalf("round %d: row %d (%s) should fail its precondition; got %v", round, want, batch[want].Key, err)
			case want >= 0 && (ce.Index != want || string(ce.Key) != string(batch[want].Key)):
				t.Fatalf("round %d: failed at row %d (%s), want row %d (%s)", round, ce.Index, ce.Key, want, batch[want].Key)
			}
			if want >= 0 {
				conflicts++
				continue
			}
			fastChecks++
			for k := range sim {
				present[k] = true
			}
		}
	}
	if fastChecks < 50 || conflicts < 50 {
		t.Fatalf("only %d applied and %d failed conditional batches", fastChecks, conflicts)
	}
	// The model and the store agree on every row.
	got := scanKeys(t, tbl, false)
	var want []string
	for k, p := range present {
		if p {
			want = append(want, k)
		}
	}
	slices.Sort(want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("rows differ from the model: %d rows, want %d", len(got), len(want))
	}
}

func bytesCompare(a, b []byte) int {
	switch {
	case string(a) < string(b):
		return -1
	case string(a) > string(b):
		return 1
	}
	return 0
}

// TestRowPresentMatchesRead checks rowPresent, prepare's presence check
// for preconditions, against the general path (readRowCells, then
// hasLiveCell) on rows whose versions and tombstones (DeleteRow,
// DeleteFamily, DeleteCells ranges, each newer or older than the cells)
// are spread over the memtable, immutable memtables and files, with a TTL
// family whose old cells have expired, for the whole row and per column.
func TestRowPresentMatchesRead(t *testing.T) {
	ctx := context.Background()
	s, err := Open("db", Options{FS: vfs.NewMem(), MemtableSize: 4 << 10, BlockSize: 256})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	spec := kv.TableSpec{Families: []kv.Family{{Name: "a", MaxVersions: 1}, {Name: "b", Bloom: "none"},
		{Name: "c", TTL: time.Hour}}}
	if err := s.CreateTable(ctx, "t", spec); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	h := tbl.(*Table)
	rng := rand.New(rand.NewPCG(21, 22))
	now := int64(kv.Now())
	fams := []string{"a", "b", "c"}
	quals := [][]byte{{0}, []byte("q"), []byte("r\x00s")}
	ts := func() kv.Timestamp {
		// Recent, or two hours old (expired in c).
		if rng.IntN(4) == 0 {
			return kv.Timestamp(now - 2*3600e6 - int64(rng.IntN(100))*1000)
		}
		return kv.Timestamp(now - int64(rng.IntN(100))*1000)
	}
	mutation := func() kv.Mutation {
		f, q := fams[rng.IntN(3)], quals[rng.IntN(3)]
		switch rng.IntN(10) {
		case 0:
			return kv.Mutation{Kind: kv.DeleteRow}
		case 1:
			return kv.Mutation{Kind: kv.DeleteFamily, Family: f}
		case 2:
			a, b := ts(), ts()
			return kv.Mutation{Kind: kv.DeleteCells, Family: f, Qualifier: q, Start: min(a, b), End: max(a, b) + 1000*kv.Timestamp(rng.IntN(2))}
		case 3:
			return kv.Mutation{Kind: kv.DeleteCells, Family: f, Qualifier: q}
		default:
			return kv.Mutation{Kind: kv.SetCell, Family: f, Qualifier: q, Timestamp: ts(), Value: []byte("v")}
		}
	}
	const keys = 40
	key := func(i int) []byte { return fmt.Appendf(nil, "r%02d", i) }
	var checks, present, presentCol int
	for round := range 300 {
		var batch []kv.RowMutation
		for range 1 + rng.IntN(8) {
			rm := kv.RowMutation{Key: key(rng.IntN(keys))}
			for range 1 + rng.IntN(3) {
				rm.Mutations = append(rm.Mutations, mutation())
			}
			batch = append(batch, rm)
		}
		if err := tbl.Apply(ctx, batch); err != nil {
			t.Fatal(err)
		}
		switch rng.IntN(12) {
		case 0:
			if err := s.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		case 1:
			if err := s.Compact(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if round%10 != 0 {
			continue
		}
		// Under commitMu, as prepare runs; errors are reported after
		// unlocking (Fatal would leave Close waiting for the mutex).
		s.commitMu.Lock()
		s.mu.Lock()
		regions := h.t.regions
		s.mu.Unlock()
		snap := s.lastSeq.Load()
		err := func() error {
			defer s.commitMu.Unlock()
			for i := range keys {
				cells, err := s.readRowCells(h.t, regions, key(i), snap)
				if err != nil {
					return err
				}
				cols := []*kv.Column{nil}
				for _, f := range fams {
					for _, q := range quals {
						cols = append(cols, &kv.Column{Family: f, Qualifier: q})
					}
				}
				for _, col := range cols {
					want := hasLiveCell(cells, col, h.t.families(), int64(kv.Now()))
					got, err := s.rowPresent(h.t, regions, key(i), col, snap)
					if err != nil {
						return err
					}
					if got != want {
						return fmt.Errorf("round %d: row %s column %v: rowPresent %v, read says %v (cells %v)", round, key(i), col, got, want, cells)
					}
					checks++
					if got && col == nil {
						present++
					} else if got {
						presentCol++
					}
				}
			}
			return nil
		}()
		if err != nil {
			t.Fatal(err)
		}
	}
	// Both answers must have been exercised.
	if checks < 5000 || present < 100 || present > checks/10-100 || presentCol < 100 {
		t.Fatalf("%d checks: %d rows and %d columns present", checks, present, presentCol)
	}
}

// TestUpdateDeleteRace runs read-modify-write updates (RequirePresent,
// writing the marker and one column, as an SQL UPDATE does) against
// concurrent deletes and re-inserts of the same rows while files are
// flushed and compacted: an update must never apply to a deleted row (it
// would bring back a row of only the updated column), so every row that
// exists has the column every insert writes.
func TestUpdateDeleteRace(t *testing.T) {
	ctx := context.Background()
	s, err := Open("db", Options{FS: vfs.NewMem(), MemtableSize: 8 << 10, BlockSize: 256})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "f"}}}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	const keys = 16
	key := func(i int) []byte { return fmt.Appendf(nil, "k%02d", i) }
	insert := func(i int) kv.RowMutation {
		return kv.RowMutation{Key: key(i), Require: kv.RequireAbsent, Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "f", Qualifier: []byte{0}, Timestamp: kv.Now()},
			{Kind: kv.SetCell, Family: "f", Qualifier: []byte("base"), Timestamp: kv.Now(), Value: []byte("b")}}}
	}
	for i := range keys {
		if err := tbl.Apply(ctx, []kv.RowMutation{insert(i)}); err != nil {
			t.Fatal(err)
		}
	}
	var updated, refused atomic.Int64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	fail := make(chan error, 8)
	worker := func(seed uint64, op func(rng *rand.Rand) error) {
		defer wg.Done()
		rng := rand.New(rand.NewPCG(seed, seed))
		for {
			select {
			case <-stop:
				return
			default:
			}
			if err := op(rng); err != nil {
				fail <- err
				return
			}
		}
	}
	update := func(rng *rand.Rand) error {
		i := rng.IntN(keys)
		err := tbl.Apply(ctx, []kv.RowMutation{{Key: key(i), Require: kv.RequirePresent, Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "f", Qualifier: []byte{0}, Timestamp: kv.Now()},
			{Kind: kv.SetCell, Family: "f", Qualifier: []byte("v"), Timestamp: kv.Now(), Value: []byte("u")}}}})
		switch {
		case err == nil:
			updated.Add(1)
		case errors.Is(err, kv.ErrConditionFailed):
			refused.Add(1)
		default:
			return err
		}
		return nil
	}
	for w := range 3 {
		wg.Add(1)
		go worker(uint64(w+1), update)
	}
	wg.Add(2)
	go worker(10, func(rng *rand.Rand) error {
		i := rng.IntN(keys)
		if rng.IntN(2) == 0 {
			return tbl.Apply(ctx, []kv.RowMutation{{Key: key(i), Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}}})
		}
		if err := tbl.Apply(ctx, []kv.RowMutation{insert(i)}); err != nil && !errors.Is(err, kv.ErrConditionFailed) {
			return err
		}
		return nil
	})
	go worker(11, func(rng *rand.Rand) error {
		time.Sleep(time.Millisecond)
		if rng.IntN(8) == 0 {
			return s.Compact(ctx)
		}
		return s.Flush(ctx)
	})
	deadline := time.Now().Add(2 * time.Second)
	for scans := 0; scans < 100 || time.Now().Before(deadline) && (updated.Load() < 2000 || refused.Load() < 200); scans++ {
		// Every row that exists has its base column.
		it := tbl.Read(ctx, kv.RowSet{}, kv.ReadOptions{})
		for it.Next() {
			row := it.Row()
			if !slices.ContainsFunc(row.Cells, func(c kv.Cell) bool { return string(c.Qualifier) == "base" }) {
				t.Errorf("row %s exists without its base column: an update applied to a deleted row", row.Key)
			}
		}
		if err := it.Err(); err != nil {
			t.Error(err)
		}
		it.Close()
	}
	close(stop)
	wg.Wait()
	close(fail)
	for err := range fail {
		t.Fatal(err)
	}
	if updated.Load() < 100 || refused.Load() < 10 {
		t.Fatalf("only %d updates applied and %d refused", updated.Load(), refused.Load())
	}
}
