package lsm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/widesql/widesql/kv"
)

// BenchmarkRowCacheGet is a point Get of random keys of a hot set (1000 of
// 100k rows, ten 100-byte columns each, as YCSB's usertable) on a flushed
// store, with the row cache on and off; parallel runs one reader per
// GOMAXPROCS.
func BenchmarkRowCacheGet(b *testing.B) {
	for _, c := range []struct {
		name string
		size int64
	}{{"on", 0}, {"off", -1}} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			s, tbl := openBenchTable(b, Options{RowCacheSize: c.size})
			defer s.Close()
			const rows, hot = 100_000, 1000
			key := func(i int) []byte { return fmt.Appendf(nil, "user%08d", i*7919%rows) }
			val := make([]byte, 100)
			for i := 0; i < rows; i += 1000 {
				var batch []kv.RowMutation
				for j := i; j < i+1000; j++ {
					m := kv.RowMutation{Key: key(j)}
					for f := range 10 {
						m.Mutations = append(m.Mutations, kv.Mutation{Kind: kv.SetCell, Family: "f",
							Qualifier: fmt.Appendf(nil, "field%d", f), Timestamp: 1000, Value: val})
					}
					batch = append(batch, m)
				}
				if err := tbl.Apply(ctx, batch); err != nil {
					b.Fatal(err)
				}
			}
			if err := s.Flush(ctx); err != nil {
				b.Fatal(err)
			}
			keys := make([][]byte, hot)
			for i := range keys {
				keys[i] = key(i * (rows / hot))
			}
			get := func(rng *rand.Rand, rs *kv.RowSet) {
				rs.Keys[0] = keys[rng.IntN(hot)]
				it := tbl.Read(ctx, *rs, kv.ReadOptions{})
				if !it.Next() || len(it.Row().Cells) != 10 {
					b.Fatalf("get %q: %v", rs.Keys[0], it.Err())
				}
				it.Close()
			}
			rng := rand.New(rand.NewPCG(1, 2))
			rs := kv.RowSet{Keys: make([][]byte, 1)}
			for range 3 * hot {
				get(rng, &rs) // warm the caches
			}
			b.Run("serial", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					get(rng, &rs)
				}
			})
			b.Run("parallel", func(b *testing.B) {
				b.ReportAllocs()
				b.RunParallel(func(pb *testing.PB) {
					rng := rand.New(rand.NewPCG(rand.Uint64(), 2))
					rs := kv.RowSet{Keys: make([][]byte, 1)}
					for pb.Next() {
						get(rng, &rs)
					}
				})
			})
		})
	}
}

// BenchmarkRowCacheApply is the write path's cost of the cache: Apply of
// 100-row batches (one 100-byte cell each) with the cache made (by a Get)
// and disabled; per row.
func BenchmarkRowCacheApply(b *testing.B) {
	for _, c := range []struct {
		name string
		size int64
	}{{"on", 0}, {"off", -1}} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			s, tbl := openBenchTable(b, Options{RowCacheSize: c.size})
			defer s.Close()
			tbl.Read(ctx, kv.RowSet{Keys: [][]byte{[]byte("x")}}, kv.ReadOptions{}).Close() // makes the cache
			batch := make([]kv.RowMutation, 100)
			val := make([]byte, 100)
			n := 0
			b.ReportAllocs()
			for b.Loop() {
				for i := range batch {
					batch[i] = kv.RowMutation{Key: fmt.Appendf(nil, "user%08d", n%1_000_000), Mutations: []kv.Mutation{
						{Kind: kv.SetCell, Family: "f", Qualifier: []byte("q"), Timestamp: 1000, Value: val}}}
					n++
				}
				if err := tbl.Apply(ctx, batch); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/row")
		})
	}
}

// BenchmarkRowCacheHit is the cache's own part of a hit: the lookup and
// the copy of a ten-cell row (1000 bytes of values) into a read's buffers.
func BenchmarkRowCacheHit(b *testing.B) {
	tb := &table{id: 1}
	tb.fs.Store(newFamSet([]kv.Family{{Name: "f"}}))
	fams := tb.families().fams
	c := newRowCache(64<<20, 0)
	const hot = 1000
	keys := make([][]byte, hot)
	for i := range keys {
		keys[i] = fmt.Appendf(nil, "user%08d", i)
		row := kv.Row{Key: keys[i]}
		for f := range 10 {
			row.Cells = append(row.Cells, kv.Cell{Family: "f", Qualifier: fmt.Appendf(nil, "field%d", f), Timestamp: 1000, Value: make([]byte, 100)})
		}
		c.put(tb, &row, 1, &kv.ReadOptions{}, fams)
	}
	var r rowReader
	rng := rand.New(rand.NewPCG(1, 2))
	opts := &kv.ReadOptions{}
	b.ReportAllocs()
	for b.Loop() {
		e, ok := c.get(1, keys[rng.IntN(hot)], 1, opts, true)
		if !ok {
			b.Fatal("miss")
		}
		e.emit(&r)
	}
}
