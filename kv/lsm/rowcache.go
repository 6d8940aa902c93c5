package lsm

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/widesql/widesql/kv"
)

// rowCache answers repeated point reads of unchanged rows from memory (as
// ScyllaDB's and Cassandra's row caches do): a Get of a cached row costs a
// hash, a shard lock and a copy instead of a snapshot, memtable descents,
// bloom checks and file seeks. It holds, per (table id, rowkey), the row a
// point read returned, with the snapshot seq it was read at (validSeq) and
// the read's projection (Families, Columns). Only plain reads are cached
// (cacheableRead: one version, no time range, forward, no Essential) of
// tables without a TTL family (cells expire without a write), and only rows
// with cells (the bloom filters answer absent keys).
//
// # Why a hit is the row an uncached read at S returns
//
// A hit needs entry.validSeq <= S and an equal projection. The read that
// made the entry returned the row at validSeq, so it is the row at S if no
// write to it has a seq in (validSeq, S]. Writers keep that true:
//
//   - Apply, under commitMu once its seqs are reserved and before its
//     memtable inserts, deletes every row's entry and raises the row's
//     lastWrite slot to the batch's last seq, under the shard lock
//     (invalidate). A write becomes visible only when visibleSeq passes
//     its seq, which happens after that: its own Apply publishes after the
//     inserts, and a later batch publishes a larger seq only after taking
//     commitMu.
//   - A miss at S inserts only if, under the shard lock, lastWrite[slot]
//     <= S (and S >= floor, below). A reader whose read raced with a write
//     W > S is refused (lastWrite >= W > S); a write W that invalidates
//     after the insert deletes the entry.
//
// So an entry present when a reader at S looks it up has no write in
// (validSeq, S]: each such write invalidated before visibleSeq reached
// it, so before S was taken, so before the lookup; the entry present then
// was inserted after that invalidation, and that insert would have been
// refused. A pinned snapshot older than validSeq misses and reads the
// files. Slots are shared by hash collisions: a collision only refuses
// inserts.
//
// Everything else that changes what a read sees:
//
//   - A bulk ingest (ingest.go) raises floor to its install seq G and
//     clears the table, before G is published: a read at S < G (a pinned
//     snapshot) would miss the ingested rows, and is refused; a read at S
//     >= G took its region states after the install. (Ingested rows have
//     no live cell before, so no entry of them exists anyway.) floor is
//     store-wide: an ingest refuses inserts of older snapshots of every
//     table, which is rare and safe.
//   - SetFamilies installs a new family set, then clears the table. An
//     insert checks, under the shard lock, that the table's family set is
//     the one its read used (sameFams): a read that took the old set is
//     refused, or inserted before the clear and cleared. Entries name
//     families through the set they were read with, so a hit between the
//     install and the clear (concurrent with SetFamilies) still names them
//     right.
//   - DropTable marks the table id dropped, then clears it: an insert of a
//     read that started before the drop is refused, or cleared. A new
//     table of the same name has a new id. Reads through a dropped handle
//     miss and fail on the normal path.
//   - Close marks the cache closed (reads fail, as the normal path's) and
//     empties it.
//   - Flush, compaction (flush.go, compact.go, flush_drop.go) and splits
//     (split.go, Split) change where entries live, never what a read at a
//     snapshot at or above the oldest registered one sees; a hit's S is
//     one (visibleSeq, or a registered snapshot). Open (open.go) starts a
//     store with no cache: it is made on the first cacheable read
//     (Store.rowCache), under commitMu, with floor at the last reserved
//     seq, so writes reserved before it existed, which invalidated
//     nothing, are below every read it accepts an insert from.
//
// # Memory
//
// The byte budget (Options.RowCacheSize) is split over rcShards shards by
// key hash; each evicts with CLOCK (a hit sets the entry's reference bit).
// An entry counts its encoded cells, key and a fixed overhead. Entries
// are immutable once inserted: a reader copies one after unlocking, so a
// replaced or evicted entry may still be read by a reader that found it.
type rowCache struct {
	seed        maphash.Seed
	shardBudget int64
	floor       atomic.Uint64 // inserts of reads below it are refused
	closed      atomic.Bool

	droppedMu sync.RWMutex
	dropped   map[uint64]struct{} // ids of dropped tables

	shards [rcShards]rcShard
}

const (
	rcShards        = 64
	rcSlots         = 1024 // lastWrite slots per shard: 64Ki in all
	rcEntryOverhead = 200  // the entry, its signature share, map and ring slots
)

