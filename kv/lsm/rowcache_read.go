package lsm

import "github.com/widesql/widesql/kv"

// How a read uses the row cache (rowIterator.rcMode).
const (
	rcOff  = iota // not at all: not a cacheable point read
	rcSlow        // on the normal path: each point is looked up, each miss read and offered
	rcAll         // a Get that hit: no snapshot, the row is in the read's buffers
)

// allPoints reports whether spans are all points (and not none).
func allPoints(spans []kv.Span) bool {
	for i := range spans {
		if !spans[i].Point {
			return false
		}
	}
	return len(spans) > 0
}

// probeCache serves a Get (a read of one point) from the cache before the
// read takes a snapshot, which takes the store mutex and refs every file:
// on a hit the row is copied into the read's buffers (rcAll) and no
// snapshot is taken; on a miss the normal path reads the row without
// looking it up again. A multi-get is probeCacheMany's
// (read_multicache.go): served from the cache when every row is there,
// otherwise by the normal path, which looks each point up again
// (lookupCached) and pays for its snapshot once for all its rows.
//
// Without the store mutex the read cannot check that the table was not
// dropped: a read racing with DropTable may return the pre-drop row, and
// after DropTable returns the table has no entries (rowCache.dropTable),
// so reads take the normal path and fail. Close is checked by the caller.
func (it *rowIterator) probeCache(rc *rowCache, t *table, seq uint64, pinned bool) bool {
	if len(it.spans) != 1 {
		return false
	}
	if !pinned {
		seq = it.s.visibleSeq.Load()
	}
	e, ok := rc.get(t.id, it.spans[0].Start, seq, &it.opts, true)
	if !ok {
		it.rcMissed = true
		return false
	}
	e.emit(&it.rr)
	it.rcMode = rcAll
	it.rr.vis.snap = seq
	return true
}

// stepCached is step for an rcAll read: its one row is in the buffers.
func (it *rowIterator) stepCached() (ok, more bool) {
	if it.si > 0 {
		return false, false
	}
	it.si++
	r := &it.rr
	n := len(it.spans[0].Start)
	r.row.Key, r.row.Cells = r.arena[:n:n], r.cells
	return true, true
}

// lookupCached serves the point span sp from the cache if its row is
// there for the read's snapshot; false means read it.
func (it *rowIterator) lookupCached(sp *kv.Span) bool {
	if !sp.Point || it.rcMissed {
		return false
	}
	e, ok := it.s.rc.Load().get(it.rcT.id, sp.Start, it.snap.seq, &it.opts, true)
	if !ok {
		return false
	}
	e.emit(&it.rr)
	return true
}
