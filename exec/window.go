package exec

import (
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
)

// window computes window functions over its input.
func (x *executor) window(p *planner.Window, in operator) (operator, error) {
	return nil, pgerror.Unimplemented("window functions")
}
