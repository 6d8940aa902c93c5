package exec

import (
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
)

// OWNER: helper "time".

func (x *executor) timeViewScan(p *planner.Scan) (operator, error) {
	return nil, pgerror.Unimplemented(p.Table.Virtual + " views")
}
