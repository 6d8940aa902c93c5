package lsm

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
)

// waitPrefetched waits until the store's background prefetch has cached
// more than since bytes in all and then cached nothing more for longer
// than a background tick, and returns its metrics then.
func waitPrefetched(t *testing.T, s *Store, since int64) Metrics {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	last := since
	stable := time.Now()
	for time.Now().Before(deadline) {
		m := s.Metrics()
		if m.PrefetchedBytes != last {
			last, stable = m.PrefetchedBytes, time.Now()
		}
		if last > since && time.Since(stable) > 1500*time.Millisecond {
			return m
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the prefetch did not finish: %d bytes after 30 s", last)
	return Metrics{}
}

// TestPrefetchBlocks: with PrefetchBlocks, a store whose files fit its
// block cache caches all of them in the background, once quiet, both
// after writing them and after a restart; every point read then hits.
// Without it nothing is cached before a read.
func TestPrefetchBlocks(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	opts := Options{NoSync: true, BlockSize: 512, BlockCacheSize: 32 << 20, RowCacheSize: -1}
	spec := kv.TableSpec{Families: []kv.Family{{Name: "a"}, {Name: "b"}}, SplitKeys: [][]byte{[]byte("k1500")}}
	key := func(i int) []byte { return fmt.Appendf(nil, "k%04d", i) }
	const rows = 3000

	s, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTable(ctx, "t", spec); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	for lo := 0; lo < rows; lo += 1000 {
		var batch []kv.RowMutation
		for i := lo; i < lo+1000; i++ {
			batch = append(batch, kv.RowMutation{Key: key(i), Mutations: []kv.Mutation{
				{Kind: kv.SetCell, Family: "a", Qualifier: []byte("x"), Timestamp: 1000, Value: fmt.Appendf(nil, "a%d", i)},
				{Kind: kv.SetCell, Family: "b", Qualifier: []byte("y"), Timestamp: 1000, Value: fmt.Appendf(nil, "b%d-%0100d", i, i)},
			}})
		}
		if err := tbl.Apply(ctx, batch); err != nil {
			t.Fatal(err)
		}
		if err := s.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(1500 * time.Millisecond)
	if m := s.Metrics(); m.CacheBytes != 0 || m.PrefetchedBytes != 0 {
		t.Fatalf("without PrefetchBlocks: %d bytes cached, %d prefetched before any read", m.CacheBytes, m.PrefetchedBytes)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	opts.PrefetchBlocks = true
	for _, phase := range []string{"after a restart", "after writing"} {
		s, err := Open(dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		tbl, _ := s.Table(ctx, "t")
		if phase == "after writing" {
			// The files at the restart first, then the new ones.
			waitPrefetched(t, s, 0)
			var batch []kv.RowMutation
			for i := range rows {
				batch = append(batch, kv.RowMutation{Key: key(i), Mutations: []kv.Mutation{
					{Kind: kv.SetCell, Family: "a", Qualifier: []byte("x"), Timestamp: 2000, Value: fmt.Appendf(nil, "A%d", i)}}})
			}
			if err := tbl.Apply(ctx, batch); err != nil {
				t.Fatal(err)
			}
			if err := s.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			if err := s.Compact(ctx); err != nil {
				t.Fatal(err)
			}
		}
		m0 := waitPrefetched(t, s, s.Metrics().PrefetchedBytes)
		if m0.CacheBytes != m0.PrefetchedBytes && phase == "after a restart" {
			t.Fatalf("%s: %d bytes cached, %d of them prefetched, before any read", phase, m0.CacheBytes, m0.PrefetchedBytes)
		}
		for i := range rows {
			want := fmt.Sprintf("%s: a/x@1000=a%d b/y@1000=b%d-%0100d", key(i), i, i, i)
			if phase == "after writing" {
				want = fmt.Sprintf("%s: a/x@2000=A%d b/y@1000=b%d-%0100d", key(i), i, i, i)
			}
			if rs := readRows(t, tbl.Read(ctx, kv.RowSet{Keys: [][]byte{key(i)}}, kv.ReadOptions{})); len(rs) != 1 || rs[0] != want {
				t.Fatalf("%s: row %d read back as %q, want %q", phase, i, rs, want)
			}
		}
		if m := s.Metrics(); m.CacheMisses != m0.CacheMisses || m.CacheHits == m0.CacheHits {
			t.Fatalf("%s: %d misses and %d hits in %d point reads of prefetched files", phase,
				m.CacheMisses-m0.CacheMisses, m.CacheHits-m0.CacheHits, rows)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
