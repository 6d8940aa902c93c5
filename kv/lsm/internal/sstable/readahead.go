package sstable

import "sync/atomic"

// Readahead sizes: an iterator that has loaded raSequential blocks in a
// row, each starting where the one before ended, reads the file ahead in
// one pread of raMin bytes, doubling on every further refill up to raMax
// (pebble's readahead does the same, 64 KiB to 256 KiB). A scan missing
// the cache otherwise issues one pread per block: with 8 KiB blocks
// compressed to about 4 KiB, that was 6% of a full scan's CPU.
const (
	raMin        = 64 << 10
	raMax        = 256 << 10
	raSequential = 2
)

// readahead is an iterator's read-ahead buffer: bytes [off, off+len(buf))
// of one Reader's file, read by one pread and served block by block.
// Blocks taken from it are verified exactly as blocks read one at a time,
// so a checksum failure reports the same *CorruptionError; a failure to
// fill it falls back to reading the block alone, which reports the exact
// error (a truncated file, an I/O error) that read gets.
type readahead struct {
	// r is the Reader buf belongs to. Holding it keeps a closed Reader
	// alive while a pooled iterator remembers it, so no other Reader
	// can have its address: comparing pointers is enough.
	r       *Reader
	buf     []byte
	off     uint64
	nextOff uint64 // where the last loaded block ended, trailer included
	seq     int    // loads in a row that each started at nextOff
	size    int    // the next refill's size
	// slotHits counts cache hits through r's slots, not yet added to
	// the cache's count (flush).
	slotHits int64
}

// flush adds the slot hits counted to the cache's statistics.
func (ra *readahead) flush() {
	if ra.slotHits > 0 {
		ra.r.cache.slotHits.Add(ra.slotHits)
		ra.slotHits = 0
	}
}

// read returns the uncompressed block at h from the cache, the
// read-ahead buffer, a new read-ahead, or a read of the block alone; what
// it reads it caches when the Reader has a cache. ent is cb's entry with
// a reference the caller must release, or nil for a hit through a slot,
// which takes none (see Cache). h is the handle of data block idx.
func (ra *readahead) read(r *Reader, h blockHandle, idx int) (cb *cachedBlock, ent *cacheEntry, err error) {
	if ra.r != r {
		ra.flush()
		*ra = readahead{r: r, buf: ra.buf[:0]}
	}
	end := h.Offset + h.Length + trailerLen
	if h.Offset == ra.nextOff && ra.nextOff != 0 {
		ra.seq++
	} else {
		ra.seq, ra.size = 0, 0
	}
	ra.nextOff = end
	useCache := r.cache != nil
	var slot *atomic.Pointer[cacheEntry]
	if useCache {
		slot = &r.slots[idx]
		if e := slot.Load(); e != nil {
			ra.slotHits++
			return e.slotHit(), nil, nil
		}
		if e := r.cache.getBlock(r.fileNum, h.Offset, slot); e != nil {
			return &e.block, e, nil
		}
	}
	if !ra.covers(h) && (ra.seq < raSequential || !ra.fill(r, h)) {
		e, err := r.readMissed(h, useCache, slot)
		if err != nil {
			return nil, nil, err
		}
		return &e.block, e, nil
	}
	e, err := r.entryFrom(ra.buf[h.Offset-ra.off:end-ra.off], h)
	if err != nil {
		return nil, nil, err
	}
	if useCache {
		e = r.cache.setBlock(r.fileNum, h.Offset, e, slot)
	}
	return &e.block, e, nil
}

// covers reports whether the buffer holds the whole block at h.
func (ra *readahead) covers(h blockHandle) bool {
	return h.Offset >= ra.off && h.Offset+h.Length+trailerLen <= ra.off+uint64(len(ra.buf))
}

// fill reads ahead from the block at h to at most the end of the file's
// data blocks. It reports false, leaving the buffer empty, when the block
// is out of bounds or the read fails; the caller then reads the block
// alone to report why.
func (ra *readahead) fill(r *Reader, h blockHandle) bool {
	ra.buf = ra.buf[:0]
	if !r.inBounds(h) || h.Length > maxBlockLen {
		return false
	}
	ra.size = min(max(2*ra.size, raMin), raMax)
	n := max(uint64(ra.size), h.Length+trailerLen)
	if x := &r.index; x.len() > 0 {
		last := x.handles[x.len()-1]
		if dataEnd := last.Offset + last.Length + trailerLen; dataEnd > h.Offset {
			n = max(min(n, dataEnd-h.Offset), h.Length+trailerLen)
		}
	}
	if uint64(cap(ra.buf)) < n {
		ra.buf = make([]byte, n, max(n, raMax))
	}
	buf := ra.buf[:n]
	if m, _ := r.f.ReadAt(buf, int64(h.Offset)); uint64(m) != n {
		return false
	}
	ra.buf, ra.off = buf, h.Offset
	return true
}
