package kv

// RowReferrer is an optional capability of a RowIterator, found by type
// assertion once per read (use RowRefOf): a scan that decodes millions of
// rows then reads each through a pointer instead of a Row call, which
// through the RowIterator interface is an indirect call and a copy of the
// Row per row.
type RowReferrer interface {
	// RowRef returns where the iterator keeps its current row: the same
	// pointer for the iterator's life, through which *RowRef() is, at
	// any time, what Row would return then (the zero Row before the
	// first Next, after the last and after Close). Its slices are valid
	// as Row's are.
	RowRef() *Row
}

// RowRefOf returns it's RowRef when it has the capability, else nil: the
// caller then calls Row.
func RowRefOf(it RowIterator) *Row {
	if r, ok := it.(RowReferrer); ok {
		return r.RowRef()
	}
	return nil
}
