// Package kv is widesql's storage contract: the HBase/Bigtable data model.
//
//	table -> rowkey -> family -> qualifier -> versions (newest first) -> value
//
// Rows are sorted by rowkey bytes. A row holds cells; a cell is addressed by
// (family, qualifier, timestamp). Writes are row mutations, atomic per row.
// Reads are Gets and Scans over row ranges or key sets, with family and
// column projection, a version limit, a time range, a row limit and reverse
// order.
//
// The contract is shaped so that both widesql's own engine and Cloud Bigtable
// can implement it (see docs/ARCHITECTURE.md):
//
//   - Timestamps are microseconds since the Unix epoch and must be multiples of
//     1000 (Bigtable keeps milliseconds).
//   - Deletes remove the cells that exist when the delete is applied; a later
//     write with an older timestamp is visible again (Bigtable semantics, not
//     HBase's delete markers).
//   - Within a row, cells are ordered by family, then qualifier (bytes), then
//     timestamp descending.
//
// kv imports nothing else of widesql. Errors returned are the sentinels below,
// possibly wrapped; callers match them with errors.Is.
package kv

import (
	"context"
	"errors"
	"time"
)

// Sentinel errors.
var (
	ErrTableExists     = errors.New("kv: table already exists")
	ErrTableNotFound   = errors.New("kv: table not found")
	ErrFamilyNotFound  = errors.New("kv: column family not found")
	ErrConditionFailed = errors.New("kv: precondition failed")
	ErrInvalidArgument = errors.New("kv: invalid argument")
	ErrClosed          = errors.New("kv: store closed")
)

// MaxKeySize is the largest rowkey accepted (Bigtable's limit).
const MaxKeySize = 4096

// Timestamp is a cell version: microseconds since the Unix epoch, a multiple
// of 1000.
type Timestamp int64

// MaxTimestamp is the largest valid timestamp; as a range end it means "no bound".
const MaxTimestamp Timestamp = (1<<63 - 1) / 1000 * 1000

// Now returns the current time as a millisecond-aligned Timestamp.
func Now() Timestamp { return Timestamp(time.Now().UnixMilli() * 1000) }

// Cell is one version of one column of one row.
//
// Slices in a Cell returned by a read are owned by the store and valid only
// until the iterator moves; callers copy what they keep.
type Cell struct {
	Family    string
	Qualifier []byte
	Timestamp Timestamp
	Value     []byte
}

// Row is a rowkey and its cells, ordered by family, qualifier, timestamp desc.
type Row struct {
	Key   []byte
	Cells []Cell
}

// MutationKind says what a Mutation does.
type MutationKind uint8

const (
	// SetCell writes Value at (Family, Qualifier, Timestamp), replacing any
	// cell at exactly that version.
	SetCell MutationKind = iota
	// DeleteCells deletes the versions of (Family, Qualifier) with timestamps in
	// [Start, End). End == 0 means no upper bound.
	DeleteCells
	// DeleteFamily deletes every cell of Family in the row.
	DeleteFamily
	// DeleteRow deletes every cell of the row.
	DeleteRow
)

// Mutation is one change to one row.
type Mutation struct {
	Kind       MutationKind
	Family     string
	Qualifier  []byte
	Value      []byte
	Timestamp  Timestamp // SetCell
	Start, End Timestamp // DeleteCells
}

// Precondition is checked atomically with a RowMutation.
type Precondition uint8

const (
	// NoPrecondition applies the mutation unconditionally.
	NoPrecondition Precondition = iota
	// RequireAbsent applies only if the row has no cells (an INSERT).
	RequireAbsent
	// RequirePresent applies only if the row has at least one cell.
	RequirePresent
)

// RowMutation is a list of mutations applied atomically to one row, in order.
type RowMutation struct {
	Key       []byte
	Mutations []Mutation
	Require   Precondition
	// RequireColumn, when non-nil, narrows Require to one column: with
	// RequireAbsent the mutation applies only if that column has no live
	// cell, with RequirePresent only if it has one; other columns of the
	// row do not matter. (Bigtable: CheckAndMutateRow with a column
	// filter.) Wide-layout tables use it: one SQL row is a group of
	// qualifiers inside a kv row. A live cell is one a read would return:
	// deleted cells and cells past the family's TTL do not count (for
	// row preconditions too). It needs a Require other than
	// NoPrecondition (else ErrInvalidArgument) and an existing family
	// (else ErrFamilyNotFound).
	RequireColumn *Column
	// ReadSeq, when non-zero, is a read version (ReadVersioner) taken
	// before a read that found this row present. It is a hint for a
	// read-modify-write such as an SQL UPDATE by key: with RequirePresent
	// (and no RequireColumn), an engine that can tell that no write
	// reached the row after that version may skip re-reading the row to
	// check its presence. It never changes what the precondition means:
	// when the engine cannot tell, or the row was written since, the
	// presence check runs as without it. Engines that do not know the
	// version ignore it.
	ReadSeq uint64
}

