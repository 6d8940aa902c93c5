package lsm

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
	"sort"

	"github.com/widesql/widesql/kv/lsm/internal/sstable"
)

// internalIter is the one iterator contract of the engine's sources of
// internal keys: memtables, files and their merge. Key and Value are valid
// until the next positioning call. SeekLT leaves the iterator positioned at
// the last key below its argument, for Key only: callers SeekGE before
// calling Next again.
type internalIter interface {
	SeekGE(k []byte)
	SeekLT(k []byte)
	First()
	Next()
	Valid() bool
	Key() []byte
	Value() []byte
	Err() error
	Close() error
}

// mergingIter merges children in key order. Equal keys from different
// children (a DeleteRow tombstone copied into several family files) are all
// returned; consumers treat duplicates idempotently.
//
// The heap is hand-written over cached keys: a scan calls Next once per
// cell, and container/heap's interface calls (Less calling Key on two
// children through two interfaces) were a visible share of a full scan.
// A child's cached key stays valid until that child moves, and only the
// top moves between sifts.
//
// With two children left (a range or scan over two families' files, or a
// file and a memtable) the merge also tracks lcp, how many leading bytes
// the top's key shares with the other's. A file child tells how many
// bytes its next key shares with the one before (the block's prefix
// compression); a key sharing more than lcp bytes with the top's previous
// key is still below the other child's, with no comparison: a row's
// cells in one family come one after the other without one. The same
// numbers give shared, what the key after a Next shares with the key
// before it, which the row reader uses as it does a lone file's.
type mergingIter struct {
	children []internalIter
	h        []heapItem
	err      error
	mems     []memIter   // the memtable children, when built by initIter
	runs     []runIter   // the file runs of a scan, when built by initIter
	sorted   []*fileMeta // appendRuns' scratch, empty between calls

	lcp    int // with len(h) == 2: bytes h[0].key shares with h[1].key; -1 unknown
	shared int // after Next: bytes Key shares with the key before it (a lower bound); -1 unknown

	// lone reads the one input left (single) across a scan's rows,
	// without the merge (rowIterator.stepLone). While loneOn, h[0]'s
	// cached key, lcp and shared are stale: leaveLone brings them up
	// to date; a seek or Close needs nothing.
	lone   cellSource
	loneOn bool
	// loneHi is how many bytes the lone read's current row prefix
	// shares with the read's upper bound, below it at the next byte;
	// -1 unknown (stepLone).
	loneHi int
}

// heapItem is a child with its cached key. sst is set when the child is
// a file (sstIter) or a run of files (run set, sst its current file):
// Next calls the file directly, and it tells how many bytes its next key
// shares with the last. A run is consulted only when its file ends.
type heapItem struct {
	it  internalIter
	key []byte
	sst *sstable.Iter
	run *runIter
}

func newHeapItem(c internalIter) heapItem {
	h := heapItem{it: c, key: c.Key()}
	switch c := c.(type) {
	case sstIter:
		h.sst = c.it
	case *runIter:
		h.run, h.sst = c, c.cur
	}
	return h
}

// sync caches the key of a positioned child that moved by itself (a
// seek, or a read of the lone child; a run may be in another file).
func (h *heapItem) sync() {
	h.key = h.it.Key()
	if h.run != nil {
		h.sst = h.run.cur
	}
}

// next moves the child to its next entry and reports whether it is
// positioned, and how many bytes its key shares with the one before (a
// lower bound; -1 unknown).
func (h *heapItem) next() (bool, int) {
	if h.sst != nil {
		if h.sst.Next() {
			h.key = h.sst.Key()
			return true, h.sst.SharedAfterNext()
		}
		if h.run != nil {
			return h.nextFile()
		}
		return false, -1
	}
	h.it.Next()
	if h.it.Valid() {
		h.key = h.it.Key()
		return true, -1
	}
	return false, -1
}

// nextFile moves a run child on to its next file after the current one
// ended; its first key shares 0 bytes with the last: another file's
// keys share nothing known with this one's.
func (h *heapItem) nextFile() (bool, int) {
	r := h.run
	if !r.settle() {
		r.forwardFrom(r.i + 1)
	}
	if !r.Valid() {
		return false, -1
	}
	h.sst, h.key = r.cur, r.cur.Key()
	return true, 0
}

func (h *heapItem) value() []byte {
	if h.sst != nil {
		return h.sst.Value()
	}
	return h.it.Value()
}

// commonPrefix returns how many leading bytes a and b share.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n {
		if x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)>>3
		}
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

var _ internalIter = (*mergingIter)(nil)

func newMergingIter(children []internalIter) *mergingIter {
	return &mergingIter{children: children, h: make([]heapItem, 0, len(children))}
}

func (m *mergingIter) init() {
	m.h = m.h[:0]
	m.lcp, m.shared = -1, -1
	for _, c := range m.children {
		if c.Valid() {
			m.h = append(m.h, newHeapItem(c))
		} else if err := c.Err(); err != nil && m.err == nil {
			m.err = err
		}
	}
	for i := len(m.h)/2 - 1; i >= 0; i-- {
		m.down(i)
	}
}

