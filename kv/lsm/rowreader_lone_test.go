package lsm

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
)

// TestLoneRowsDifferential checks stepLone (the rows of a merge's lone
// input read directly, each row's prefix found, copied and unescaped
// only from the bytes it shares with the last row's) against the merge's
// general path: every read gives the same rows with it and without. The
// rowkeys are what makes it differ: encoded integers full of 0x00 bytes
// (escape pairs split at the shared length), keys that are prefixes of
// one another ("k" and "k\x00", read one after the other: the escape
// pair of the second's 0x00 is split at the shared length), keys ending in 0x00 or 0xff, and lengths
// that change from row to row. The data lies in several flushed files
// (a run of files and an overlapping one), with part of the rows in the
// memtable, so that the merge has several inputs at first and one later;
// rows carry several versions, tombstones and TTL'd cells; reads take
// ranges with bounds, points mixed with ranges, limits, projections,
// time ranges and Essential families.
func TestLoneRowsDifferential(t *testing.T) {
	for seed := range uint64(3) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { loneRowsDifferential(t, seed) })
	}
}

func loneRowsDifferential(t *testing.T, seed uint64) {
	defer func() { loneRows = true }()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, 77))
	s, err := Open(t.TempDir(), Options{NoSync: true, MaxFilesPerStore: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fams := []kv.Family{{Name: "d", MaxVersions: 2}, {Name: "p", MaxVersions: 1, TTL: time.Hour}}
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: fams}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	// Rowkeys: (tenant, id) as big-endian integers, as the SQL layer
	// encodes them, and short byte strings around 0x00 and 0xff.
	var keys [][]byte
	for tenant := range 3 {
		for id := range 70 {
			k := binary.BigEndian.AppendUint32(nil, uint32(tenant)^0x80000000)
			k = binary.BigEndian.AppendUint64(k, uint64(id*37%300)<<(8*(id%3)))
			keys = append(keys, k)
		}
	}
	// Above the integers: in the last third, read alone.
	for _, k := range []string{"", "\x00", "\x00\x00", "\x00\x01", "\x00\xff", "\x01", "\xff", "\xff\x00", "k", "k\x00", "\x00\x00\x00"} {
		keys = append(keys, []byte("\xc0"+k))
	}
	keys = append(keys, []byte{0}, []byte{0, 0}, []byte{0xff})
	slices.SortFunc(keys, func(a, b []byte) int { return slices.Compare(a, b) })
	keys = slices.CompactFunc(keys, func(a, b []byte) bool { return slices.Equal(a, b) })
	now := int64(kv.Now()) / 1000 * 1000
	quals := [][]byte{nil, {0}, []byte("grp"), []byte("val")}
	for step := range 5 {
		var batch []kv.RowMutation
		// Steps 0-2 write disjoint thirds of the keys (one run of
		// files per family), step 3 a file over the first third, step
		// 4 the memtable over the first fifth: a read of one family
		// merges three inputs at first and reads one, the run, past
		// the first third.
		lo, hi := step*len(keys)/3, (step+1)*len(keys)/3
		switch step {
		case 3:
			lo, hi = 0, len(keys)/3
		case 4:
			lo, hi = 0, len(keys)/5
		}
		for i := lo; i < hi; i++ {
			if step >= 3 && rng.IntN(3) != 0 {
				continue
			}
			var muts []kv.Mutation
			for _, fam := range []string{"d", "p"} {
				for _, q := range quals {
					if rng.IntN(4) == 0 {
						continue
					}
					ts := now - int64(rng.IntN(120))*60_000_000
					muts = append(muts, kv.Mutation{Kind: kv.SetCell, Family: fam, Qualifier: q,
						Timestamp: kv.Timestamp(ts), Value: fmt.Appendf(nil, "v%d.%d", step, rng.IntN(1000))})
				}
			}
			switch rng.IntN(12) {
			case 0:
				muts = append(muts, kv.Mutation{Kind: kv.DeleteRow})
			case 1:
				muts = append(muts, kv.Mutation{Kind: kv.DeleteFamily, Family: "d"})
			case 2:
				muts = append(muts, kv.Mutation{Kind: kv.DeleteCells, Family: "d", Qualifier: quals[rng.IntN(len(quals))],
					Start: kv.Timestamp(now - 3600_000_000)})
			}
			batch = append(batch, kv.RowMutation{Key: keys[i], Mutations: muts})
		}
		if err := tbl.Apply(ctx, batch); err != nil {
			t.Fatal(err)
		}
		if step < 4 {
			if err := s.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	key := func() []byte { return keys[rng.IntN(len(keys))] }
	nonEmpty := 0
	for n := range 300 {
		var o kv.ReadOptions
		// Mostly reads of family d alone, or with p lazily: those are
		// the reads of one input (each family has its own files).
		switch rng.IntN(5) {
		case 0:
			o.Columns = []kv.Column{{Family: "d", Qualifier: []byte("val")}, {Family: "p", Qualifier: nil}}
		case 1:
			o.Columns = []kv.Column{{Family: "d", Qualifier: []byte("val")}, {Family: "d", Qualifier: nil}}
		case 2, 3:
			o.Families = []string{"d"}
		}
		if rng.IntN(5) == 0 {
			o.MinTimestamp = kv.Timestamp(now - int64(rng.IntN(120))*60_000_000)
		}
		if rng.IntN(5) == 0 {
			o.MaxTimestamp = kv.Timestamp(now - int64(rng.IntN(120))*60_000_000)
		}
		o.MaxVersions = rng.IntN(3)
		if rng.IntN(2) == 0 {
			o.Essential = []string{"d"}
		}
		if rng.IntN(4) == 0 {
			o.Limit = int64(1 + rng.IntN(40))
		}
		var rs kv.RowSet
		switch rng.IntN(4) {
		case 0:
			rs.Ranges = []kv.KeyRange{{}}
		case 1:
			a, b := key(), key()
			if slices.Compare(a, b) > 0 {
				a, b = b, a
			}
			rs.Ranges = []kv.KeyRange{{Start: a, End: b}}
		case 2:
			rs.Ranges = []kv.KeyRange{{Start: key()}}
		case 3:
			// Points and ranges mixed: the scan leaves the lone
			// input and comes back to it.
			a, b, c := key(), key(), key()
			if slices.Compare(a, c) > 0 {
				a, c = c, a
			}
			rs.Ranges = []kv.KeyRange{{End: a}, {Start: c}}
			rs.Keys = [][]byte{b, a}
		}
		loneRows = true
		got := readProjected(t, tbl, rs, o)
		loneRows = false
		want := readProjected(t, tbl, rs, o)
		if !rowsEqual(got, want) {
			t.Fatalf("read %d %+v of %+v, with stepLone and without:\n%s", n, o, rs, rowsDiff(got, want))
		}
		if len(got) > 5 {
			nonEmpty++
		}
	}
	if nonEmpty < 100 {
		t.Fatalf("only %d reads returned more than 5 rows", nonEmpty)
	}
}
