package lsm

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/widesql/widesql/kv"
)

// benchUpdate applies single-row RequirePresent updates (an SQL UPDATE by
// key in autocommit: the row marker and one column) to rows of a store of
// n rows in files, as exec writes them. hot picks the rows from a small set,
// so that their newest versions are in the memtable (a zipfian YCSB
// update); otherwise the rows are uniform over the table and mostly only
// in files (the harness's UPDATE).
func benchUpdate(b *testing.B, hot bool) {
	const n = 100000
	s, tbl := benchStore(b, n, true)
	defer s.Close()
	ctx := context.Background()
	batch := make([]kv.RowMutation, 1)
	muts := make([]kv.Mutation, 2)
	val := make([]byte, 8)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		k := (i * 7919) % n
		if hot {
			k %= 64
		}
		muts[0] = kv.Mutation{Kind: kv.SetCell, Family: "f", Qualifier: []byte{0}, Timestamp: 2000}
		muts[1] = kv.Mutation{Kind: kv.SetCell, Family: "f", Qualifier: []byte("v"), Timestamp: 2000, Value: val}
		batch[0] = kv.RowMutation{Key: fmt.Appendf(nil, "k%08d", k), Mutations: muts, Require: kv.RequirePresent}
		if err := tbl.Apply(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUpdatePresent(b *testing.B) {
	for _, hot := range []bool{false, true} {
		for _, shortcut := range []bool{false, true} {
			b.Run(fmt.Sprintf("hot=%v/shortcut=%v", hot, shortcut), func(b *testing.B) {
				defer func(v bool) { presenceShortcut = v }(presenceShortcut)
				presenceShortcut = shortcut
				benchUpdate(b, hot)
			})
		}
	}
}

// BenchmarkUpdateDurable is benchUpdate's uniform UPDATE with the WAL
// synced (the default), from four concurrent writers as the harness's
// pgbench runs it, with the WAL preallocated (the default) or appended to.
// Each op is one durable transaction; syncs are shared by group commit.
func BenchmarkUpdateDurable(b *testing.B) {
	for _, prealloc := range []int64{-1, 0} {
		name := map[bool]string{true: "off", false: "on"}[prealloc < 0]
		b.Run("prealloc="+name, func(b *testing.B) {
			const n = 10000
			ctx := context.Background()
			s, err := Open(b.TempDir(), Options{WALPreallocate: prealloc})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "f"}}})
			tbl, _ := s.Table(ctx, "t")
			var load []kv.RowMutation
			for i := range n {
				load = append(load, kv.RowMutation{Key: fmt.Appendf(nil, "k%08d", i), Mutations: []kv.Mutation{
					{Kind: kv.SetCell, Family: "f", Qualifier: []byte{0}, Timestamp: 1000},
					{Kind: kv.SetCell, Family: "f", Qualifier: []byte("v"), Timestamp: 1000, Value: make([]byte, 8)}}})
			}
			if err := tbl.Apply(ctx, load); err != nil {
				b.Fatal(err)
			}
			var next atomic.Int64
			b.SetParallelism(2) // 4 writers on 2 cores
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				val := make([]byte, 8)
				for pb.Next() {
					k := (next.Add(1) * 7919) % n
					muts := []kv.Mutation{
						{Kind: kv.SetCell, Family: "f", Qualifier: []byte{0}, Timestamp: 2000},
						{Kind: kv.SetCell, Family: "f", Qualifier: []byte("v"), Timestamp: 2000, Value: val}}
					batch := []kv.RowMutation{{Key: fmt.Appendf(nil, "k%08d", k), Mutations: muts, Require: kv.RequirePresent}}
					if err := tbl.Apply(ctx, batch); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
