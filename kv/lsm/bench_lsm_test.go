package lsm

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
)

// openBenchTable opens a store in a temporary directory with opts (and
// NoSync) holding one empty table "t" of one family "f". The caller
// closes the store.
func openBenchTable(b *testing.B, opts Options) (*Store, kv.Table) {
	b.Helper()
	ctx := context.Background()
	opts.NoSync = true
	s, err := Open(b.TempDir(), opts)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "f"}}}); err != nil {
		s.Close()
		b.Fatal(err)
	}
	tbl, err := s.Table(ctx, "t")
	if err != nil {
		s.Close()
		b.Fatal(err)
	}
	return s, tbl
}

func benchStore(b *testing.B, rows int, flush bool) (*Store, kv.Table) {
	ctx := context.Background()
	s, tbl := openBenchTable(b, Options{})
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

// BenchmarkHarnessReads measures the read shapes of the harness's kv table
// (see loadGrowth: two families, 1000 rows a tenant) over flushed files
// read through the block cache, as a server reads after CHECKPOINT:
//
//   - get: a point Get of all families (SELECT * by primary key);
//
//   - multiget10: a RowSet of 10 random keys of one tenant (IN (...));
//
//   - range100: the first 100 rows of a tenant prefix;
//
//   - scanD: a full scan of family d only (a filter or GROUP BY over
//     grp and val), reported per row;
//
//   - scanDP and scanLazy: the filtered full scan of every column (a
//     filter on val keeping 1% of the rows): both families of every row,
//     or family d first and p only for the rows that pass
//     (ReadOptions.Essential and kv.CompleteRow).
//
//     go test ./kv/lsm -run XXX -bench HarnessReads -benchmem
func BenchmarkHarnessReads(b *testing.B) {
	const n = 100_000
	s, tbl := loadGrowth(b, b.TempDir(), n, Options{})
	defer s.Close()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6))
	regions, _ := s.Regions(ctx, "kv")
	files := 0
	for _, r := range regions {
		files += r.Files
	}
	b.Logf("%d rows: %d regions, %d files", n, len(regions), files)
	// cpu reports the process's CPU time per op (all threads), steadier
	// than ns/op on a shared machine.
	cpu := func(b *testing.B, start time.Duration) {
		b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
	b.Run("get", func(b *testing.B) {
		defer cpu(b, cpuTime())
		keys := [][]byte{nil}
		for b.Loop() {
			keys[0] = growthRow(keys[0], rng.IntN(n))
			it := tbl.Read(ctx, kv.RowSet{Keys: keys}, kv.ReadOptions{})
			if !it.Next() {
				b.Fatal("missing row", it.Err())
			}
			it.Close()
		}
	})
	b.Run("multiget10", func(b *testing.B) {
		defer cpu(b, cpuTime())
		keys := make([][]byte, 10)
		for b.Loop() {
			keys = keys[:10]
			// Ten ids of one tenant, as the harness's IN list.
			tenant := rng.IntN(n / 1000)
			for j := range keys {
				keys[j] = growthRow(keys[j], tenant*1000+rng.IntN(1000))
			}
			slices.SortFunc(keys, bytes.Compare)
			keys = slices.CompactFunc(keys, bytes.Equal)
			it := tbl.Read(ctx, kv.RowSet{Keys: keys}, kv.ReadOptions{})
			c := 0
			for it.Next() {
				c++
			}
			it.Close()
			if c != len(keys) {
				b.Fatal(c, it.Err())
			}
		}
	})
	b.Run("range100", func(b *testing.B) {
		defer cpu(b, cpuTime())
		var lo, hi []byte
		for b.Loop() {
			t := rng.IntN(n / 1000)
			lo = binary.BigEndian.AppendUint32(lo[:0], uint32(t+1)^1<<31)
			hi = binary.BigEndian.AppendUint32(hi[:0], uint32(t+2)^1<<31)
			it := tbl.Read(ctx, kv.RowSet{Ranges: []kv.KeyRange{{Start: lo, End: hi}}}, kv.ReadOptions{Limit: 100})
			c := 0
			for it.Next() {
				c++
			}
			it.Close()
			if c != 100 {
				b.Fatal(c, it.Err())
			}
		}
	})
	b.Run("scanD", func(b *testing.B) {
		c0 := cpuTime()
		rows := 0
		for b.Loop() {
			it := tbl.Read(ctx, kv.RowSet{Ranges: []kv.KeyRange{{}}}, kv.ReadOptions{Families: []string{"d"}})
			for it.Next() {
				rows++
			}
			it.Close()
			if err := it.Err(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(rows), "ns/row")
		b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(rows), "cpu-ns/row")
	})
	// val is d's second cell: a big-endian number below 1,000,000; 1%
	// of the rows have one below 10,000.
	passes := func(r kv.Row) bool {
		for _, c := range r.Cells {
			if c.Family == "d" && string(c.Qualifier) == "val" {
				return binary.BigEndian.Uint32(c.Value) < 10_000
			}
		}
		return false
	}
	filtered := func(b *testing.B, essential []string) {
		c0 := cpuTime()
		rows, kept := 0, 0
		for b.Loop() {
			it := tbl.Read(ctx, kv.RowSet{}, kv.ReadOptions{Essential: essential})
			for it.Next() {
				rows++
				if passes(it.Row()) {
					if err := kv.CompleteRow(it); err != nil {
						b.Fatal(err)
					}
					if len(it.Row().Cells) != 4 {
						b.Fatal("incomplete row", it.Row())
					}
					kept++
				}
			}
			it.Close()
			if err := it.Err(); err != nil {
				b.Fatal(err)
			}
		}
		if kept == 0 || kept > rows/50 {
			b.Fatalf("%d of %d rows passed", kept, rows)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(rows), "ns/row")
		b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(rows), "cpu-ns/row")
	}
	b.Run("scanDP", func(b *testing.B) { filtered(b, nil) })
	b.Run("scanLazy", func(b *testing.B) { filtered(b, []string{"d"}) })
}

