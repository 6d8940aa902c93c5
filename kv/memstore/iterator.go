package memstore

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/google/btree"

	"github.com/widesql/widesql/kv"
)

const (
	// defaultFillSize is the most rows fetched from the tree per seek.
	defaultFillSize = 64
	// ctxCheckInterval is how many rows are visited between ctx checks.
	ctxCheckInterval = 64
)

// Read returns an iterator over the rows of rs in a snapshot taken now;
// later writes are not seen. The iterator retains rs's slices (not opts') and
// the caller must not modify them until it is closed. Errors (reported by
// the iterator's Err) wrap kv.ErrInvalidArgument for negative options,
// kv.ErrTableNotFound or kv.ErrClosed for a dropped table or closed store, or
// are ctx's error. Families and columns the table lacks simply match no cells,
// as in Bigtable.
func (t *Table) Read(ctx context.Context, rs kv.RowSet, opts kv.ReadOptions) kv.RowIterator {
	return t.read(ctx, rs, opts, nil)
}

// read is Read over tree, a clone of a snapshot's tree that the iterator
// takes ownership of, or over the live table when tree is nil.
func (t *Table) read(ctx context.Context, rs kv.RowSet, opts kv.ReadOptions, tree *btree.BTreeG[*row]) kv.RowIterator {
	it := &iterator{ctx: ctx, opts: opts, fillSize: t.fillSize, fams: t.fams(), now: kv.Now()}
	it.counter.regions = *t.regions.Load()
	if opts.MaxVersions < 0 || opts.Limit < 0 || opts.MinTimestamp < 0 || opts.MaxTimestamp < 0 {
		it.err = fmt.Errorf("memstore: read %q: negative MaxVersions, Limit or timestamp: %w", t.name, kv.ErrInvalidArgument)
		return it
	}
	if err := ctx.Err(); err != nil {
		it.err = err
		return it
	}
	it.maxVersions = max(opts.MaxVersions, 1)
	if opts.MaxTimestamp >= kv.MaxTimestamp {
		it.opts.MaxTimestamp = 0
	}
	it.spans = rs.Spans(it.spanBuf[:0])
	if opts.Reverse {
		slices.Reverse(it.spans)
	}
	if tree != nil {
		it.tree = tree // a private clone, owned by the iterator from now on
		return it
	}
	if len(it.spans) <= maxLookupKeys && allPoints(it.spans) {
		// Immutable rows make the looked-up rows a snapshot by themselves;
		// skipping the clone also spares writers the copy-on-write it causes.
		it.rows, it.err = t.lookup(it.spans, it.lookupBuf[:0])
		it.spans = nil
		return it
	}
	it.tree, it.err = t.snapshot()
	return it
}

// maxLookupKeys is the most keys a read looks up under the table lock
// instead of taking a snapshot.
const maxLookupKeys = 8

func allPoints(spans []kv.Span) bool {
	for i := range spans {
		if !spans[i].Point {
			return false
		}
	}
	return true
}

// iterator is the kv.RowIterator of a Table. A read of a few keys is served
// from rows looked up when Read was called. Otherwise the iterator walks the
// spans of its row set in order over a private snapshot of the tree,
// fetching up to fillSize rows per seek and projecting each row's cells into
// a reused slice, so the scan path allocates nothing per row or cell.
type iterator struct {
	ctx         context.Context
	tree        *btree.BTreeG[*row] // private snapshot; nil for a key lookup or when done
	opts        kv.ReadOptions
	maxVersions int
	fillSize    int

	spans     []kv.Span // in iteration order
	spanBuf   [1]kv.Span
	lookupBuf [1]*row
	done      bool // released; Next returns false
	next      int  // index in spans of the span being read

	rows    []*row // fetched from spans[next], not yet visited
	rowPos  int
	resume  []byte // key of the last row fetched from spans[next]; exclusive bound
	drained bool   // spans[next] has no rows left to fetch

	// State of the visit callbacks, which are bound once to avoid allocating
	// a closure per seek.
	visitFwd, visitRev btree.ItemIteratorG[*row]
	skip, stop         []byte
	probe              row

	cur      kv.Row
	cells    []kv.Cell // reused by every row
	returned int64
	stats    kv.ReadStats
	err      error

	fams    familyMap    // as of Read: MaxVersions and TTL apply at once
	now     kv.Timestamp // for TTL
	counter readCounter
}

var _ kv.RowIterator = (*iterator)(nil)

