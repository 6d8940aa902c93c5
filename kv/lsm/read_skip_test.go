package lsm

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
)

// TestSkipVersionsDifferential checks the seek past a finished column's
// versions (skipVersionsAfter in rowreader.go) against plain stepping: on
// random rows whose columns have many versions spread over the memtable
// and several files, with DeleteCells ranges, DeleteFamily and DeleteRow
// tombstones, overwrites at the same timestamp, an expiring family and
// open snapshots, every read shape (MaxVersions, time ranges, columns,
// families, essential families completed, Reverse, Limit, point reads,
// ranges) returns identical rows with the shortcut after 1 and 4 entries
// and with it off (where no entry goes through the finished-column branch,
// so a wrong "finished" verdict shows as a difference too).
func TestSkipVersionsDifferential(t *testing.T) {
	defer func(n int) { skipVersionsAfter = n }(skipVersionsAfter)
	for seed := range uint64(6) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { skipDifferential(t, seed) })
	}
}

func skipDifferential(t *testing.T, seed uint64) {
	skipped := 0 // reads that read fewer cells with the shortcut
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, 99))
	s, err := Open(t.TempDir(), Options{NoSync: true, MaxFilesPerStore: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fams := []kv.Family{{Name: "a", MaxVersions: 1}, {Name: "b", MaxVersions: 3}, {Name: "c", MaxVersions: 2, TTL: time.Hour}}
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: fams}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	now := int64(kv.Now()) / 1000 * 1000
	rows := [][]byte{[]byte("r0"), []byte("r1"), {'r', 0, '2'}, []byte("r3")}
	quals := [][]byte{nil, {0}, []byte("q"), []byte("qq")}
	ts := func() kv.Timestamp {
		// 40 timestamps two minutes apart: family c's TTL hides the older half.
		return kv.Timestamp(now - int64(rng.IntN(40))*120_000_000)
	}
	var snaps []kv.Snapshot
	defer func() {
		for _, sn := range snaps {
			sn.Release()
		}
	}()
	for step := range 400 {
		key := rows[rng.IntN(len(rows))]
		fam := fams[rng.IntN(len(fams))].Name
		q := quals[rng.IntN(len(quals))]
		var m kv.Mutation
		switch r := rng.IntN(100); {
		case r < 85:
			m = kv.Mutation{Kind: kv.SetCell, Family: fam, Qualifier: q, Timestamp: ts(), Value: fmt.Appendf(nil, "v%d", step)}
		case r < 94:
			a, b := ts(), ts()
			if a > b {
				a, b = b, a
			}
			if rng.IntN(4) == 0 {
				b = 0
			}
			m = kv.Mutation{Kind: kv.DeleteCells, Family: fam, Qualifier: q, Start: a, End: b}
		case r < 98:
			m = kv.Mutation{Kind: kv.DeleteFamily, Family: fam}
		default:
			m = kv.Mutation{Kind: kv.DeleteRow}
		}
		if err := tbl.Apply(ctx, []kv.RowMutation{{Key: key, Mutations: []kv.Mutation{m}}}); err != nil {
			t.Fatal(err)
		}
		switch rng.IntN(60) {
		case 0:
			if err := s.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		case 1:
			sn, err := s.Snapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			snaps = append(snaps, sn)
		}
	}
	readers := []func(kv.RowSet, kv.ReadOptions) kv.RowIterator{
		func(rs kv.RowSet, o kv.ReadOptions) kv.RowIterator { return tbl.Read(ctx, rs, o) },
	}
	for _, sn := range snaps {
		readers = append(readers, func(rs kv.RowSet, o kv.ReadOptions) kv.RowIterator { return sn.Read(ctx, "t", rs, o) })
	}
	for range 300 {
		var rs kv.RowSet
		switch rng.IntN(3) {
		case 0:
			for _, k := range rows {
				if rng.IntN(2) == 0 {
					rs.Keys = append(rs.Keys, k)
				}
			}
		case 1:
			rs.Ranges = []kv.KeyRange{{Start: rows[rng.IntN(2)], End: rows[2+rng.IntN(2)]}}
		}
		var o kv.ReadOptions
		o.MaxVersions = rng.IntN(5)
		if rng.IntN(3) == 0 {
			o.MinTimestamp = ts()
		}
		if rng.IntN(3) == 0 {
			o.MaxTimestamp = ts() + 1000
		}
		switch rng.IntN(4) {
		case 0:
			o.Families = []string{fams[rng.IntN(3)].Name}
		case 1:
			o.Columns = []kv.Column{{Family: fams[rng.IntN(3)].Name, Qualifier: quals[rng.IntN(len(quals))]}}
		case 2:
			o.Essential = []string{fams[rng.IntN(3)].Name}
		}
		o.Reverse = rng.IntN(3) == 0
		if rng.IntN(3) == 0 {
			o.Limit = int64(1 + rng.IntN(3))
		}
		read := readers[rng.IntN(len(readers))]
		collect := func(after int) ([]string, kv.ReadStats) {
			skipVersionsAfter = after
			it := read(rs, o)
			defer it.Close()
			var out []string
			for it.Next() {
				if o.Essential != nil {
					if err := kv.CompleteRow(it); err != nil {
						t.Fatal(err)
					}
				}
				out = append(out, formatRow(it.Row()))
			}
			if err := it.Err(); err != nil {
				t.Fatal(err)
			}
			return out, it.Stats()
		}
		want, plain := collect(0)
		for _, after := range []int{1, 4} {
			got, st := collect(after)
			if !slices.Equal(got, want) {
				t.Fatalf("rows %v opts %+v: skipping after %d:\n%v\nstepping:\n%v", rs, o, after, got, want)
			}
			if st.RowsRead != plain.RowsRead || st.CellsRead > plain.CellsRead {
				t.Fatalf("stats %+v, stepping %+v", st, plain)
			}
			if st.CellsRead < plain.CellsRead {
				skipped++
			}
		}
	}
	if skipped == 0 {
		t.Fatal("no read sought past a column's versions")
	}
	t.Logf("%d of 600 reads sought past versions", skipped)
}

func formatRow(r kv.Row) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%q:", r.Key)
	for _, c := range r.Cells {
		fmt.Fprintf(&b, " %s/%q@%d=%q", c.Family, c.Qualifier, c.Timestamp, c.Value)
	}
	return b.String()
}
