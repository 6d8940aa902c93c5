package lsm

import (
	"bytes"
	"slices"

	"github.com/widesql/widesql/kv"
)

// On-demand family loading (kv.ReadOptions.Essential, kv/lazy.go). A read
// with the hint takes two sets of file refs over the same regions at the
// same sequence number: the essential families' files, merged with the
// memtables into the rows Next returns, and the other ("lazy") families'
// files, which only Complete reads. A filter that rejects most rows thus
// never reads, decompresses or merges the lazy families' blocks of the
// rows it rejects, and the essential merge compares fewer children.
//
// Complete merges the region's memtables and lazy files in a second
// merging iterator and seeks it to the current row. Rows are completed in
// key order, so its file iterators only move forward and a seek mostly
// lands in the block the previous one loaded (sstable.Iter's seekInBlock);
// the iterator stays open until the read moves to another region. Every
// file of a lazy family carries the DeleteRow tombstones of its rows
// (flush copies them into each family's file) and the memtables hold all
// of them, so a fresh visibility pass over the row's entries in the lazy
// merge applies every delete that covers the lazy cells, as the full read
// does. Entries of essential families met in the memtables are visited but
// not emitted.

// lazyReader is the Complete side of a read with lazy families.
type lazyReader struct {
	snap      *readSnap // the lazy families' files; regions parallel to the read's
	mask      []bool    // the lazy families, indexed like visibility.fams
	ri        int       // the region m merges; -1: m is not set up
	m         mergingIter
	completed bool      // the current row has been completed
	scratch   []kv.Cell // for putting cells back in family order
}

// lazyMasks splits the families a read selects (mask; nil: every family)
// into the essential ones and the lazy ones when the read honours
// o.Essential: forward, with at least one of each. Otherwise both are nil
// and the read returns whole rows.
func lazyMasks(fams []famInfo, o *kv.ReadOptions, mask []bool) (ess, lazy []bool) {
	if len(o.Essential) == 0 || o.Reverse {
		return nil, nil
	}
	ess, lazy = make([]bool, len(fams)), make([]bool, len(fams))
	var ne, nl int
	for i := range fams {
		switch {
		case mask != nil && !mask[i]:
		case slices.Contains(o.Essential, fams[i].name):
			ess[i] = true
			ne++
		default:
			lazy[i] = true
			nl++
		}
	}
	if ne == 0 || nl == 0 {
		return nil, nil
	}
	return ess, lazy
}

// Complete implements kv.RowCompleter: it adds the current row's cells of
// the lazy families, in family order.
func (it *rowIterator) Complete() error {
	lz := it.lazy
	r := &it.rr
	if lz == nil || lz.completed || it.err != nil || r.row.Key == nil {
		return it.err
	}
	lz.completed = true
	if lz.ri != it.ri {
		if lz.ri >= 0 {
			lz.m.Close()
		}
		lz.snap.regions[it.ri].initIter(&lz.m, nil)
		lz.ri = it.ri
	}
	// The merge stands on the first entry past the last row completed
	// (or is not positioned). If that is at or past this row, it is this
	// row's first entry or the row has none there: rows completed one
	// after the other need no seek.
	if !lz.m.Valid() || bytes.Compare(lz.m.Key(), it.prefix) < 0 {
		lz.m.SeekGE(it.prefix)
	}
	n := len(r.row.Cells)
	ess := r.famMask
	r.famMask = lz.mask
	_, err := r.collect(&lz.m, it.prefix, r.arena, len(r.row.Key), r.cells)
	r.famMask = ess
	if err != nil {
		it.err = it.wrap(err)
		r.row = kv.Row{}
		return it.err
	}
	if err := lz.m.Err(); err != nil {
		it.err = it.wrap(err)
		r.row = kv.Row{}
		return it.err
	}
	lz.order(r.row.Cells, n)
	return nil
}

// order puts cells back in family order: cells[:n] (the essential
// families') and cells[n:] (the lazy ones') are each in order, and no
// family is in both. Only the cells move: the arena's bytes stay where
// they are, and nothing appends to this row's arena afterwards.
func (lz *lazyReader) order(cells []kv.Cell, n int) {
	if n == 0 || n == len(cells) || cells[n-1].Family < cells[n].Family {
		return // the lazy families all sort after the essential ones
	}
	lz.scratch = append(lz.scratch[:0], cells...)
	a, b := lz.scratch[:n], lz.scratch[n:]
	for i := range cells {
		if len(b) == 0 || (len(a) > 0 && a[0].Family < b[0].Family) {
			cells[i], a = a[0], a[1:]
		} else {
			cells[i], b = b[0], b[1:]
		}
	}
	clear(lz.scratch) // no references into the arena
}

// closeLazy closes the lazy merge and releases its file refs.
func (it *rowIterator) closeLazy() {
	lz := it.lazy
	if lz == nil {
		return
	}
	if lz.ri >= 0 {
		if err := lz.m.Close(); err != nil && it.err == nil {
			it.err = it.wrap(err)
		}
		lz.ri = -1
	}
	if lz.snap != nil {
		it.s.release(lz.snap)
		lz.snap = nil
	}
	it.lazy = nil
}