// rcShard is one shard: its entries by table and key, their CLOCK ring,
// and the lastWrite slots of its hashes.
type rcShard struct {
	mu     sync.Mutex
	tables map[uint64]map[string]*rcEntry
	ring   []*rcEntry // CLOCK order; nil holes are listed in free
	free   []int32
	hand   int
	bytes  int64
	last   *rcSig // the signature of the last insert, shared when equal

	hits, misses, inserts, refused, evictions int64

	lastWrite [rcSlots]uint64
}

// rcEntry is a cached row. Every field but ref and slot (the shard's, under
// its lock) is immutable once the entry is inserted.
type rcEntry struct {
	tid      uint64
	key      string // a view of buf[:keyLen]
	validSeq uint64
	fams     []famInfo // the family set read; cells name families by index
	sig      *rcSig
	buf      []byte // key, then the cells (encodeCells)
	keyLen   int
	ncells   int
	dataLen  int // bytes of qualifiers and values together
	size     int64

	slot int32
	ref  bool
}

// newRowCache returns a cache of about size bytes; floor is the last seq
// reserved before it exists.
func newRowCache(size int64, floor uint64) *rowCache {
	c := &rowCache{seed: maphash.MakeSeed(), shardBudget: max(size/rcShards, 1), dropped: map[uint64]struct{}{}}
	c.floor.Store(floor)
	for i := range c.shards {
		c.shards[i].tables = map[uint64]map[string]*rcEntry{}
	}
	return c
}

// locate returns the shard and lastWrite slot of (tid, key).
func (c *rowCache) locate(tid uint64, key []byte) (*rcShard, int) {
	h := maphash.Bytes(c.seed, key) ^ (tid * 0x9e3779b97f4a7c15)
	h ^= h >> 29
	return &c.shards[h%rcShards], int(h / rcShards % rcSlots)
}

// get returns the entry of (tid, key) that a read at seq with options o
// may use, or nil. count records a miss too (a hit always counts).
func (c *rowCache) get(tid uint64, key []byte, seq uint64, o *kv.ReadOptions, count bool) *rcEntry {
	sh, _ := c.locate(tid, key)
	sh.mu.Lock()
	e := sh.tables[tid][string(key)]
	if e != nil && e.validSeq <= seq && e.sig.matches(o) {
		e.ref = true
		sh.hits++
		sh.mu.Unlock()
		return e
	}
	if count {
		sh.misses++
	}
	sh.mu.Unlock()
	return nil
}

// invalidate deletes the entry of (tid, key) and records a write at seq;
// see the type's comment.
func (c *rowCache) invalidate(tid uint64, key []byte, seq uint64) {
	sh, slot := c.locate(tid, key)
	sh.mu.Lock()
	if sh.lastWrite[slot] < seq {
		sh.lastWrite[slot] = seq
	}
	if m := sh.tables[tid]; m != nil {
		if e := m[string(key)]; e != nil {
			sh.remove(e)
		}
	}
	sh.mu.Unlock()
}

// mayInsertLocked reports whether a read of (tid, key) at seq whose family set
// is fams may insert its row; with sh's lock held.
func (c *rowCache) mayInsertLocked(sh *rcShard, slot int, t *table, seq uint64, fams []famInfo) bool {
	if sh.lastWrite[slot] > seq || seq < c.floor.Load() || c.closed.Load() || !sameFams(t, fams) {
		return false
	}
	c.droppedMu.RLock()
	_, dropped := c.dropped[t.id]
	c.droppedMu.RUnlock()
	return !dropped
}

// sameFams reports whether fams is t's current family set.
func sameFams(t *table, fams []famInfo) bool {
	cur := t.families().fams
	return len(cur) > 0 && len(cur) == len(fams) && unsafe.SliceData(cur) == unsafe.SliceData(fams)
}

