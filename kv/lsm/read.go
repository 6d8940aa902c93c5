package lsm

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
)

const ctxCheckInterval = 64

// Read returns an iterator over the rows of rs at a snapshot taken now. It
// holds no lock while iterating: it refs the files and memtables it needs,
// so long scans never block writers, flushes or compactions. The iterator
// retains rs's slices until closed. Errors (from Err) wrap
// kv.ErrInvalidArgument, kv.ErrTableNotFound, kv.ErrClosed, a corruption
// error naming the file, or are ctx's error.
func (h *Table) Read(ctx context.Context, rs kv.RowSet, opts kv.ReadOptions) kv.RowIterator {
	return h.readAt(ctx, rs, opts, 0, false)
}

// ReadReuse is Read reusing old (kv.ReadReuser) when it is a closed
// iterator of this store; any other old is left alone.
func (h *Table) ReadReuse(ctx context.Context, rs kv.RowSet, opts kv.ReadOptions, old kv.RowIterator) kv.RowIterator {
	it, ok := old.(*rowIterator)
	if !ok || it.s != h.s || !it.done || it.bufs != nil || it.snap != nil {
		return h.Read(ctx, rs, opts)
	}
	*it = rowIterator{s: h.s, ctx: ctx, opts: opts}
	return h.readInto(it, rs, 0, false)
}

// readAt is Read at sequence number seq when pinned (a registered store
// snapshot, see snapshot_api.go), else at the current visible seq.
func (h *Table) readAt(ctx context.Context, rs kv.RowSet, opts kv.ReadOptions, seq uint64, pinned bool) kv.RowIterator {
	return h.readInto(&rowIterator{s: h.s, ctx: ctx, opts: opts}, rs, seq, pinned)
}

// readInto starts it, a new iterator holding only its store, context and
// options, on rs; see readAt.
func (h *Table) readInto(it *rowIterator, rs kv.RowSet, seq uint64, pinned bool) kv.RowIterator {
	s, t, ctx, opts := h.s, h.t, it.ctx, it.opts
	it.takeBufs()
	if opts.MaxVersions < 0 || opts.Limit < 0 || opts.MinTimestamp < 0 || opts.MaxTimestamp < 0 {
		it.err = errorf("read %q: negative MaxVersions, Limit or timestamp: %w", t.name, kv.ErrInvalidArgument)
		return it
	}
	if err := ctx.Err(); err != nil {
		it.err = err
		return it
	}
	if opts.MaxTimestamp >= kv.MaxTimestamp {
		it.opts.MaxTimestamp = 0
	}
	rr := &it.rr
	rr.opts, rr.versions = &it.opts, max(opts.MaxVersions, 1)
	it.spans = rs.Spans(it.spans)
	var rc *rowCache
	if cacheableRead(&it.opts, t.families().fams) && allPoints(it.spans) {
		rc = s.rowCache()
	}
	if rc != nil {
		// Every row may be in the row cache: then the read needs no
		// snapshot (see rowcache_read.go).
		if rc.closed.Load() {
			it.err = kv.ErrClosed
			return it
		}
		if it.probeCache(rc, t, seq, pinned) || it.probeCacheMany(rc, t, seq, pinned) {
			return it
		}
	}
	rr.vis.nowUS = int64(kv.Now()) // for TTLs; a read from the cache has none
	// The masks are computed before mu is taken (mu is the store's
	// busiest lock: every read takes it twice), from the family set
	// loaded then; the set is checked again under mu, together with the
	// region states, and the masks redone in the rare case it changed:
	// the families' indexes must be those of the states' file lists.
	fs := t.families()
	lazy := it.setMasks(fs.fams)
	s.mu.Lock()
	if fs2 := t.families(); fs2 != fs {
		lazy = it.setMasks(fs2.fams)
	}
	if s.closed {
		it.err = kv.ErrClosed
	} else if t.dropped {
		it.err = errorf("table %q: %w", t.name, kv.ErrTableNotFound)
	} else {
		if !pinned {
			seq = s.visibleSeq.Load()
		}
		it.snap = s.acquireInto(&it.bufs.snap, t, it.spans, rr.famMask, seq)
		rr.vis.snap = it.snap.seq
		if rc != nil && lazy == nil && cacheableRead(&it.opts, rr.vis.fams) {
			it.rcMode, it.rcT = rcSlow, t
		}
		if lazy != nil {
			// The same spans, under the same lock: the same regions.
			it.lazy = &lazyReader{snap: s.acquireLocked(t, it.spans, lazy, seq), mask: lazy, ri: -1}
		}
	}
	s.mu.Unlock()
	if opts.Reverse && it.snap != nil {
		slices.Reverse(it.spans)
		slices.Reverse(it.snap.regions)
	}
	return it
}

