package kv

// On-demand family loading (HBase's Scan.setLoadColumnFamiliesOnDemand, its
// region scanner's "joined heap"): a scan whose filter reads a few families
// of wide rows and rejects most of them need not read and merge the other
// families of the rows it rejects.
//
// The caller names the families its filter needs in
// ReadOptions.Essential. The read may then return each row with the cells
// of those families only; for a row the caller keeps, CompleteRow adds the
// cells of the read's other families, read at the same snapshot, after
// which Row returns exactly what a read without the hint returns for that
// row (same cells in the same order, same versions, projection, time
// range, TTL and deletes).
//
// The hint may change which rows a read returns in one way: a row with no
// projected cell in the essential families may be skipped, even if it has
// cells in the others (HBase: the joined heap only completes rows the
// essential families found). Callers name families every row they want
// has a live cell in (SQL: the family of the row marker, without a TTL).
//
// It is only a hint: a store may ignore it and return full rows, for which
// CompleteRow is a no-op. A wrapper table that passes ReadOptions on to
// another table must either return iterators that implement RowCompleter
// by delegating to the inner iterator, or clear Essential (the transaction
// overlay clears it when it merges buffered rows).

// RowCompleter is an optional capability of a RowIterator read with
// ReadOptions.Essential, found by type assertion (use CompleteRow).
type RowCompleter interface {
	// Complete adds to the current row the cells of the read's families
	// that are not essential, at the read's snapshot. Afterwards Row
	// returns the whole row; the Row returned before the call is no
	// longer valid. Calling it again for the same row, or with no current
	// row, does nothing. Errors are those of Err, which they also set.
	Complete() error
}

// CompleteRow completes the current row of it (RowCompleter.Complete) if
// it can; for an iterator without the capability, whose rows are already
// whole, it does nothing.
func CompleteRow(it RowIterator) error {
	if c, ok := it.(RowCompleter); ok {
		return c.Complete()
	}
	return nil
}
