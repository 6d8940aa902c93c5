package sstable

import "sync/atomic"

// Warming: a Reader fills its cache's free room with its blocks before any
// read asks for them (HBase's PREFETCH_BLOCKS_ON_OPEN, RocksDB's
// prepopulated block cache). A point read that misses the cache pays a
// pread, a checksum and a decompression of a whole block for one row; a
// warmed block costs one sequential read per warmChunk and the same
// decompression once, off the read's path. Warming never evicts: a block
// goes in only while its shard has room for it, into probation like any
// other new block, so what reads have made hot stays.

// warmChunk is the most bytes one read of Warm covers (readahead's
// largest read).
const warmChunk = raMax

// warmFullRun is how many blocks in a row must find their shard full for
// Warm to stop: shards fill evenly, so a run of them means the cache is
// all but full, while one full shard alone does not stop warming.
const warmFullRun = 8

// Blocks returns the number of data blocks in the file.
func (r *Reader) Blocks() int { return r.index.len() }

// Warm caches the file's data blocks from block from on that its cache
// does not hold, while the cache has room for them without evicting
// anything, reading consecutive blocks together in pieces of up to
// warmChunk bytes. A block whose shard is full is passed over; after
// warmFullRun such blocks in a row the cache counts as full and Warm
// returns with full set. It also returns after caching about limit bytes
// (a block's charge, its decompressed size and overhead) and at the end of
// the file; next is the block to go on from, Blocks() at the end. A Reader without a cache warms nothing. A
// checksum mismatch or a short read is a *CorruptionError, as for a read.
func (r *Reader) Warm(from int, limit int64) (next int, cached int64, full bool, err error) {
	x := &r.index
	if r.cache == nil {
		return x.len(), 0, false, nil
	}
	pb := readBufs.Get().(*[]byte)
	defer func() {
		*pb = (*pb)[:0]
		readBufs.Put(pb)
	}()
	i, noRoom := max(from, 0), 0
	for i < x.len() && cached < limit {
		h := x.handles[i]
		if !r.inBounds(h) || h.Length > maxBlockLen {
			return i, cached, false, r.corrupt(int64(h.Offset), "block handle out of range")
		}
		// The piece: block i and the blocks right after it that end
		// within warmChunk of its start.
		j, end := i+1, h.Offset+h.Length+trailerLen
		for j < x.len() {
			hj := x.handles[j]
			e := hj.Offset + hj.Length + trailerLen
			if hj.Offset != end || !r.inBounds(hj) || e-h.Offset > warmChunk {
				break
			}
			j, end = j+1, e
		}
		if r.allCached(i, j) {
			i = j
			continue
		}
		buf := *pb
		if uint64(cap(buf)) < end-h.Offset {
			buf = make([]byte, end-h.Offset, max(end-h.Offset, warmChunk))
		}
		buf = buf[:end-h.Offset]
		*pb = buf
		if err := r.readFull(buf, h.Offset); err != nil {
			return i, cached, false, err
		}
		for k := i; k < j; k++ {
			hk := x.handles[k]
			if r.blockCached(k) {
				continue
			}
			at := hk.Offset - h.Offset
			e, err := r.entryFrom(buf[at:at+hk.Length+trailerLen], hk)
			if err != nil {
				return k, cached, false, err
			}
			charge := e.charge()
			ok := r.cache.addIfRoom(r.fileNum, hk.Offset, e, &r.slots[k])
			e.release()
			if !ok {
				if noRoom++; noRoom == warmFullRun {
					return k + 1, cached, true, nil
				}
				continue
			}
			noRoom = 0
			cached += charge
		}
		i = j
	}
	return i, cached, false, nil
}

// allCached reports whether data blocks [i, j) are all cached.
func (r *Reader) allCached(i, j int) bool {
	for k := i; k < j; k++ {
		if !r.blockCached(k) {
			return false
		}
	}
	return true
}

// blockCached reports whether data block k is cached: published in its
// slot, or in the cache.
func (r *Reader) blockCached(k int) bool {
	return r.slots[k].Load() != nil || r.cache.cached(r.fileNum, r.index.handles[k].Offset)
}

// cached reports whether the block is cached, touching neither its
// recency nor the hit and miss counts.
func (c *Cache) cached(fileNum, offset uint64) bool {
	k := cacheKey{fileNum, offset}
	s := c.shard(k)
	s.mu.Lock()
	_, ok := s.m[k]
	s.mu.Unlock()
	return ok
}

// addIfRoom caches ne (from newCacheEntry) in probation, as setBlock
// does, but only when its shard has room for it without evicting
// anything. It reports whether there was room; a block already cached
// under the key counts as room, and ne then stays uncached. The caller
// keeps its reference to ne and releases it.
func (c *Cache) addIfRoom(fileNum, offset uint64, ne *cacheEntry, slot *atomic.Pointer[cacheEntry]) bool {
	k := cacheKey{fileNum, offset}
	s := c.shard(k)
	charge := ne.charge()
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[k]; ok {
		return true
	}
	if s.used+charge > s.limit {
		return false
	}
	s.insert(k, ne, slot, charge)
	return true
}

// Room returns the bytes the cache can still take without evicting: the
// sum of its shards' free room.
func (c *Cache) Room() int64 {
	var room int64
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		room += max(s.limit-s.used, 0)
		s.mu.Unlock()
	}
	return room
}

// Capacity returns the bytes the cache holds when full.
func (c *Cache) Capacity() int64 {
	var n int64
	for i := range c.shards {
		n += c.shards[i].limit
	}
	return n
}
