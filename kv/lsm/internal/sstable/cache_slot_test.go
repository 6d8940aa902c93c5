package sstable

import (
	"math/rand/v2"
	"testing"
)

// TestCacheSlotHits: a Reader's repeated hits on a protected block go
// through its slot, without the shard lock, and still count as hits;
// eviction unpublishes the slot.
func TestCacheSlotHits(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	entries := randomEntries(rng, 2000)
	f, _ := writeTable(t, entries, WriterOptions{BlockSize: 1024})
	cache := NewCache(8 << 20)
	r := openTable(t, f, cache)
	defer r.Close()
	k := entries[len(entries)/2]
	for range 5 {
		it := r.NewIter()
		if !it.SeekGE(k.k) || string(it.Value()) != string(k.v) {
			t.Fatal("seek failed", it.Err())
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
	}
	hits, misses, _ := cache.Stats()
	if hits != 4 || misses != 1 || cache.slotHits.Load() != 3 {
		t.Fatalf("%d hits (%d through slots), %d misses; want 4 (3), 1", hits, cache.slotHits.Load(), misses)
	}
	published := 0
	for i := range r.slots {
		if r.slots[i].Load() != nil {
			published++
		}
	}
	cache.EvictFile(1)
	for i := range r.slots {
		if r.slots[i].Load() != nil {
			t.Fatal("EvictFile left a slot published")
		}
	}
	if published != 1 {
		t.Fatalf("%d slots published, want 1", published)
	}
}

// TestCacheSlotBounded: random point reads through slots over a working
// set larger than the cache keep both segments within their limits, and
// a slot holds an entry exactly while the entry is cached and protected.
func TestCacheSlotBounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 17))
	entries := randomEntries(rng, 20000)
	f, _ := writeTable(t, entries, WriterOptions{BlockSize: 1024})
	cache := NewCache(48 << 10)
	r := openTable(t, f, cache)
	defer r.Close()
	for round := range 20 {
		// A skewed working set: hot blocks get slot hits.
		for range 500 {
			i := rng.IntN(len(entries))
			if rng.IntN(4) != 0 {
				i = rng.IntN(len(entries) / 20)
			}
			it := r.NewIter()
			if !it.SeekGE(entries[i].k) || string(it.Value()) != string(entries[i].v) {
				t.Fatalf("round %d: seek #%d failed: %v", round, i, it.Err())
			}
			if err := it.Close(); err != nil {
				t.Fatal(err)
			}
		}
		for si := range cache.shards {
			s := &cache.shards[si]
			if s.used > s.limit || s.protUsed > s.protLimit {
				t.Fatalf("round %d shard %d: used %d of %d, protected %d of %d", round, si, s.used, s.limit, s.protUsed, s.protLimit)
			}
		}
		for i := range r.slots {
			e := r.slots[i].Load()
			if e == nil {
				continue
			}
			s := cache.shard(e.key)
			if !e.protected || s.m[e.key] != e || e.key.offset != r.index.handles[i].Offset {
				t.Fatalf("round %d: slot %d holds an entry not cached and protected", round, i)
			}
		}
	}
	if hits, _, _ := cache.Stats(); cache.slotHits.Load() == 0 || hits <= cache.slotHits.Load() {
		t.Fatalf("%d hits, %d through slots", hits, cache.slotHits.Load())
	}
}
