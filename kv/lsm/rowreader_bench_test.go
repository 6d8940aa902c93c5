package lsm

import (
	"context"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/widesql/widesql/kv"
)

// BenchmarkRowReaderProjected measures the row reader's per-cell work
// under the projections exec sends (kv.ReadOptions.Columns lists the row
// marker and every needed column; qualifiers are uvarint column ids):
//
//   - kv3: the harness's kv table (marker, grp, val in family d; payload
//     in p), a full scan of d's three columns (the filtered scan and
//     GROUP BY), reported per row;
//
//   - kv4: the same table read as SELECT * (both families, every
//     column): a full scan per row and a 100-row range per op;
//
//   - wide11: YCSB's usertable (marker and ten 100-byte fields in one
//     family), SELECT * (11 columns): a full scan per row, a 100-row
//     range (YCSB E) and a point Get per op.
//
//     go test ./kv/lsm -run '^$' -bench RowReaderProjected -benchmem
func BenchmarkRowReaderProjected(b *testing.B) {
	ctx := context.Background()
	perRow := func(b *testing.B, tbl kv.Table, opts kv.ReadOptions) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		c0 := cpuTime()
		rows, best := 0, time.Duration(math.MaxInt64)
		for b.Loop() {
			t0 := threadTime()
			it := tbl.Read(ctx, kv.RowSet{Ranges: []kv.KeyRange{{}}}, opts)
			n := 0
			for it.Next() {
				n++
			}
			if err := it.Err(); err != nil {
				b.Fatal(err)
			}
			it.Close()
			best = min(best, threadTime()-t0)
			rows += n
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(rows), "ns/row")
		b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(rows), "cpu-ns/row")
		b.ReportMetric(float64(best.Nanoseconds())/float64(rows/b.N), "min-thread-ns/row")
	}
	b.Run("kv3", func(b *testing.B) {
		const n = 200_000
		s, tbl := loadProjected(b, n, []kv.Family{{Name: "d", MaxVersions: 1}, {Name: "p", MaxVersions: 1}}, kv4Row)
		defer s.Close()
		perRow(b, tbl, kv.ReadOptions{Families: []string{"d"}, Columns: []kv.Column{
			{Family: "d", Qualifier: []byte{0}}, {Family: "d", Qualifier: []byte{3}}, {Family: "d", Qualifier: []byte{4}}}})
	})
	b.Run("kv4", func(b *testing.B) {
		// SELECT * of the harness's kv table: both families, the
		// merge of d's file and p's.
		const n = 100_000
		s, tbl := loadProjected(b, n, []kv.Family{{Name: "d", MaxVersions: 1}, {Name: "p", MaxVersions: 1}}, kv4Row)
		defer s.Close()
		opts := kv.ReadOptions{Columns: []kv.Column{
			{Family: "d", Qualifier: []byte{0}}, {Family: "d", Qualifier: []byte{3}}, {Family: "d", Qualifier: []byte{4}},
			{Family: "p", Qualifier: []byte{5}}}}
		b.Run("scan", func(b *testing.B) { perRow(b, tbl, opts) })
		rng := rand.New(rand.NewPCG(3, 4))
		b.Run("range100", func(b *testing.B) { rangeRead(b, tbl, opts, n, rng) })
	})
	b.Run("wide11", func(b *testing.B) {
		const n = 50_000
		s, tbl := loadProjected(b, n, []kv.Family{{Name: "d", MaxVersions: 1}},
			func(i int, v []byte) []kv.Mutation {
				muts := []kv.Mutation{{Kind: kv.SetCell, Family: "d", Qualifier: []byte{0}, Timestamp: 1000, Value: []byte{}}}
				for f := range 10 {
					muts = append(muts, kv.Mutation{Kind: kv.SetCell, Family: "d", Qualifier: []byte{byte(2 + f)}, Timestamp: 1000, Value: v[f*10 : f*10+100]})
				}
				return muts
			})
		defer s.Close()
		cols := []kv.Column{{Family: "d", Qualifier: []byte{0}}}
		for f := range 10 {
			cols = append(cols, kv.Column{Family: "d", Qualifier: []byte{byte(2 + f)}})
		}
		opts := kv.ReadOptions{Families: []string{"d"}, Columns: cols}
		b.Run("scan", func(b *testing.B) { perRow(b, tbl, opts) })
		rng := rand.New(rand.NewPCG(3, 4))
		b.Run("range100", func(b *testing.B) { rangeRead(b, tbl, opts, n, rng) })
		b.Run("get", func(b *testing.B) {
			keys := [][]byte{nil}
			c0 := cpuTime()
			for b.Loop() {
				keys[0] = projectedKey(keys[0], rng.IntN(n))
				it := tbl.Read(ctx, kv.RowSet{Keys: keys}, opts)
				if !it.Next() || len(it.Row().Cells) != 11 {
					b.Fatal("missing row", it.Err())
				}
				it.Close()
			}
			b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	})
}

// kv4Row is row i of the harness's kv table: the marker, grp and val in
// family d, a 64-byte payload in p.
func kv4Row(i int, v []byte) []kv.Mutation {
	return []kv.Mutation{
		{Kind: kv.SetCell, Family: "d", Qualifier: []byte{0}, Timestamp: 1000, Value: []byte{}},
		{Kind: kv.SetCell, Family: "d", Qualifier: []byte{3}, Timestamp: 1000, Value: binary.BigEndian.AppendUint32(nil, uint32(i%100))},
		{Kind: kv.SetCell, Family: "d", Qualifier: []byte{4}, Timestamp: 1000, Value: binary.BigEndian.AppendUint32(nil, uint32(i*7919%1_000_000))},
		{Kind: kv.SetCell, Family: "p", Qualifier: []byte{5}, Timestamp: 1000, Value: v[:64]},
	}
}

// rangeRead reads 100 rows from a random one of tbl's n rows (a range scan
// by key prefix, YCSB E), reported per op, with the least disturbed op's
// thread time.
func rangeRead(b *testing.B, tbl kv.Table, opts kv.ReadOptions, n int, rng *rand.Rand) {
	ctx := context.Background()
	o := opts
	o.Limit = 100
	var lo []byte
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, best := cpuTime(), time.Duration(math.MaxInt64)
	for b.Loop() {
		t0 := threadTime()
		lo = projectedKey(lo, rng.IntN(n-100))
		it := tbl.Read(ctx, kv.RowSet{Ranges: []kv.KeyRange{{Start: lo}}}, o)
		c := 0
		for it.Next() {
			c++
		}
		it.Close()
		if c != 100 {
			b.Fatal(c, it.Err())
		}
		best = min(best, threadTime()-t0)
	}
	b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(best.Nanoseconds()), "min-thread-ns/op")
}

// threadTime is the calling thread's CPU time: with the goroutine locked
// to its thread, the minimum over many scans is the least disturbed by
// the other processes of a shared machine.
func threadTime() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

func projectedKey(dst []byte, i int) []byte {
	return binary.BigEndian.AppendUint64(dst[:0], uint64(i))
}

// loadProjected loads n rows of muts(i, 200 random bytes) into a new table
// t of fams, flushed and compacted.
func loadProjected(b *testing.B, n int, fams []kv.Family, muts func(i int, v []byte) []kv.Mutation) (*Store, kv.Table) {
	ctx := context.Background()
	s, err := Open(b.TempDir(), Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: fams}); err != nil {
		b.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	rng := rand.New(rand.NewPCG(1, 2))
	var batch []kv.RowMutation
	for i := range n {
		v := make([]byte, 200)
		for j := range v {
			v[j] = byte('a' + rng.IntN(26))
		}
		batch = append(batch, kv.RowMutation{Key: projectedKey(nil, i), Mutations: muts(i, v)})
		if len(batch) == 1000 || i == n-1 {
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
	if err := s.Compact(ctx); err != nil {
		b.Fatal(err)
	}
	b.Logf("%d rows", n)
	return s, tbl
}
