package lsm

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/google/btree"

	"github.com/widesql/widesql/kv/lsm/internal/ikey"
)

// entry is one internal key and its value. Entries in a memtable are never
// modified once inserted.
type entry struct {
	key, value []byte
}

// memtable is a region's in-memory store: a google/btree of internal keys
// whose items hold no pointers (memTree). Entries are inserted under the
// store's commit mutex (the only writer) and become visible to a read only
// once their sequence number is published, so a memtable holds
// unacknowledged entries without anyone seeing them. Keys are unique (each carries its sequence number), so an
// insert never replaces an entry: the tree only grows.
//
// The tree is not safe for a read concurrent with a write, so mu guards
// tree: the writer holds it for one batch's inserts into this memtable, a
// reader holds it (for reading) only while memIter copies a chunk of at
// most memFillMax entries, never while the caller works. Once the memtable
// is made immutable for a flush, nothing writes to it again.
//
// size counts what the memtable keeps alive on the heap: keys and values
// plus entryOverhead per entry (the entry's slot in a btree node, with the
// slack of partly filled nodes, and the unused tail of the arena chunks),
// so MemtableSize and MemoryBudget bound real memory, not just payload
// bytes.
type memtable struct {
	mu       sync.RWMutex
	tree     memTree       // guarded by mu
	size     atomic.Int64  // bytes, see above
	count    atomic.Int64  // entries
	maxSeq   atomic.Uint64 // largest seq inserted
	minSeq   atomic.Uint64 // smallest seq inserted; 0 when empty
	firstWAL atomic.Uint64 // WAL segment of the first entry; 0 when empty
}

const (
	entrySlot = int64(unsafe.Sizeof(mitem{}))
	// entryOverhead is the heap cost of one entry beyond its key and value
	// bytes: its slot in a node's items slice plus the slack of partly
	// filled nodes, a share of the node headers and child pointers, and
	// the unused tail of the arena chunks (at most one chunk of chunkMax
	// per memtable). Sorted inserts (sequential rowkeys) leave nodes half
	// full (a split keeps 31 items in a 64-slot array), about two slots per
	// entry: that worst case is counted, so the size bounds the heap. For
	// 1M entries (32-byte items) the measured overhead was 61 bytes per
	// entry sorted, 40 random. TestMemtableSizeBoundsHeap checks both
	// against the measured heap.
	entryOverhead = 2*entrySlot + 16
)

func newMemtable() *memtable {
	return &memtable{}
}

