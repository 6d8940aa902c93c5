package kv

import (
	"context"
	"errors"
)

// Bulk ingest (HBase's bulk load, pebble's Ingest): a table that
// implements Ingester takes a large set of new rows as sorted files built
// on the side and installed at once, instead of one huge atomic batch
// through the write-ahead log and the memtables. SQL's autocommit COPY
// uses it. Bigtable has no such operation: callers fall back to Apply.

// Sentinel errors of bulk ingest.
var (
	// ErrIngestUnsupported: the table (or the table a wrapper passes
	// through to) cannot ingest. Use Apply.
	ErrIngestUnsupported = errors.New("kv: bulk ingest not supported")
	// ErrIngestConflict: a write that committed while the ingest was
	// being built touched one of its rows without leaving a live cell (a
	// row inserted and deleted again meanwhile), so the ingest cannot be
	// ordered after it. Nothing was applied; the ingest may be retried.
	ErrIngestConflict = errors.New("kv: bulk ingest conflicts with a concurrent write")
)

// Ingester is an optional capability of a Table, found by type
// assertion. A wrapper may implement it and return ErrIngestUnsupported
// when what it wraps does not.
type Ingester interface {
	// NewIngest starts a bulk ingest into the table. The caller must end
	// the builder with Commit or Abort.
	NewIngest(ctx context.Context) (IngestBuilder, error)
}

// IngestBuilder collects the rows of one bulk ingest. It is not safe for
// concurrent use.
//
// The contract:
//   - Every row mutation given to Add holds SetCell mutations only and
//     has Require RequireAbsent with no RequireColumn (else Add returns an
//     error wrapping ErrInvalidArgument, or ErrFamilyNotFound); two Sets of
//     one cell in a row keep the later, as in Apply. Add copies what it
//     keeps. Rows may come in any order; rows in increasing key order
//     (the usual bulk load) cost the least.
//   - Commit is atomic: all rows or none, also across a crash. Reads and
//     snapshots that started before Commit returned do not see the rows;
//     reads that start after it do. Durability is Apply's.
//   - Rows must be new: a key added twice, or a key that has a live cell
//     in the table when Commit runs, fails Commit (or, when the engine
//     detects it early, Add) with a *ConditionError naming the key (Index
//     is the ordinal of the offending Add when known, else -1), and
//     nothing is applied.
//   - Commit may also fail with ErrIngestConflict (see there), ctx's error
//     or a store error; nothing is applied then either.
//   - Abort discards everything added (it is safe after Commit, and more
//     than once). After Commit or Abort, Add and Commit return an error.
//
// SetColumns and AddCells are the columnar form of Add, for a loader
// whose rows all set the same cells (SQL's COPY: the row marker and one
// cell per column): the builder resolves the families, escapes the names
// and orders the cells once, and each row costs its key and values only.
//   - SetColumns fixes the cells AddCells rows may set: column i is the
//     cell (cols[i].Family, cols[i].Qualifier) at cols[i].Timestamp. Two
//     columns naming the same cell at the same timestamp, an unknown
//     family (ErrFamilyNotFound) or a bad timestamp are errors, and the
//     builder stays as it was (Add still works). It may be called again;
//     the columns are copied.
//   - AddCells(key, vals) is Add of the row key with, for each i with
//     vals[i] != nil, a SetCell of column i to vals[i] (a non-nil empty
//     slice is an empty value), RequireAbsent. len(vals) must be the
//     number of columns. It copies what it keeps, and may be mixed with
//     Add.
type IngestBuilder interface {
	Add(rm RowMutation) error
	SetColumns(cols []IngestColumn) error
	AddCells(key []byte, vals [][]byte) error
	Commit(ctx context.Context) error
	Abort()
}

// IngestColumn is one cell of the rows IngestBuilder.AddCells takes.
type IngestColumn struct {
	Family    string
	Qualifier []byte
	Timestamp Timestamp
}
