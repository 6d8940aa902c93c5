package planner

import (
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/syscat"
	"github.com/widesql/widesql/sqlparse"
)

// commentStmt plans COMMENT ON TABLE / COLUMN. The table and column must
// exist now (42P01, 42703, as PostgreSQL checks them); system relations
// and the cells/versions views have no descriptor to hold a comment.
func (b *builder) commentStmt(s *sqlparse.CommentStmt) (Plan, error) {
	switch s.Schema {
	case "", "public":
	case syscat.PgCatalog, syscat.InformationSchema, SchemaCells, SchemaVersions, SchemaWidesql:
		if _, err := b.lookupTable(s.Schema, s.Table); err != nil {
			return nil, err
		}
		return nil, pgerror.New(pgerror.CodeFeatureNotSupported, "cannot comment on system relation \"%s.%s\"", s.Schema, s.Table)
	default:
		return nil, pgerror.New(pgerror.CodeInvalidSchemaName, "schema %q does not exist", s.Schema)
	}
	if s.Schema == "" && syscat.Lookup(syscat.PgCatalog, s.Table) != nil {
		// pg_catalog is searched first, as for any other statement.
		return nil, pgerror.New(pgerror.CodeFeatureNotSupported, "cannot comment on system relation \"%s.%s\"", syscat.PgCatalog, s.Table)
	}
	t, err := b.cat.Table(s.Table)
	if err != nil {
		return nil, err
	}
	p := &CommentOn{Table: t.Name, Column: s.Col, Text: s.Text}
	if _, err := p.Apply(t); err != nil {
		return nil, err
	}
	return p, nil
}
