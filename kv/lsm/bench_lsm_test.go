package lsm

import (
	"context"
	"fmt"
	"testing"

	"github.com/widesql/widesql/kv"
)

func benchStore(b *testing.B, rows int, flush bool) (*Store, kv.Table) {
	ctx := context.Background()
	s, err := Open(b.TempDir(), Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "f"}}})
	tbl, _ := s.Table(ctx, "t")
	var batch []kv.RowMutation
	for i := range rows {
		batch = append(batch, kv.RowMutation{Key: fmt.Appendf(nil, "k%08d", i), Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "f", Qualifier: []byte("q"), Timestamp: 1000, Value: make([]byte, 100)}}})
		if len(batch) == 1000 {
			if err := tbl.Apply(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if flush {
		s.Flush(ctx)
		s.Compact(ctx)
	}
	return s, tbl
}

func BenchmarkBatchedWrites(b *testing.B) {
	s, tbl := benchStore(b, 0, false)
	defer s.Close()
	ctx := context.Background()
	batch := make([]kv.RowMutation, 100)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		for j := range batch {
			batch[j] = kv.RowMutation{Key: fmt.Appendf(nil, "k%08d", i*100+j), Mutations: []kv.Mutation{
				{Kind: kv.SetCell, Family: "f", Qualifier: []byte("q"), Timestamp: 1000, Value: make([]byte, 100)}}}
		}
		if err := tbl.Apply(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*100), "ns/row")
}

func benchGet(b *testing.B, flush bool) {
	const n = 100000
	s, tbl := benchStore(b, n, flush)
	defer s.Close()
	ctx := context.Background()
	keys := [][]byte{nil}
	for i := 0; b.Loop(); i++ {
		keys[0] = fmt.Appendf(keys[0][:0], "k%08d", (i*7919)%n)
		it := tbl.Read(ctx, kv.RowSet{Keys: keys}, kv.ReadOptions{})
		if !it.Next() {
			b.Fatal("missing row")
		}
		it.Close()
	}
}

func BenchmarkGetMemtable(b *testing.B) { benchGet(b, false) }
func BenchmarkGetFiles(b *testing.B)    { benchGet(b, true) }

func BenchmarkScan100(b *testing.B) {
	const n = 100000
	s, tbl := benchStore(b, n, true)
	defer s.Close()
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		start := fmt.Appendf(nil, "k%08d", (i*7919)%(n-100))
		it := tbl.Read(ctx, kv.RowSet{Ranges: []kv.KeyRange{{Start: start}}}, kv.ReadOptions{Limit: 100})
		c := 0
		for it.Next() {
			c++
		}
		it.Close()
		if c != 100 {
			b.Fatal(c)
		}
	}
}
