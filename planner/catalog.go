package planner

import (
	"encoding/binary"
	"fmt"

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
}

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
}

// KeyColumn is one rowkey column: an index into Columns and its order.
type KeyColumn struct {
	Col  int  `json:"col"`
	Desc bool `json:"desc,omitempty"`
}

// FamilyDesc describes a column family.
type FamilyDesc struct {
	Name        string `json:"name"`
	MaxVersions int    `json:"max_versions,omitempty"`
}

// IsKey reports whether the column is part of the rowkey.
func (c *ColumnDesc) IsKey() bool { return c.KeyPos >= 0 }

// Qualifier returns the column's cell qualifier: its id as a uvarint, one
// byte for the first 127 columns.
func (c *ColumnDesc) Qualifier() []byte {
	return binary.AppendUvarint(nil, uint64(c.ID))
}

// ColumnIndex returns the index of the named column, or -1.
func (t *TableDesc) ColumnIndex(name string) int {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return i
		}
	}
	return -1
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
