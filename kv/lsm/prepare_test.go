package lsm

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

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