// setMasks sets the read's families fams and family mask (in the pooled
// buffer) and returns the lazy families' mask (nil: none; lazyMasks).
func (it *rowIterator) setMasks(fams []famInfo) (lazy []bool) {
	rr := &it.rr
	rr.vis.fams = fams
	rr.famMask = familyMask(it.bufs.famMask, fams, &it.opts)
	if rr.famMask != nil {
		it.bufs.famMask = rr.famMask
	}
	ess, lazy := lazyMasks(fams, &it.opts, rr.famMask)
	if lazy != nil {
		rr.famMask = ess
	}
	return lazy
}

// familyMask returns which families a read needs, or nil for all; the
// mask is built in buf's array when it has room.
func familyMask(buf []bool, fams []famInfo, o *kv.ReadOptions) []bool {
	if len(o.Families) == 0 && len(o.Columns) == 0 {
		return nil
	}
	mask := slices.Grow(buf[:0], len(fams))[:len(fams)]
	for i, f := range fams {
		inFams := len(o.Families) == 0 || slices.Contains(o.Families, f.name)
		inCols := len(o.Columns) == 0
		for _, c := range o.Columns {
			inCols = inCols || c.Family == f.name
		}
		mask[i] = inFams && inCols
	}
	return mask
}

// rowIterator is the kv.RowIterator of a Table: it walks the spans in
// order and, within each, the regions they overlap, assembling one row at
// a time from a merge of the region's memtables and files.
type rowIterator struct {
	s    *Store
	ctx  context.Context
	opts kv.ReadOptions
	snap *readSnap
	rr   rowReader

	spans  []kv.Span // in iteration order
	si     int       // current span
	ri     int       // current region in snap.regions (iteration order)
	iter   internalIter
	bufs   *readBufs // pooled; nil once finished
	cursor []byte    // reverse: exclusive upper row prefix; forward: unused
	prefix []byte
	lo, hi []byte

	returned int64
	err      error
	// The small fields share the word after done, so that the iterator
	// stays within 760 bytes (the 768-byte size class with the 8-byte
	// header of objects over 512).
	done    bool
	started bool // the current (span, region) pair is positioned
	// The row cache (rowcache_read.go): rcMode says how the read uses
	// it, rcMissed that it is a Get the probe missed (its point is not
	// looked up again), rcT is the table.
	rcMode   uint8
	rcMissed bool
	iterFor  int32 // index of the region iter belongs to; -1 for a point iter
	rcT      *table

	// Rows read are counted per region in a batch, added to the region's
	// load counter when the read moves to another region or finishes.
	countR *region
	countN int64

	// The file iterators of point reads in region pointRS, indexed like
	// its files; nil until used (see read_point.go).
	pointRS    *regionSnap
	pointFiles []internalIter

	// lazy reads the families ReadOptions.Essential leaves out, for
	// Complete (read_lazy.go); nil when the read has none.
	lazy *lazyReader
}

var (
	_ kv.RowIterator  = (*rowIterator)(nil)
	_ kv.RowCompleter = (*rowIterator)(nil)
	_ kv.RowReferrer  = (*rowIterator)(nil)
)

func (it *rowIterator) Row() kv.Row         { return it.rr.row }
func (it *rowIterator) RowRef() *kv.Row     { return &it.rr.row }
func (it *rowIterator) Err() error          { return it.err }
func (it *rowIterator) Stats() kv.ReadStats { return it.rr.stats }

// Close releases the snapshot; safe to call more than once.
func (it *rowIterator) Close() error {
	it.rr.row = kv.Row{}
	it.finish()
	return nil
}

func (it *rowIterator) finish() {
	if it.done {
		return
	}
	it.done = true
	it.flushReads()
	if it.iter != nil {
		it.iter.Close()
		it.iter = nil
	}
	it.closePointFiles() // before the snapshot's files are released
	it.closeLazy()
	if it.snap != nil {
		it.s.release(it.snap)
		it.snap = nil
	}
	it.putBufs()
}

// Next advances to the next row with projected cells.
func (it *rowIterator) Next() bool {
	it.rr.row = kv.Row{}
	if it.lazy != nil {
		it.lazy.completed = false
	}
	for it.err == nil && !it.done && (it.opts.Limit == 0 || it.returned < it.opts.Limit) {
		if it.rr.stats.RowsRead%ctxCheckInterval == 0 {
			if err := it.ctx.Err(); err != nil {
				it.err = err
				break
			}
		}
		ok, more := it.step()
		if ok {
			it.returned++
			return true
		}
		if !more {
			break
		}
	}
	it.finish()
	return false
}

