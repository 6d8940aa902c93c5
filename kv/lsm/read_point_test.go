package lsm

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/widesql/widesql/kv"
)

// TestMultiGetMatchesGets checks that a RowSet of several keys (read with
// file iterators shared from key to key, see read_point.go) returns
// exactly the rows that Gets of each key return one by one: random rows,
// versions and tombstones spread over several files, regions and the
// memtable; random key sets with missing rows; forward and reverse; with
// families, version limits and Limit.
func TestMultiGetMatchesGets(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 7))
		s, err := Open(t.TempDir(), Options{NoSync: true, BlockSize: 256 + rng.IntN(2048), MaxFilesPerStore: 50})
		if err != nil {
			t.Fatal(err)
		}
		spec := kv.TableSpec{Families: []kv.Family{{Name: "a", MaxVersions: 2}, {Name: "b", MaxVersions: 1}},
			SplitKeys: [][]byte{[]byte("k150")}}
		if err := s.CreateTable(ctx, "t", spec); err != nil {
			t.Fatal(err)
		}
		tbl, _ := s.Table(ctx, "t")
		key := func(i int) []byte { return fmt.Appendf(nil, "k%03d", i) }
		for round := range 6 {
			var batch []kv.RowMutation
			for range 150 {
				m := kv.RowMutation{Key: key(rng.IntN(300))}
				for range 1 + rng.IntN(3) {
					fam := []string{"a", "b"}[rng.IntN(2)]
					q := []byte{'q', byte('0' + rng.IntN(3))}
					ts := kv.Timestamp(1000 * (1 + rng.IntN(5)))
					switch rng.IntN(12) {
					case 0:
						m.Mutations = append(m.Mutations, kv.Mutation{Kind: kv.DeleteRow})
					case 1:
						m.Mutations = append(m.Mutations, kv.Mutation{Kind: kv.DeleteFamily, Family: fam})
					case 2:
						m.Mutations = append(m.Mutations, kv.Mutation{Kind: kv.DeleteCells, Family: fam, Qualifier: q, Start: ts, End: ts + 2000})
					default:
						m.Mutations = append(m.Mutations, kv.Mutation{Kind: kv.SetCell, Family: fam, Qualifier: q, Timestamp: ts,
							Value: fmt.Appendf(nil, "v%d.%d", round, rng.IntN(1000))})
					}
				}
				batch = append(batch, m)
			}
			if err := tbl.Apply(ctx, batch); err != nil {
				t.Fatal(err)
			}
			if round < 5 {
				if err := s.Flush(ctx); err != nil {
					t.Fatal(err)
				}
			}
		}
		for q := range 300 {
			keys := make([][]byte, 1+rng.IntN(12))
			base := rng.IntN(300)
			for i := range keys {
				keys[i] = key((base + rng.IntN(40)) % 300) // clustered, as IN on one prefix
			}
			opts := kv.ReadOptions{Reverse: rng.IntN(3) == 0, MaxVersions: rng.IntN(3)}
			if rng.IntN(3) == 0 {
				opts.Families = []string{"a"}
			}
			if rng.IntN(4) == 0 {
				opts.Limit = int64(1 + rng.IntN(4))
			}
			got := readRows(t, tbl.Read(ctx, kv.RowSet{Keys: keys}, opts))
			sorted := slices.Clone(keys)
			slices.SortFunc(sorted, bytes.Compare)
			sorted = slices.CompactFunc(sorted, bytes.Equal)
			if opts.Reverse {
				slices.Reverse(sorted)
			}
			var want []string
			one := opts
			one.Limit = 0
			for _, k := range sorted {
				if opts.Limit > 0 && int64(len(want)) == opts.Limit {
					break
				}
				want = append(want, readRows(t, tbl.Read(ctx, kv.RowSet{Keys: [][]byte{k}}, one))...)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("seed %d query %d keys %q opts %+v:\n got %q\nwant %q", seed, q, keys, opts, got, want)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// readRows drains it into one string per row.
func readRows(t *testing.T, it kv.RowIterator) []string {
	t.Helper()
	defer it.Close()
	var out []string
	for it.Next() {
		r := it.Row()
		s := string(r.Key) + ":"
		for _, c := range r.Cells {
			s += fmt.Sprintf(" %s/%s@%d=%s", c.Family, c.Qualifier, c.Timestamp, c.Value)
		}
		out = append(out, s)
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
