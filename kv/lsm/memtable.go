package lsm

import (
	"bytes"
	"sync"
	"sync/atomic"

	"github.com/google/btree"
)

// entry is one internal key and its value. Entries in a memtable are never
// modified once inserted.
type entry struct {
	key, value []byte
}

func entryLess(a, b entry) bool { return bytes.Compare(a.key, b.key) < 0 }

// entryOverhead approximates the memory a btree entry costs beyond its bytes.
const entryOverhead = 48

// memtable is a region's in-memory store: a btree of internal keys. Entries
// are inserted under the store's commit mutex and become visible to a read
// only once their sequence number is published, so a memtable holds
// unacknowledged entries without anyone seeing them.
//
// Readers never hold mu while they work: see memIter. Once the memtable is
// made immutable for a flush, nothing writes to it again.
type memtable struct {
	mu       sync.Mutex
	tree     *btree.BTreeG[entry] // guarded by mu
	size     atomic.Int64         // approximate bytes
	maxSeq   atomic.Uint64        // largest seq inserted
	firstWAL atomic.Uint64        // WAL segment of the first entry; 0 when empty
}

func newMemtable() *memtable {
	return &memtable{tree: btree.NewG(32, entryLess)}
}

// add inserts entries (called with the commit mutex held).
func (m *memtable) add(es []entry, seq uint64, walSeg uint64) int64 {
	var n int64
	m.mu.Lock()
	for _, e := range es {
		m.tree.ReplaceOrInsert(e)
		n += int64(len(e.key) + len(e.value) + entryOverhead)
	}
	m.mu.Unlock()
	if m.firstWAL.Load() == 0 {
		m.firstWAL.Store(walSeg)
	}
	if seq > m.maxSeq.Load() {
		m.maxSeq.Store(seq)
	}
	m.size.Add(n)
	return n
}

func (m *memtable) empty() bool { return m.size.Load() == 0 }

// memIter iterates a memtable without a snapshot clone: a memtable only
// grows (keys are unique, so nothing is replaced) and entries newer than a
// read's sequence number are skipped by the reader, so the live tree is a
// consistent view at any time. google/btree has no cursor: entries are
// copied memFill at a time under mu (held only for that copy, never while
// the caller works) and the next batch resumes after the last key fetched.
type memIter struct {
	m       *memtable
	buf     []entry
	pos     int
	drained bool
}

const memFill = 64

func newMemIter(m *memtable) *memIter { return &memIter{m: m} }

func (it *memIter) fill(from []byte, inclusive bool) {
	it.buf, it.pos = it.buf[:0], 0
	visit := func(e entry) bool {
		if !inclusive && bytes.Equal(e.key, from) {
			return true
		}
		it.buf = append(it.buf, e)
		return len(it.buf) < memFill
	}
	it.m.mu.Lock()
	if from == nil {
		it.m.tree.Ascend(visit)
	} else {
		it.m.tree.AscendGreaterOrEqual(entry{key: from}, visit)
	}
	it.m.mu.Unlock()
	it.drained = len(it.buf) < memFill
}

func (it *memIter) SeekGE(k []byte) { it.fill(k, true) }

func (it *memIter) First() { it.fill(nil, true) }

func (it *memIter) SeekLT(k []byte) {
	it.buf, it.pos, it.drained = it.buf[:0], 0, true
	it.m.mu.Lock()
	defer it.m.mu.Unlock()
	if k == nil {
		it.m.tree.Descend(func(e entry) bool { it.buf = append(it.buf, e); return false })
		return
	}
	it.m.tree.DescendLessOrEqual(entry{key: k}, func(e entry) bool {
		if bytes.Equal(e.key, k) {
			return true
		}
		it.buf = append(it.buf, e)
		return false
	})
}

func (it *memIter) Next() {
	it.pos++
	if it.pos >= len(it.buf) && !it.drained && len(it.buf) > 0 {
		it.fill(it.buf[len(it.buf)-1].key, false)
	}
}

func (it *memIter) Valid() bool   { return it.pos < len(it.buf) }
func (it *memIter) Key() []byte   { return it.buf[it.pos].key }
func (it *memIter) Value() []byte { return it.buf[it.pos].value }
func (it *memIter) Err() error    { return nil }
func (it *memIter) Close() error  { it.m, it.buf = nil, nil; return nil }
