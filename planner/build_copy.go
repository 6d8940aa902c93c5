package planner

import (
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/sqlparse"
)

// OWNER: helper "copy".

func (b *builder) copyStmt(s *sqlparse.CopyStmt) (Plan, error) {
	return nil, pgerror.Unimplemented("COPY")
}
