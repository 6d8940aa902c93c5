package memstore

import (
	"github.com/widesql/widesql/kv"
)

// project sets it.cur to r's cells that pass the read's family and column
// projection and time range, keeping the newest it.maxVersions versions of
// each column. Cells past their family's TTL, and versions beyond its
// MaxVersions (a SetFamilies may have lowered it since they were written),
// are hidden first, as kv/lsm's visibility does. The cells are copied by value into it.cells, which is reused
// across rows; their slices alias the immutable row. project reports whether
// any cell is left: rows projected to nothing are not returned.
func (it *iterator) project(r *row) bool {
	cells := it.cells[:0]
	var col *kv.Cell // the column of the last kept cell
	versions := 0
	var fam kv.Family // the family of r.cells[i-1]
	stored := 0       // versions of r.cells[i]'s column up to it
	for i := range r.cells {
		c := &r.cells[i]
		it.stats.CellsRead++
		if i == 0 || !sameColumn(c, &r.cells[i-1]) {
			stored = 0
			if i == 0 || c.Family != r.cells[i-1].Family {
				fam = it.fams[c.Family]
			}
		}
		stored++
		if stored > max(fam.MaxVersions, 1) || fam.Expired(c.Timestamp, it.now) {
			continue
		}
		if !it.opts.Selects(c) {
			continue
		}
		if col != nil && sameColumn(c, col) {
			if versions >= it.maxVersions {
				continue
			}
			versions++
		} else {
			col, versions = c, 1
		}
		cells = append(cells, *c)
	}
	it.cells = cells
	if len(cells) == 0 {
		return false
	}
	it.cur = kv.Row{Key: r.key, Cells: cells}
	return true
}
