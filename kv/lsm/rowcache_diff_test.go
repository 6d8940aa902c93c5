package lsm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/widesql/widesql/kv"
)

// TestRowCacheMatchesUncached applies one random sequence of writes,
// deletes, flushes, splits, compactions and store snapshots to two stores,
// one with the row cache and one without, and compares every point read
// (Gets and multi-gets, with projections, at the current state and at
// snapshots): a hot key space and repeated reads make most of them hits.
func TestRowCacheMatchesUncached(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 11))
		var stores [2]*Store
		var tbls [2]kv.Table
		for i, size := range []int64{0, -1} {
			s, err := Open(t.TempDir(), Options{NoSync: true, RowCacheSize: size, MemtableSize: 16 << 10, BlockSize: 256, MaxFilesPerStore: 3})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			spec := kv.TableSpec{Families: []kv.Family{{Name: "a", MaxVersions: 2}, {Name: "b"}}}
			if err := s.CreateTable(ctx, "t", spec); err != nil {
				t.Fatal(err)
			}
			stores[i] = s
			tbls[i], _ = s.Table(ctx, "t")
		}
		key := func() []byte { return fmt.Appendf(nil, "k%02d", rng.IntN(16)) }
		col := func() kv.Column {
			return kv.Column{Family: []string{"a", "b"}[rng.IntN(2)], Qualifier: []byte{'q', byte('0' + rng.IntN(3))}}
		}
		optsList := []kv.ReadOptions{{}, {Families: []string{"a"}}, {Columns: []kv.Column{{Family: "a", Qualifier: []byte("q1")}}},
			{Columns: []kv.Column{{Family: "b", Qualifier: []byte("q0")}, {Family: "a", Qualifier: []byte("q2")}}}, {MaxVersions: 2}}
		var snaps [][2]kv.Snapshot
		hits := int64(0)
		for step := range 2000 {
			switch r := rng.IntN(100); {
			case r < 12:
				var batch []kv.RowMutation
				for range 1 + rng.IntN(3) {
					m := kv.RowMutation{Key: key()}
					for range 1 + rng.IntN(2) {
						c := col()
						ts := kv.Timestamp(1000 * (1 + rng.IntN(4)))
						switch rng.IntN(10) {
						case 0:
							m.Mutations = append(m.Mutations, kv.Mutation{Kind: kv.DeleteRow})
						case 1:
							m.Mutations = append(m.Mutations, kv.Mutation{Kind: kv.DeleteFamily, Family: c.Family})
						case 2:
							m.Mutations = append(m.Mutations, kv.Mutation{Kind: kv.DeleteCells, Family: c.Family, Qualifier: c.Qualifier, Start: ts})
						default:
							m.Mutations = append(m.Mutations, kv.Mutation{Kind: kv.SetCell, Family: c.Family, Qualifier: c.Qualifier,
								Timestamp: ts, Value: fmt.Appendf(nil, "v%d", step)})
						}
					}
					batch = append(batch, m)
				}
				for i := range tbls {
					if err := tbls[i].Apply(ctx, batch); err != nil {
						t.Fatal(err)
					}
				}
			case r < 13:
				for _, s := range stores {
					if err := s.Flush(ctx); err != nil {
						t.Fatal(err)
					}
				}
			case r < 14:
				k := key()
				for _, s := range stores {
					if err := s.Split(ctx, "t", [][]byte{k}); err != nil {
						t.Fatal(err)
					}
				}
			case r < 16 && len(snaps) < 4:
				var sn [2]kv.Snapshot
				for i, s := range stores {
					var err error
					if sn[i], err = s.Snapshot(ctx); err != nil {
						t.Fatal(err)
					}
				}
				snaps = append(snaps, sn)
			case r < 18 && len(snaps) > 0:
				j := rng.IntN(len(snaps))
				snaps[j][0].Release()
				snaps[j][1].Release()
				snaps = append(snaps[:j], snaps[j+1:]...)
			default:
				rs := kv.RowSet{Keys: [][]byte{key()}}
				for range rng.IntN(3) {
					rs.Keys = append(rs.Keys, key())
				}
				o := optsList[0]
				if rng.IntN(2) == 0 {
					o = optsList[rng.IntN(len(optsList))]
				}
				var out [2]string
				sj := -1
				if len(snaps) > 0 && rng.IntN(3) == 0 {
					sj = rng.IntN(len(snaps))
				}
				for i := range tbls {
					var it kv.RowIterator
					if sj >= 0 {
						it = snaps[sj][i].Read(ctx, "t", rs, o)
					} else {
						it = tbls[i].Read(ctx, rs, o)
					}
					var st kv.ReadStats
					out[i], st = rcFormat(t, it)
					hits += st.CacheHits
				}
				if out[0] != out[1] {
					t.Fatalf("seed %d step %d: read %q %+v (snapshot %d): cached\n%suncached\n%s", seed, step, rs.Keys, o, sj, out[0], out[1])
				}
			}
		}
		for _, sn := range snaps {
			sn[0].Release()
			sn[1].Release()
		}
		if hits == 0 {
			t.Fatalf("seed %d: no cache hits", seed)
		}
		t.Logf("seed %d: %d rows from the cache; %+v", seed, hits, stores[0].Metrics())
	}
}
