package lsm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/widesql/widesql/kv"
)

// TestMultiGetFromCache checks multi-gets served from the row cache
// without a snapshot (read_multicache.go) against the same reads on a
// store without a row cache: random key sets, most of them cached, some
// with absent or uncached keys, Limit, Columns, and writes in between
// that invalidate cached rows. Consecutive reads reuse the staged rows'
// buffers, so a stage left over from the read before would show here.
func TestMultiGetFromCache(t *testing.T) {
	ctx := context.Background()
	open := func(cache int64) kv.Table {
		s, err := Open(t.TempDir(), Options{NoSync: true, RowCacheSize: cache})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "a"}, {Name: "b"}}}); err != nil {
			t.Fatal(err)
		}
		h, _ := s.Table(ctx, "t")
		return h
	}
	cached, plain := open(0), open(-1)
	key := func(i int) []byte { return fmt.Appendf(nil, "k%03d", i) }
	rng := rand.New(rand.NewPCG(7, 8))
	write := func(i, v int) {
		m := []kv.RowMutation{{Key: key(i), Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "a", Qualifier: []byte("x"), Timestamp: 1000, Value: fmt.Appendf(nil, "a%d.%d", i, v)},
			{Kind: kv.SetCell, Family: "b", Qualifier: []byte("yy"), Timestamp: 2000, Value: fmt.Appendf(nil, "b%d.%d", i, v)},
			{Kind: kv.SetCell, Family: "b", Qualifier: nil, Timestamp: 3000, Value: []byte{}},
		}}}
		for _, h := range []kv.Table{cached, plain} {
			if err := h.Apply(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range 100 {
		if i%10 != 9 { // every tenth key absent
			write(i, 0)
		}
	}
	staged := 0
	for q := range 600 {
		if rng.IntN(10) == 0 {
			write(rng.IntN(100), q) // invalidates a cached row
		}
		keys := make([][]byte, 2+rng.IntN(8))
		for i := range keys {
			keys[i] = key(rng.IntN(100))
		}
		var opts kv.ReadOptions
		if rng.IntN(4) == 0 {
			opts.Limit = int64(1 + rng.IntN(3))
		}
		if rng.IntN(4) == 0 {
			opts.Columns = []kv.Column{{Family: "b", Qualifier: []byte("yy")}}
		}
		// Fill the cache with Gets of most keys, as a workload would.
		for _, k := range keys {
			if rng.IntN(8) != 0 {
				readRows(t, cached.Read(ctx, kv.RowSet{Keys: [][]byte{k}}, opts))
			}
		}
		it := cached.Read(ctx, kv.RowSet{Keys: keys}, opts)
		ri := it.(*rowIterator)
		if ri.bufs != nil && ri.bufs.stage.on {
			staged++
			if ri.snap != nil {
				t.Fatalf("read %d: a staged read took a snapshot", q)
			}
		}
		got := readRows(t, it)
		want := readRows(t, plain.Read(ctx, kv.RowSet{Keys: keys}, opts))
		if !slices.Equal(got, want) {
			t.Fatalf("read %d %q %+v:\n got %q\nwant %q", q, keys, opts, got, want)
		}
	}
	if staged < 100 {
		t.Fatalf("only %d of 600 multi-gets were served from the cache", staged)
	}
}

// BenchmarkMultiGetCached measures a multi-get of 10 rows that are all in
// the row cache, served from it (staged) and, for comparison, on the
// normal path (a snapshot, each point looked up in the cache).
//
//	go test ./kv/lsm -run XXX -bench MultiGetCached -benchmem
func BenchmarkMultiGetCached(b *testing.B) {
	ctx := context.Background()
	s, err := Open(b.TempDir(), Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "d"}, {Name: "p"}}}); err != nil {
		b.Fatal(err)
	}
	h, _ := s.Table(ctx, "t")
	key := func(i int) []byte { return fmt.Appendf(nil, "k%05d", i) }
	var batch []kv.RowMutation
	for i := range 1000 {
		batch = append(batch, kv.RowMutation{Key: key(i), Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "d", Qualifier: []byte("grp"), Timestamp: 1000, Value: []byte("1234")},
			{Kind: kv.SetCell, Family: "d", Qualifier: []byte("val"), Timestamp: 1000, Value: []byte("5678")},
			{Kind: kv.SetCell, Family: "p", Qualifier: []byte("payload"), Timestamp: 1000, Value: make([]byte, 64)},
		}})
	}
	if err := h.Apply(ctx, batch); err != nil {
		b.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	for i := range 1000 { // fill the cache
		it := h.Read(ctx, kv.RowSet{Keys: [][]byte{key(i)}}, kv.ReadOptions{})
		for it.Next() {
		}
		it.Close()
	}
	for _, on := range []bool{true, false} {
		b.Run(fmt.Sprintf("staged=%v", on), func(b *testing.B) {
			defer func(v bool) { multiFromCache = v }(multiFromCache)
			multiFromCache = on
			all := make([][]byte, 1000)
			for i := range all {
				all[i] = key(i)
			}
			keys := make([][]byte, 10)
			for i := 0; b.Loop(); i++ {
				for j := range keys {
					keys[j] = all[(i*37+j*13)%1000]
				}
				it := h.Read(ctx, kv.RowSet{Keys: keys}, kv.ReadOptions{})
				n := 0
				for it.Next() {
					n++
				}
				if st := it.Stats(); n != 10 || st.CacheHits != 10 {
					b.Fatal(n, st)
				}
				it.Close()
			}
		})
	}
}
