package exec

import (
	"context"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
)

// OWNER: helper "regions".

func (x *executor) regionsScan(p *planner.Scan) (operator, error) {
	return nil, pgerror.Unimplemented("widesql.regions")
}

func (x *executor) splitTable(ctx context.Context, p *planner.SplitTable) (string, []Row, error) {
	return "", nil, pgerror.Unimplemented("SPLIT TABLE")
}