// put caches row, read from table t at seq with options o and family set
// fams, unless a write, an ingest, a family change or a drop since makes
// it unsafe (see the type's comment) or it is larger than a shard's
// budget. It copies row.
func (c *rowCache) put(t *table, row *kv.Row, seq uint64, o *kv.ReadOptions, fams []famInfo) {
	sh, slot := c.locate(t.id, row.Key)
	sh.mu.Lock()
	ok := c.mayInsertLocked(sh, slot, t, seq, fams)
	var sig *rcSig
	if ok && sh.last != nil && sh.last.matches(o) {
		sig = sh.last
	}
	if !ok {
		sh.refused++
	}
	sh.mu.Unlock()
	if !ok {
		return
	}
	e := newEntry(t.id, row, seq, fams)
	if e == nil {
		return // a family the set does not hold: not cacheable
	}
	if sig == nil {
		sig = newSig(o)
		e.size += int64(sig.bytes)
	}
	e.sig = sig
	if e.size > c.shardBudget {
		return
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if !c.mayInsertLocked(sh, slot, t, seq, fams) {
		sh.refused++
		return
	}
	m := sh.tables[t.id]
	if m == nil {
		m = map[string]*rcEntry{}
		sh.tables[t.id] = m
	}
	if old := m[e.key]; old != nil {
		sh.remove(old)
		if sh.tables[t.id] == nil {
			sh.tables[t.id] = m
		}
	}
	for sh.bytes+e.size > c.shardBudget && sh.evictOne() {
	}
	m[e.key] = e
	sh.last = sig
	if n := len(sh.free); n > 0 {
		e.slot = sh.free[n-1]
		sh.free = sh.free[:n-1]
		sh.ring[e.slot] = e
	} else {
		e.slot = int32(len(sh.ring))
		sh.ring = append(sh.ring, e)
	}
	sh.bytes += e.size
	sh.inserts++
}

// remove takes e out of the shard; with its lock held.
func (sh *rcShard) remove(e *rcEntry) {
	m := sh.tables[e.tid]
	delete(m, e.key)
	if len(m) == 0 {
		delete(sh.tables, e.tid)
	}
	sh.ring[e.slot] = nil
	sh.free = append(sh.free, e.slot)
	sh.bytes -= e.size
	if len(sh.free) > 64 && len(sh.free) > len(sh.ring)/2 {
		sh.compactRing()
	}
}

// compactRing drops the ring's holes.
func (sh *rcShard) compactRing() {
	live := sh.ring[:0]
	for _, e := range sh.ring {
		if e != nil {
			e.slot = int32(len(live))
			live = append(live, e)
		}
	}
	clear(sh.ring[len(live):])
	sh.ring, sh.free, sh.hand = live, sh.free[:0], 0
}

// evictOne evicts the entry under the CLOCK hand, giving referenced ones a
// second chance; false when the shard is empty.
func (sh *rcShard) evictOne() bool {
	if len(sh.ring) == len(sh.free) {
		return false
	}
	for {
		if sh.hand >= len(sh.ring) {
			sh.hand = 0
		}
		e := sh.ring[sh.hand]
		sh.hand++
		switch {
		case e == nil:
		case e.ref:
			e.ref = false
		default:
			sh.remove(e)
			sh.evictions++
			return true
		}
	}
}

// clearTable removes every entry of table tid.
func (c *rowCache) clearTable(tid uint64) {
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		for _, e := range sh.tables[tid] {
			sh.remove(e)
		}
		sh.mu.Unlock()
	}
}

// dropTable refuses the table's inserts from now on and clears it.
func (c *rowCache) dropTable(tid uint64) {
	c.droppedMu.Lock()
	c.dropped[tid] = struct{}{}
	c.droppedMu.Unlock()
	c.clearTable(tid)
}

// raiseFloor refuses inserts of reads below seq from now on.
func (c *rowCache) raiseFloor(seq uint64) {
	for {
		f := c.floor.Load()
		if f >= seq || c.floor.CompareAndSwap(f, seq) {
			return
		}
	}
}

// close fails the cache's reads from now on and empties it.
func (c *rowCache) close() {
	c.closed.Store(true)
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		sh.tables, sh.ring, sh.free, sh.bytes, sh.last = map[uint64]map[string]*rcEntry{}, nil, nil, 0, nil
		sh.mu.Unlock()
	}
}

// rowCacheStats are the cache's counters, summed over shards.
type rowCacheStats struct {
	hits, misses, inserts, refused, evictions, bytes, entries int64
}

func (c *rowCache) stats() rowCacheStats {
	var st rowCacheStats
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		st.hits += sh.hits
		st.misses += sh.misses
		st.inserts += sh.inserts
		st.refused += sh.refused
		st.evictions += sh.evictions
		st.bytes += sh.bytes
		st.entries += int64(len(sh.ring) - len(sh.free))
		sh.mu.Unlock()
	}
	return st
}