// BenchmarkGetWideRow measures a point Get of a YCSB usertable row (the
// row marker and ten 100-byte TEXT fields, all in the default family d, as
// exec lays out a table without family annotations) over flushed files:
// SELECT * by primary key, eleven cells merged, decoded and copied.
//
//	go test ./kv/lsm -run XXX -bench GetWideRow -benchmem
func BenchmarkGetWideRow(b *testing.B) {
	const n = 20_000
	ctx := context.Background()
	s, err := Open(b.TempDir(), Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateTable(ctx, "usertable", kv.TableSpec{Families: []kv.Family{{Name: "d", MaxVersions: 1}}}); err != nil {
		b.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "usertable")
	key := func(dst []byte, i int) []byte {
		return fmt.Appendf(dst[:0], "user%019d", uint64(i)*0x9e3779b97f4a7c15%1e19)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	var batch []kv.RowMutation
	for i := range n {
		muts := []kv.Mutation{{Kind: kv.SetCell, Family: "d", Qualifier: growthMarker, Timestamp: 1000, Value: []byte{}}}
		for f := range 10 {
			v := make([]byte, 100)
			for j := range v {
				v[j] = byte('a' + rng.IntN(26))
			}
			muts = append(muts, kv.Mutation{Kind: kv.SetCell, Family: "d", Qualifier: fmt.Appendf(nil, "field%d", f), Timestamp: 1000, Value: v})
		}
		batch = append(batch, kv.RowMutation{Key: key(nil, i), Mutations: muts})
		if len(batch) == 500 || i == n-1 {
			if err := tbl.Apply(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if err := s.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	settle(b, s)
	keys := [][]byte{nil}
	c0 := cpuTime()
	for b.Loop() {
		keys[0] = key(keys[0], rng.IntN(n))
		it := tbl.Read(ctx, kv.RowSet{Keys: keys}, kv.ReadOptions{})
		if !it.Next() || len(it.Row().Cells) != 11 {
			b.Fatal("missing row", it.Err())
		}
		it.Close()
	}
	b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkGetHotRow measures a point Get (MaxVersions 1) of a row whose
// column val has 1000 versions, as a zipfian UPDATE load leaves a hot row:
// all in the memtable (mem), or flushed into one file (files: a flush
// keeps every version; only compaction drops them).
//
//	go test ./kv/lsm -run XXX -bench GetHotRow -benchmem
func BenchmarkGetHotRow(b *testing.B) {
	for _, flush := range []bool{false, true} {
		name := map[bool]string{false: "mem", true: "files"}[flush]
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			s, err := Open(b.TempDir(), Options{NoSync: true})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			spec := kv.TableSpec{Families: []kv.Family{{Name: "d", MaxVersions: 1}, {Name: "p", MaxVersions: 1}}}
			if err := s.CreateTable(ctx, "kv", spec); err != nil {
				b.Fatal(err)
			}
			tbl, _ := s.Table(ctx, "kv")
			for i := range 1000 {
				muts := []kv.Mutation{
					{Kind: kv.SetCell, Family: "d", Qualifier: growthMarker, Timestamp: 1000, Value: []byte{}},
					{Kind: kv.SetCell, Family: "d", Qualifier: []byte("grp"), Timestamp: 1000, Value: []byte("g")},
					{Kind: kv.SetCell, Family: "d", Qualifier: []byte("val"), Timestamp: 1000, Value: []byte("v")},
					{Kind: kv.SetCell, Family: "p", Qualifier: []byte("payload"), Timestamp: 1000, Value: make([]byte, 64)},
				}
				if err := tbl.Apply(ctx, []kv.RowMutation{{Key: growthRow(nil, i), Mutations: muts}}); err != nil {
					b.Fatal(err)
				}
			}
			hot := growthRow(nil, 500)
			for v := range 1000 {
				val := binary.BigEndian.AppendUint32(nil, uint32(v))
				if err := tbl.Apply(ctx, []kv.RowMutation{{Key: hot, Mutations: []kv.Mutation{
					{Kind: kv.SetCell, Family: "d", Qualifier: []byte("val"), Timestamp: kv.Timestamp(2000+v) * 1000, Value: val}}}}); err != nil {
					b.Fatal(err)
				}
			}
			if flush {
				if err := s.Flush(ctx); err != nil {
					b.Fatal(err)
				}
			}
			keys := [][]byte{hot}
			c0 := cpuTime()
			for b.Loop() {
				it := tbl.Read(ctx, kv.RowSet{Keys: keys}, kv.ReadOptions{})
				if !it.Next() || len(it.Row().Cells) != 4 {
					b.Fatal("missing row", it.Err(), it.Row())
				}
				if binary.BigEndian.Uint32(it.Row().Cells[2].Value) != 999 {
					b.Fatal("stale version", it.Row())
				}
				it.Close()
			}
			b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}
