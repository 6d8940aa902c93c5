package sstable

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

func TestCacheBounded(t *testing.T) {
	for _, capacity := range []int64{0, 10_000, 1 << 20, 64 << 20} {
		c := NewCache(capacity)
		rng := rand.New(rand.NewPCG(1, 1))
		for i := range 5000 {
			c.set(uint64(rng.IntN(10)), uint64(i), make([]byte, rng.IntN(40_000)))
			if _, _, used := c.Stats(); used > capacity {
				t.Fatalf("capacity %d: used %d", capacity, used)
			}
		}
		c.EvictFile(3)
		for i := range 5000 {
			if c.get(3, uint64(i)) != nil {
				t.Fatal("EvictFile left a block")
			}
		}
	}
}

func TestCacheLRU(t *testing.T) {
	c := NewCache(3 * (1000 + entryOverhead))
	for i := range 3 {
		c.set(1, uint64(i), make([]byte, 1000))
	}
	c.get(1, 0) // 0 is now the most recent; 1 is the least
	c.set(1, 3, make([]byte, 1000))
	if c.get(1, 1) != nil || c.get(1, 0) == nil || c.get(1, 3) == nil {
		t.Fatal("LRU evicted the wrong block")
	}
}

// TestCacheHits scans a table twice through a cache: the second pass is
// all hits, and hits return the cached block itself.
func TestCacheHits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	entries := randomEntries(rng, 3000)
	f, _ := writeTable(t, entries, WriterOptions{BlockSize: 2048, Compression: Zstd})
	cache := NewCache(8 << 20)
	r := openTable(t, f, cache)
	defer r.Close()
	scan := func() {
		it := r.NewIter()
		defer it.Close()
		for ok := it.First(); ok; ok = it.Next() {
		}
		if it.Err() != nil {
			t.Fatal(it.Err())
		}
	}
	scan()
	h1, m1, used := cache.Stats()
	scan()
	h2, m2, _ := cache.Stats()
	t.Logf("first scan: %d hits %d misses; second: %d hits %d misses; %d bytes cached", h1, m1, h2-h1, m2-m1, used)
	if m1 == 0 || m2 != m1 || h2-h1 != m1 {
		t.Fatalf("second scan should hit every block: %d/%d then %d/%d", h1, m1, h2, m2)
	}
	b1 := cache.get(1, 0)
	if b2 := cache.get(1, 0); b1 == nil || &b1[0] != &b2[0] {
		t.Fatal("cache hit copied the block")
	}
}

// TestConcurrentReaders runs iterators from many goroutines over one
// Reader and a small shared cache (run with -race).
func TestConcurrentReaders(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	entries := randomEntries(rng, 5000)
	f, _ := writeTable(t, entries, WriterOptions{BlockSize: 512, Compression: Snappy})
	r := openTable(t, f, NewCache(64<<10))
	defer r.Close()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 0))
			it := r.NewIter()
			defer it.Close()
			for range 500 {
				i := rng.IntN(len(entries))
				if !it.SeekGE(entries[i].k) || string(it.Value()) != string(entries[i].v) {
					t.Error(fmt.Sprintf("goroutine %d: SeekGE #%d failed: %v", g, i, it.Err()))
					return
				}
			}
		})
	}
	wg.Wait()
}
