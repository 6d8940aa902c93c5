package lsm

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// unchanged asks unchangedSince as prepare does, with commitMu held.
func unchanged(s *Store, tbl kv.Table, key string, seq uint64) bool {
	h := tbl.(*Table)
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	s.mu.Lock()
	regions := h.t.regions
	s.mu.Unlock()
	return s.unchangedSince(h.t, regions, []byte(key), seq)
}

func readSeqStore(t *testing.T, fams ...kv.Family) (*Store, kv.Table) {
	t.Helper()
	s, err := Open("db", Options{FS: vfs.NewMem(), MemtableSize: 1 << 20, BlockSize: 256})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if len(fams) == 0 {
		fams = []kv.Family{{Name: "a"}}
	}
	if err := s.CreateTable(context.Background(), "t", kv.TableSpec{Families: fams}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(context.Background(), "t")
	return s, tbl
}

func setRow(k, v string) kv.RowMutation {
	return kv.RowMutation{Key: []byte(k), Mutations: []kv.Mutation{
		{Kind: kv.SetCell, Family: "a", Qualifier: []byte("q"), Timestamp: 1000, Value: []byte(v)}}}
}

func delRow(k string) kv.RowMutation {
	return kv.RowMutation{Key: []byte(k), Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}}
}

// TestReadSeqPrecondition checks, case by case, that a read version lets
// the presence check be skipped exactly when the row was not written after
// it, and that an UPDATE-shaped RowMutation (RequirePresent with ReadSeq)
// then applies or fails as it would without the hint.
func TestReadSeqPrecondition(t *testing.T) {
	ctx := context.Background()
	apply := func(t *testing.T, tbl kv.Table, rms ...kv.RowMutation) {
		t.Helper()
		if err := tbl.Apply(ctx, rms); err != nil {
			t.Fatal(err)
		}
	}
	update := func(k string, seq uint64) kv.RowMutation {
		rm := setRow(k, "upd")
		rm.Require, rm.ReadSeq = kv.RequirePresent, seq
		return rm
	}
	for _, tc := range []struct {
		name      string
		after     func(t *testing.T, s *Store, tbl kv.Table) // between the read and the update
		unchanged bool                                       // unchangedSince's answer
		applies   bool                                       // the update's precondition holds
	}{
		{"untouched", func(t *testing.T, s *Store, tbl kv.Table) {
			apply(t, tbl, setRow("j", "1"), setRow("l", "1")) // neighbours
		}, true, true},
		{"updated", func(t *testing.T, s *Store, tbl kv.Table) { apply(t, tbl, setRow("k", "2")) }, false, true},
		{"deleted", func(t *testing.T, s *Store, tbl kv.Table) { apply(t, tbl, delRow("k")) }, false, false},
		{"deleted and flushed", func(t *testing.T, s *Store, tbl kv.Table) {
			apply(t, tbl, delRow("k"))
			if err := s.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			apply(t, tbl, setRow("z", "1")) // a fresh memtable, all of it newer
		}, false, false},
		{"deleted and reinserted", func(t *testing.T, s *Store, tbl kv.Table) {
			apply(t, tbl, delRow("k"))
			apply(t, tbl, setRow("k", "3"))
		}, false, true},
		{"flushed, not written", func(t *testing.T, s *Store, tbl kv.Table) {
			if err := s.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		}, false, true},
		{"ingested", func(t *testing.T, s *Store, tbl kv.Table) {
			b, err := tbl.(kv.Ingester).NewIngest(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"a", "kz"} { // a file spanning k
				rm := setRow(k, "i")
				rm.Require = kv.RequireAbsent
				if err := b.Add(rm); err != nil {
					t.Fatal(err)
				}
			}
			if err := b.Commit(ctx); err != nil {
				t.Fatal(err)
			}
		}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, tbl := readSeqStore(t)
			apply(t, tbl, setRow("k", "0"))
			seq := tbl.(kv.ReadVersioner).ReadVersion()
			if !unchanged(s, tbl, "k", seq) {
				t.Fatal("unchangedSince: false right after the read")
			}
			tc.after(t, s, tbl)
			if got := unchanged(s, tbl, "k", seq); got != tc.unchanged {
				t.Fatalf("unchangedSince = %v, want %v", got, tc.unchanged)
			}
			err := tbl.Apply(ctx, []kv.RowMutation{update("k", seq)})
			if tc.applies && err != nil || !tc.applies && !errors.Is(err, kv.ErrConditionFailed) {
				t.Fatalf("update: %v, want applied %v", err, tc.applies)
			}
		})
	}

	t.Run("no version", func(t *testing.T) {
		s, tbl := readSeqStore(t)
		apply(t, tbl, setRow("k", "0"))
		if unchanged(s, tbl, "k", 0) {
			t.Fatal("unchangedSince(0) = true")
		}
	})
	t.Run("ttl family", func(t *testing.T) {
		s, tbl := readSeqStore(t, kv.Family{Name: "a", TTL: time.Hour})
		apply(t, tbl, setRow("k", "0"))
		if unchanged(s, tbl, "k", tbl.(kv.ReadVersioner).ReadVersion()) {
			t.Fatal("unchangedSince = true with a TTL: a cell may expire without a write")
		}
	})
	t.Run("hot row", func(t *testing.T) {
		s, tbl := readSeqStore(t)
		for i := range unchangedMaxEntries + 1 {
			apply(t, tbl, setRow("k", fmt.Sprint(i)))
		}
		if unchanged(s, tbl, "k", tbl.(kv.ReadVersioner).ReadVersion()) {
			t.Fatal("unchangedSince = true past unchangedMaxEntries")
		}
	})
}

