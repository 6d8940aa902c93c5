package lsm

import (
	"encoding/binary"
	"slices"
	"unsafe"
)

// A shard's entries live in slabs: pointer-free []byte chunks of
// slabSize bytes that entries are appended to, back to back, in the
// current one (the head). An entry larger than a quarter of a slab gets
// a dedicated slab of its own size. A shard's first slabs are smaller
// (from rcFirstSlab, doubling), so that a cache holding a few rows holds
// little memory. A table slot finds its entry by
// locator, slab id << 32 | offset, so the table holds no pointers, and a
// full cache is a few large noscan objects per shard: a GC cycle has next
// to nothing of it to mark.
//
// Slabs are retired whole, oldest first (order is the FIFO of slab ids).
// Retiring a slab walks its entries (each one's size field gives the next
// one's offset): an entry the table no longer points to is dead (replaced,
// invalidated, cleared) and skipped; a live one with its reference bit set
// (hit since it was written or last moved) gets CLOCK's second chance: it
// is copied to the head slab with the bit cleared, while the head keeps a
// quarter of a slab free (so the insert that needed the room finds it; a
// referenced dedicated slab goes back to the end of order instead); the
// others are evicted. Dead bytes stay in their slab until it is retired,
// and bytes counts slabs' capacity: a shard never holds more than its
// budget, however many of its entries are replaced.
//
// A slab's bytes are never written again once an entry is in them: a
// retired slab is dropped (the GC frees it once no reader holds a view
// of it) and a fresh one allocated; its id may be reused, as no slot
// names it any more.

const (
	rcMinSlab   = 256
	rcFirstSlab = 1 << 10
	rcMaxSlab   = 64 << 10
	rcNoSlab    = ^uint32(0)
)

// slabSizeFor is the slab size of a shard of budget bytes: about a
// sixteenth of it (whole slabs are retired at once), within
// [rcMinSlab, rcMaxSlab].
func slabSizeFor(budget int64) int { return int(min(max(budget/16, rcMinSlab), rcMaxSlab)) }

func locOf(id uint32, off int) uint64 { return uint64(id)<<32 | uint64(off) }

// entry returns the entry at locator l (a view of its slab, which keeps
// the slab alive); with the lock held. The size field bounds the view:
// the locator comes from the table, which only holds entries' locators.
func (sh *rcShard) entry(l uint64) rcEntry {
	p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(sh.slabs[l>>32])), uint32(l))
	n := binary.LittleEndian.Uint32(unsafe.Slice((*byte)(p), rcFixed)[8:])
	return unsafe.Slice((*byte)(p), n)
}

// newSlab adds an empty slab of at least n bytes at the end of order and
// returns its id; with the lock held.
func (sh *rcShard) newSlab(n int) uint32 {
	s := slices.Grow([]byte(nil), n) // cap is its size class: what it really costs
	var id uint32
	if k := len(sh.free); k > 0 {
		id, sh.free = sh.free[k-1], sh.free[:k-1]
		sh.slabs[id] = s
	} else {
		id = uint32(len(sh.slabs))
		sh.slabs = append(sh.slabs, s)
	}
	sh.order = append(sh.order, id)
	sh.bytes += int64(cap(s))
	return id
}

// room returns the slab an entry of n bytes is to be appended to, with
// room for it: the head, a new head, or a dedicated slab; the oldest
// slabs are retired to keep the shard within budget; with the lock held.
func (sh *rcShard) room(c *rowCache, n int) uint32 {
	if n > sh.slabSize/4 {
		id := sh.newSlab(n)
		sh.shrink(c)
		return id
	}
	if sh.head != rcNoSlab {
		if s := sh.slabs[sh.head]; len(s)+n <= cap(s) {
			return sh.head
		}
	}
	if sh.next == 0 {
		sh.next = min(rcFirstSlab, sh.slabSize)
	}
	sh.head = sh.newSlab(max(sh.next, n))
	sh.next = min(2*sh.next, sh.slabSize)
	sh.shrink(c)
	return sh.head
}

// shrink retires the oldest slabs while the shard is over budget, sparing
// the newest one (just made, for the insert under way); with the lock
// held.
func (sh *rcShard) shrink(c *rowCache) {
	for sh.bytes > c.shardBudget && len(sh.order) > 1 {
		sh.retire(c)
	}
}

// retire retires the oldest slab: its live entries are moved to the head
// (referenced ones, while it keeps a quarter of a slab free) or evicted;
// with the lock held.
func (sh *rcShard) retire(c *rowCache) {
	id := sh.order[0]
	sh.order = slices.Delete(sh.order, 0, 1)
	s := sh.slabs[id]
	if id == sh.head {
		sh.head = rcNoSlab
	}
	sh.slabs[id] = nil
	sh.bytes -= int64(cap(s))
	sh.retired++
	for off := 0; off < len(s); {
		e := rcEntry(s[off:])
		n := e.size()
		e = e[:n:n]
		l := locOf(id, off)
		off += n
		i := sh.findLoc(c.hash(sh.ctxs[e.ctx()].tid, e.key()), l)
		if i < 0 {
			continue // dead
		}
		if sh.tags[i]&rcTagRef != 0 {
			sh.tags[i] &^= rcTagRef
			if n == len(s) && n > sh.slabSize/4 {
				// A dedicated slab: it goes back to the end of order as is.
				sh.slabs[id] = s
				sh.order = append(sh.order, id)
				sh.bytes += int64(cap(s))
				return
			}
			if h := sh.head; h != rcNoSlab {
				if hs := sh.slabs[h]; len(hs)+n <= cap(hs)-sh.slabSize/4 {
					sh.locs[i] = locOf(h, len(hs))
					sh.slabs[h] = append(hs, e...)
					sh.moved++
					continue
				}
			}
		}
		sh.remove(i)
		sh.evictions++
	}
	sh.free = append(sh.free, id)
}

// findLoc returns the slot of the entry at locator l, whose hash is h, or
// -1 if the table does not hold it; with the lock held.
func (sh *rcShard) findLoc(h, l uint64) int {
	if sh.n == 0 {
		return -1
	}
	tag := tagOf(h)
	n := len(sh.tags)
	for i := home(tag, n); ; i = next(i, n) {
		t := sh.tags[i]
		if t == 0 {
			return -1
		}
		if t&^rcTagRef == tag && sh.locs[i] == l {
			return i
		}
	}
}
