package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/widesql/widesql/planner/syscat"
)

// Attnums returns the pg_attribute.attnum clients see for each column:
// its 1-based position among the visible columns, 0 for a hidden one.
// The catalog relations, RowDescription and information_schema all number
// columns with it.
func (t *TableDesc) Attnums() []int16 {
	out := make([]int16, len(t.Columns))
	n := int16(0)
	for i := range t.Columns {
		if !t.Columns[i].Hidden {
			n++
			out[i] = n
		}
	}
	return out
}

// RelationOID is the pg_class OID of a table or system relation as
// clients see it; 0 for the other made-up views (cells., versions.,
// widesql.regions), which pg_class does not list.
func (t *TableDesc) RelationOID() uint32 {
	switch {
	case t.Sys != nil:
		return t.Sys.OID
	case t.Virtual == "":
		return syscat.TableOID(t.ID)
	}
	return 0
}

// sourceColumn fills rc's TableID and ColumnAttr when the output is a
// table column read as is (a star expansion or a bare column reference),
// as PostgreSQL's RowDescription reports them: JDBC's ResultSetMetaData
// asks the catalog about that column (nullability, table name).
func (sc *scope) sourceColumn(rc *ResultColumn, slot int) {
	if slot < 0 || slot >= len(sc.cols) {
		return
	}
	c := &sc.cols[slot]
	if c.rel == nil || c.rel.table == nil || c.merged {
		return
	}
	t := c.rel.table
	if c.col < 0 || c.col >= len(t.Columns) {
		return
	}
	if oid, attr := t.RelationOID(), t.Attnums()[c.col]; oid != 0 && attr != 0 {
		rc.TableID, rc.ColumnAttr = oid, attr
	}
}

// sourceOfExpr is sourceColumn for a select-list expression: only a bare
// column name of this query level has a source.
func (sc *scope) sourceOfExpr(rc *ResultColumn, e ast.ExprNode) {
	cn, ok := e.(*ast.ColumnNameExpr)
	if !ok || cn.Name.Schema.O != "" {
		return
	}
	slot, err := sc.resolve(cn.Name.Name.O, cn.Name.Table.O)
	if err != nil {
		return
	}
	sc.sourceColumn(rc, slot)
}

// hasSchemaTable reports whether schema.table names a FROM item of sc or
// an enclosing level that is that relation under its own name, so that
// schema.table.column resolves as table.column (SQLAlchemy writes
// pg_catalog.pg_class.relname).
func (sc *scope) hasSchemaTable(schema, table string) bool {
	for s := sc; s != nil; s = s.outer {
		for _, r := range s.rels {
			t := r.table
			if t == nil || r.alias != t.Name || t.Name != table {
				continue
			}
			switch {
			case t.Sys != nil && t.Sys.Schema == schema:
				return true
			case t.Virtual == "" && schema == syscat.Public:
				return true
			}
		}
	}
	return false
}
