package lsm

import (
	"bytes"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// entry is one internal key and its value. Entries in a memtable are never
// modified once inserted.
type entry struct {
	key, value []byte
}

// memtable is a region's in-memory store: a B+tree of internal keys
// (memTree). Entries are inserted under the store's commit mutex (the only
// writer) and become visible to a read only once their sequence number is
// published, so a memtable holds unacknowledged entries without anyone
// seeing them. Keys are unique (each carries its sequence number), so an
// insert never replaces an entry: the tree only grows.
//
// The tree is not safe for a read concurrent with a write, so mu guards
// tree: the writer holds it for one batch's inserts into this memtable, a
// reader holds it (for reading) only while memIter copies a chunk of at
// most memFillMax entries, never while the caller works. Once the memtable
// is made immutable for a flush, nothing writes to it again.
//
// size counts what the memtable keeps alive on the heap: keys and values
// plus entryOverhead per entry (the entry's slot in a leaf, with the slack
// of partly filled leaves, inner nodes and the unused tail of the arena
// chunks), so MemtableSize and MemoryBudget bound real memory, not just
// payload bytes.
type memtable struct {
	mu       sync.RWMutex
	tree     memTree       // guarded by mu
	size     atomic.Int64  // bytes, see above
	count    atomic.Int64  // entries
	maxSeq   atomic.Uint64 // largest seq inserted
	firstWAL atomic.Uint64 // WAL segment of the first entry; 0 when empty
}

const (
	entrySlot = int64(unsafe.Sizeof(mitem{}))
	// entryOverhead is the heap cost of one entry beyond its key and value
	// bytes: its slot in a leaf plus the slack of partly filled leaves
	// (random inserts leave them about 70% full; ascending ones full, see
	// memTree.insert), a share of the inner nodes, and the unused tail of
	// the arena chunks (at most one chunk of chunkMax per memtable).
	// TestMemtableSizeBoundsHeap checks it against the measured heap.
	entryOverhead = 2*entrySlot + 32
)

func newMemtable() *memtable {
	return &memtable{}
}

// add inserts entries (the caller is the only writer: it holds the commit
// mutex) and returns the bytes added to size. It copies the entries' bytes:
// the caller may reuse them once add returns.
func (m *memtable) add(es []entry, seq uint64, walSeg uint64) int64 {
	var n int64
	m.mu.Lock()
	for _, e := range es {
		m.tree.insert(e)
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

// firstAtOrAfter returns the smallest key >= k, or nil.
func (m *memtable) firstAtOrAfter(k []byte) []byte {
	var out []byte
	m.mu.RLock()
	m.tree.AscendGreaterOrEqual(entry{key: k}, func(e entry) bool {
		out = e.key
		return false
	})
	m.mu.RUnlock()
	return out
}

// memTree is the memtable's ordered index: a B+tree whose slots hold no
// pointers. Keys and values are copied into arena chunks and a slot
// (mitem) locates them by chunk and offset, so the garbage collector
// neither scans the entries (a 64 MiB memtable holds about a million) nor
// runs write barriers when an insert shifts a leaf's slots, and a compare
// is a direct bytes.Compare. Entries handed out (to memIter) alias the
// chunks, which are never written again once filled.
//
// Leaves hold up to leafMax entries in key order; an inner node holds up
// to innerMax children and, between them, separators: items[i] is the
// smallest key of children[i+1]. Keys are unique.
type memTree struct {
	root   *mnode
	chunks [][]byte // arena
	fill   int      // the chunk being filled (huge entries have their own)
	n      int
	finger finger
}

// mitem locates one entry's key and value (value right after the key).
type mitem struct{ chunk, off, klen, vlen uint32 }

type mnode struct {
	items    []mitem
	children []*mnode // nil for a leaf
}

const (
	leafMax   = 64
	innerMax  = 64
	chunkMin  = 4 << 10
	chunkMax  = 1 << 20
	chunkHuge = chunkMax / 4 // larger entries get a chunk of their own
)

func (t *memTree) key(it mitem) []byte {
	c := t.chunks[it.chunk]
	return c[it.off : it.off+it.klen : it.off+it.klen]
}

func (t *memTree) entry(it mitem) entry {
	c := t.chunks[it.chunk]
	e := entry{key: c[it.off : it.off+it.klen : it.off+it.klen]}
	if it.vlen > 0 {
		v := it.off + it.klen
		e.value = c[v : v+it.vlen : v+it.vlen]
	}
	return e
}

// store copies e into the arena.
func (t *memTree) store(e entry) mitem {
	need := len(e.key) + len(e.value)
	kl, vl := uint32(len(e.key)), uint32(len(e.value))
	if need >= chunkHuge {
		t.chunks = append(t.chunks, append(append(make([]byte, 0, need), e.key...), e.value...))
		return mitem{uint32(len(t.chunks) - 1), 0, kl, vl}
	}
	if t.chunks == nil || cap(t.chunks[t.fill])-len(t.chunks[t.fill]) < need {
		size := chunkMin
		if t.chunks != nil {
			size = min(2*cap(t.chunks[t.fill]), chunkMax)
		}
		t.chunks = append(t.chunks, make([]byte, 0, max(size, need)))
		t.fill = len(t.chunks) - 1
	}
	c := t.chunks[t.fill]
	off := len(c)
	t.chunks[t.fill] = append(append(c, e.key...), e.value...)
	return mitem{uint32(t.fill), uint32(off), kl, vl}
}

// search returns the number of items of n whose key is < k (lower bound),
// or <= k when orEqual.
func (t *memTree) search(n *mnode, k []byte, orEqual bool) int {
	lo, hi := 0, len(n.items)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		c := bytes.Compare(t.key(n.items[m]), k)
		if c < 0 || (orEqual && c == 0) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// insert adds e (a key not in the tree; an equal key is replaced).
func (t *memTree) insert(e entry) {
	it := t.store(e)
	if t.root == nil {
		t.root = &mnode{items: make([]mitem, 0, 4)}
	}
	// The finger: a batch's entries mostly land in the leaf the previous
	// one did (its rows are sorted and new), so try that leaf before
	// descending from the root.
	if f := &t.finger; f.leaf != nil && len(f.leaf.items) < cap(f.leaf.items) &&
		(f.lo == nil || bytes.Compare(e.key, f.lo) >= 0) && (f.hi == nil || bytes.Compare(e.key, f.hi) < 0) {
		n := f.leaf
		i := t.search(n, e.key, false)
		if i < len(n.items) && bytes.Equal(t.key(n.items[i]), e.key) {
			n.items[i] = it
			return
		}
		n.items = slices.Insert(n.items, i, it)
		t.n++
		return
	}
	t.finger = finger{}
	if right, sep, split := t.insertAt(t.root, it, e.key, nil, nil); split {
		t.root = &mnode{items: []mitem{sep}, children: []*mnode{t.root, right}}
		t.finger = finger{}
	}
	t.n++
}

// finger is the leaf of the last insert and the key range [lo, hi) it
// covers (nil: unbounded); leaf is nil after a split, which moves bounds.
type finger struct {
	leaf   *mnode
	lo, hi []byte
}

// insertAt inserts it (key k) below n, whose keys lie in [lo, hi); when n
// splits it returns the new right sibling and its separator.
func (t *memTree) insertAt(n *mnode, it mitem, k, lo, hi []byte) (*mnode, mitem, bool) {
	if n.children == nil {
		i := t.search(n, k, false)
		if i < len(n.items) && bytes.Equal(t.key(n.items[i]), k) {
			n.items[i] = it
			t.n--
			return nil, mitem{}, false
		}
		if len(n.items) == cap(n.items) && cap(n.items) < leafMax {
			// Small leaves (a small memtable) grow to leafMax in steps.
			n.items = append(make([]mitem, 0, min(2*cap(n.items), leafMax)), n.items...)
		}
		if len(n.items) < leafMax {
			n.items = slices.Insert(n.items, i, it)
			t.finger = finger{leaf: n, lo: lo, hi: hi}
			return nil, mitem{}, false
		}
		// Split a full leaf. An append at its end (ascending keys) leaves
		// it full and starts the right leaf with the new entry, so a
		// sorted load fills leaves; otherwise the halves share the slots.
		var right *mnode
		if i == len(n.items) {
			right = &mnode{items: append(make([]mitem, 0, leafMax), it)}
		} else {
			mid := leafMax / 2
			right = &mnode{items: append(make([]mitem, 0, leafMax), n.items[mid:]...)}
			n.items = n.items[:mid:leafMax]
			if i <= mid {
				n.items = slices.Insert(n.items, i, it)
			} else {
				right.items = slices.Insert(right.items, i-mid, it)
			}
		}
		return right, right.items[0], true
	}
	i := t.search(n, k, true) // children[i] holds keys in [items[i-1], items[i])
	if i > 0 {
		lo = t.key(n.items[i-1])
	}
	if i < len(n.items) {
		hi = t.key(n.items[i])
	}
	right, sep, split := t.insertAt(n.children[i], it, k, lo, hi)
	if !split {
		return nil, mitem{}, false
	}
	t.finger = finger{}
	n.items = slices.Insert(n.items, i, sep)
	n.children = slices.Insert(n.children, i+1, right)
	if len(n.children) <= innerMax {
		return nil, mitem{}, false
	}
	// Split a full inner node: items[mid] moves up.
	mid := len(n.items) / 2
	if i+1 == len(n.children)-1 {
		mid = len(n.items) - 1 // ascending: keep this one full
	}
	up := n.items[mid]
	r := &mnode{
		items:    append(make([]mitem, 0, innerMax), n.items[mid+1:]...),
		children: append(make([]*mnode, 0, innerMax+1), n.children[mid+1:]...),
	}
	clear(n.children[mid+1:])
	n.items, n.children = n.items[:mid], n.children[:mid+1]
	return r, up, true
}

// Len returns the number of entries.
func (t *memTree) Len() int { return t.n }

// Ascend calls fn for every entry in key order until fn returns false.
func (t *memTree) Ascend(fn func(entry) bool) {
	if t.root != nil {
		t.ascend(t.root, nil, fn)
	}
}

// AscendGreaterOrEqual calls fn for every entry with key >= pivot.key in
// key order until fn returns false.
func (t *memTree) AscendGreaterOrEqual(pivot entry, fn func(entry) bool) {
	if t.root != nil {
		t.ascend(t.root, pivot.key, fn)
	}
}

// ascend visits the entries of n from k on (nil: all); false means fn
// stopped.
func (t *memTree) ascend(n *mnode, k []byte, fn func(entry) bool) bool {
	if n.children == nil {
		i := 0
		if k != nil {
			i = t.search(n, k, false)
		}
		for ; i < len(n.items); i++ {
			if !fn(t.entry(n.items[i])) {
				return false
			}
		}
		return true
	}
	i := 0
	if k != nil {
		i = t.search(n, k, true)
	}
	for ; i < len(n.children); i++ {
		if !t.ascend(n.children[i], k, fn) {
			return false
		}
		k = nil
	}
	return true
}

// Descend calls fn for every entry in reverse key order until fn returns
// false.
func (t *memTree) Descend(fn func(entry) bool) {
	if t.root != nil {
		t.descend(t.root, nil, fn)
	}
}

// DescendLessOrEqual calls fn for every entry with key <= pivot.key in
// reverse key order until fn returns false.
func (t *memTree) DescendLessOrEqual(pivot entry, fn func(entry) bool) {
	if t.root != nil {
		t.descend(t.root, pivot.key, fn)
	}
}

// descend visits the entries of n up to k (nil: all) in reverse; false
// means fn stopped.
func (t *memTree) descend(n *mnode, k []byte, fn func(entry) bool) bool {
	if n.children == nil {
		i := len(n.items) - 1
		if k != nil {
			i = t.search(n, k, true) - 1
		}
		for ; i >= 0; i-- {
			if !fn(t.entry(n.items[i])) {
				return false
			}
		}
		return true
	}
	i := len(n.children) - 1
	if k != nil {
		i = t.search(n, k, true)
	}
	for ; i >= 0; i-- {
		if !t.descend(n.children[i], k, fn) {
			return false
		}
		k = nil
	}
	return true
}
