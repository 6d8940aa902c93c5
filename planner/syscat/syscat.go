// Package syscat declares the PostgreSQL system relations widesql
// emulates, pg_catalog's and information_schema's, and the scheme that
// gives every user object a stable OID. It declares shapes only: exec
// derives the rows from the live catalog on every read (exec/pgcatalog.go,
// exec/infoschema.go), and the planner reads a Relation as a view with no
// rowkey (planner/build_virtual.go).
//
// The package is a leaf below planner so that both the planner and exec
// can use it.
package syscat

import (
	"sort"

	"github.com/widesql/widesql/planner/types"
)

// Relation is one system relation: a table of pg_catalog or
// information_schema.
type Relation struct {
	Schema  string
	Name    string
	OID     uint32 // its pg_class OID: PostgreSQL 15's for pg_catalog's
	Columns []Column
}

// Column is one column of a system relation.
type Column struct {
	Name string
	Type types.T
}

// Schema names and their pg_namespace OIDs.
const (
	PgCatalog         = "pg_catalog"
	InformationSchema = "information_schema"
	Public            = "public"

	NamespacePgCatalog         uint32 = 11
	NamespacePublic            uint32 = 2200
	NamespaceInformationSchema uint32 = 13183
)

// Lookup returns the system relation schema.name, or nil.
func Lookup(schema, name string) *Relation {
	return byName[schema+"."+name]
}

// All returns every system relation, ordered by schema and name.
func All() []*Relation { return all }

var byName, all = index(pgCatalog, informationSchema)

func index(sets ...[]*Relation) (map[string]*Relation, []*Relation) {
	m := map[string]*Relation{}
	var list []*Relation
	for _, set := range sets {
		for _, r := range set {
			m[r.Schema+"."+r.Name] = r
			list = append(list, r)
		}
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].Schema != list[j].Schema {
			return list[i].Schema < list[j].Schema
		}
		return list[i].Name < list[j].Name
	})
	return m, list
}

// User object OIDs. PostgreSQL gives user objects OIDs from 16384 up;
// widesql derives them from the table's catalog id, so they are stable
// across restarts and never reused while the table lives: table id n owns
// the block [FirstUserOID + n*BlockSize, +BlockSize).
const (
	FirstUserOID uint32 = 16384
	BlockSize    uint32 = 1024

	SlotTable        = 0   // pg_class relkind 'r'
	SlotRowType      = 1   // pg_type of the table's row type (reltype)
	SlotPKIndex      = 2   // pg_class relkind 'i' + pg_index of the primary key
	SlotPKConstraint = 3   // pg_constraint contype 'p'
	SlotIndexes      = 4   // secondary index i: index 4+2i, its constraint 5+2i
	maxIndexes       = 126 // (256-4)/2
	SlotSequences    = 256 // sequence of the column with id c: 256+c
	SlotAttrDefs     = 640 // pg_attrdef of the column with id c: 640+c
	maxColumnID      = 384
)

func block(tableID uint32) uint32 { return FirstUserOID + tableID*BlockSize }

// TableOID is the pg_class OID of the table with catalog id tableID.
func TableOID(tableID uint32) uint32 { return block(tableID) + SlotTable }

// RowTypeOID is the OID of the table's row type (pg_class.reltype).
func RowTypeOID(tableID uint32) uint32 { return block(tableID) + SlotRowType }

// PKIndexOID is the OID of the index that stands for the table's rowkey
// (the primary key, shown by \d as "<table>_pkey" PRIMARY KEY).
func PKIndexOID(tableID uint32) uint32 { return block(tableID) + SlotPKIndex }

// PKConstraintOID is the OID of the primary key constraint.
func PKConstraintOID(tableID uint32) uint32 { return block(tableID) + SlotPKConstraint }

// IndexOID is the OID of the table's i-th secondary index (0-based), or 0
// beyond the supported count.
func IndexOID(tableID uint32, i int) uint32 {
	if i < 0 || i >= maxIndexes {
		return 0
	}
	return block(tableID) + SlotIndexes + 2*uint32(i)
}

// IndexConstraintOID is the OID of the unique constraint of the table's
// i-th secondary index, or 0 beyond the supported count.
func IndexConstraintOID(tableID uint32, i int) uint32 {
	if o := IndexOID(tableID, i); o != 0 {
		return o + 1
	}
	return 0
}

// SequenceOID is the OID of the sequence owned by the column with id
// columnID (serial, identity), or 0 beyond the supported ids.
func SequenceOID(tableID, columnID uint32) uint32 {
	if columnID >= maxColumnID {
		return 0
	}
	return block(tableID) + SlotSequences + columnID
}

// AttrDefOID is the pg_attrdef OID of the default of the column with id
// columnID, or 0 beyond the supported ids.
func AttrDefOID(tableID, columnID uint32) uint32 {
	if columnID >= maxColumnID {
		return 0
	}
	return block(tableID) + SlotAttrDefs + columnID
}

// Decode splits a user OID into its table id and slot; ok is false for
// OIDs below FirstUserOID (system objects).
func Decode(oid uint32) (tableID, slot uint32, ok bool) {
	if oid < FirstUserOID {
		return 0, 0, false
	}
	return (oid - FirstUserOID) / BlockSize, (oid - FirstUserOID) % BlockSize, true
}
