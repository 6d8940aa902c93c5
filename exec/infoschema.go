package exec

import (
	"context"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/syscat"
)

// OWNER: helper "infoschema" (rows of the information_schema relations).

// infoSchemaRows derives the rows of an information_schema relation.
func (x *executor) infoSchemaRows(ctx context.Context, rel *syscat.Relation) ([]Row, error) {
	return nil, pgerror.Unimplemented("information_schema." + rel.Name)
}
