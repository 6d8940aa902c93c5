package planner

import "github.com/widesql/widesql/pgwire/pgerror"

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
	case "", "public":
		return b.cat.Table(name)
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