// down restores the heap order below i after h[i]'s key grew.
func (m *mergingIter) down(i int) {
	h := m.h
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		j := l
		if r := l + 1; r < n && bytes.Compare(h[r].key, h[l].key) < 0 {
			j = r
		}
		if bytes.Compare(h[j].key, h[i].key) >= 0 {
			return
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}

func (m *mergingIter) SeekGE(k []byte) {
	m.loneOn = false
	for _, c := range m.children {
		c.SeekGE(k)
	}
	m.init()
}

func (m *mergingIter) First() {
	m.loneOn = false
	for _, c := range m.children {
		c.First()
	}
	m.init()
}

// seekForward is SeekGE(k) for a k above the current key, seeking only
// the children positioned below k. The others stay: everything a child
// holds before its position was returned already (so lies below k), and
// a child out of the heap is exhausted; its SeekGE(k) would find what it
// stands on, or nothing.
func (m *mergingIter) seekForward(k []byte) {
	m.lcp, m.shared = -1, -1
	for i := 0; i < len(m.h); {
		h := &m.h[i]
		if bytes.Compare(h.key, k) >= 0 {
			i++
			continue
		}
		h.it.SeekGE(k)
		if h.it.Valid() {
			h.sync()
			i++
			continue
		}
		if err := h.it.Err(); err != nil && m.err == nil {
			m.err = err
		}
		n := len(m.h) - 1
		m.h[i] = m.h[n]
		m.h[n] = heapItem{}
		m.h = m.h[:n]
	}
	for i := len(m.h)/2 - 1; i >= 0; i-- {
		m.down(i)
	}
}

// SeekLT positions at the largest key below k over all children.
func (m *mergingIter) SeekLT(k []byte) {
	m.loneOn = false
	m.h = m.h[:0]
	m.lcp, m.shared = -1, -1
	var best internalIter
	var bestKey []byte
	for _, c := range m.children {
		c.SeekLT(k)
		if c.Valid() {
			if ck := c.Key(); best == nil || bytes.Compare(ck, bestKey) > 0 {
				best, bestKey = c, ck
			}
		} else if err := c.Err(); err != nil && m.err == nil {
			m.err = err
		}
	}
	if best != nil {
		m.h = append(m.h, newHeapItem(best))
	}
}

func (m *mergingIter) Next() {
	if len(m.h) == 0 {
		return
	}
	top := &m.h[0]
	ok, s := top.next()
	if ok {
		switch len(m.h) {
		case 1:
			m.shared = s
		case 2:
			// The common case of a scan over two files (two families,
			// or one file and a memtable). A key sharing more than lcp
			// bytes with the top's last key differs from the other's
			// where that one did, the same way: it is still below.
			if m.lcp >= 0 && s > m.lcp {
				m.shared = s
				return
			}
			k, b := top.key, m.h[1].key
			l := commonPrefix(k, b)
			if l < len(k) && (l == len(b) || b[l] < k[l]) {
				// The other's key is next; it shares lcp bytes with
				// the key last returned (-1: unknown).
				m.shared = m.lcp
				m.h[0], m.h[1] = m.h[1], m.h[0]
			} else {
				m.shared = s
			}
			m.lcp = l
		default:
			m.shared = -1
			m.down(0)
		}
		return
	}
	if err := top.it.Err(); err != nil && m.err == nil {
		m.err = err
	}
	// The next key is the other child's when one is left: it shares
	// lcp bytes with the key last returned.
	m.shared = -1
	if len(m.h) == 2 {
		m.shared = m.lcp
	}
	m.lcp = -1
	n := len(m.h) - 1
	m.h[0] = m.h[n]
	m.h[n] = heapItem{}
	m.h = m.h[:n]
	if n > 1 {
		m.down(0)
	}
}

// single returns the only child still positioned after a SeekGE or First
// (and Nexts), or nil if there are several or none, or an error. Moving
// that child forward is moving m forward: the others are exhausted and
// stay so until the next seek. Call resync after moving it.
func (m *mergingIter) single() internalIter {
	if len(m.h) != 1 || m.err != nil {
		return nil
	}
	return m.h[0].it
}

// leaveLone ends the reading of the lone child through m.lone, if on:
// the merge is positioned where the child is.
func (m *mergingIter) leaveLone() {
	if m.loneOn {
		m.loneOn = false
		m.lone = cellSource{}
		m.resync()
	}
}

// resync updates m after the child returned by single moved.
func (m *mergingIter) resync() {
	m.lcp, m.shared = -1, -1
	c := m.h[0].it
	if c.Valid() {
		m.h[0].sync()
		return
	}
	if err := c.Err(); err != nil && m.err == nil {
		m.err = err
	}
	m.h[0] = heapItem{}
	m.h = m.h[:0]
}

func (m *mergingIter) Valid() bool   { return m.err == nil && len(m.h) > 0 }
func (m *mergingIter) Key() []byte   { return m.h[0].key }
func (m *mergingIter) Value() []byte { return m.h[0].value() }
func (m *mergingIter) Err() error    { return m.err }

func (m *mergingIter) Close() error {
	for _, c := range m.children {
		if err := c.Close(); err != nil && m.err == nil {
			m.err = err
		}
	}
	m.loneOn, m.lone = false, cellSource{}
	// Keep the slices for reuse (initIter) but no references.
	clear(m.children)
	clear(m.h[:cap(m.h)])
	// The memIters dropped their references in Close and keep their buffers.
	m.children, m.h = m.children[:0], m.h[:0]
	return m.err
}

// runIter concatenates files whose key ranges do not overlap, in key
// order (a LevelDB level iterator): the merging iterator above it then
// compares one child per run instead of one per file. A load in key order
// flushes a family's rows into files that follow each other, so a scan of
// a freshly loaded table merges one run per family. Only the current file
// has an open sstable iterator.
type runIter struct {
	files []*fileMeta // sorted; files[i].largest < files[i+1].smallest
	i     int
	cur   *sstable.Iter // of files[i]; nil when none is open
	err   error
}

var _ internalIter = (*runIter)(nil)

// open makes files[i] the current file, closing the previous one.
func (r *runIter) open(i int) {
	r.closeCur()
	r.i, r.cur = i, r.files[i].reader.NewIter()
}

func (r *runIter) closeCur() {
	if r.cur != nil {
		if err := r.cur.Close(); err != nil && r.err == nil {
			r.err = err
		}
		r.cur = nil
	}
}

// settle reports whether the current file is positioned on an entry, or
// records its error; false means "try the neighbour".
func (r *runIter) settle() (done bool) {
	if r.cur.Valid() {
		return true
	}
	if err := r.cur.Err(); err != nil && r.err == nil {
		r.err = err
	}
	return r.err != nil
}

func (r *runIter) forwardFrom(i int) {
	for ; i < len(r.files) && r.err == nil; i++ {
		r.open(i)
		r.cur.First()
		if r.settle() {
			return
		}
	}
}

func (r *runIter) backwardFrom(i int) {
	for ; i >= 0 && r.err == nil; i-- {
		r.open(i)
		r.cur.Last()
		if r.settle() {
			return
		}
	}
}

func (r *runIter) First() { r.forwardFrom(0) }

func (r *runIter) SeekGE(k []byte) {
	i := sort.Search(len(r.files), func(i int) bool { return bytes.Compare(r.files[i].largest, k) >= 0 })
	if i == len(r.files) {
		r.closeCur()
		return
	}
	if r.cur == nil || r.i != i || r.cur.Err() != nil {
		// Keep the open iterator of the same file: its SeekGE can
		// answer from the loaded block (a reverse scan re-seeks each
		// row).
		r.open(i)
	}
	r.cur.SeekGE(k)
	if !r.settle() {
		r.forwardFrom(i + 1)
	}
}

// SeekLT positions at the last entry below k; nil k means the last entry.
func (r *runIter) SeekLT(k []byte) {
	if k == nil {
		r.backwardFrom(len(r.files) - 1)
		return
	}
	i := sort.Search(len(r.files), func(i int) bool { return bytes.Compare(r.files[i].smallest, k) >= 0 }) - 1
	if i < 0 {
		r.closeCur()
		return
	}
	r.open(i)
	r.cur.SeekLT(k)
	if !r.settle() {
		r.backwardFrom(i - 1)
	}
}

func (r *runIter) Next() {
	if !r.Valid() {
		return
	}
	if r.cur.Next() {
		return
	}
	if !r.settle() {
		r.forwardFrom(r.i + 1)
	}
}

func (r *runIter) Valid() bool   { return r.err == nil && r.cur != nil && r.cur.Valid() }
func (r *runIter) Key() []byte   { return r.cur.Key() }
func (r *runIter) Value() []byte { return r.cur.Value() }
func (r *runIter) Err() error    { return r.err }

func (r *runIter) Close() error {
	r.closeCur()
	err := r.err
	clear(r.files)
	r.files, r.err = r.files[:0], nil
	return err
}

// appendRuns groups files into runs of non-overlapping files, first fit
// in order of smallest key, reusing the runs' file slices. It sorts in
// scratch, which it returns emptied (cleared: it keeps no file alive) for
// the next call.
func appendRuns(runs []runIter, files, scratch []*fileMeta) ([]runIter, []*fileMeta) {
	sorted := append(scratch[:0], files...)
	slices.SortFunc(sorted, func(a, b *fileMeta) int { return bytes.Compare(a.smallest, b.smallest) })
	defer clear(sorted[:cap(sorted)])
	n := len(runs)
next:
	for _, f := range sorted {
		for i := n; i < len(runs); i++ {
			fs := runs[i].files
			if bytes.Compare(fs[len(fs)-1].largest, f.smallest) < 0 {
				runs[i].files = append(fs, f)
				continue next
			}
		}
		if len(runs) < cap(runs) {
			runs = runs[:len(runs)+1]
			runs[len(runs)-1].files = append(runs[len(runs)-1].files[:0], f)
		} else {
			runs = append(runs, runIter{files: []*fileMeta{f}})
		}
	}
	return runs, sorted[:0]
}
