package planner

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/widesql/widesql/planner/syscat"
	"github.com/widesql/widesql/planner/types"
)

// DefaultFamily is the family of columns declared without a "fam." prefix.
// It is one letter, as the seeds advise: the family name is stored with
// every cell.
const DefaultFamily = "d"

// MarkerQualifier is the qualifier of the empty cell every row carries in its
// table's marker family, so that a row whose non-key columns are all NULL
// still exists (Phoenix's "empty column"). Column qualifiers start at 1.
var MarkerQualifier = []byte{0}

// TableDesc describes a SQL table: its columns, its rowkey and its families.
// A TableDesc is immutable once published; DDL builds a new one.
type TableDesc struct {
	ID      uint32       `json:"id"`
	Name    string       `json:"name"`
	Columns []ColumnDesc `json:"columns"`
	// Key lists the rowkey columns in rowkey order.
	Key []KeyColumn `json:"key"`
	// Families lists the column families; MarkerFamily is the one holding
	// the row marker cell.
	Families     []FamilyDesc `json:"families"`
	MarkerFamily string       `json:"marker_family"`
	// NextColumnID is the next column id to assign (ids are never reused).
	NextColumnID uint32 `json:"next_column_id"`
	// PKName is the primary key constraint's name when one was given
	// (CONSTRAINT name PRIMARY KEY); PrimaryKeyName returns the default.
	PKName string `json:"pk_name,omitempty"`
	// ShardBits > 0 marks a table declared without a PRIMARY KEY: its rowkey
	// is the hidden int8 column RowIDColumn, whose top ShardBits bits after
	// the sign are a hash of the rest (RowID), and the kv table is pre-split
	// at every shard.
	ShardBits int `json:"shard_bits,omitempty"`
	// Indexes are the secondary indexes CREATE INDEX recorded. None is
	// built yet: queries scan.
	Indexes []IndexDesc `json:"indexes,omitempty"`
	// SaltBuckets > 0 salts the rowkey (WITH (salt_buckets = N)): every
	// kv rowkey starts with one byte, SaltOf(rest of the key), and the kv
	// table is pre-split at every bucket. The salt is not a column: the
	// planner's keys are unsalted and exec's salted kv.Table adapter adds
	// and strips the byte (reads of several buckets are merged in key order).
	SaltBuckets int `json:"salt_buckets,omitempty"`
	// Layout is LayoutTall ("", one kv row per SQL row) or LayoutWide (the
	// last key column is a qualifier prefix inside one kv row per value of
	// the other key columns).
	Layout string `json:"layout,omitempty"`
	// Virtual is set on the descriptors of system views the planner makes
	// up (never stored): VirtualCells, VirtualVersions (of Base) or
	// VirtualRegions. exec produces their rows.
	Virtual string     `json:"-"`
	Base    *TableDesc `json:"-"`
	// Sys is the system relation of a VirtualCatalog view.
	Sys *syscat.Relation `json:"-"`
	// Comment is the table's COMMENT ON TABLE text ("" for none).
	Comment string `json:"comment,omitempty"`
	// AsOf is set on the copy of a descriptor that a FROM item reading
	// AS OF TIMESTAMP gets (never stored); its scans read as of it.
	AsOf Expr `json:"-"`
	// keyExprs holds the compiled key expressions by column index
	// (CompileKeyExprs, KeyExpr).
	keyExprs map[int]Expr
}

// Table layouts (TableDesc.Layout).
const (
	LayoutTall = ""
	LayoutWide = "wide"
)

// Virtual table kinds (TableDesc.Virtual).
const (
	VirtualCells    = "cells"    // cells.<table>: one row per cell version
	VirtualVersions = "versions" // versions.<table>: one row per row version
	VirtualRegions  = "regions"  // widesql.regions: one row per region of every table
	VirtualCatalog  = "catalog"  // a pg_catalog or information_schema relation (Sys)
)

// IndexDesc is a recorded secondary index.
type IndexDesc struct {
	Name    string   `json:"name"`
	Columns []string `json:"columns"`
	Unique  bool     `json:"unique,omitempty"`
}

// SequenceDesc describes a sequence owned by a column (serial or
// identity). Its counter lives in exec's sequence table, keyed by the
// owning table and column ids, so it is dropped with the table.
type SequenceDesc struct {
	Name      string `json:"name"`
	Start     int64  `json:"start"`
	Increment int64  `json:"increment"`
	Min       int64  `json:"min"`
	Max       int64  `json:"max"`
}

// Identity kinds of ColumnDesc.Identity.
const (
	IdentityAlways    = "always"
	IdentityByDefault = "by default"
)