// ReadVersioner is an optional capability of a Table, found by type
// assertion: ReadVersion returns a version at or below that of every read
// of the table that starts after the call, for RowMutation.ReadSeq. A
// wrapper whose reads are not the engine's own (a transaction's overlay)
// does not implement it.
type ReadVersioner interface {
	ReadVersion() uint64
}

// KeyRange is the rowkey interval [Start, End). A nil Start is unbounded
// below; a nil End is unbounded above.
type KeyRange struct {
	Start, End []byte
}

// RowSet selects rows: the union of Keys and Ranges. A RowSet with neither
// selects every row of the table.
type RowSet struct {
	Keys   [][]byte
	Ranges []KeyRange
}

// IsFull reports whether rs selects the whole table.
func (rs RowSet) IsFull() bool { return len(rs.Keys) == 0 && len(rs.Ranges) == 0 }

// Column names one column of a family.
type Column struct {
	Family    string
	Qualifier []byte
}

// ReadOptions shape a read. The zero value reads the latest version of every
// cell of every row in the set, in key order.
type ReadOptions struct {
	// Families, when non-empty, restricts the read to these families.
	Families []string
	// Columns, when non-empty, restricts the read to these columns (applied
	// after Families).
	Columns []Column
	// MaxVersions is the number of newest versions returned per column;
	// 0 means 1.
	MaxVersions int
	// MinTimestamp and MaxTimestamp bound cell timestamps to
	// [MinTimestamp, MaxTimestamp); MaxTimestamp 0 means no upper bound.
	MinTimestamp, MaxTimestamp Timestamp
	// Limit stops the read after this many rows; 0 means no limit.
	Limit int64
	// Reverse returns rows in descending key order.
	Reverse bool
	// Essential, when non-empty, names the families a caller needs for
	// every row (those its filter reads): the read may return rows with
	// only these families' cells, and CompleteRow adds the others' to the
	// rows the caller keeps. A hint; see lazy.go.
	Essential []string
}

// Family describes a column family and its garbage-collection policy.
type Family struct {
	Name string
	// MaxVersions kept per column; 0 means 1 (the HBase default since 0.96).
	MaxVersions int
	// TTL drops cells older than this; 0 keeps them forever.
	TTL time.Duration
	// Compression of the family's data blocks on disk: "" means the
	// engine's default (snappy for kv/lsm), "none" disables it, or
	// "snappy" or "zstd". Engines without files check the name and
	// otherwise ignore it.
	Compression string
	// Bloom is the family's bloom filter: "" or "row" (a rowkey filter per
	// file, the default) or "none". Engines without files check the name
	// and otherwise ignore it. Family.Validate rejects other values of
	// both with ErrInvalidArgument.
	Bloom string
}

// TableSpec describes a table at creation.
type TableSpec struct {
	Families []Family
	// SplitKeys pre-split the table into regions at these rowkeys.
	SplitKeys [][]byte
}

// ReadStats counts the work a read did, for EXPLAIN ANALYZE.
type ReadStats struct {
	RowsRead  int64 // rows visited by the store
	CellsRead int64 // cells visited by the store
	CacheHits int64 // rows answered from a row cache (counted in RowsRead too)
}

// Add adds o's counts to s.
func (s *ReadStats) Add(o ReadStats) {
	s.RowsRead += o.RowsRead
	s.CellsRead += o.CellsRead
	s.CacheHits += o.CacheHits
}

// RowIterator is a cursor over the rows of a read, in key order (or reverse).
//
//	it := t.Read(ctx, rs, opts)
//	defer it.Close()
//	for it.Next() { use(it.Row()) }
//	if err := it.Err(); err != nil { ... }
//
// An iterator is not safe for concurrent use. It reads a consistent snapshot
// taken when Read was called: writes applied later are not seen.
type RowIterator interface {
	// Next advances to the next row and reports whether there is one.
	Next() bool
	// Row returns the current row. The Row and every slice in it are valid
	// only until the next call to Next or Close, and read-only: an
	// iterator may build the next row on the bytes of this one (a scan
	// keeps the rowkey bytes two rows share).
	Row() Row
	// Err returns the error that ended the iteration, if any.
	Err() error
	// Stats returns the work done so far.
	Stats() ReadStats
	// Close releases the iterator. It is safe to call more than once.
	Close() error
}

