package sstable

import (
	"sync"
)

// Cache is a bounded LRU cache of uncompressed blocks keyed by (file
// number, block offset), shared by all Readers of an engine. It is
// sharded to limit lock contention and is safe for concurrent use.
//
// Cached blocks are immutable and shared: a hit returns the cached slice
// without copying. Eviction only drops the cache's reference, so a block
// an iterator still holds stays valid (the garbage collector frees it
// once the iterator moves on); memory in use can therefore briefly exceed
// the capacity by the blocks iterators hold.
type Cache struct {
	shards []cacheShard
	mask   uint64
}

// entryOverhead approximates the bookkeeping bytes of one cached block.
const entryOverhead = 96

type cacheKey struct{ fileNum, offset uint64 }

type cacheEntry struct {
	key        cacheKey
	block      []byte
	prev, next *cacheEntry
}

type cacheShard struct {
	mu           sync.Mutex
	m            map[cacheKey]*cacheEntry
	lru          cacheEntry // sentinel: lru.next is most recent
	used, limit  int64
	hits, misses int64
	_            [40]byte // keep shards on separate cache lines
}

// NewCache returns a cache holding at most capacityBytes of blocks
// (counting a small per-block overhead). A block larger than a shard's
// share of the capacity is not cached.
func NewCache(capacityBytes int64) *Cache {
	capacityBytes = max(capacityBytes, 0)
	n := 1
	for n < 64 && capacityBytes/int64(2*n) >= 4<<20 {
		n *= 2
	}
	c := &Cache{shards: make([]cacheShard, n), mask: uint64(n - 1)}
	for i := range c.shards {
		s := &c.shards[i]
		s.m = make(map[cacheKey]*cacheEntry)
		s.lru.next, s.lru.prev = &s.lru, &s.lru
		s.limit = capacityBytes / int64(n)
	}
	return c
}

func (c *Cache) shard(k cacheKey) *cacheShard {
	h := k.fileNum*0x9e3779b97f4a7c15 ^ k.offset*0xc2b2ae3d27d4eb4f
	h ^= h >> 29
	return &c.shards[h&c.mask]
}

// get returns the cached block or nil. The block must not be modified.
func (c *Cache) get(fileNum, offset uint64) []byte {
	k := cacheKey{fileNum, offset}
	s := c.shard(k)
	s.mu.Lock()
	e, ok := s.m[k]
	if !ok {
		s.misses++
		s.mu.Unlock()
		return nil
	}
	s.hits++
	s.unlink(e)
	s.pushFront(e)
	b := e.block
	s.mu.Unlock()
	return b
}

// set inserts block, which the cache then shares with its callers; it
// must never be modified again.
func (c *Cache) set(fileNum, offset uint64, block []byte) {
	k := cacheKey{fileNum, offset}
	s := c.shard(k)
	charge := int64(len(block)) + entryOverhead
	if charge > s.limit {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.m[k]; ok {
		s.used += int64(len(block)) - int64(len(e.block))
		e.block = block
		s.unlink(e)
		s.pushFront(e)
	} else {
		e := &cacheEntry{key: k, block: block}
		s.m[k] = e
		s.pushFront(e)
		s.used += charge
	}
	for s.used > s.limit {
		s.remove(s.lru.prev)
	}
}

// EvictFile drops every block of fileNum, for use when a file is
// deleted. It scans the whole cache.
func (c *Cache) EvictFile(fileNum uint64) {
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		for k, e := range s.m {
			if k.fileNum == fileNum {
				s.remove(e)
			}
		}
		s.mu.Unlock()
	}
}

// Stats returns the hit and miss counts since creation and the bytes
// currently charged against the capacity.
func (c *Cache) Stats() (hits, misses int64, usedBytes int64) {
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		hits += s.hits
		misses += s.misses
		usedBytes += s.used
		s.mu.Unlock()
	}
	return hits, misses, usedBytes
}

func (s *cacheShard) unlink(e *cacheEntry) {
	e.prev.next, e.next.prev = e.next, e.prev
}

func (s *cacheShard) pushFront(e *cacheEntry) {
	e.prev, e.next = &s.lru, s.lru.next
	s.lru.next.prev = e
	s.lru.next = e
}

func (s *cacheShard) remove(e *cacheEntry) {
	s.unlink(e)
	delete(s.m, e.key)
	s.used -= int64(len(e.block)) + entryOverhead
}
