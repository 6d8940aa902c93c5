package lsm

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
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
