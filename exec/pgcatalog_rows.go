package exec

import (
	"context"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/syscat"
)

// OWNER: helper "pgcatalog" (rows of the pg_catalog relations).

// pgCatalogRows derives the rows of a pg_catalog relation.
func (x *executor) pgCatalogRows(ctx context.Context, rel *syscat.Relation) ([]Row, error) {
	return nil, pgerror.Unimplemented("pg_catalog." + rel.Name)
}
