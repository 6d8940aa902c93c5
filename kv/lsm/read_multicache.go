package lsm

// A multi-get (a RowSet of several keys, every span a point) whose rows
// are all in the row cache is served like a Get that hit (probeCache),
// without a snapshot, which spares the store mutex (twice) and a ref per
// file. The probe looks every key up first and keeps the hits; it stops
// at the first key the cache does not answer, and the read then takes the
// normal path, which looks each point up again (rcSlow). Next emits the
// kept hits one by one: a hit is a view of bytes never written again (see
// rowcache_slab.go), so an entry evicted or invalidated after the probe
// still holds the row the read's snapshot saw.

// multiFromCache enables probeCacheMany; a variable only so that
// BenchmarkMultiGetCached can compare the read without it.
var multiFromCache = true

// multiStage holds a multi-get's hits while it returns them (readBufs).
type multiStage struct {
	on   bool // the read is served from hits
	next int  // the next hit to return
	hits []rcHit
}

func (m *multiStage) reset() {
	clear(m.hits) // views of slabs the cache may have dropped
	m.on, m.next, m.hits = false, 0, m.hits[:0]
}

// probeCacheMany serves a multi-get from the cache when every row is
// there for the read's snapshot (see above); false: read it.
func (it *rowIterator) probeCacheMany(rc *rowCache, t *table, seq uint64, pinned bool) bool {
	if len(it.spans) < 2 || !multiFromCache {
		return false
	}
	if !pinned {
		seq = it.s.visibleSeq.Load()
	}
	m := &it.bufs.stage
	for i := range it.spans {
		if it.opts.Limit > 0 && int64(i) >= it.opts.Limit {
			break
		}
		// Not counting the lookups: on a miss the normal path looks
		// every point up again and counts it then (counting the hits
		// here too counted them twice).
		h, ok := rc.get(t.id, it.spans[i].Start, seq, &it.opts, false)
		if !ok {
			m.reset()
			return false
		}
		m.hits = append(m.hits, h)
	}
	rc.multiHits.Add(int64(len(m.hits)))
	m.on = true
	it.rcMode = rcAll
	it.rr.vis.snap = seq
	return true
}

// stepStaged is step for a read served from the stage: it emits the next
// hit as the current row.
func (it *rowIterator) stepStaged() (ok, more bool) {
	m := &it.bufs.stage
	if m.next >= len(m.hits) {
		return false, false
	}
	m.next++
	m.hits[m.next-1].emit(&it.rr)
	return true, true
}
