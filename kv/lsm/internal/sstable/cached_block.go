package sstable

import (
	"bytes"
	"encoding/binary"
)

// cachedBlock is a data block as the block cache keeps it: the bytes and
// what a seek needs from them, worked out once when the block enters the
// cache rather than at every load.
//
// abbr[r] holds the 8 bytes of restart key r that follow prefix, the
// common prefix of all restart keys, big-endian and zero-padded. Two
// different abbreviations order their keys exactly as the keys compare,
// so the binary search over restart points reads the contiguous abbr
// array, not a key per probe from all over the block (a cache miss each
// on a large working set), and decodes a restart key only on a tie.
type cachedBlock struct {
	data        []byte
	restartsOff int
	numRestarts int
	// ok reports a well-formed restart array whose every restart entry
	// decodes; prefix and abbr are set only then. Otherwise the block is
	// read as if uncached, so corruption is reported by the same code.
	ok     bool
	prefix []byte   // aliases data
	abbr   []uint64 // abbrBuf when it fits
	// abbrBuf holds the abbreviations of a block with few restart points
	// (an 8 KiB block of 50-byte entries has 10) in the cache entry
	// itself, so a hit reads one object, not two.
	abbrBuf [12]uint64
}

// init prepares data, which must not be modified afterwards. cb must not
// be moved afterwards (abbr may point into it).
func (cb *cachedBlock) init(data []byte) {
	*cb = cachedBlock{data: data}
	var it blockIter
	if it.init(data) != nil || it.numRestarts == 0 {
		return
	}
	abbr := cb.abbrBuf[:0]
	if it.numRestarts > len(cb.abbrBuf) {
		abbr = make([]uint64, 0, it.numRestarts)
	}
	abbr = abbr[:it.numRestarts]
	var prefix []byte
	for r := range abbr {
		k, ok := it.restartKey(r)
		if !ok {
			return
		}
		if r == 0 {
			prefix = k
		} else {
			prefix = prefix[:commonPrefix(prefix, k)]
		}
	}
	for r := range abbr {
		k, _ := it.restartKey(r)
		abbr[r] = abbrev(k[len(prefix):])
	}
	cb.restartsOff, cb.numRestarts = it.restartsOff, it.numRestarts
	cb.ok, cb.prefix, cb.abbr = true, prefix, abbr
}

// charge is the bytes the block costs the cache: its bytes, its entry
// (entryOverhead) and abbreviations kept outside the entry.
func (cb *cachedBlock) charge() int64 {
	c := int64(len(cb.data)) + entryOverhead
	if len(cb.abbr) > len(cb.abbrBuf) {
		c += 8 * int64(len(cb.abbr))
	}
	return c
}

// abbrev returns the first 8 bytes of b big-endian, zero-padded.
func abbrev(b []byte) uint64 {
	if len(b) >= 8 {
		return binary.BigEndian.Uint64(b)
	}
	var a uint64
	for j, c := range b {
		a |= uint64(c) << (56 - 8*j)
	}
	return a
}

// initCached positions the iterator on a cached block, unpositioned,
// without re-parsing its restart array.
func (i *blockIter) initCached(cb *cachedBlock) error {
	if !cb.ok {
		return i.init(cb.data)
	}
	*i = blockIter{keyBuf: i.keyBuf[:0], prevCache: i.prevCache[:0], prevKeys: i.prevKeys[:0]}
	i.data, i.restartsOff, i.numRestarts, i.cb = cb.data, cb.restartsOff, cb.numRestarts, cb
	return nil
}

// searchAbbr is searchRestarts over the block's abbreviations.
func (i *blockIter) searchAbbr(target []byte) (int, bool) {
	cb := i.cb
	p := len(cb.prefix)
	if len(target) < p || !bytes.Equal(target[:p], cb.prefix) {
		// Every restart key starts with prefix: target is below them
		// all or above them all.
		if bytes.Compare(target, cb.prefix) < 0 {
			return 0, true
		}
		return cb.numRestarts, true
	}
	rest := target[p:]
	at := abbrev(rest)
	lo, hi := 0, cb.numRestarts
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		a := cb.abbr[mid]
		less := a < at
		if a == at {
			k, ok := i.restartKey(mid)
			if !ok {
				return 0, false
			}
			less = bytes.Compare(k[p:], rest) < 0
		}
		if less {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, true
}
