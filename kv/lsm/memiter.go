package lsm

import "bytes"

// memIter is a cursor over a memtable. google/btree offers only callback
// iteration, so memIter copies entries into buf a chunk at a time, holding
// the memtable's mu for reading only during the copy, and the next chunk
// resumes after the last key copied. Chunks start at memFillMin entries
// (a Get reads a few cells) and double up to memFillMax while the caller
// keeps reading (a scan). buf is kept across Close and reset, so a warm
// memIter (the pooled ones of initIter) copies without allocating.
//
// No snapshot is needed: the tree only grows (keys are unique) and entries
// newer than a read's sequence number are skipped by the reader, so what a
// later chunk sees is consistent with what an earlier one saw. Key and
// Value alias the memtable and stay valid as long as it is referenced.
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

// SeekGE positions it at the first key >= k.
func (it *memIter) SeekGE(k []byte) {
	it.chunk = memFillMin
	if it.bound != nil {
		// The bound stops the copy at the row's end: use the whole buffer.
		it.chunk = min(max(memFillMin, cap(it.buf)), memFillMax)
		if bytes.Compare(k, it.bound) < 0 {
			k = it.bound
		}
	}
	it.fill(k, false)
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
