package exec

import (
	"context"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
)

// OWNER: helper "families".

func (x *executor) alterTable(ctx context.Context, p *planner.AlterTable) (string, []Row, error) {
	return "", nil, pgerror.Unimplemented("ALTER TABLE")
}

func (x *executor) showCreateTable(p *planner.ShowCreateTable) (operator, error) {
	return nil, pgerror.Unimplemented("SHOW CREATE TABLE")
}
