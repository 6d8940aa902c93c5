package lsm

import (
	"bytes"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/google/btree"
)

// entry is one internal key and its value. Entries in a memtable are never
// modified once inserted.
type entry struct {
	key, value []byte
}

func entryLess(a, b entry) bool { return bytes.Compare(a.key, b.key) < 0 }

// memtable is a region's in-memory store: a google/btree of internal keys.
// Entries are inserted under the store's commit mutex (the only writer)
// and become visible to a read only once their sequence number is
// published, so a memtable holds unacknowledged entries without anyone
// seeing them. Keys are unique (each carries its sequence number), so an
// insert never replaces an entry: the tree only grows.
//
// The btree is not safe for a read concurrent with a write, so mu guards
// tree: the writer holds it for one row's inserts, a reader holds it (for
// reading) only while memIter copies a chunk of at most memFillMax
// entries, never while the caller works. Once the memtable is made
// immutable for a flush, nothing writes to it again.
//
// size counts what the memtable keeps alive on the heap: keys and values
// plus entryOverhead per entry (the entry's slot in a btree node, with the
// slack of partly filled nodes), so MemtableSize and MemoryBudget bound
// real memory, not just payload bytes.
type memtable struct {
	mu       sync.RWMutex
	tree     *btree.BTreeG[entry] // guarded by mu
	size     atomic.Int64         // bytes, see above
	count    atomic.Int64         // entries
	maxSeq   atomic.Uint64        // largest seq inserted
	firstWAL atomic.Uint64        // WAL segment of the first entry; 0 when empty
}

// memDegree is the btree's degree: nodes hold 31 to 63 entries.
const memDegree = 32

const (
	entrySlot = int64(unsafe.Sizeof(entry{}))
	// entryOverhead is the heap cost of one entry beyond its key and value
	// bytes: its slot in a node's items slice plus the slack of partly
	// filled nodes, and a share of the node header and child pointers.
	// Sorted inserts (sequential rowkeys) leave nodes half full, about two
	// slots per entry: that worst case is counted, so the size bounds the
	// heap; random inserts cost about 1.45 slots. TestMemtableSizeBoundsHeap
	// checks both against the measured heap.
	entryOverhead = 2*entrySlot + 16
)

func newMemtable() *memtable {
	return &memtable{tree: btree.NewG(memDegree, entryLess)}
}

// add inserts entries (the caller is the only writer: it holds the commit
// mutex) and returns the bytes added to size. The entries' bytes must stay
// unchanged for the memtable's life.
func (m *memtable) add(es []entry, seq uint64, walSeg uint64) int64 {
	var n int64
	m.mu.Lock()
	for _, e := range es {
		m.tree.ReplaceOrInsert(e)
		n += int64(len(e.key)+len(e.value)) + entryOverhead
	}
	m.mu.Unlock()
	if m.firstWAL.Load() == 0 {
		m.firstWAL.Store(walSeg)
	}
	if seq > m.maxSeq.Load() {
		m.maxSeq.Store(seq)
	}
	m.count.Add(int64(len(es)))
	m.size.Add(n)
	return n
}

func (m *memtable) empty() bool { return m.count.Load() == 0 }

// ascend calls fn for every entry in key order until fn returns false,
// holding mu for reading throughout (split uses it while writers are
// stopped).
func (m *memtable) ascend(fn func(e entry) bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	m.tree.Ascend(fn)
}
