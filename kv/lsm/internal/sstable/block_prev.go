package sstable

// prev moves to the previous entry. Entries in a block are linked only
// forward, so the first prev into a restart run decodes the run from its
// restart point and caches the entries before the current one; later
// prevs in the same run pop from that cache.
func (i *blockIter) prev() bool {
	if !i.valid {
		return false
	}
	if n := len(i.prevCache); n > 0 && i.prevCache[n-1].nextOffset == i.offset {
		i.popPrev()
		return true
	}
	// Find the last restart point before the current entry.
	lo, hi := 0, i.numRestarts
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		off := i.restart(mid)
		if off < 0 {
			return false
		}
		if off < i.offset {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		i.valid = false // at the first entry
		return false
	}
	target := i.offset
	i.prevCache, i.prevKeys = i.prevCache[:0], i.prevKeys[:0]
	if !i.seekRestart(lo - 1) {
		return false
	}
	for i.nextOffset < target {
		i.prevKeys = append(i.prevKeys, i.key...)
		i.prevCache = append(i.prevCache, prevEntry{
			offset:     i.offset,
			nextOffset: i.nextOffset,
			keyEnd:     len(i.prevKeys),
			valOff:     i.nextOffset - len(i.val),
			valEnd:     i.nextOffset,
		})
		if !i.next() {
			return false
		}
	}
	if i.nextOffset != target {
		return i.fail(errBadEntry) == nil
	}
	return true
}

// popPrev makes the top of prevCache the current entry.
func (i *blockIter) popPrev() {
	n := len(i.prevCache)
	e := i.prevCache[n-1]
	i.prevCache = i.prevCache[:n-1]
	start := 0
	if n > 1 {
		start = i.prevCache[n-2].keyEnd
	}
	i.key, i.keyInBuf = i.prevKeys[start:e.keyEnd:e.keyEnd], false
	i.val = i.data[e.valOff:e.valEnd:e.valEnd]
	i.offset, i.nextOffset = e.offset, e.nextOffset
	i.valid = true
}