// TestReadSeqModel runs random writes, deletes, flushes, compactions and
// splits, and reads versions of random rows along the way: unchangedSince
// may say true only for a row no write reached since the version, and an
// update carrying the version must fail exactly when the row is absent.
func TestReadSeqModel(t *testing.T) {
	ctx := context.Background()
	s, err := Open("db", Options{FS: vfs.NewMem(), MemtableSize: 16 << 10, BlockSize: 256})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "a"}}}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	rng := rand.New(rand.NewPCG(5, 8))
	key := func() string { return fmt.Sprintf("k%03d", rng.IntN(200)) }
	present := map[string]bool{}
	writes := map[string]int{} // writes per key so far
	type read struct {
		key    string
		seq    uint64
		writes int
	}
	var reads []read
	trues, splits := 0, 0
	for round := range 3000 {
		switch op := rng.IntN(20); {
		case op < 8:
			var batch []kv.RowMutation
			for range 1 + rng.IntN(5) {
				k := key()
				if rng.IntN(4) == 0 {
					batch = append(batch, delRow(k))
					present[k] = false
				} else {
					batch = append(batch, setRow(k, fmt.Sprint(round)))
					present[k] = true
				}
				writes[k]++
			}
			if err := tbl.Apply(ctx, batch); err != nil {
				t.Fatal(err)
			}
		case op == 8:
			if err := s.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		case op == 9 && round%100 == 0:
			if err := s.Compact(ctx); err != nil {
				t.Fatal(err)
			}
		case op == 9 && splits < 4:
			splits++
			if err := s.Split(ctx, "t", [][]byte{[]byte(fmt.Sprintf("k%03d", splits*40))}); err != nil {
				t.Fatal(err)
			}
		case op < 14: // a read that finds its row
			if k := key(); present[k] {
				reads = append(reads, read{k, tbl.(kv.ReadVersioner).ReadVersion(), writes[k]})
			}
		default: // the update of an earlier read
			if len(reads) == 0 {
				continue
			}
			i := rng.IntN(len(reads))
			r := reads[i]
			reads = append(reads[:i], reads[i+1:]...)
			if unchanged(s, tbl, r.key, r.seq) {
				trues++
				if writes[r.key] != r.writes {
					t.Fatalf("round %d: unchangedSince(%s) = true after %d writes", round, r.key, writes[r.key]-r.writes)
				}
			}
			rm := setRow(r.key, "upd")
			rm.Require, rm.ReadSeq = kv.RequirePresent, r.seq
			err := tbl.Apply(ctx, []kv.RowMutation{rm})
			if present[r.key] && err != nil || !present[r.key] && !errors.Is(err, kv.ErrConditionFailed) {
				t.Fatalf("round %d: update of %s (present %v): %v", round, r.key, present[r.key], err)
			}
			if err == nil {
				writes[r.key]++
			}
		}
	}
	if trues == 0 {
		t.Fatal("unchangedSince never said true: the shortcut is not exercised")
	}
	t.Logf("%d shortcuts", trues)
}
