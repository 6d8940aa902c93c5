package exec

import (
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
)

// setOp runs UNION, INTERSECT and EXCEPT.
func (x *executor) setOp(p *planner.SetOp) (operator, error) {
	return nil, pgerror.Unimplemented("UNION, INTERSECT and EXCEPT")
}