// add inserts entries (the caller is the only writer: it holds the commit
// mutex) and returns the bytes added to size. It copies the entries' bytes:
// the caller may reuse them once add returns.
func (m *memtable) add(es []entry, seq uint64, walSeg uint64) int64 {
	var n int64
	lo := m.minSeq.Load()
	m.mu.Lock()
	for _, e := range es {
		m.tree.insert(e)
		n += int64(len(e.key)+len(e.value)) + entryOverhead
		if len(e.key) >= ikey.TrailerLen { // the trailer's seq (see setSeq)
			if s := ^binary.BigEndian.Uint64(e.key[len(e.key)-1-8:]); lo == 0 || s < lo {
				lo = s
			}
		}
	}
	m.mu.Unlock()
	m.minSeq.Store(lo)
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

// memTree is the memtable's ordered index: a google/btree whose items
// (mitem) hold no pointers. Keys and values are copied into arena chunks
// and an item locates them by chunk and offset, so the garbage collector
// neither scans the items (a 64 MiB memtable holds about a million; node
// item slices of a pointer-free type are not scanned) nor runs write
// barriers when an insert shifts a node's items. The less function
// compares the arena bytes. Entries handed out (to memIter) alias the
// chunks, which are never written again once filled.
//
// The zero memTree is empty; its btree is made by the first insert.
type memTree struct {
	bt     *btree.BTreeG[mitem]
	chunks [][]byte // arena
	fill   int      // the chunk being filled (huge entries have their own)
}

// mitem locates one entry's key and value (value right after the key)
// and abbreviates the key (abbrev). A search pivot, whose key is not in
// the arena, is an mitem with chunk pivotChunk and off the index of its
// slot in pivotKeys.
//
// Its fields are packed into four words: less receives two items (and
// the tree), and with more than nine words in all (amd64's integer
// argument registers) the items are passed on the stack, which made
// every compare markedly slower (inserts three times as slow with the
// five fields of an unpacked layout). For the same reason the
// abbreviation is two fields, not an array.
type mitem struct {
	abbr0, abbr1 uint64 // abbrev(key)
	loc          uint64 // chunk<<32 | off
	lens         uint64 // klen<<32 | vlen
}

func makeItem(k []byte, chunk, off uint32, vlen int) mitem {
	a0, a1 := abbrev(k)
	return mitem{a0, a1, uint64(chunk)<<32 | uint64(off), uint64(len(k))<<32 | uint64(uint32(vlen))}
}

func (it mitem) chunk() uint32 { return uint32(it.loc >> 32) }
func (it mitem) off() uint32   { return uint32(it.loc) }
func (it mitem) klen() uint32  { return uint32(it.lens >> 32) }

func (it mitem) vlen() uint32 { return uint32(it.lens) }

// abbrevLen is the length of an abbreviation.
const abbrevLen = 16

// abbrev returns k's abbreviation: the first abbrevLen bytes of k
// unescaped (below), zero padded, as two big-endian words. Comparing
// abbreviations, held in the btree's nodes, spares most compares of a
// descent the read of both keys from the arena (a likely cache miss
// each), as PostgreSQL's abbreviated sort keys and the key prefixes of
// pebble's and RocksDB's index entries do.
//
// Unescaped: an internal key starts with the escaped rowkey (each 0x00
// byte written 00 FF, the end 00 01: see ikey), and integer key columns
// have many zero bytes, so the first 16 bytes of an escaped (tenant INT,
// id BIGINT) rowkey hold only the tenant: every row of a tenant would tie.
// abbrev turns each 00 FF back into 00 and stops (pads) at any other 00:
// the rowkey's end, or a 00 not followed by FF in a key of another shape.
// So the abbreviation holds the first 16 bytes of the rowkey itself, which
// distinguish the rows of most tables (a YCSB key "user" and 19 digits
// too), and only compares within a row fall back to the keys.
//
// The abbreviation is monotone for any byte strings: a < b (in
// bytes.Compare's order) implies abbrev(a) <= abbrev(b), so abbrev(a) <
// abbrev(b) implies a < b and less decides on unequal abbreviations
// alone. Proof: read both keys in tokens (00 FF, a lone 00 that stops,
// any other byte); the tokens before the first difference are equal and
// give equal output. If a is a proper prefix of b, a's output then ends
// (zero padding, <= whatever b emits). Else let a and b first differ at
// byte i, a[i] < b[i]. If a[i-1] = b[i-1] = 00 starts the token: b[i] =
// FF emits 00 and goes on while a stops (its zero padding <= b's output),
// or neither is FF and both stop: equal. Else if a[i] = 00, a stops
// (zeros), or emits 00 (a 00 FF) where b emits b[i] > 00. Else both emit
// their byte at i, a[i] < b[i]. In each case, cut to abbrevLen bytes and
// padded, abbrev(a) <= abbrev(b). Equal abbreviations decide nothing
// (zero padding maps "ab" and "ab\x00" alike; keys of one row tie): then
// less compares the keys.
func abbrev(k []byte) (uint64, uint64) {
	if len(k) >= 16 {
		w0, w1 := binary.BigEndian.Uint64(k), binary.BigEndian.Uint64(k[8:])
		if !hasZeroByte(w0) && !hasZeroByte(w1) {
			return w0, w1 // the common case of a key without 00 in its first 16 bytes
		}
	}
	var b [16]byte
	n := 0
	for i := 0; i < len(k) && n < len(b); i++ {
		c := k[i]
		if c == 0 {
			if i+1 == len(k) || k[i+1] != 0xff {
				break
			}
			i++
		}
		b[n] = c
		n++
	}
	return binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])
}

// hasZeroByte reports whether one of w's bytes is 0 (the classic bit
// trick: subtracting 1 from each byte borrows into its high bit only
// where the byte was 0 or the borrow came from below, which a 0 byte
// causes; masking by ^w keeps high bits of bytes below 0x80).
func hasZeroByte(w uint64) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	return (w-lo)&^w&hi != 0
}

// memDegree is the btree's degree: nodes hold 31 to 63 items.
const memDegree = 32

const (
	chunkMin  = 4 << 10
	chunkMax  = 1 << 20
	chunkHuge = chunkMax / 4 // larger entries get a chunk of their own
)