// step reads at most one row; ok reports a row in it.rr.row, more whether
// there may be rows left.
func (it *rowIterator) step() (ok, more bool) {
	if it.rcMode == rcAll {
		if it.bufs.stage.on {
			return it.stepStaged()
		}
		return it.stepCached()
	}
	if it.si >= len(it.spans) || it.snap == nil {
		return false, false
	}
	sp := &it.spans[it.si]
	if it.rcMode == rcSlow && it.lookupCached(sp) {
		it.nextSpan()
		return true, true
	}
	var rs *regionSnap
	if it.started && int(it.iterFor) == it.ri && it.iter != nil {
		// Still inside the (span, region) pair regionOf found when the
		// pair was started: only endOfRegion and nextSpan leave it, and
		// both clear started.
		rs = &it.snap.regions[it.ri]
	} else {
		var found bool
		if rs, found = it.regionOf(sp); !found {
			it.nextSpan()
			return false, true
		}
	}
	if sp.Point {
		it.prefix = ikey.RowPrefix(it.prefix[:0], sp.Start)
		iter := it.pointIter(rs, it.prefix)
		iter.SeekGE(it.prefix)
		if iter.Valid() && bytes.HasPrefix(iter.Key(), it.prefix) {
			ok = it.read(rs, iter, it.prefix)
		}
		if ok && it.rcMode == rcSlow {
			it.s.rc.Load().put(it.rcT, &it.rr.row, it.snap.seq, &it.opts, it.rr.vis.fams)
		}
		if err := it.releasePoint(iter); err != nil && it.err == nil {
			it.err = it.wrap(err)
		}
		it.nextSpan()
		return ok, true
	}
	if int(it.iterFor) != it.ri || it.iter == nil {
		if it.iter != nil {
			it.iter.Close()
		}
		it.iter, it.iterFor = rs.initIter(&it.bufs.scan, nil), int32(it.ri)
		it.started = false
	}
	if !it.started {
		it.started = true
		it.lo, it.hi = bound(it.lo, sp.Start, rs.r.lower, true), bound(it.hi, sp.End, rs.r.upper, false)
		if !it.opts.Reverse {
			if it.lo == nil {
				it.iter.First()
			} else {
				it.iter.SeekGE(it.lo)
			}
		}
		it.cursor = append(it.cursor[:0], it.hi...)
		if it.hi == nil {
			it.cursor = nil
		}
	}
	iter := it.iter
	if m, isM := iter.(*mergingIter); isM && !it.opts.Reverse {
		if ok, done := it.stepLone(rs, m); done {
			return ok, true
		}
	}
	if it.opts.Reverse {
		iter.SeekLT(it.cursor)
		if !iter.Valid() || (it.lo != nil && bytes.Compare(iter.Key(), it.lo) < 0) {
			return false, it.endOfRegion(sp, rs.r, iter)
		}
	} else if !iter.Valid() || (it.hi != nil && bytes.Compare(iter.Key(), it.hi) >= 0) {
		return false, it.endOfRegion(sp, rs.r, iter)
	}
	p := ikey.RowPrefixOf(iter.Key())
	if p == nil {
		it.err = it.wrap(fmt.Errorf("bad internal key %q: %w", iter.Key(), errCorrupt))
		return false, false
	}
	it.prefix = append(it.prefix[:0], p...)
	if it.opts.Reverse {
		iter.SeekGE(it.prefix)
		it.cursor = append(it.cursor[:0], it.prefix...)
	}
	return it.read(rs, iter, it.prefix), true
}

// loneRows enables stepLone. A variable only so that the differential
// tests (rowreader_fast_test.go, rowreader_lone_test.go) can compare reads
// with it and without; nothing else sets it.
var loneRows = true

