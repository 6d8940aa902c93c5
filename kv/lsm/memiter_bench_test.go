package lsm

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
)

// BenchmarkMemHotRows measures the reads of YCSB B and C over a usertable
// whose hot rows were updated many times, everything in the memtable: the
// row marker and ten 100-byte fields in one family (MaxVersions 1), 2000
// rows, of which every 100th holds 300 versions of each field (a zipfian
// update load). Each read is exec's: a single-row RowSet for
// `WHERE key = $1` (getHot, getCold; WarmPool: with the pooled read
// buffers grown by a scan, as in a server) or a range with Limit 10 for
// `WHERE key >= $1 LIMIT 10` starting at a hot row (scanHot).
//
//	go test ./kv/lsm -run XXX -bench MemHotRows -benchmem
func BenchmarkMemHotRows(b *testing.B) {
	const (
		rows     = 2000
		hotEvery = 100
		versions = 300
	)
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
	key := func(i int) []byte { return fmt.Appendf(nil, "user%019d", i) }
	field := func(f int) []byte { return fmt.Appendf(nil, "field%d", f) }
	value := func(i, f, v int) []byte {
		out := make([]byte, 100)
		copy(out, fmt.Sprintf("%d.%d.%d", i, f, v))
		return out
	}
	var batch []kv.RowMutation
	for i := range rows {
		muts := []kv.Mutation{{Kind: kv.SetCell, Family: "d", Qualifier: growthMarker, Timestamp: 1000, Value: []byte{}}}
		for f := range 10 {
			muts = append(muts, kv.Mutation{Kind: kv.SetCell, Family: "d", Qualifier: field(f), Timestamp: 1000, Value: value(i, f, 0)})
		}
		batch = append(batch, kv.RowMutation{Key: key(i), Mutations: muts})
		if len(batch) == 500 {
			if err := tbl.Apply(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	for v := 1; v < versions; v++ { // one field of one row per update, as YCSB
		for i := 0; i < rows; i += hotEvery {
			for f := range 10 {
				batch = append(batch, kv.RowMutation{Key: key(i), Mutations: []kv.Mutation{
					{Kind: kv.SetCell, Family: "d", Qualifier: field(f), Timestamp: kv.Timestamp(1000 * (1 + v)), Value: value(i, f, v)}}})
			}
		}
		if err := tbl.Apply(ctx, batch); err != nil {
			b.Fatal(err)
		}
		batch = batch[:0]
	}
	check := func(b *testing.B, it kv.RowIterator, i int) {
		if !it.Next() || len(it.Row().Cells) != 11 {
			b.Fatal("missing row", it.Err())
		}
		want := 1
		if i%hotEvery == 0 {
			want = versions
		}
		if got := string(it.Row().Cells[1].Value[:len(fmt.Sprintf("%d.0.%d", i, want-1))]); got != fmt.Sprintf("%d.0.%d", i, want-1) {
			b.Fatalf("row %d: field0 %q", i, got)
		}
	}
	// warm reads a row of 300 cells, leaving the pooled read buffers'
	// point memIters with memFillMax-entry buffers, as in a server once
	// any Get walked a few hundred entries.
	if err := s.CreateTable(ctx, "wide", kv.TableSpec{Families: []kv.Family{{Name: "d"}}}); err != nil {
		b.Fatal(err)
	}
	wide, _ := s.Table(ctx, "wide")
	var muts []kv.Mutation
	for q := range 300 {
		muts = append(muts, kv.Mutation{Kind: kv.SetCell, Family: "d", Qualifier: fmt.Appendf(nil, "q%03d", q), Timestamp: 1000})
	}
	if err := wide.Apply(ctx, []kv.RowMutation{{Key: []byte("w"), Mutations: muts}}); err != nil {
		b.Fatal(err)
	}
	warm := func(b *testing.B) {
		it := wide.Read(ctx, kv.RowSet{Keys: [][]byte{[]byte("w")}}, kv.ReadOptions{})
		if !it.Next() || len(it.Row().Cells) != 300 {
			b.Fatal("wide row", it.Err())
		}
		if err := it.Close(); err != nil {
			b.Fatal(err)
		}
	}
	get := func(b *testing.B, hot, warmPool bool) {
		keys := [][]byte{nil}
		n := 0
		var cpu time.Duration
		c0 := cpuTime()
		for b.Loop() {
			if warmPool && n%1024 == 0 {
				b.StopTimer()
				cpu += cpuTime() - c0
				warm(b)
				c0 = cpuTime()
				b.StartTimer()
			}
			i := (n * 7) % rows
			if hot {
				i = (n % (rows / hotEvery)) * hotEvery
			} else if i%hotEvery == 0 {
				i++
			}
			n++
			keys[0] = key(i)
			it := tbl.Read(ctx, kv.RowSet{Keys: keys}, kv.ReadOptions{})
			check(b, it, i)
			it.Close()
		}
		cpu += cpuTime() - c0
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
	b.Run("getHot", func(b *testing.B) { get(b, true, false) })
	b.Run("getHotWarmPool", func(b *testing.B) { get(b, true, true) })
	b.Run("getCold", func(b *testing.B) { get(b, false, false) })
	b.Run("getColdWarmPool", func(b *testing.B) { get(b, false, true) })
	b.Run("scanHot", func(b *testing.B) {
		n := 0
		c0 := cpuTime()
		for b.Loop() {
			i := (n % (rows/hotEvery - 1)) * hotEvery
			n++
			it := tbl.Read(ctx, kv.RowSet{Ranges: []kv.KeyRange{{Start: key(i)}}}, kv.ReadOptions{Limit: 10})
			check(b, it, i)
			c := 1
			for it.Next() {
				c++
			}
			if c != 10 || it.Err() != nil {
				b.Fatal(c, it.Err())
			}
			it.Close()
		}
		b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
	})
}

// memBenchEntries is the size of the memtables of BenchmarkMemtableGet
// and BenchmarkMemtableInsert: about half a million entries, as a 64 MiB
// memtable of YCSB rows holds.
const memBenchEntries = 500_000

// memBenchRows returns the row keys and cells of a memtable of about
// memBenchEntries entries of one of two key shapes, in insertion order:
// "ycsb", usertable rows keyed "user" and a hashed record number (go-ycsb's
// key names, variable length), eleven cells each (the row marker and ten
// 100-byte fields), inserted in hash order; or "kv", the harness's kv
// table keyed (tenant INT, id BIGINT) in key encoding, a marker and grp,
// val in family d and a 100-byte payload in family p, inserted in id
// order for 8 tenants.
func memBenchRows(shape string) (rows [][]byte, es []entry) {
	var seq uint64
	add := func(row []byte, fam string, q []byte, vlen int) {
		seq++
		es = append(es, entry{key: ikey.Append(nil, row, fam, q, 1000, seq, ikey.KindSet), value: make([]byte, vlen)})
	}
	switch shape {
	case "ycsb":
		for i := range memBenchEntries / 11 {
			h := fnv.New64a()
			binary.Write(h, binary.LittleEndian, int64(i))
			row := fmt.Appendf(nil, "user%d", h.Sum64()&(1<<63-1))
			rows = append(rows, row)
			add(row, "d", growthMarker, 0)
			for f := range 10 {
				add(row, "d", fmt.Appendf(nil, "field%d", f), 100)
			}
		}
	case "kv":
		const tenants = 8
		for id := range memBenchEntries / 4 / tenants {
			for tenant := range tenants {
				row := binary.BigEndian.AppendUint32(nil, uint32(tenant+1)^1<<31)
				row = binary.BigEndian.AppendUint64(row, uint64(id)^1<<63)
				rows = append(rows, row)
				add(row, "d", growthMarker, 0)
				add(row, "d", []byte("grp"), 4)
				add(row, "d", []byte("val"), 4)
				add(row, "p", []byte("payload"), 100)
			}
		}
	}
	return rows, es
}

// BenchmarkMemtableGet measures a point read's memtable work, the
// btree descent of a bounded memIter's first SeekGE and the copy of the
// row's entries, over a memtable of memBenchEntries entries (much larger
// than the CPU caches, as a server's) for both key shapes of
// memBenchRows, rows picked at random.
//
//	go test ./kv/lsm -run XXX -bench MemtableGet -count 6
func BenchmarkMemtableGet(b *testing.B) {
	for _, shape := range []string{"ycsb", "kv"} {
		b.Run(shape, func(b *testing.B) {
			rows, es := memBenchRows(shape)
			m := newMemtable()
			for i := 0; i < len(es); i += 100 {
				m.add(es[i:min(i+100, len(es))], uint64(i+1), 1)
			}
			prefixes := make([][]byte, len(rows))
			for i, r := range rows {
				prefixes[i] = ikey.RowPrefix(nil, r)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			order := rng.Perm(len(rows))
			it := newMemIter(m)
			n, cells := 0, 0
			c0 := cpuTime()
			for b.Loop() {
				p := prefixes[order[n%len(order)]]
				n++
				it.reset(m, p)
				for it.SeekGE(p); it.Valid(); it.Next() {
					cells++
				}
				it.Close()
			}
			b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			if want := len(es) / len(rows) * n; cells != want {
				b.Fatalf("%d cells, want %d", cells, want)
			}
		})
	}
}

// BenchmarkMemtableInsertShapes measures memtable inserts (the commit path's
// memtable.add, batches of 100 entries) into memtables grown to
// memBenchEntries entries, for both key shapes of memBenchRows, in their
// insertion order: random for ycsb, ascending ids for kv. The ns/op is
// per entry.
//
//	go test ./kv/lsm -run XXX -bench MemtableInsertShapes -count 6
func BenchmarkMemtableInsertShapes(b *testing.B) {
	for _, shape := range []string{"ycsb", "kv"} {
		b.Run(shape, func(b *testing.B) {
			_, es := memBenchRows(shape)
			const batch = 100
			var m *memtable
			i := len(es)
			var cpu time.Duration
			c0 := cpuTime()
			for b.Loop() {
				if i+batch > len(es) {
					b.StopTimer()
					cpu += cpuTime() - c0
					m, i = newMemtable(), 0
					runtime.GC()
					c0 = cpuTime()
					b.StartTimer()
				}
				m.add(es[i:i+batch], uint64(i+1), 1)
				i += batch
			}
			cpu += cpuTime() - c0
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/entry")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*batch), "cpu-ns/entry")
		})
	}
}
