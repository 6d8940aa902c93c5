package lsm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
)

// TestCellFastPathsDifferential checks collectOf's shortcuts for the
// common cell (cellFastPaths: the row's first key unchecked, newColumn
// before stepIn, the column table's next column before wantedCol, the
// cursor past a matched column) and for the rows of a lone input
// (loneRows: rowIterator.stepLone) against the general path: every read
// gives the same rows with them and without. The rows have four
// families (one version, three, two with a TTL that hides the older
// cells, a name with a 0x00 byte), qualifiers with 0x00 bytes and that
// are prefixes of one another, several versions in the memtable and
// files, every kind of tombstone, and writes after a snapshot (entries
// above the read's sequence number); the reads project families and
// columns, with time ranges, MaxVersions, Essential families, Reverse,
// Limit and a start key, at the latest state and at the snapshot.
func TestCellFastPathsDifferential(t *testing.T) {
	for seed := range uint64(3) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { cellFastPathsDifferential(t, seed) })
	}
}

func cellFastPathsDifferential(t *testing.T, seed uint64) {
	defer func() { cellFastPaths, loneRows = true, true }()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, 21))
	s, err := Open(t.TempDir(), Options{NoSync: true, MaxFilesPerStore: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fams := []kv.Family{{Name: "a", MaxVersions: 1}, {Name: "b", MaxVersions: 3},
		{Name: "c", MaxVersions: 2, TTL: time.Hour}, {Name: "d\x00", MaxVersions: 1}}
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: fams}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	quals := [][]byte{nil, {0}, {0, 0}, {0, 1}, []byte("q"), []byte("q\x00"), []byte("qq"), {1}, {2}, {3}, {0xff}}
	famNames := []string{"a", "b", "c", "d\x00"}
	now := int64(kv.Now()) / 1000 * 1000 // timestamps are whole milliseconds
	const nrows = 80
	row := func(i int) []byte { return fmt.Appendf(nil, "r%03d\x00", i) }
	var snap kv.Snapshot
	for step := range 8 {
		if step == 6 {
			if snap, err = s.Snapshot(ctx); err != nil {
				t.Fatal(err)
			}
			defer snap.Release()
		}
		var batch []kv.RowMutation
		for i := range nrows {
			if rng.IntN(3) == 0 {
				continue
			}
			var muts []kv.Mutation
			for _, fam := range famNames {
				for _, qual := range quals {
					if rng.IntN(3) == 0 {
						continue
					}
					// Timestamps a minute apart, half of them
					// older than family c's TTL.
					ts := now - int64(rng.IntN(120))*60_000_000
					muts = append(muts, kv.Mutation{Kind: kv.SetCell, Family: fam, Qualifier: qual,
						Timestamp: kv.Timestamp(ts), Value: fmt.Appendf(nil, "v%d.%d", step, rng.IntN(1000))})
				}
			}
			switch rng.IntN(10) {
			case 0:
				muts = append(muts, kv.Mutation{Kind: kv.DeleteRow})
			case 1:
				muts = append(muts, kv.Mutation{Kind: kv.DeleteFamily, Family: famNames[rng.IntN(len(famNames))]})
			case 2:
				muts = append(muts, kv.Mutation{Kind: kv.DeleteCells, Family: famNames[rng.IntN(len(famNames))],
					Qualifier: quals[rng.IntN(len(quals))], Start: kv.Timestamp(now - 3600_000_000),
					End: kv.Timestamp(now * int64(rng.IntN(2)))})
			}
			if len(muts) > 0 {
				batch = append(batch, kv.RowMutation{Key: row(i), Mutations: muts})
			}
		}
		if err := tbl.Apply(ctx, batch); err != nil {
			t.Fatal(err)
		}
		if step%3 != 2 {
			if err := s.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	read := func(atSnap bool, rs kv.RowSet, o kv.ReadOptions) []kv.Row {
		if !atSnap {
			return readProjected(t, tbl, rs, o)
		}
		return readProjected(t, snapTable{snap, tbl}, rs, o)
	}
	fast := 0
	for n := range 400 {
		var o kv.ReadOptions
		if rng.IntN(4) != 0 {
			for range 1 + rng.IntN(10) {
				o.Columns = append(o.Columns, kv.Column{Family: famNames[rng.IntN(len(famNames))], Qualifier: quals[rng.IntN(len(quals))]})
			}
		}
		if rng.IntN(4) == 0 {
			o.Families = []string{famNames[rng.IntN(len(famNames))], famNames[rng.IntN(len(famNames))]}
		}
		if rng.IntN(5) == 0 {
			o.MinTimestamp = kv.Timestamp(now - int64(rng.IntN(120))*60_000_000)
		}
		if rng.IntN(5) == 0 {
			o.MaxTimestamp = kv.Timestamp(now - int64(rng.IntN(120))*60_000_000)
		}
		o.MaxVersions = rng.IntN(3)
		if rng.IntN(4) == 0 {
			o.Essential = []string{famNames[rng.IntN(len(famNames))]}
		}
		rs := kv.RowSet{Ranges: []kv.KeyRange{{}}}
		switch rng.IntN(5) {
		case 0:
			o.Reverse = true
		case 1:
			o.Limit = int64(1 + rng.IntN(6))
		case 2:
			rs = kv.RowSet{Ranges: []kv.KeyRange{{Start: row(rng.IntN(nrows))}}}
		case 3:
			rs = kv.RowSet{Keys: [][]byte{row(rng.IntN(nrows)), row(rng.IntN(nrows))}}
		}
		atSnap := n%3 == 0
		cellFastPaths, loneRows = true, true
		got := read(atSnap, rs, o)
		cellFastPaths, loneRows = false, false
		want := read(atSnap, rs, o)
		if !rowsEqual(got, want) {
			t.Fatalf("read %+v of %+v (snapshot %v), with the fast paths and without:\n%s", o, rs, atSnap, rowsDiff(got, want))
		}
		if len(got) > 0 {
			fast++
		}
	}
	if fast < 200 {
		t.Fatalf("only %d reads returned rows", fast)
	}
}

// snapTable reads t's table as of a snapshot.
type snapTable struct {
	snap kv.Snapshot
	kv.Table
}

func (s snapTable) Read(ctx context.Context, rs kv.RowSet, o kv.ReadOptions) kv.RowIterator {
	return s.snap.Read(ctx, "t", rs, o)
}
