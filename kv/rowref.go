package kv

import "context"

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

// ReadReuser is an optional capability of a Table: a Read that reuses the
// memory of an iterator the table's store returned before. A prepared
// point Get executed over and over then allocates no iterator: on a busy
// server a fresh one is memory no core has in its caches, and writing it
// was a tenth of such a Get's CPU.
type ReadReuser interface {
	// ReadReuse is Read, reusing old when it can. old must be an
	// iterator that a Read or ReadReuse of a table returned and that the
	// caller has closed and holds no other reference to: the caller
	// gives it up, and may not call any of its methods again.
	ReadReuse(ctx context.Context, rs RowSet, opts ReadOptions, old RowIterator) RowIterator
}

// ReadReusing reads rs from t as Read does, through ReadReuse when t has
// the capability and old is not nil (see ReadReuser for what old must be).
func ReadReusing(ctx context.Context, t Table, rs RowSet, opts ReadOptions, old RowIterator) RowIterator {
	if r, ok := t.(ReadReuser); ok && old != nil {
		return r.ReadReuse(ctx, rs, opts, old)
	}
	return t.Read(ctx, rs, opts)
}