// pivotKeys holds the keys of the searches under way. Readers search one
// memtable concurrently (under its RLock), so a pivot cannot live in the
// memtree: each search takes a free slot (a clear bit of pivotFree), sets
// its key there and releases the slot when the search ends. The less
// function reads only the searcher's own slot, and a slot changes hands
// through the atomic bitmap, so slots need no lock. With every slot taken
// (more searches in flight than pivotSlots, all in their callbacks) a
// search yields until one is freed.
const (
	pivotWords = 4
	pivotSlots = 64 * pivotWords
	pivotChunk = ^uint32(0)
)

var (
	pivotKeys [pivotSlots][]byte
	pivotFree [pivotWords]atomic.Uint64 // set bits: slots in use
)

// pivot takes a slot for k and returns the item that searches for it;
// the caller calls releasePivot when the search ends.
func pivot(k []byte) mitem {
	for {
		for w := range pivotFree {
			f := &pivotFree[w]
			for used := f.Load(); used != ^uint64(0); used = f.Load() {
				b := bits.TrailingZeros64(^used)
				if f.CompareAndSwap(used, used|1<<b) {
					i := uint32(w*64 + b)
					pivotKeys[i] = k
					return makeItem(k, pivotChunk, i, 0)
				}
			}
		}
		runtime.Gosched()
	}
}

func releasePivot(p mitem) {
	i := p.off()
	pivotKeys[i] = nil
	pivotFree[i/64].And(^(uint64(1) << (i % 64)))
}

func (t *memTree) key(it mitem) []byte {
	if it.chunk() == pivotChunk {
		return pivotKeys[it.off()]
	}
	c, off, end := t.chunks[it.chunk()], it.off(), it.off()+it.klen()
	return c[off:end:end]
}

// less orders items by their keys: by the abbreviations when they
// differ (see abbrev), else by the keys' bytes.
func (t *memTree) less(a, b mitem) bool {
	if a.abbr0 != b.abbr0 {
		return a.abbr0 < b.abbr0
	}
	if a.abbr1 != b.abbr1 {
		return a.abbr1 < b.abbr1
	}
	return bytes.Compare(t.key(a), t.key(b)) < 0
}

func (t *memTree) entry(it mitem) entry {
	c, off, v := t.chunks[it.chunk()], it.off(), it.off()+it.klen()
	e := entry{key: c[off:v:v]}
	if vl := it.vlen(); vl > 0 {
		e.value = c[v : v+vl : v+vl]
	}
	return e
}

// store copies e into the arena.
func (t *memTree) store(e entry) mitem {
	need := len(e.key) + len(e.value)
	if need >= chunkHuge {
		t.chunks = append(t.chunks, append(append(make([]byte, 0, need), e.key...), e.value...))
		return makeItem(e.key, uint32(len(t.chunks)-1), 0, len(e.value))
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
	return makeItem(e.key, uint32(t.fill), uint32(off), len(e.value))
}

// insert adds e (a key not in the tree; an equal key is replaced, its
// bytes left in the arena).
func (t *memTree) insert(e entry) {
	if t.bt == nil {
		t.bt = btree.NewG(memDegree, t.less)
	}
	t.bt.ReplaceOrInsert(t.store(e))
}

// Len returns the number of entries.
func (t *memTree) Len() int {
	if t.bt == nil {
		return 0
	}
	return t.bt.Len()
}

// visit adapts fn to the btree's items.
func (t *memTree) visit(fn func(entry) bool) func(mitem) bool {
	return func(it mitem) bool { return fn(t.entry(it)) }
}

// Ascend calls fn for every entry in key order until fn returns false.
func (t *memTree) Ascend(fn func(entry) bool) {
	if t.bt != nil {
		t.bt.Ascend(t.visit(fn))
	}
}

// AscendGreaterOrEqual calls fn for every entry with key >= pivot.key in
// key order until fn returns false.
func (t *memTree) AscendGreaterOrEqual(pivotEntry entry, fn func(entry) bool) {
	if t.bt != nil {
		p := pivot(pivotEntry.key)
		defer releasePivot(p)
		t.bt.AscendGreaterOrEqual(p, t.visit(fn))
	}
}

// Descend calls fn for every entry in reverse key order until fn returns
// false.
func (t *memTree) Descend(fn func(entry) bool) {
	if t.bt != nil {
		t.bt.Descend(t.visit(fn))
	}
}

// DescendLessOrEqual calls fn for every entry with key <= pivot.key in
// reverse key order until fn returns false.
func (t *memTree) DescendLessOrEqual(pivotEntry entry, fn func(entry) bool) {
	if t.bt != nil {
		p := pivot(pivotEntry.key)
		defer releasePivot(p)
		t.bt.DescendLessOrEqual(p, t.visit(fn))
	}
}
