package memstore

import (
	"bytes"
	"sort"
	"time"

	"github.com/google/btree"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/internal/loadstat"
)

// region is a rowkey range [start, end) of a table. The in-memory engine
// keeps all rows in one tree, so a region is only bookkeeping: its
// boundaries (from TableSpec.SplitKeys and Admin.Split) and its load, so
// that SHOW TABLE REGIONS and hotspot tests work on this engine as on
// kv/lsm.
type region struct {
	id         uint64
	start, end []byte // nil: unbounded

	rows, bytes int64 // guarded by Table.mu: live rows, and their rowBytes

	reads  loadstat.Counter // rows read
	writes loadstat.Counter // row mutations applied
}

func (r *region) contains(key []byte) bool {
	return bytes.Compare(key, r.start) >= 0 && (r.end == nil || bytes.Compare(key, r.end) < 0)
}

// regionFor returns the index of the region of regions (sorted, covering
// the key space) holding key.
func regionFor(regions []*region, key []byte) int {
	i := sort.Search(len(regions), func(i int) bool {
		return regions[i].end == nil || bytes.Compare(key, regions[i].end) < 0
	})
	return min(i, len(regions)-1)
}

// newRegions returns the regions of a table split at keys (sorted,
// distinct), with ids from *next.
func newRegions(keys [][]byte, next *uint64) []*region {
	var out []*region
	var start []byte
	for _, k := range append(keys, nil) {
		*next++
		out = append(out, &region{id: *next, start: start, end: k})
		start = k
	}
	return out
}

// rowBytes is the memory a row's data takes: its key, qualifiers and
// values (the bookkeeping of Go values aside).
func rowBytes(r *row) int64 {
	if r == nil {
		return 0
	}
	n := int64(len(r.key))
	for i := range r.cells {
		n += int64(len(r.cells[i].Qualifier) + len(r.cells[i].Value))
	}
	return n
}

// countRange sets r.rows and r.bytes from the rows of tree in r's range.
func (r *region) countRange(tree *btree.BTreeG[*row]) {
	r.rows, r.bytes = 0, 0
	visit := func(x *row) bool {
		if r.end != nil && bytes.Compare(x.key, r.end) >= 0 {
			return false
		}
		r.rows++
		r.bytes += rowBytes(x)
		return true
	}
	if r.start == nil {
		tree.Ascend(visit)
	} else {
		tree.AscendGreaterOrEqual(&row{key: r.start}, visit)
	}
}

// regionDelta is the effect of one Apply on one region, added once the
// batch is committed.
type regionDelta struct {
	r                   *region
	writes, rows, bytes int64
}

// addDelta records a row mutation of old into next (either nil: no row)
// in region r.
func addDelta(ds []regionDelta, r *region, old, next *row) []regionDelta {
	var rows int64
	if old == nil && next != nil {
		rows = 1
	} else if old != nil && next == nil {
		rows = -1
	}
	b := rowBytes(next) - rowBytes(old)
	for i := range ds {
		if ds[i].r == r {
			ds[i].writes++
			ds[i].rows += rows
			ds[i].bytes += b
			return ds
		}
	}
	return append(ds, regionDelta{r: r, writes: 1, rows: rows, bytes: b})
}

// commitDeltas applies ds; with Table.mu held.
func commitDeltas(ds []regionDelta) {
	now := time.Now()
	for _, d := range ds {
		d.r.rows += d.rows
		d.r.bytes += d.bytes
		d.r.writes.Add(d.writes, now)
	}
}

// readCounter counts an iterator's rows read per region, adding them to the
// region's counter when the read moves to another region or ends: one
// clock read per region and read, not per row.
type readCounter struct {
	regions []*region // as of the read's start
	cur     *region
	n       int64
}

func (c *readCounter) count(key []byte) {
	if c.cur == nil || !c.cur.contains(key) {
		c.flush()
		if len(c.regions) == 0 {
			return
		}
		c.cur = c.regions[regionFor(c.regions, key)]
	}
	c.n++
}

func (c *readCounter) flush() {
	if c.n > 0 {
		c.cur.reads.Add(c.n, time.Now())
	}
	c.cur, c.n = nil, 0
}

// regionInfo describes r; with Table.mu held.
func (r *region) info(now time.Time) kv.RegionInfo {
	return kv.RegionInfo{ID: r.id, Start: bytes.Clone(r.start), End: bytes.Clone(r.end),
		Rows: r.rows, Bytes: r.bytes, Reads: r.reads.Total(), Writes: r.writes.Total(),
		ReadRate: r.reads.Rate(now), WriteRate: r.writes.Rate(now)}
}