// stepLone is step's forward path over a merge with one input left (a
// scan's single file or run once the memtables are exhausted, mostly
// from the start): it reads the rows from that input directly, through
// m.lone kept across rows, where collectIn would call single, set up a
// cellSource and resync the merge for every row. The row's first key
// shares bytes with the last key of the row before (the block's prefix
// compression, cellSource.shared): the new row prefix is scanned for,
// copied and unescaped only from there; the arena still holds the raw
// rowkey before. done false: nothing read, the merge is up to date
// (leaveLone) and step goes on as without.
func (it *rowIterator) stepLone(rs *regionSnap, m *mergingIter) (ok, done bool) {
	src := &m.lone
	if !m.loneOn {
		child := m.single()
		if child == nil || !loneRows {
			return false, false
		}
		m.loneOn, m.loneHi = true, -1
		src.init(child) // stepped false: nothing known shared
	}
	if !src.valid() {
		m.leaveLone()
		return false, false
	}
	k := src.key()
	sh := src.shared()
	if sh >= len(it.prefix) {
		sh = -1 // not a key of another row after the last: unknown
	}
	// A key sharing more than loneHi bytes with the last row's keys is
	// below hi where that row's prefix is; else it is compared.
	if it.hi != nil && (m.loneHi < 0 || sh <= m.loneHi) {
		d := commonPrefix(k, it.hi)
		if d == len(it.hi) || (d < len(k) && k[d] > it.hi[d]) {
			m.leaveLone()
			return false, false
		}
		m.loneHi = -1 // set below, once the prefix is known
		if d < len(k) {
			m.loneHi = d
		}
	}
	// keep: how many bytes of the escaped prefix (whole pairs, no
	// terminator) are the last row's, in it.prefix and, unescaped,
	// in the arena's first rawKeep bytes.
	keep, rawKeep := 0, 0
	if sh > 0 {
		keep = ikey.PairStart(k, sh)
		rawKeep = ikey.UnescapedLen(k[:keep])
	}
	p := ikey.RowPrefixFrom(k, keep)
	if p == nil {
		it.err = it.wrap(fmt.Errorf("bad internal key %q: %w", k, errCorrupt))
		return false, true
	}
	if m.loneHi >= len(p) {
		m.loneHi = -1 // the byte below hi's is not the prefix's
	}
	it.prefix = append(it.prefix[:keep], p[keep:]...)
	ok, err := it.rr.readRowOf(src, it.prefix, keep, rawKeep)
	if err != nil {
		it.err = it.wrap(err)
		return false, true
	}
	it.countRow(rs)
	return ok, true
}

func (it *rowIterator) read(rs *regionSnap, iter internalIter, prefix []byte) bool {
	ok, err := it.rr.readRow(iter, prefix)
	if err != nil {
		it.err = it.wrap(err)
		return false
	}
	it.countRow(rs)
	return ok
}

// countRow counts a row read in region rs (flushReads).
func (it *rowIterator) countRow(rs *regionSnap) {
	if rs.r != it.countR {
		it.flushReads()
		it.countR = rs.r
	}
	it.countN++
}

// flushReads adds the rows counted for it.countR to its load counter.
func (it *rowIterator) flushReads() {
	if it.countN > 0 {
		it.countR.reads.Add(it.countN, time.Now())
	}
	it.countR, it.countN = nil, 0
}

func (it *rowIterator) wrap(err error) error {
	return fmt.Errorf("lsm: read: %w", err)
}

// endOfRegion moves on when the current span has no more rows in region r:
// to the next span if the span ends inside r (the next span may start in
// r too), else to the next region.
func (it *rowIterator) endOfRegion(sp *kv.Span, r *region, iter internalIter) bool {
	if err := iter.Err(); err != nil {
		it.err = it.wrap(err)
		return false
	}
	it.started = false
	var spanEndsInside bool
	if it.opts.Reverse {
		spanEndsInside = sp.Start != nil && (r.start == nil || bytes.Compare(sp.Start, r.start) >= 0)
	} else {
		spanEndsInside = sp.End != nil && (r.end == nil || bytes.Compare(sp.End, r.end) <= 0)
	}
	if spanEndsInside {
		it.si++
	} else {
		it.ri++
	}
	return true
}

func (it *rowIterator) nextSpan() {
	it.si++
	it.started = false
}

// regionOf returns the region snapshot at or after it.ri (in iteration
// order) overlapping sp, advancing it.ri, or false when sp has no more.
func (it *rowIterator) regionOf(sp *kv.Span) (*regionSnap, bool) {
	regs := it.snap.regions
	for ; it.ri < len(regs); it.ri++ {
		r := regs[it.ri].r
		before, after := spanBeforeRegion(sp, r), spanAfterRegion(sp, r)
		if it.opts.Reverse {
			before, after = after, before
		}
		if before {
			return nil, false
		}
		if !after {
			return &regs[it.ri], true
		}
	}
	return nil, false
}

// spanBeforeRegion reports whether sp lies entirely before region r.
func spanBeforeRegion(sp *kv.Span, r *region) bool {
	if r.start == nil {
		return false
	}
	if sp.Point {
		return bytes.Compare(sp.Start, r.start) < 0
	}
	return sp.End != nil && bytes.Compare(sp.End, r.start) <= 0
}

// spanAfterRegion reports whether sp lies entirely after region r.
func spanAfterRegion(sp *kv.Span, r *region) bool {
	return r.end != nil && sp.Start != nil && bytes.Compare(sp.Start, r.end) >= 0
}
