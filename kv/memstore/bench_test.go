package memstore

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/widesql/widesql/kv"
)

const benchRows = 100_000

// loadBenchTable returns a table holding benchRows rows of two 16-byte cells.
func loadBenchTable(b *testing.B) kv.Table {
	b.Helper()
	ctx := context.Background()
	s := New()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "f"}}}); err != nil {
		b.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	val := make([]byte, 16)
	for i := 0; i < benchRows; i += 1000 {
		batch := make([]kv.RowMutation, 0, 1000)
		for j := i; j < i+1000; j++ {
			batch = append(batch, benchRow(rowKey(j), val))
		}
		if err := tbl.Apply(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	return tbl
}

func benchRow(key, val []byte) kv.RowMutation {
	return kv.RowMutation{Key: key, Mutations: []kv.Mutation{
		{Kind: kv.SetCell, Family: "f", Qualifier: []byte("a"), Timestamp: 1000, Value: val},
		{Kind: kv.SetCell, Family: "f", Qualifier: []byte("b"), Timestamp: 1000, Value: val},
	}}
}

// BenchmarkApplyBatch writes batches of 100 rows at random keys into a
// table that holds up to benchRows rows.
func BenchmarkApplyBatch(b *testing.B) {
	ctx := context.Background()
	tbl := loadBenchTable(b)
	r := rand.New(rand.NewPCG(1, 1))
	val := make([]byte, 16)
	batch := make([]kv.RowMutation, 100)
	keys := make([][]byte, 100)
	b.ReportAllocs()
	for b.Loop() {
		for i := range batch {
			keys[i] = rowKey(r.IntN(benchRows)) // reused by the caller next round
			batch[i] = benchRow(keys[i], val)
		}
		if err := tbl.Apply(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGet(b *testing.B) {
	ctx := context.Background()
	tbl := loadBenchTable(b)
	r := rand.New(rand.NewPCG(1, 1))
	rs := kv.RowSet{Keys: [][]byte{nil}}
	b.ReportAllocs()
	for b.Loop() {
		rs.Keys[0] = rowKey(r.IntN(benchRows))
		it := tbl.Read(ctx, rs, kv.ReadOptions{})
		if !it.Next() {
			b.Fatal("missing row", it.Err())
		}
		it.Close()
	}
}

func BenchmarkScan100(b *testing.B) {
	ctx := context.Background()
	tbl := loadBenchTable(b)
	r := rand.New(rand.NewPCG(1, 1))
	b.ReportAllocs()
	for b.Loop() {
		rs := kv.RowSet{Ranges: []kv.KeyRange{{Start: rowKey(r.IntN(benchRows - 100))}}}
		it := tbl.Read(ctx, rs, kv.ReadOptions{Limit: 100})
		n := 0
		for it.Next() {
			n++
		}
		if n != 100 {
			b.Fatal(n, it.Err())
		}
		it.Close()
	}
}

func BenchmarkFullScan(b *testing.B) {
	ctx := context.Background()
	tbl := loadBenchTable(b)
	for _, reverse := range []bool{false, true} {
		name := "forward"
		if reverse {
			name = "reverse"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				it := tbl.Read(ctx, kv.RowSet{}, kv.ReadOptions{Reverse: reverse})
				n := 0
				for it.Next() {
					n += len(it.Row().Cells)
				}
				if n != 2*benchRows {
					b.Fatal(n, it.Err())
				}
				it.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchRows), "ns/row")
		})
	}
}
