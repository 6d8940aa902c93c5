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

// TestFileRowsDifferential checks collectFile (a read of one version per
// column from one file, decided on the key bytes) against collectAll:
// every read gives the same rows with it and without. What it must get
// right is in the data: columns with more versions than a block's restart
// interval (a restart point, shared length 0, inside a column's versions)
// and than skipVersionsAfter (the seek past a column), versions newer
// than a snapshot the reads go through (the first version is not the
// one), DeleteRow, DeleteFamily and DeleteCells tombstones at the start of
// a row, a family and a column (the rest of the row handed to
// collectAll), a family with a TTL whose older cells expired, empty and
// 0x00 qualifiers, rowkeys full of 0x00 bytes, and projections by
// family, by column (the column table) and of every family.
func TestFileRowsDifferential(t *testing.T) {
	for seed := range uint64(3) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { fileRowsDifferential(t, seed) })
	}
}

func fileRowsDifferential(t *testing.T, seed uint64) {
	defer func() { fileRows = true }()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, 91))
	s, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fams := []kv.Family{{Name: "d", MaxVersions: 40}, {Name: "p", MaxVersions: 1, TTL: time.Hour}}
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: fams}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	var keys [][]byte
	for id := range 300 {
		k := binary.BigEndian.AppendUint32(nil, 0x80000000)
		keys = append(keys, binary.BigEndian.AppendUint64(k, uint64(id)<<(8*(id%3))))
	}
	slices.SortFunc(keys, func(a, b []byte) int { return slices.Compare(a, b) })
	keys = slices.CompactFunc(keys, func(a, b []byte) bool { return slices.Equal(a, b) })
	now := int64(kv.Now()) / 1000 * 1000
	quals := [][]byte{nil, {0}, []byte("grp"), []byte("val")}
	var snaps []kv.Snapshot
	defer func() {
		for _, sn := range snaps {
			sn.Release()
		}
	}()
	for step := range 6 {
		var batch []kv.RowMutation
		for _, k := range keys {
			if step > 0 && rng.IntN(3) != 0 {
				continue
			}
			var muts []kv.Mutation
			for _, fam := range []string{"d", "p"} {
				for _, q := range quals {
					if rng.IntN(4) == 0 {
						continue
					}
					// Mostly one version; a fifth of the columns
					// get a run longer than a restart interval.
					n := 1
					if fam == "d" && rng.IntN(5) == 0 {
						n = 2 + rng.IntN(24)
					}
					for range n {
						ts := now - int64(rng.IntN(120))*60_000_000
						muts = append(muts, kv.Mutation{Kind: kv.SetCell, Family: fam, Qualifier: q,
							Timestamp: kv.Timestamp(ts), Value: fmt.Appendf(nil, "v%d.%d", step, rng.IntN(1000))})
					}
				}
			}
			if step > 0 {
				switch rng.IntN(10) {
				case 0:
					muts = append(muts, kv.Mutation{Kind: kv.DeleteRow})
				case 1:
					muts = append(muts, kv.Mutation{Kind: kv.DeleteFamily, Family: "d"})
				case 2:
					muts = append(muts, kv.Mutation{Kind: kv.DeleteCells, Family: "d", Qualifier: quals[rng.IntN(len(quals))],
						Start: kv.Timestamp(now - 3600_000_000)})
				}
			}
			batch = append(batch, kv.RowMutation{Key: k, Mutations: muts})
		}
		if err := tbl.Apply(ctx, batch); err != nil {
			t.Fatal(err)
		}
		if step == 2 || step == 4 {
			// Later writes are newer than it: reads through it skip
			// them in the files.
			sn, err := s.Snapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			snaps = append(snaps, sn)
		}
		if err := s.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	key := func() []byte { return keys[rng.IntN(len(keys))] }
	nonEmpty := 0
	for n := range 300 {
		var o kv.ReadOptions
		switch rng.IntN(5) {
		case 0:
			o.Columns = []kv.Column{{Family: "d", Qualifier: []byte("val")}, {Family: "d", Qualifier: nil}, {Family: "p", Qualifier: []byte{0}}}
		case 1:
			o.Columns = []kv.Column{{Family: "d", Qualifier: []byte("grp")}, {Family: "d", Qualifier: []byte{0}}}
		case 2:
			o.Families = []string{"d"}
		case 3:
			o.Families = []string{"p"}
		}
		// Mostly the newest version, which collectFile reads.
		if rng.IntN(6) == 0 {
			o.MaxVersions = 2
		}
		if rng.IntN(10) == 0 {
			o.MinTimestamp = kv.Timestamp(now - int64(rng.IntN(120))*60_000_000)
		}
		if rng.IntN(3) == 0 {
			o.Essential = []string{"d"}
		}
		if rng.IntN(5) == 0 {
			o.Limit = int64(1 + rng.IntN(40))
		}
		var rs kv.RowSet
		switch rng.IntN(3) {
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
		}
		read := func() []kv.Row { return readProjected(t, tbl, rs, o) }
		if i := rng.IntN(len(snaps) + 1); i < len(snaps) {
			read = func() []kv.Row { return readSnapshot(t, snaps[i], rs, o) }
		}
		fileRows = true
		got := read()
		fileRows = false
		want := read()
		if !rowsEqual(got, want) {
			t.Fatalf("read %d %+v of %+v, with collectFile and without:\n%s", n, o, rs, rowsDiff(got, want))
		}
		if len(got) > 5 {
			nonEmpty++
		}
	}
	if nonEmpty < 100 {
		t.Fatalf("only %d reads returned more than 5 rows", nonEmpty)
	}
}

// readSnapshot is readProjected through a snapshot.
func readSnapshot(t *testing.T, sn kv.Snapshot, rs kv.RowSet, o kv.ReadOptions) []kv.Row {
	t.Helper()
	return collectRows(t, sn.Read(context.Background(), "t", rs, o))
}