// Next advances to the next row whose projection is non-empty.
func (it *iterator) Next() bool {
	it.cur = kv.Row{}
	for it.err == nil && !it.done && (it.opts.Limit == 0 || it.returned < it.opts.Limit) {
		if it.stats.RowsRead%ctxCheckInterval == 0 {
			if err := it.ctx.Err(); err != nil {
				it.err = err
				break
			}
		}
		r := it.nextRow()
		if r == nil {
			break
		}
		it.stats.RowsRead++
		it.counter.count(r.key)
		if it.project(r) {
			it.returned++
			return true
		}
	}
	it.release()
	return false
}

// Row returns the current row; it and its slices are valid until Next or
// Close. The slices are shared with the store and must not be modified.
func (it *iterator) Row() kv.Row { return it.cur }

// Err returns the error that ended the iteration, if any.
func (it *iterator) Err() error { return it.err }

// Stats returns the rows and cells visited so far.
func (it *iterator) Stats() kv.ReadStats { return it.stats }

// Close releases the snapshot. It is safe to call more than once.
func (it *iterator) Close() error {
	it.cur = kv.Row{}
	it.release()
	return nil
}

func (it *iterator) release() {
	it.done = true
	it.counter.flush()
	it.tree, it.rows, it.cells, it.spans = nil, nil, nil, nil
	it.lookupBuf[0] = nil
}

// nextRow returns the next row of the row set in iteration order, or nil.
func (it *iterator) nextRow() *row {
	for {
		if it.rowPos < len(it.rows) {
			r := it.rows[it.rowPos]
			it.rowPos++
			return r
		}
		if it.next >= len(it.spans) {
			return nil
		}
		sp := &it.spans[it.next]
		if sp.Point {
			it.next++
			it.probe.key = sp.Start
			r, _ := it.tree.Get(&it.probe)
			it.probe.key = nil
			if r != nil {
				return r
			}
			continue
		}
		if it.drained {
			it.next++
			it.drained, it.resume = false, nil
			continue
		}
		it.fill(sp)
	}
}

// fill fetches the next rows of the range sp, after it.resume if set.
func (it *iterator) fill(sp *kv.Span) {
	if it.visitFwd == nil {
		it.visitFwd, it.visitRev = it.visitForward, it.visitReverse
		it.rows = make([]*row, 0, it.fillLimit())
	}
	it.rows, it.rowPos = it.rows[:0], 0
	it.skip = it.resume
	if !it.opts.Reverse {
		it.stop = sp.End
		it.probe.key = it.resume
		if it.probe.key == nil {
			it.probe.key = sp.Start
		}
		if it.probe.key == nil {
			it.tree.Ascend(it.visitFwd)
		} else {
			it.tree.AscendGreaterOrEqual(&it.probe, it.visitFwd)
		}
	} else {
		// Both the range end and the resume key are exclusive upper bounds.
		it.stop = sp.Start
		if it.skip == nil {
			it.skip = sp.End
		}
		it.probe.key = it.skip
		if it.probe.key == nil {
			it.tree.Descend(it.visitRev)
		} else {
			it.tree.DescendLessOrEqual(&it.probe, it.visitRev)
		}
	}
	it.probe.key = nil
	// A callback stops early only to end the span or when the batch is full.
	it.drained = len(it.rows) < it.fillLimit()
	if n := len(it.rows); n > 0 {
		it.resume = it.rows[n-1].key
	}
}

// fillLimit is the number of rows fetched per seek: no more than the row
// limit still needs, though filtered-out rows may need further seeks.
func (it *iterator) fillLimit() int {
	if it.opts.Limit > 0 {
		return int(min(int64(it.fillSize), max(it.opts.Limit-it.returned, 1)))
	}
	return it.fillSize
}

func (it *iterator) visitForward(r *row) bool {
	if it.skip != nil && bytes.Equal(r.key, it.skip) {
		return true
	}
	if it.stop != nil && bytes.Compare(r.key, it.stop) >= 0 {
		return false
	}
	it.rows = append(it.rows, r)
	return len(it.rows) < it.fillLimit()
}

func (it *iterator) visitReverse(r *row) bool {
	if it.skip != nil && bytes.Equal(r.key, it.skip) {
		return true
	}
	if it.stop != nil && bytes.Compare(r.key, it.stop) < 0 {
		return false
	}
	it.rows = append(it.rows, r)
	return len(it.rows) < it.fillLimit()
}