// Table is one table of a Store. It is safe for concurrent use.
type Table interface {
	// Read returns an iterator over the rows selected by rs.
	Read(ctx context.Context, rs RowSet, opts ReadOptions) RowIterator
	// Apply applies the row mutations. Each RowMutation is atomic.
	// Preconditions are checked in batch order and see the effect of the
	// batch's earlier rows (two RequireAbsent puts of one key: the second
	// fails). When AtomicBatches() is true the whole batch is atomic: if a
	// precondition fails, Apply returns a *ConditionError (wrapping
	// ErrConditionFailed) and applies nothing. When it is false (Bigtable),
	// rows before the failed one may have been applied.
	//
	// Apply copies what it keeps; the caller may reuse its slices.
	Apply(ctx context.Context, batch []RowMutation) error
	// AtomicBatches reports whether Apply is all-or-nothing across rows.
	AtomicBatches() bool
}

// Store is a set of tables. It is safe for concurrent use.
type Store interface {
	// CreateTable creates a table; ErrTableExists if it exists.
	CreateTable(ctx context.Context, name string, spec TableSpec) error
	// DropTable deletes a table and its data; ErrTableNotFound if absent.
	DropTable(ctx context.Context, name string) error
	// ListTables returns the table names in sorted order.
	ListTables(ctx context.Context) ([]string, error)
	// Table returns a handle on an existing table; ErrTableNotFound if absent.
	Table(ctx context.Context, name string) (Table, error)
	// Close releases the store. Using it afterwards returns ErrClosed.
	Close() error
}

// ConditionError reports which RowMutation's precondition failed.
type ConditionError struct {
	Index int // index in the batch
	Key   []byte
}

func (e *ConditionError) Error() string { return "kv: precondition failed" }

// Unwrap lets errors.Is(err, ErrConditionFailed) match.
func (e *ConditionError) Unwrap() error { return ErrConditionFailed }

// Snapshotter is an optional capability of a Store, found by type
// assertion: reading many tables at one consistent point in time.
// Transactions use it for snapshot isolation. A store without it (Cloud
// Bigtable) gives each read its own snapshot instead.
type Snapshotter interface {
	// Snapshot pins the store's current state: reads through it see every
	// Apply that returned before the call and nothing applied after it,
	// for as long as the snapshot is held. The caller must Release it.
	Snapshot(ctx context.Context) (Snapshot, error)
}

// Snapshot is a pinned, read-only view of a Store. It is safe for
// concurrent use; Release ends it, after which reads return ErrClosed.
type Snapshot interface {
	// Read is Table.Read on the named table as of the snapshot. A table
	// created after the snapshot, or unknown, gives an iterator whose Err
	// wraps ErrTableNotFound.
	Read(ctx context.Context, table string, rs RowSet, opts ReadOptions) RowIterator
	// Release unpins the snapshot. It is safe to call more than once.
	Release()
}

// Admin is an optional capability of a Store, found by type assertion:
// region layout and family changes of existing tables (Bigtable: the table
// admin API). kv/lsm and kv/memstore implement it.
type Admin interface {
	// Regions describes the table's regions in key order.
	Regions(ctx context.Context, table string) ([]RegionInfo, error)
	// Split adds region boundaries at keys (in any order; a key that is
	// already a boundary is ignored; an empty key or one longer than
	// MaxKeySize is ErrInvalidArgument). Data does not move: the new
	// regions share the old files until compaction. The boundaries
	// survive a restart of a durable engine.
	Split(ctx context.Context, table string, keys [][]byte) error
	// SetFamilies adds the families not yet in the table and changes the
	// options (MaxVersions, TTL, Compression, Bloom) of those that are,
	// matched by name. Families not listed are kept unchanged. A lower
	// MaxVersions or TTL applies to reads at once; which hidden versions a
	// higher one shows again is engine-defined (none the engine has
	// already dropped). Bad options are ErrInvalidArgument.
	SetFamilies(ctx context.Context, table string, fams []Family) error
}

// RegionInfo describes one region of a table: a rowkey range with its own
// files, and its load.
type RegionInfo struct {
	ID         uint64
	Start, End []byte // [Start, End); nil is unbounded
	// Rows is approximate (row entries known to the engine); Bytes is the
	// size of the region's data (files on disk, or memory for memstore).
	Rows, Bytes int64
	// Reads counts rows read and Writes row mutations applied since the
	// store opened (or the region was split off).
	Reads, Writes int64
	// ReadRate and WriteRate are recent rates per second (exponentially
	// decayed over about a minute).
	ReadRate, WriteRate float64
	// Files is the number of files over all families (0 for memstore).
	Files int
}

// Flusher is an optional capability of a Store, found by type assertion:
// Flush writes every memtable that holds data when it is called to files,
// so that the write-ahead log holds nothing that is not also in a file
// (SQL CHECKPOINT). kv/lsm implements it; an engine without a log of its
// own (kv/memstore, Bigtable) has nothing to flush.
type Flusher interface {
	Flush(ctx context.Context) error
}

// MultiReader is an optional capability of a Table: several reads over one
// consistent snapshot, each with its own iterator. A salted table reads
// its N buckets this way and merges them in key order.
type MultiReader interface {
	ReadMulti(ctx context.Context, sets []RowSet, opts ReadOptions) []RowIterator
}
