package planner

import (
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/syscat"
)

// System schemas. Their relations are views the planner makes up from the
// catalog (TableDesc.Virtual); exec produces their rows.
const (
	SchemaCells    = VirtualCells    // cells.<table>: the raw cells of a table
	SchemaVersions = VirtualVersions // versions.<table>: a table's row versions
	SchemaWidesql  = "widesql"       // widesql.regions
)

// lookupTable resolves a possibly schema-qualified relation name.
func (b *builder) lookupTable(schema, name string) (*TableDesc, error) {
	switch schema {
	case "":
		// pg_catalog is searched first, as PostgreSQL's search_path does
		// implicitly.
		if r := syscat.Lookup(syscat.PgCatalog, name); r != nil {
			return catalogView(r), nil
		}
		return b.cat.Table(name)
	case "public":
		return b.cat.Table(name)
	case syscat.PgCatalog, syscat.InformationSchema:
		if r := syscat.Lookup(schema, name); r != nil {
			return catalogView(r), nil
		}
	case SchemaCells, SchemaVersions:
		base, err := b.cat.Table(name)
		if err != nil {
			return nil, err
		}
		return timeView(schema, base) // build_time.go
	case SchemaWidesql:
		if name == "regions" {
			return regionsView(), nil // build_regions.go
		}
	}
	return nil, pgerror.New(pgerror.CodeUndefinedTable, "relation \"%s.%s\" does not exist", schema, name)
}

// catalogView is the descriptor of a pg_catalog or information_schema
// relation: no rowkey, every read a scan of rows exec derives from the
// live catalog.
func catalogView(r *syscat.Relation) *TableDesc {
	t := &TableDesc{ID: r.OID, Name: r.Name, Virtual: VirtualCatalog, Sys: r}
	for i, c := range r.Columns {
		t.Columns = append(t.Columns, ColumnDesc{ID: uint32(i + 1), Name: c.Name, Type: c.Type, KeyPos: -1})
	}
	t.NextColumnID = uint32(len(t.Columns) + 1)
	return t
}
