package sstable

import (
	"sync"
)

// Cache is a bounded cache of uncompressed blocks keyed by (file number,
// block offset), shared by all Readers of an engine. It is sharded to
// limit lock contention and is safe for concurrent use.
//
// Each shard is a segmented LRU (SLRU, the admission policy of Caffeine's
// and memcached's segmented caches): a block enters a probationary
// segment and moves to a protected one, at most protectedShare of the
// shard, on its first hit. Eviction takes the probationary segment's
// least recent block first, and a block pushed out of the protected
// segment goes back to probation, not out. A scan reads each block once,
// so however large, it cycles through probation and leaves the protected
// blocks, the ones point reads and repeated scans come back to, in place
// (PostgreSQL's ring buffer for large sequential scans and RocksDB's
// low-priority pool serve the same end).
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

// protectedShare is the protected segment's share of a shard, in
// percent: the probationary rest is what a scan can churn through.
// Caffeine uses 80%; RocksDB's high-priority pool defaults to half.
const protectedShare = 80

type cacheKey struct{ fileNum, offset uint64 }

type cacheEntry struct {
	key        cacheKey
	block      []byte
	prev, next *cacheEntry
	protected  bool
}

func (e *cacheEntry) charge() int64 { return int64(len(e.block)) + entryOverhead }

type cacheShard struct {
	mu   sync.Mutex
	m    map[cacheKey]*cacheEntry
	prob cacheEntry // probationary list sentinel: prob.next is most recent
	prot cacheEntry // protected list sentinel
	// used counts both segments; protUsed the protected one alone.
	used, protUsed   int64
	limit, protLimit int64
	hits, misses     int64
	_                [40]byte // keep shards on separate cache lines
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
		s.prob.next, s.prob.prev = &s.prob, &s.prob
		s.prot.next, s.prot.prev = &s.prot, &s.prot
		s.limit = capacityBytes / int64(n)
		s.protLimit = s.limit / 100 * protectedShare
	}
	return c
}

func (c *Cache) shard(k cacheKey) *cacheShard {
	h := k.fileNum*0x9e3779b97f4a7c15 ^ k.offset*0xc2b2ae3d27d4eb4f
	h ^= h >> 29
	return &c.shards[h&c.mask]
}

// get returns the cached block or nil. The block must not be modified.
// A hit allocates nothing.
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
	unlink(e)
	if !e.protected {
		s.protect(e)
	} else {
		pushFront(&s.prot, e)
	}
	b := e.block
	s.mu.Unlock()
	return b
}

// set inserts block, which the cache then shares with its callers; it
// must never be modified again. A new block enters probation.
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
		// Two readers missed the same block: keep the entry's segment.
		delta := int64(len(block)) - int64(len(e.block))
		s.used += delta
		e.block = block
		unlink(e)
		if e.protected {
			s.protUsed += delta
			pushFront(&s.prot, e)
			s.demote()
		} else {
			pushFront(&s.prob, e)
		}
	} else {
		e := &cacheEntry{key: k, block: block}
		s.m[k] = e
		pushFront(&s.prob, e)
		s.used += charge
	}
	for s.used > s.limit {
		if s.prob.prev != &s.prob {
			s.remove(s.prob.prev)
		} else {
			s.remove(s.prot.prev)
		}
	}
}

// protect moves e, unlinked, to the front of the protected segment and
// demotes what no longer fits there.
func (s *cacheShard) protect(e *cacheEntry) {
	e.protected = true
	s.protUsed += e.charge()
	pushFront(&s.prot, e)
	s.demote()
}

// demote moves the protected segment's least recent blocks back to the
// front of probation until the segment fits its limit.
func (s *cacheShard) demote() {
	for s.protUsed > s.protLimit && s.prot.prev != &s.prot {
		e := s.prot.prev
		unlink(e)
		e.protected = false
		s.protUsed -= e.charge()
		pushFront(&s.prob, e)
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

func unlink(e *cacheEntry) {
	e.prev.next, e.next.prev = e.next, e.prev
}

func pushFront(list, e *cacheEntry) {
	e.prev, e.next = list, list.next
	list.next.prev = e
	list.next = e
}

func (s *cacheShard) remove(e *cacheEntry) {
	unlink(e)
	delete(s.m, e.key)
	s.used -= e.charge()
	if e.protected {
		s.protUsed -= e.charge()
	}
}
