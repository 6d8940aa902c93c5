package lsm

import (
	"context"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/widesql/widesql/kv"
)

// benchTwoFamilies loads rows shaped like the harness's kv table: family d
// with two 8-byte integer columns for every row, family p with a 64-byte
// payload, flushed and compacted into files.
func benchTwoFamilies(b *testing.B, rows int, cache int64) *Store {
	ctx := context.Background()
	s, err := Open(b.TempDir(), Options{NoSync: true, BlockCacheSize: cache})
	if err != nil {
		b.Fatal(err)
	}
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "d"}, {Name: "p"}}}); err != nil {
		b.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	payload := make([]byte, 64)
	var batch []kv.RowMutation
	for i := range rows {
		for j := range payload {
			payload[j] = "0123456789abcdef"[(i*7+j*13)%16]
		}
		batch = append(batch, kv.RowMutation{Key: binary.BigEndian.AppendUint64(nil, uint64(i)), Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "d", Qualifier: []byte("grp"), Timestamp: 1000, Value: binary.BigEndian.AppendUint64(nil, uint64(i%100))},
			{Kind: kv.SetCell, Family: "d", Qualifier: []byte("val"), Timestamp: 1000, Value: binary.BigEndian.AppendUint64(nil, uint64(i*7919%1000000))},
			{Kind: kv.SetCell, Family: "p", Qualifier: []byte("payload"), Timestamp: 1000, Value: append([]byte(nil), payload...)}}})
		if len(batch) == 1000 {
			if err := tbl.Apply(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if err := s.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	if err := s.Compact(ctx); err != nil {
		b.Fatal(err)
	}
	return s
}

// filteredScan reads family d of every row and completes family p for
// the 1% whose val passes (the harness's filtered full scan, in kv).
func filteredScan(b *testing.B, tbl kv.Table) int {
	it := tbl.Read(context.Background(), kv.RowSet{}, kv.ReadOptions{Essential: []string{"d"}})
	defer it.Close()
	n := 0
	for it.Next() {
		for _, c := range it.Row().Cells {
			if string(c.Qualifier) == "val" && binary.BigEndian.Uint64(c.Value) < 10000 {
				if err := kv.CompleteRow(it); err != nil {
					b.Fatal(err)
				}
				n++
				break
			}
		}
	}
	if err := it.Err(); err != nil {
		b.Fatal(err)
	}
	return n
}

// BenchmarkFilteredScanCache repeats the filtered two-family scan over
// 500k flushed rows with a cache smaller than the decompressed files
// (the server's old fixed default against the harness's table, scaled)
// and with one that holds them. Rows per second and the cache's misses
// per scan are reported.
func BenchmarkFilteredScanCache(b *testing.B) {
	const rows = 500_000
	for _, cache := range []int64{16 << 20, 1 << 30} {
		b.Run(fmt.Sprintf("cache=%dMiB", cache>>20), func(b *testing.B) {
			s := benchTwoFamilies(b, rows, cache)
			defer s.Close()
			tbl, _ := s.Table(context.Background(), "t")
			want := filteredScan(b, tbl) // warm the cache
			m0 := s.Metrics()
			b.ResetTimer()
			for b.Loop() {
				if n := filteredScan(b, tbl); n != want {
					b.Fatalf("%d rows, want %d", n, want)
				}
			}
			m1 := s.Metrics()
			b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(m1.CacheMisses-m0.CacheMisses)/float64(b.N), "misses/scan")
			b.ReportMetric(float64(m1.CacheBytes)/(1<<20), "cacheMiB")
		})
	}
}
