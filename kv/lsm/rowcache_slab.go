package lsm

import (
	"encoding/binary"
	"iter"
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
// others are evicted. Dead bytes stay in their slab until it is retired
// (or compacted, below), and bytes counts slabs' capacity: a shard never holds more than its
// budget, however many of its entries are replaced.
//
// A slab's bytes are never written again once an entry is in them: a
// retired slab is dropped (the GC frees it once no reader holds a view
// of it) and a fresh one allocated; its id may be reused, as no slot
// names it any more.
//
// Dead bytes are reclaimed early (reclaim): under an UPDATE-heavy load
// every write deletes its row's entry and the next read re-inserts it at
// the head, so without it the dead bytes of older slabs would grow until
// the shard reached its budget, and eviction would then drop live entries
// to make room that dead ones hold. Each slab counts its dead bytes
// (drop, by the locator's slab id); when a shard's dead bytes pass
// 1/rcDeadShare of its slabs' bytes, an insert first compacts the slab
// with the largest dead share: its live entries are copied to the head
// (their reference bits kept: this is not a second chance) and the slab
// is retired as eviction retires one, so the reader rule holds (nothing
// is written into a slab a reader may copy from).

const (
	rcMinSlab   = 256
	rcFirstSlab = 1 << 10
	rcMaxSlab   = 64 << 10
	rcNoSlab    = ^uint32(0)

	// rcDeadShare: a shard whose dead bytes pass 1/rcDeadShare of its
	// slabs' bytes compacts slabs. At 4 a shard charges at most ~4/3 of
	// its live entries' bytes (plus the head's free tail); copying a
	// victim (mostly dead: the largest dead share) costs its live bytes.
	rcDeadShare = 4
	// rcReclaimPerPut bounds the slabs one insert compacts: a write adds
	// at most one entry's dead bytes, a compaction removes a slab's.
	rcReclaimPerPut = 2
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
func (sh *rcShard) newSlab(n int) uint32 { return sh.addSlab(allocSlab(n)) }

// allocSlab returns an empty slab of at least n bytes: its cap is its
// size class, what it really costs (up to 1/8 more than n, and a whole
// number of 8 KiB pages past 32 KiB).
func allocSlab(n int) []byte { return slices.Grow([]byte(nil), n) }

// fits reports whether a new slab s fits the budget beside the shard's
// fixed costs, its table and contexts: retiring every other slab makes
// room for it only then; with the lock held.
func (sh *rcShard) fits(c *rowCache, s []byte) bool {
	return int64(len(sh.tags))*rcSlotBytes+sh.ctxB+int64(cap(s)) <= c.shardBudget
}

// addSlab adds slab s at the end of order and returns its id; with the
// lock held.
func (sh *rcShard) addSlab(s []byte) uint32 {
	var id uint32
	if k := len(sh.free); k > 0 {
		id, sh.free = sh.free[k-1], sh.free[:k-1]
		sh.slabs[id], sh.slabDead[id] = s, 0
	} else {
		id = uint32(len(sh.slabs))
		sh.slabs = append(sh.slabs, s)
		sh.slabDead = append(sh.slabDead, 0)
	}
	sh.order = append(sh.order, id)
	sh.bytes += int64(cap(s))
	sh.slabB += int64(cap(s))
	return id
}

// drop removes the entry of slot i from the table: its bytes are dead in
// its slab until the slab is retired; with the lock held.
func (sh *rcShard) drop(i int) {
	l := sh.locs[i]
	n := len(sh.entry(l))
	sh.slabDead[l>>32] += uint32(n)
	sh.dead += int64(n)
	sh.remove(i)
}

// unlink takes slab id (at index j of order) out of order and out of the
// shard's bytes, returning its bytes; its dead bytes go with it; with the
// lock held. The caller walks the returned bytes (slots may still name
// them) and then frees the id.
func (sh *rcShard) unlink(j int) []byte {
	id := sh.order[j]
	sh.order = slices.Delete(sh.order, j, j+1)
	s := sh.slabs[id]
	if id == sh.head {
		sh.head = rcNoSlab
	}
	sh.slabs[id] = nil
	sh.bytes -= int64(cap(s))
	sh.slabB -= int64(cap(s))
	sh.dead -= int64(sh.slabDead[id])
	sh.slabDead[id] = 0
	return s
}

// reclaim compacts slabs while the shard's dead bytes are over
// 1/rcDeadShare of its slabs' bytes, at most rcReclaimPerPut of them, then
// retires the oldest slabs if the copies took the shard over budget;
// with the lock held.
func (sh *rcShard) reclaim(c *rowCache) {
	if sh.dead*rcDeadShare <= sh.slabB {
		return
	}
	for k := 0; k < rcReclaimPerPut && sh.dead*rcDeadShare > sh.slabB; k++ {
		// The victim: the largest dead share, never the head.
		best := -1
		var bd, bc int64
		for j, id := range sh.order {
			if id == sh.head || sh.slabDead[id] == 0 {
				continue
			}
			d, cp := int64(sh.slabDead[id]), int64(cap(sh.slabs[id]))
			if best < 0 || d*bc > bd*cp {
				best, bd, bc = j, d, cp
			}
		}
		if best < 0 {
			break
		}
		sh.compact(c, best)
	}
	sh.shrink(c)
}

// live yields the entries of slab s (id, unlinked from order) that a
// slot still names, with the slot's index; the others are dead. With the
// lock held; the caller may move or remove the slot it is given.
func (sh *rcShard) live(c *rowCache, id uint32, s []byte) iter.Seq2[int, rcEntry] {
	return func(yield func(int, rcEntry) bool) {
		for off := 0; off < len(s); {
			e := rcEntry(s[off:])
			n := e.size()
			e = e[:n:n]
			l := locOf(id, off)
			off += n
			if i := sh.findLoc(c.hash(sh.ctxs[e.ctx()].tid, e.key()), l); i >= 0 && !yield(i, e) {
				return
			}
		}
	}
}

// compact retires the slab at index j of order, copying its live entries
// to the head (new heads as needed) with their reference bits; with the
// lock held.
func (sh *rcShard) compact(c *rowCache, j int) {
	id := sh.order[j]
	sh.freed += int64(sh.slabDead[id])
	s := sh.unlink(j)
	sh.reclaimed++
	for i, e := range sh.live(c, id, s) {
		n := len(e)
		h := sh.head
		if n > sh.slabSize/4 {
			h = sh.newSlab(n) // dedicated (a victim has dead bytes, so not one)
		} else if h == rcNoSlab || len(sh.slabs[h])+n > cap(sh.slabs[h]) {
			if sh.next == 0 {
				sh.next = min(rcFirstSlab, sh.slabSize)
			}
			h = sh.newSlab(max(sh.next, n))
			sh.next = min(2*sh.next, sh.slabSize)
			sh.head = h
		}
		hs := sh.slabs[h]
		sh.locs[i] = locOf(h, len(hs))
		sh.slabs[h] = append(hs, e...)
		sh.copied += int64(n)
	}
	sh.free = append(sh.free, id) // no slot names it any more
}

// room returns the slab an entry of n bytes is to be appended to, with
// room for it: the head, a new head, or a dedicated slab; the oldest
// slabs are retired to keep the shard within budget; with the lock held.
// False: a new slab would not fit beside the table and contexts (fits),
// and the entry is not cached; nothing is retired for it then.
func (sh *rcShard) room(c *rowCache, n int) (uint32, bool) {
	if n > sh.slabSize/4 {
		s := allocSlab(n)
		if !sh.fits(c, s) {
			return rcNoSlab, false
		}
		id := sh.addSlab(s)
		sh.shrink(c)
		return id, true
	}
	if sh.head != rcNoSlab {
		if s := sh.slabs[sh.head]; len(s)+n <= cap(s) {
			return sh.head, true
		}
	}
	if sh.next == 0 {
		sh.next = min(rcFirstSlab, sh.slabSize)
	}
	s := allocSlab(max(sh.next, n))
	if !sh.fits(c, s) {
		return rcNoSlab, false
	}
	sh.head = sh.addSlab(s)
	sh.next = min(2*sh.next, sh.slabSize)
	sh.shrink(c)
	return sh.head, true
}

// shrink retires the oldest slabs while the shard is over budget, sparing
// the newest one (just made, for the insert under way); with the lock
// held.
func (sh *rcShard) shrink(c *rowCache) {
	for sh.bytes > c.shardBudget && len(sh.order) > 1 {
		sh.retire(c)
	}
}

// trim retires the oldest slabs while the shard is over budget, sparing
// none; with the lock held. put calls it before room: a context it added
// may have taken the shard over budget (room shrinks only when it makes a
// slab), and so may compact's new slabs (which reclaim's shrink spares
// the last of, however big the table and contexts).
func (sh *rcShard) trim(c *rowCache) {
	for sh.bytes > c.shardBudget && len(sh.order) > 0 {
		sh.retire(c)
	}
}

// retire retires the oldest slab: its live entries are moved to the head
// (referenced ones, while it keeps a quarter of a slab free) or evicted;
// with the lock held.
func (sh *rcShard) retire(c *rowCache) {
	id := sh.order[0]
	s := sh.unlink(0)
	sh.retired++
	for i, e := range sh.live(c, id, s) {
		n := len(e)
		if sh.tags[i]&rcTagRef != 0 {
			sh.tags[i] &^= rcTagRef
			if n == len(s) && n > sh.slabSize/4 {
				// A dedicated slab: it goes back into order as is, as
				// the newest but one. The newest stays last: it may be
				// the slab room just made for the insert under way,
				// which shrink spares as order's last.
				sh.slabs[id] = s
				sh.order = slices.Insert(sh.order, max(len(sh.order)-1, 0), id)
				sh.bytes += int64(cap(s))
				sh.slabB += int64(cap(s)) // its one entry is live: no dead bytes
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
