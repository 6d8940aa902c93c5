package lsm

import (
	"bytes"
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
// inserts. An entry is found by its 64-bit hash and then its table and
// key are compared, so a hash collision never returns another row.
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
//     families through the set they were read with (their context, an
//     rcCtx), so a hit between the install and the clear (concurrent with
//     SetFamilies) still names them right.
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
// key hash. An entry (rcEntry: a fixed header, the key, the cells' bytes,
// compact cell headers) is appended to one of the shard's slabs, large
// pointer-free []byte chunks (rowcache_slab.go), and found through the
// shard's open-addressing table of (hash tag, locator) slots, which holds
// no pointers either: a full cache costs a GC cycle almost nothing to
// scan. Slabs are evicted whole, oldest first, with CLOCK's second chance
// (a hit sets the slot's reference bit; a referenced entry of a retired
// slab moves to the newest). A shard's bytes are what it really holds:
// its slabs' capacity (dead entries' bytes included, until their slab is
// retired or compacted: reclaim keeps them under a quarter of it), the
// slot table, and its contexts, and never more than its budget once a
// put returns: a row whose slab (its allocation's size class) would not
// fit beside the table and contexts, or whose projection costs more than
// half a shard, is not cached (put). Entries are immutable once
// inserted: a reader takes a view of one under the lock (which keeps its
// slab alive) and copies it after unlocking, and a slab's bytes are never
// written again once an entry is in them (a retired slab is dropped, the
// GC frees it once no reader holds a view of it), so a replaced, evicted
// or moved entry may still be read by a reader that found it.
type rowCache struct {
	seed        maphash.Seed
	shardBudget int64
	floor       atomic.Uint64 // inserts of reads below it are refused
	closed      atomic.Bool

	droppedMu sync.RWMutex
	dropped   map[uint64]struct{} // ids of dropped tables

	shards [rcShards]rcShard

	// multiHits counts the hits of multi-gets served from the cache
	// (probeCacheMany), whose lookups get does not count: a multi-get
	// the cache does not answer whole takes the normal path, which
	// looks its points up again and counts them there. Last: written
	// by reads, away from the fields every read loads.
	multiHits atomic.Int64
}

const (
	rcShardBits = 6
	rcShards    = 1 << rcShardBits
	rcSlots     = 1024  // lastWrite slots per shard: 64Ki in all
	rcMinTable  = 8     // slots of a shard's first table
	rcMaxCtx    = 4096  // contexts a shard holds before it is emptied
	rcSlotBytes = 4 + 8 // a tag and a locator

	rcTagUsed = 1 << 30 // set in a used slot's tag
	rcTagRef  = 1 << 31 // CLOCK's reference bit
	rcTagHash = rcTagUsed - 1
)

// rcShard is one shard: its entries in an open-addressing table (linear
// probing, load at most 7/8, backward-shift deletion), the contexts its
// entries name, and the lastWrite slots of its hashes.
//
// The table is two arrays: tags, 30 bits of each entry's hash (which
// also give its home slot) with a used bit and the CLOCK reference bit
// (0: empty), probed densely, and locs, each entry's locator (locOf).
type rcShard struct {
	mu    sync.Mutex
	tags  []uint32
	locs  []uint64
	n     int // entries
	bytes int64
	ctxs  []rcCtx
	ctxB  int64 // bytes of ctxs, part of bytes
	last  int   // the context of the last insert, tried first

	slabs    [][]byte // by id; nil: free
	free     []uint32 // ids of free slabs
	order    []uint32 // ids of slabs, oldest first
	head     uint32   // the slab entries are appended to, or rcNoSlab
	slabSize int
	next     int      // size of the next head slab (0: rcFirstSlab), up to slabSize
	slabDead []uint32 // by id: bytes of its entries no slot names
	dead     int64    // sum of slabDead
	slabB    int64    // slabs' capacity, part of bytes

	hits, misses, inserts, refused, evictions, retired, moved int64
	reclaimed, copied, freed                                  int64 // slabs compacted, live bytes they copied, dead bytes they freed

	lastWrite [rcSlots]uint64
}

// rcCtx is what an entry's cells are named and matched through: its
// table, the family set its read used and its projection. A shard's
// contexts only grow (an entry names one by index) until the shard is
// emptied.
type rcCtx struct {
	tid  uint64
	fams []famInfo
	sig  *rcSig
}

// newRowCache returns a cache of about size bytes; floor is the last seq
// reserved before it exists.
func newRowCache(size int64, floor uint64) *rowCache {
	c := &rowCache{seed: maphash.MakeSeed(), shardBudget: max(size/rcShards, 1), dropped: map[uint64]struct{}{}}
	c.floor.Store(floor)
	for i := range c.shards {
		c.shards[i].head, c.shards[i].slabSize = rcNoSlab, slabSizeFor(c.shardBudget)
	}
	return c
}

// hash returns the hash of (tid, key); its low rcShardBits bits pick the
// shard, the next ones the lastWrite slot and the table slot.
func (c *rowCache) hash(tid uint64, key []byte) uint64 {
	h := maphash.Bytes(c.seed, key) ^ (tid * 0x9e3779b97f4a7c15)
	return h ^ h>>29
}

func (c *rowCache) shard(h uint64) *rcShard { return &c.shards[h&(rcShards-1)] }

func lastWriteSlot(h uint64) int { return int(h >> rcShardBits % rcSlots) }

// tagOf is the tag of a used slot of hash h, without the reference bit.
func tagOf(h uint64) uint32 { return uint32(h>>rcShardBits)&rcTagHash | rcTagUsed }

// find returns the slot index of (tid, key) of hash h, or -1; with the
// lock held.
func (sh *rcShard) find(h, tid uint64, key []byte) int {
	i, _ := sh.lookup(h, tid, key)
	return i
}

// lookup is find, also returning the entry.
func (sh *rcShard) lookup(h, tid uint64, key []byte) (int, rcEntry) {
	if sh.n == 0 {
		return -1, nil
	}
	tag := tagOf(h)
	n := len(sh.tags)
	for i := home(tag, n); ; i = next(i, n) {
		t := sh.tags[i]
		if t == 0 {
			return -1, nil
		}
		if t&^rcTagRef == tag {
			e := sh.entry(sh.locs[i])
			if sh.ctxs[e.ctx()].tid == tid && bytes.Equal(e.key(), key) {
				return i, e
			}
		}
	}
}

// rcHit is a hit: the entry and the family set its cells name.
type rcHit struct {
	e    rcEntry
	fams []famInfo
}

// get returns the entry of (tid, key) that a read at seq with options o
// may use; false if none. count records the lookup, a hit or a miss, in
// the shard's counters; without it the caller counts it.
func (c *rowCache) get(tid uint64, key []byte, seq uint64, o *kv.ReadOptions, count bool) (rcHit, bool) {
	h := c.hash(tid, key)
	sh := c.shard(h)
	sh.mu.Lock()
	if i, e := sh.lookup(h, tid, key); i >= 0 {
		if cx := &sh.ctxs[e.ctx()]; e.validSeq() <= seq && cx.sig.matches(o) {
			sh.tags[i] |= rcTagRef
			if count {
				sh.hits++
			}
			hit := rcHit{e: e, fams: cx.fams}
			sh.mu.Unlock()
			return hit, true
		}
	}
	if count {
		sh.misses++
	}
	sh.mu.Unlock()
	return rcHit{}, false
}

// invalidate deletes the entry of (tid, key) and records a write at seq;
// see the type's comment.
func (c *rowCache) invalidate(tid uint64, key []byte, seq uint64) {
	h := c.hash(tid, key)
	sh, slot := c.shard(h), lastWriteSlot(h)
	sh.mu.Lock()
	if sh.lastWrite[slot] < seq {
		sh.lastWrite[slot] = seq
	}
	if i := sh.find(h, tid, key); i >= 0 {
		sh.drop(i)
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

// findCtx returns the index of the context (tid, fams, o's projection), or
// -1; with the lock held.
func (sh *rcShard) findCtx(tid uint64, fams []famInfo, o *kv.ReadOptions) int {
	match := func(i int) bool {
		cx := &sh.ctxs[i]
		return cx.tid == tid && unsafe.SliceData(cx.fams) == unsafe.SliceData(fams) && len(cx.fams) == len(fams) && cx.sig.matches(o)
	}
	if sh.last < len(sh.ctxs) && match(sh.last) {
		return sh.last
	}
	for i := range sh.ctxs {
		if match(i) {
			return i
		}
	}
	return -1
}

// put caches row, read from table t at seq with options o and family set
// fams, unless a write, an ingest, a family change or a drop since makes
// it unsafe (see the type's comment) or it is larger than a shard's
// budget. It copies row.
func (c *rowCache) put(t *table, row *kv.Row, seq uint64, o *kv.ReadOptions, fams []famInfo) {
	h := c.hash(t.id, row.Key)
	sh, slot := c.shard(h), lastWriteSlot(h)
	sh.mu.Lock()
	ok := c.mayInsertLocked(sh, slot, t, seq, fams)
	haveCtx := ok && sh.findCtx(t.id, fams, o) >= 0
	if !ok {
		sh.refused++
	}
	sh.mu.Unlock()
	if !ok {
		return
	}
	var enc rcEnc
	if !planEntry(&enc, row, fams) {
		return // a family the set does not hold, or too big a key or header: not cacheable
	}
	var sig *rcSig
	if !haveCtx {
		sig = newSig(o)
	}
	if int64(enc.size)+rcMinTable*rcSlotBytes > c.shardBudget {
		return
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if !c.mayInsertLocked(sh, slot, t, seq, fams) {
		sh.refused++
		return
	}
	if i := sh.find(h, t.id, row.Key); i >= 0 {
		sh.drop(i)
	}
	if sh.n == 0 && len(sh.ctxs) > 0 {
		sh.reset() // no entry names a context: drop them (and the slabs)
	}
	ci := sh.findCtx(t.id, fams, o)
	if ci < 0 {
		if sig == nil {
			sig = newSig(o)
		}
		if int64(sig.bytes) > c.shardBudget/2 {
			return // a projection that costs more than half a shard is not cached
		}
		// Contexts are not freed one by one (entries name them by
		// index): too many, or too many bytes, empty the shard.
		if len(sh.ctxs) == rcMaxCtx || sh.ctxB+int64(sig.bytes) > c.shardBudget/2 {
			sh.reset()
		}
		ci = len(sh.ctxs)
		sh.ctxs = append(sh.ctxs, rcCtx{tid: t.id, fams: fams, sig: sig})
		sh.ctxB += int64(sig.bytes)
		sh.bytes += int64(sig.bytes)
	}
	sh.last = ci
	// A slot at load at most 7/8: the table grows by half when the
	// budget holds the bigger table, else the oldest slab goes.
	for (sh.n+1)*8 > len(sh.tags)*7 {
		grown := max(len(sh.tags)+len(sh.tags)/2, rcMinTable)
		if sh.bytes+int64(grown-len(sh.tags))*rcSlotBytes <= c.shardBudget || len(sh.order) == 0 {
			sh.resize(grown)
			break
		}
		sh.retire(c)
	}
	// Dead bytes past their share are reclaimed before they push live
	// entries out. Then the shard is brought within budget (a new
	// context, or the compactions' copies, may have taken it over), and
	// room keeps it there: the entry goes to the head, or to a new slab
	// that fits beside the table and contexts (else it is not cached),
	// for which older slabs are retired. So a shard never holds more than
	// its budget once put returns. The entry starts unreferenced: its
	// slab is the newest, the last retired, and it survives that only if
	// hit by then.
	sh.reclaim(c)
	sh.trim(c)
	if id, ok := sh.room(c, enc.size); ok {
		s := sh.slabs[id]
		off := len(s)
		sh.slabs[id] = enc.appendTo(s, seq, ci)
		sh.insert(tagOf(h), locOf(id, off))
		sh.inserts++
	}
}

// home is the first slot an entry of tag may take in a table of n slots:
// its hash bits scaled to n (Lemire's multiply-shift), so n need not be a
// power of two and the table grows by half.
func home(tag uint32, n int) int { return int(uint64(tag&rcTagHash) * uint64(n) >> 30) }

// next is the slot after i in a table of n.
func next(i, n int) int {
	if i++; i == n {
		return 0
	}
	return i
}

// dist is how far slot j is after slot i in a table of n (cyclically).
func dist(i, j, n int) int {
	if d := j - i; d >= 0 {
		return d
	}
	return j - i + n
}

// insert puts an entry in the table, which has a free slot; with the
// lock held.
func (sh *rcShard) insert(tag uint32, l uint64) {
	n := len(sh.tags)
	i := home(tag, n)
	for sh.tags[i] != 0 {
		i = next(i, n)
	}
	sh.tags[i], sh.locs[i] = tag, l
	sh.n++
}

// resize moves the entries into a table of size slots; with the lock
// held.
func (sh *rcShard) resize(size int) { sh.rebuild(size, nil) }

// rebuild moves the entries keep accepts (all if nil) into a table of
// size slots; the others' bytes stay in their slabs until retired; with
// the lock held.
func (sh *rcShard) rebuild(size int, keep func(rcEntry) bool) {
	tags, locs := sh.tags, sh.locs
	sh.bytes += int64(size-len(tags)) * rcSlotBytes
	sh.tags, sh.locs, sh.n = make([]uint32, size), make([]uint64, size), 0
	for i, t := range tags {
		if t == 0 {
			continue
		}
		if keep == nil {
			sh.insert(t, locs[i]) // a resize: no entry read
		} else if e := sh.entry(locs[i]); keep(e) {
			sh.insert(t, locs[i])
		} else {
			sh.slabDead[locs[i]>>32] += uint32(len(e))
			sh.dead += int64(len(e))
		}
	}
}

// remove takes the entry of slot i out of the table (backward-shift
// deletion: the entries after it in its probe run move up); its bytes
// stay in its slab until the slab is retired; with the lock held.
func (sh *rcShard) remove(i int) {
	sh.n--
	n := len(sh.tags)
	for j := next(i, n); ; j = next(j, n) {
		t := sh.tags[j]
		if t == 0 {
			break
		}
		// The entry at j may move to i if its home is not in (i, j]
		// (cyclically).
		if dist(home(t, n), j, n) >= dist(i, j, n) {
			sh.tags[i], sh.locs[i] = t, sh.locs[j]
			i = j
		}
	}
	sh.tags[i], sh.locs[i] = 0, 0
}

// reset empties the shard, dropping its slabs (its lastWrite slots and
// counters stay); with the lock held.
func (sh *rcShard) reset() {
	sh.tags, sh.locs, sh.n, sh.bytes, sh.ctxs, sh.ctxB, sh.last = nil, nil, 0, 0, nil, 0, 0
	sh.slabs, sh.free, sh.order, sh.head, sh.next = nil, nil, nil, rcNoSlab, 0
	sh.slabDead, sh.dead, sh.slabB = nil, 0, 0
}

// clearTable removes every entry of table tid. A shard none of whose
// contexts names tid holds no entry of it and is not walked: a bulk
// ingest into a table that was never read (a fresh COPY target) clears
// it under the commit mutex, and walking a full cache's entries there
// costs ~100 ms per 1M entries, random reads into the slabs.
func (c *rowCache) clearTable(tid uint64) {
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		if sh.n > 0 && sh.namesTable(tid) {
			other := func(e rcEntry) bool { return sh.ctxs[e.ctx()].tid != tid }
			kept := 0
			for j, t := range sh.tags {
				if t != 0 && other(sh.entry(sh.locs[j])) {
					kept++
				}
			}
			if kept == 0 {
				sh.reset()
			} else if kept < sh.n {
				sh.rebuild(len(sh.tags), other)
			}
		}
		sh.mu.Unlock()
	}
}

// namesTable reports whether a context of the shard names table tid:
// every entry names one of its shard's contexts, so without one the
// shard holds no entry of tid; with the lock held.
func (sh *rcShard) namesTable(tid uint64) bool {
	for i := range sh.ctxs {
		if sh.ctxs[i].tid == tid {
			return true
		}
	}
	return false
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
		sh.reset()
		sh.mu.Unlock()
	}
}

// rowCacheStats are the cache's counters, summed over shards.
type rowCacheStats struct {
	hits, misses, inserts, refused, evictions, bytes, entries int64
	// slabBytes: the slabs' capacity (part of bytes); dead: bytes in them
	// of entries no slot names; reclaimed: slabs compacted, copied: the
	// live bytes they copied, freed: the dead bytes they freed.
	slabBytes, dead, reclaimed, copied, freed int64
}

// metrics sets m's row cache fields.
func (c *rowCache) metrics(m *Metrics) {
	st := c.stats()
	m.RowCacheHits, m.RowCacheMisses, m.RowCacheInserts, m.RowCacheRefused = st.hits, st.misses, st.inserts, st.refused
	m.RowCacheEvictions, m.RowCacheBytes, m.RowCacheEntries = st.evictions, st.bytes, st.entries
	m.RowCacheSlabBytes, m.RowCacheDeadBytes = st.slabBytes, st.dead
	m.RowCacheCompactions, m.RowCacheReclaimedBytes, m.RowCacheCopiedBytes = st.reclaimed, st.freed, st.copied
}

func (c *rowCache) stats() rowCacheStats {
	st := rowCacheStats{hits: c.multiHits.Load()}
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		st.hits += sh.hits
		st.misses += sh.misses
		st.inserts += sh.inserts
		st.refused += sh.refused
		st.evictions += sh.evictions
		st.bytes += sh.bytes
		st.entries += int64(sh.n)
		st.slabBytes += sh.slabB
		st.dead += sh.dead
		st.reclaimed += sh.reclaimed
		st.copied += sh.copied
		st.freed += sh.freed
		sh.mu.Unlock()
	}
	return st
}
