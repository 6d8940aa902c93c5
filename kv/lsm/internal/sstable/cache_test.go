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

// TestCacheScanResistant: blocks hit once (a point read's working set)
// survive a scan of many times the capacity, which evicts only blocks of
// its own. A plain LRU cache fails this.
func TestCacheScanResistant(t *testing.T) {
	const blk = 1000
	capacity := int64(64 * (blk + entryOverhead)) // one shard
	c := NewCache(capacity)
	hot := 64 * protectedShare / 100 * 3 / 4 // fits the protected segment
	for i := range hot {
		if c.get(1, uint64(i)) != nil {
			t.Fatal("hit before set")
		}
		c.set(1, uint64(i), make([]byte, blk))
		if c.get(1, uint64(i)) == nil { // second access: protected
			t.Fatalf("block %d evicted at once", i)
		}
	}
	for i := range 10 * 64 {
		if c.get(2, uint64(i)) == nil {
			c.set(2, uint64(i), make([]byte, blk))
		}
		if _, _, used := c.Stats(); used > capacity {
			t.Fatalf("used %d over capacity %d", used, capacity)
		}
	}
	for i := range hot {
		if c.get(1, uint64(i)) == nil {
			t.Fatalf("scan evicted hot block %d", i)
		}
	}
	// The scan's own blocks were cached too, while they fit.
	if c.get(2, 10*64-1) == nil {
		t.Fatal("scan's last block not cached")
	}
}

// TestCacheProtectedBounded: hitting more blocks than the protected
// segment holds demotes the least recent ones to probation rather than
// evicting them, and the scan then evicts those first.
func TestCacheProtectedBounded(t *testing.T) {
	const blk = 1000
	c := NewCache(10 * (blk + entryOverhead))
	for i := range 10 {
		c.set(1, uint64(i), make([]byte, blk))
	}
	for i := range 10 {
		c.get(1, uint64(i)) // 0 and 1 end up demoted: 8 fit
	}
	s := &c.shards[0]
	if s.protUsed > s.protLimit || s.used > s.limit {
		t.Fatalf("protected %d of %d, used %d of %d", s.protUsed, s.protLimit, s.used, s.limit)
	}
	for i := range 10 {
		if c.get(1, uint64(i)) == nil {
			t.Fatalf("block %d lost on demotion", i)
		}
	}
	var prot []uint64
	for e := s.prot.next; e != &s.prot; e = e.next {
		prot = append(prot, e.key.offset)
	}
	victim := s.prob.prev.key
	if len(prot) == 0 || victim.fileNum != 1 {
		t.Fatalf("protected %v, probation tail %v", prot, victim)
	}
	c.set(2, 0, make([]byte, blk))
	if c.get(1, victim.offset) != nil || c.get(2, 0) == nil {
		t.Fatal("eviction did not take the probationary tail")
	}
	for _, off := range prot {
		if c.get(1, off) == nil {
			t.Fatalf("protected block %d evicted", off)
		}
	}
}

func TestCacheHitAllocs(t *testing.T) {
	c := NewCache(1 << 20)
	c.set(1, 1, make([]byte, 100))
	c.get(1, 1)
	c.set(1, 2, make([]byte, 100))
	if n := testing.AllocsPerRun(100, func() {
		if c.get(1, 1) == nil || c.get(1, 2) == nil {
			t.Fatal("miss")
		}
	}); n != 0 {
		t.Fatalf("a hit allocated %v times", n)
	}
}

// TestReaderScanKeepsPointReads reads a few keys twice through a small
// cache (their blocks become protected), scans a file of many times the
// cache's size, and reads the keys again: no misses.
func TestReaderScanKeepsPointReads(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	entries := randomEntries(rng, 20000)
	f, _ := writeTable(t, entries, WriterOptions{BlockSize: 1024, Compression: Snappy})
	cache := NewCache(64 << 10)
	r := openTable(t, f, cache)
	defer r.Close()
	keys := make([][]byte, 16)
	for i := range keys {
		keys[i] = entries[rng.IntN(len(entries))].k
	}
	seekAll := func() {
		for _, k := range keys {
			it := r.NewIter()
			if !it.SeekGE(k) {
				t.Fatal(it.Err())
			}
			it.Close()
		}
	}
	seekAll()
	seekAll()
	it := r.NewIter()
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		n++
	}
	if err := it.Close(); err != nil || n != len(entries) {
		t.Fatalf("scan: %d entries, %v", n, err)
	}
	if len(f.data) < 8*64<<10 {
		t.Fatalf("file of %d bytes is too small to test", len(f.data))
	}
	_, m1, _ := cache.Stats()
	seekAll()
	if _, m2, _ := cache.Stats(); m2 != m1 {
		t.Fatalf("the scan evicted %d of the point reads' blocks", m2-m1)
	}
}