// ColumnDesc describes one column. Key columns live in the rowkey; the
// others are cells at (Family, Qualifier).
type ColumnDesc struct {
	ID      uint32  `json:"id"`
	Name    string  `json:"name"`
	Type    types.T `json:"type"`
	NotNull bool    `json:"not_null,omitempty"`
	// Family is empty for key columns.
	Family string `json:"family,omitempty"`
	// KeyPos is the position in the rowkey, or -1 for a non-key column.
	KeyPos int `json:"key_pos"`
	// Default is the SQL text of the column's DEFAULT expression, evaluated
	// per inserted row; "" for none. A serial column's is the PostgreSQL
	// spelling nextval('seq'::regclass), but its value comes from Seq.
	Default string `json:"default,omitempty"`
	// Identity is IdentityAlways or IdentityByDefault for GENERATED ... AS
	// IDENTITY columns, "" otherwise.
	Identity string `json:"identity,omitempty"`
	// Seq is the sequence of a serial or identity column; nil otherwise.
	Seq *SequenceDesc `json:"seq,omitempty"`
	// Hidden marks the row id column of a table without a primary key and
	// the key-expression columns: it is not in SELECT *, not insertable,
	// and ColumnIndex does not find it.
	Hidden bool `json:"hidden,omitempty"`
	// Generated is the SQL text of a key expression (PRIMARY KEY
	// ((md5(host)), ...)): the hidden key column's value is computed from
	// the row on every write. Its Name is that text.
	Generated string `json:"generated,omitempty"`
	// Comment is the column's COMMENT ON COLUMN text ("" for none).
	Comment string `json:"comment,omitempty"`
}

// KeyColumn is one rowkey column: an index into Columns and its order.
type KeyColumn struct {
	Col  int  `json:"col"`
	Desc bool `json:"desc,omitempty"`
}

// FamilyDesc describes a column family and its options (WITH (f.versions
// = 3, f.ttl = '7 days', f.compression = 'zstd', f.bloom = 'row')).
type FamilyDesc struct {
	Name        string `json:"name"`
	MaxVersions int    `json:"max_versions,omitempty"`
	// TTL hides cells older than it at once and drops them at compaction;
	// 0 keeps them.
	TTL time.Duration `json:"ttl,omitempty"`
	// Compression is "" (the engine's default), "none", "snappy" or "zstd".
	Compression string `json:"compression,omitempty"`
	// Bloom is "" (default, "row"), "row" or "none".
	Bloom string `json:"bloom,omitempty"`
}

// IsKey reports whether the column is part of the rowkey.
func (c *ColumnDesc) IsKey() bool { return c.KeyPos >= 0 }

// Qualifier returns the column's cell qualifier: its id as a uvarint, one
// byte for the first 127 columns.
func (c *ColumnDesc) Qualifier() []byte {
	return binary.AppendUvarint(nil, uint64(c.ID))
}

// ColumnIndex returns the index of the named column, or -1. Hidden
// columns have no name.
func (t *TableDesc) ColumnIndex(name string) int {
	for i := range t.Columns {
		if t.Columns[i].Name == name && !t.Columns[i].Hidden {
			return i
		}
	}
	return -1
}

// PrimaryKeyName is the name of the primary key constraint: the one given,
// or PostgreSQL's default <table>_pkey.
func (t *TableDesc) PrimaryKeyName() string {
	if t.PKName != "" {
		return t.PKName
	}
	return t.Name + "_pkey"
}

// RowIDColumn is the name of the hidden rowkey column of a table declared
// without a primary key (never resolvable by name).
const RowIDColumn = "_rowid"

// RowID returns the rowkey value of the n-th row (n >= 1) of a table with
// ShardBits > 0: n with a hash of n in the top bits below the sign, so
// consecutive inserts spread over 2^ShardBits regions. n must be below
// 2^(63-ShardBits).
func (t *TableDesc) RowID(n int64) int64 {
	shard := (uint64(n) * 0x9E3779B97F4A7C15) >> (64 - t.ShardBits)
	return int64(shard<<(63-t.ShardBits)) | n
}

// Visible returns the indexes of the columns SELECT * and RETURNING *
// show: all but the hidden row id.
func (t *TableDesc) Visible() []int {
	out := make([]int, 0, len(t.Columns))
	for i := range t.Columns {
		if !t.Columns[i].Hidden {
			out = append(out, i)
		}
	}
	return out
}

// KVName is the name of the kv table that stores this SQL table's rows.
// It is derived from the id, so a dropped and re-created name never sees
// the old data.
func (t *TableDesc) KVName() string { return fmt.Sprintf("t%d", t.ID) }

// Catalog resolves table names. exec implements it over the system table.
type Catalog interface {
	// Table returns the named table, or a 42P01 error.
	Table(name string) (*TableDesc, error)
}
