package lsm

import "bytes"

// memIter is a cursor over a memtable. google/btree offers only callback
// iteration, so memIter copies entries into buf a chunk at a time, holding
// the memtable's mu for reading only during the copy, and the next chunk
// resumes after the last key copied. Chunks start at memFillMin entries
// (memFillRow for a row's first, see SeekGE) and double up to memFillMax
// while the caller keeps reading (a scan); a seek to a key within buf
// moves within it. buf is kept across Close and reset, so a warm memIter
// (the pooled ones of initIter) copies without allocating.
//
// No snapshot is needed: the tree only grows (keys are unique) and entries
// newer than a read's sequence number are skipped by the reader, so what a
// later chunk sees is consistent with what an earlier one saw, and so is
// what buf holds: an entry inserted since its copy, which a seek within
// buf does not see, is newer than the read. Key and Value alias the
// memtable and stay valid as long as it is referenced.
//
// With a bound (a row prefix, for point reads), memIter serves only keys
// with that prefix and is exhausted past them, so a Get copies only the
// entries of its row.
type memIter struct {
	m     *memtable
	bound []byte  // row prefix, or nil
	buf   []entry // copied entries, in key order
	pos   int     // current entry in buf
	used  int     // longest buf since Close: the slots Close clears
	chunk int     // entries the next refill copies
	more  bool    // the tree may hold entries (within bound) after buf's last
}

const (
	memFillMin = 8
	memFillRow = 16 // a bounded iterator's first chunk: a row of a dozen cells
	memFillMax = 256
)

var _ internalIter = (*memIter)(nil)

func newMemIter(m *memtable) *memIter {
	it := &memIter{}
	it.reset(m, nil)
	return it
}

// reset points it at m with bound (nil: none), keeping its buffer.
func (it *memIter) reset(m *memtable, bound []byte) {
	it.m, it.bound = m, bound
	it.buf, it.pos, it.more = it.buf[:0], 0, false
}

// fill replaces buf with up to it.chunk entries from key from on (nil:
// the first key), skipping from itself when exclusive.
func (it *memIter) fill(from []byte, exclusive bool) {
	n := it.chunk
	buf := it.buf[:0]
	if cap(buf) < n {
		buf = make([]entry, 0, n) // grows with chunk: a short Get stays small
	}
	bound, out := it.bound, false
	visit := func(e entry) bool {
		if exclusive {
			exclusive = false
			if bytes.Equal(e.key, from) {
				return true
			}
		}
		if bound != nil && !bytes.HasPrefix(e.key, bound) {
			out = true
			return false
		}
		buf = append(buf, e)
		return len(buf) < n
	}
	it.m.mu.RLock()
	if from == nil {
		it.m.tree.Ascend(visit)
	} else {
		it.m.tree.AscendGreaterOrEqual(entry{key: from}, visit)
	}
	it.m.mu.RUnlock()
	it.buf, it.pos = buf, 0
	it.used = max(it.used, len(buf))
	it.more = len(buf) == n && !out
}

// SeekGE positions it at the first key >= k. A target within the copied
// entries (buf is a contiguous run of the tree, as of its fill) is found
// in buf without touching the tree: that is the reader's skip past a
// column's older versions (rowReader.collectOf), most often a few entries
// ahead. A target past buf refills from it with a small chunk, doubling
// on Next as after any seek: a skip lands on the next column, of which the
// reader wants one or a few entries before it skips again, so a hot row's
// hundreds of versions per column are neither copied nor compared.
func (it *memIter) SeekGE(k []byte) {
	if it.bound != nil && bytes.Compare(k, it.bound) < 0 {
		k = it.bound
	}
	if n := len(it.buf); n > 0 && bytes.Compare(k, it.buf[0].key) >= 0 {
		if bytes.Compare(k, it.buf[n-1].key) <= 0 {
			it.pos = it.search(k)
			return
		}
		if !it.more {
			// Nothing followed buf when it was copied (within the
			// bound): what was inserted since is newer than the
			// read and skipped anyway, as by Next.
			it.pos = n
			return
		}
		it.chunk = memFillMin
		it.fill(k, false)
		return
	}
	it.chunk = memFillMin
	if it.bound != nil {
		// The bound stops the copy at the row's end: a row's first
		// seek copies up to memFillRow entries, so a Get of a row of
		// a dozen cells takes one descent, and one of a hot row does
		// not copy (and compare to the bound) the hundreds of versions
		// of its first column that the reader skips.
		it.chunk = memFillRow
	}
	it.fill(k, false)
}

// search returns the index of the first entry of buf >= k, which lies in
// buf (k <= its last key): galloping from pos when k is at or after
// buf[pos], the forward skip of a reader, else a binary search of buf.
func (it *memIter) search(k []byte) int {
	buf := it.buf
	lo, hi := 0, len(buf)-1 // buf[hi].key >= k
	if p := it.pos; p < len(buf) && bytes.Compare(buf[p].key, k) < 0 {
		// buf[p] < k: gallop to a step whose entry is >= k.
		lo = p + 1
		for step := 1; ; step *= 2 {
			j := p + step
			if j >= hi {
				break
			}
			if bytes.Compare(buf[j].key, k) >= 0 {
				hi = j
				break
			}
			lo = j + 1
		}
	}
	// buf[lo-1] < k (or lo == 0), buf[hi] >= k: the answer is in [lo, hi].
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if bytes.Compare(buf[m].key, k) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// First positions it at the first key (of its bound, if any).
func (it *memIter) First() {
	if it.bound != nil {
		it.SeekGE(it.bound)
		return
	}
	it.chunk = memFillMin
	it.fill(nil, false)
}

// SeekLT positions it at the last key < k (k nil: the last key). A Next
// after it continues forward from that key.
func (it *memIter) SeekLT(k []byte) {
	buf := it.buf[:0]
	if cap(buf) == 0 {
		buf = make([]entry, 0, memFillMin)
	}
	visit := func(e entry) bool {
		if k != nil && bytes.Equal(e.key, k) {
			return true
		}
		buf = append(buf, e)
		return false
	}
	it.m.mu.RLock()
	if k == nil {
		it.m.tree.Descend(visit)
	} else {
		it.m.tree.DescendLessOrEqual(entry{key: k}, visit)
	}
	it.m.mu.RUnlock()
	if len(buf) > 0 && it.bound != nil && !bytes.HasPrefix(buf[0].key, it.bound) {
		buf[0] = entry{}
		buf = buf[:0]
	}
	it.buf, it.pos, it.chunk = buf, 0, memFillMin
	it.used = max(it.used, len(buf))
	it.more = len(buf) > 0
}

// Next moves to the following key, copying the next chunk (twice the
// last, up to memFillMax) when buf is used up.
func (it *memIter) Next() {
	it.pos++
	if it.pos == len(it.buf) && it.more {
		it.chunk = min(2*it.chunk, memFillMax)
		it.fill(it.buf[len(it.buf)-1].key, true)
	}
}

func (it *memIter) Valid() bool   { return it.pos < len(it.buf) }
func (it *memIter) Key() []byte   { return it.buf[it.pos].key }
func (it *memIter) Value() []byte { return it.buf[it.pos].value }
func (it *memIter) Err() error    { return nil }

// Close drops every reference into the memtable but keeps the buffer for
// the next reset.
func (it *memIter) Close() error {
	clear(it.buf[:it.used])
	it.used = 0
	it.reset(nil, nil)
	return nil
}
