package lsm

import (
	"bytes"
	"sync"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
	"github.com/widesql/widesql/kv/lsm/internal/sstable"
)

// readBufs are the buffers a read reuses: the row arena and cell slices of
// its rowReader, the visibility state, key buffers, the span list and two
// merging iterators (one for point lookups, one for the current region of
// a range). A read takes a set from readPool when it starts and gives it
// back when it finishes (when Next returns false, or at Close), so a warm
// Get or scan allocates only its iterator. Nothing handed to a caller
// outlives that: Row is reset before the buffers go back. The iterator
// itself is not pooled: the kv.RowIterator contract lets a caller call
// Close (and Err, Stats) again after Close, which a recycled iterator,
// by then another read's, would answer.
type readBufs struct {
	arena   []byte
	cells   []kv.Cell
	seekBuf []byte

	visFam, visCol []byte
	visDel         []delRange

	prefix, cursor, lo, hi []byte
	spans                  []kv.Span
	pointFiles             []internalIter

	point, scan mergingIter

	// stage holds the rows of a multi-get served from the row cache
	// (read_multicache.go); reset when the set goes back.
	stage multiStage

	// famMask is the array of the rowReader's family mask (setMasks).
	famMask []bool

	// cols is the rowReader's column table (buildCols).
	cols colTable

	// snap is the read's snapshot (Store.acquireInto); released, with
	// its slices cleared, before the set goes back to the pool.
	snap readSnap
}

var readPool = sync.Pool{New: func() any { return new(readBufs) }}

// maxPooledArena keeps a read of huge rows from pinning its arena forever.
const maxPooledArena = 1 << 20

// takeBufs gives it a set of buffers from the pool.
func (it *rowIterator) takeBufs() {
	b := readPool.Get().(*readBufs)
	it.bufs = b
	r := &it.rr
	r.arena, r.cells, r.seekBuf = b.arena[:0], b.cells[:0], b.seekBuf[:0]
	r.vis.famBuf, r.vis.colBuf, r.vis.colDel = b.visFam[:0], b.visCol[:0], b.visDel[:0]
	it.prefix, it.cursor, it.lo, it.hi = b.prefix[:0], b.cursor[:0], b.lo[:0], b.hi[:0]
	it.spans = b.spans[:0]
	it.pointFiles = b.pointFiles[:0]
	b.cols.cols = b.cols.cols[:0] // not built yet
	b.stage.reset()
	r.cols = &b.cols
}

// putBufs returns it's buffers to the pool; the iterator holds no slice
// of them afterwards.
func (it *rowIterator) putBufs() {
	b := it.bufs
	if b == nil {
		return
	}
	it.bufs = nil
	r := &it.rr
	if cap(r.arena) <= maxPooledArena {
		b.arena = r.arena[:0]
	} else {
		b.arena = nil
	}
	clear(r.cells[:cap(r.cells)]) // no pointers into the arena or a block
	b.cells = r.cells[:0]
	b.seekBuf = r.seekBuf[:0]
	b.visFam, b.visCol, b.visDel = r.vis.famBuf[:0], r.vis.colBuf[:0], r.vis.colDel[:0]
	b.prefix, b.cursor, b.lo, b.hi = it.prefix[:0], it.cursor[:0], it.lo[:0], it.hi[:0]
	clear(it.spans[:cap(it.spans)]) // spans alias the caller's RowSet
	b.spans = it.spans[:0]
	b.pointFiles = it.pointFiles[:0] // closed and cleared by closePointFiles
	it.pointFiles = nil
	r.arena, r.cells, r.seekBuf = nil, nil, nil
	r.vis.famBuf, r.vis.colBuf, r.vis.colDel = nil, nil, nil
	it.prefix, it.cursor, it.lo, it.hi, it.spans = nil, nil, nil, nil, nil
	r.row = kv.Row{}
	r.cols = nil
	r.famMask = nil // may be b.famMask
	b.stage.reset()
	readPool.Put(b)
}

// initIter sets m up to merge the memtables and files of rs, reusing m's
// slices; m must be closed (or new). With point set (a row prefix), files
// whose key bounds or bloom filter exclude the row are skipped and the
// memtable iterators serve only that row's entries: the caller reads that
// row only.
func (rs *regionSnap) initIter(m *mergingIter, point []byte) *mergingIter {
	rs.initMems(m, point)
	if point == nil && len(rs.files) > 1 {
		// A scan: files that do not overlap are read one after the
		// other, as one child.
		m.runs, m.sorted = appendRuns(m.runs[:0], rs.files, m.sorted)
		for i := range m.runs {
			if r := &m.runs[i]; len(r.files) == 1 {
				m.children = append(m.children, sstIter{r.files[0].reader.NewIter()})
				clear(r.files)
				r.files = r.files[:0]
			} else {
				m.children = append(m.children, r)
			}
		}
		return m
	}
	var ph pointHash
	for _, f := range rs.files {
		if point != nil && !ph.mayHold(f, point) {
			continue
		}
		m.children = append(m.children, sstIter{f.reader.NewIter()})
	}
	return m
}

// pointHash is the bloom hash of a point read's row prefix, computed
// once (by the first file whose key range holds the row) for all files.
type pointHash struct {
	h  uint64
	ok bool
}

// mayHold reports whether file f may hold entries of the row whose
// prefix is point: its key range covers it and its bloom filter does not
// exclude it.
func (ph *pointHash) mayHold(f *fileMeta, point []byte) bool {
	if bytes.Compare(point, ikey.RowPrefixOf(f.largest)) > 0 ||
		bytes.Compare(point, ikey.RowPrefixOf(f.smallest)) < 0 {
		return false
	}
	if !ph.ok {
		ph.h, ph.ok = sstable.BloomHash(point), true
	}
	return f.reader.MayContainHash(ph.h)
}

// initMems resets m and makes the memtables of rs its first children
// (bounded to the row point when it is not nil).
func (rs *regionSnap) initMems(m *mergingIter, point []byte) {
	n := 1 + len(rs.st.imms)
	if cap(m.mems) < n {
		m.mems = make([]memIter, n)
	}
	m.mems = m.mems[:n]
	m.mems[0].reset(rs.st.mem, point) // keeps the iterator's buffer
	for i, mt := range rs.st.imms {
		m.mems[1+i].reset(mt, point)
	}
	m.children, m.h, m.err = m.children[:0], m.h[:0], nil
	for i := range m.mems {
		m.children = append(m.children, &m.mems[i])
	}
}

// newIter is initIter on a new merging iterator.
func (rs *regionSnap) newIter(point []byte) internalIter {
	return rs.initIter(&mergingIter{}, point)
}

// bound combines a span bound (a rowkey) with a region bound (a row
// prefix) into dst: the larger lower bound or the smaller upper bound, as
// a row prefix; nil is unbounded.
func bound(dst, spanKey, regionPrefix []byte, lower bool) []byte {
	if spanKey == nil {
		if regionPrefix == nil {
			return nil
		}
		return append(dst[:0], regionPrefix...)
	}
	dst = ikey.RowPrefix(dst[:0], spanKey)
	if regionPrefix == nil {
		return dst
	}
	if c := bytes.Compare(dst, regionPrefix); (lower && c < 0) || (!lower && c > 0) {
		return append(dst[:0], regionPrefix...)
	}
	return dst
}
