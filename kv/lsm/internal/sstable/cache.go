package sstable

import (
	"sync"
	"sync/atomic"
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
// A hit on a protected block takes no lock: the Reader publishes the
// block's entry in a per-block slot (an atomic pointer) while the block is
// protected, and a hit through the slot only sets the entry's reference
// bit. The protected segment's order is then CLOCK's rather than LRU's:
// demotion passes over a referenced block once, clearing its bit and
// moving it to the front, and takes the first unreferenced one. The map
// and the lists are touched under the shard lock only by misses, by first
// hits (promotion) and by hits without a slot.
//
// Cached blocks are immutable and shared: a hit returns the cached block
// without copying. Eviction only drops the cache's reference, so a block
// an iterator still holds stays valid; memory in use can therefore
// briefly exceed the capacity by the blocks iterators hold. A block got
// through the lock (getBlock, setBlock) comes with a reference the caller
// releases, and the last release recycles the block's buffer for a later
// miss (block_buf.go): a miss at a working set far above the capacity
// then allocates no block, and never reuses a buffer something can still
// read. A hit through a slot takes no reference, to keep hot hits free of
// atomic writes: a block that was ever published in a slot is left to the
// garbage collector when it dies, as every block was before.
type Cache struct {
	shards []cacheShard
	mask   uint64
	// slotHits counts hits through Readers' slots, which iterators
	// add up and report when they close.
	slotHits atomic.Int64
}

// entryOverhead approximates the bookkeeping bytes of one cached block:
// its cacheEntry (256 bytes with the seek data of cachedBlock) and its map
// slot.
const entryOverhead = 288

// protectedShare is the protected segment's share of a shard, in
// percent: the probationary rest is what a scan can churn through.
// Caffeine uses 80%; RocksDB's high-priority pool defaults to half.
const protectedShare = 80

type cacheKey struct{ fileNum, offset uint64 }

type cacheEntry struct {
	key        cacheKey
	block      cachedBlock // set once, before the entry is shared
	prev, next *cacheEntry
	protected  bool
	// slot is the Reader's slot for this block, or nil: it holds the
	// entry exactly while the entry is protected.
	slot *atomic.Pointer[cacheEntry]
	ref  atomic.Bool // hit through slot since demotion last passed it
	// refs counts the cache's reference, while the entry is in the
	// map, and one per caller that got the entry from getBlock or
	// setBlock and has not released it. Hits through a slot take none:
	// see published.
	refs atomic.Int32
	// published records that the entry was ever published in a slot
	// (set under the shard lock): a reader may then hold its block with
	// no reference, so the last release leaves the buffer to the
	// garbage collector instead of recycling it. Only blocks hit at
	// least twice are ever published; the blocks a large working set
	// churns through mostly die in probation, unpublished.
	published bool
	// buf holds block.data's buffer when it came from blockBufs, for
	// the last release to recycle; nil for other bytes.
	buf *[]byte
}

// release drops a reference from getBlock, setBlock or newCacheEntry. The
// caller must not read the block afterwards: the last release recycles
// its buffer (unless the entry was published).
func (e *cacheEntry) release() {
	n := e.refs.Add(-1)
	if n > 0 {
		return
	}
	if n < 0 {
		panic("sstable: cache entry released more often than referenced")
	}
	if e.buf != nil && !e.published {
		putBlockBuf(e.buf)
		e.buf = nil
		e.block = cachedBlock{}
	}
}

// publish and unpublish keep the slot in step with the protected flag.
func (e *cacheEntry) publish() {
	if e.slot != nil {
		e.published = true
		e.slot.Store(e)
	}
}

func (e *cacheEntry) unpublish() {
	if e.slot != nil {
		e.slot.CompareAndSwap(e, nil)
	}
}

// slotHit is a hit through a slot: it marks e referenced, writing only
// when the bit is clear so hits on hot blocks share the cache line. It
// takes no reference (see published).
func (e *cacheEntry) slotHit() *cachedBlock {
	if !e.ref.Load() {
		e.ref.Store(true)
	}
	return &e.block
}

// newCacheEntry returns an entry for block, prepared for seeks, ready for
// setBlock, with one reference: the caller's. buf, if not nil, holds
// block's buffer, from getBlockBuf, which the entry then owns.
func newCacheEntry(block []byte, buf *[]byte) *cacheEntry {
	e := new(cacheEntry)
	e.block.init(block)
	e.buf = buf
	e.refs.Store(1)
	return e
}

func (e *cacheEntry) charge() int64 { return e.block.charge() }

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

// getBlock returns the cached block's entry, with a reference the caller
// must release, or nil. The block must not be modified. A hit allocates
// nothing. slot, if not nil, is the caller's Reader's slot for the block:
// the entry is published there while it is protected (see Cache), and
// the caller tries the slot first next time.
func (c *Cache) getBlock(fileNum, offset uint64, slot *atomic.Pointer[cacheEntry]) *cacheEntry {
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
	e.refs.Add(1) // the cache's reference keeps it above 0 here
	if slot != nil && e.slot != slot {
		// Another Reader of the file published it, or none did.
		e.unpublish()
		e.slot = slot
		if e.protected {
			e.publish()
		}
	}
	unlink(e)
	if !e.protected {
		s.protect(e)
	} else {
		pushFront(&s.prot, e)
	}
	s.mu.Unlock()
	return e
}

// setBlock inserts ne (from newCacheEntry, with the caller's reference
// only), whose block the cache then shares with its callers; it must
// never be modified again. A new block enters probation. It returns the
// entry cached under the key with a reference for the caller: ne, or
// one another reader cached first (ne is then released), or ne uncached
// when it is too large.
func (c *Cache) setBlock(fileNum, offset uint64, ne *cacheEntry, slot *atomic.Pointer[cacheEntry]) *cacheEntry {
	k := cacheKey{fileNum, offset}
	s := c.shard(k)
	charge := ne.charge()
	if charge > s.limit {
		return ne
	}
	s.mu.Lock()
	if e, ok := s.m[k]; ok {
		// Two readers missed the same block: keep the entry, its
		// block (lock-free readers may be reading it) and its segment.
		e.refs.Add(1)
		unlink(e)
		if e.protected {
			pushFront(&s.prot, e)
		} else {
			pushFront(&s.prob, e)
		}
		s.mu.Unlock()
		ne.release() // never shared: its buffer is free at once
		return e
	}
	defer s.mu.Unlock()
	s.insert(k, ne, slot, charge)
	for s.used > s.limit {
		if s.prob.prev != &s.prob {
			s.remove(s.prob.prev)
		} else {
			s.remove(s.prot.prev)
		}
	}
	return ne
}

// insert caches ne, not cached yet, under k at the front of probation,
// with the cache's reference; with s.mu held. The caller evicts what no
// longer fits.
func (s *cacheShard) insert(k cacheKey, ne *cacheEntry, slot *atomic.Pointer[cacheEntry], charge int64) {
	ne.refs.Add(1) // the cache's
	ne.key, ne.slot = k, slot
	s.m[k] = ne
	pushFront(&s.prob, ne)
	s.used += charge
}

// protect moves e, unlinked, to the front of the protected segment and
// demotes what no longer fits there.
func (s *cacheShard) protect(e *cacheEntry) {
	e.protected = true
	e.ref.Store(false)
	s.protUsed += e.charge()
	pushFront(&s.prot, e)
	e.publish()
	s.demote()
}

// demote moves the protected segment's least recent blocks back to the
// front of probation until the segment fits its limit. A block hit
// through its slot since demotion last passed it gets a second chance.
func (s *cacheShard) demote() {
	for s.protUsed > s.protLimit && s.prot.prev != &s.prot {
		e := s.prot.prev
		unlink(e)
		if e.ref.Load() {
			e.ref.Store(false)
			pushFront(&s.prot, e)
			continue
		}
		e.unpublish()
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
	hits = c.slotHits.Load()
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
	e.unpublish()
	delete(s.m, e.key)
	charge := e.charge()
	s.used -= charge
	if e.protected {
		s.protUsed -= charge
	}
	e.release() // the cache's reference
}
