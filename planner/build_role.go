package planner

import (
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/sqlparse"
)

// OWNER: helper "auth".

func (b *builder) roleStmt(s *sqlparse.RoleStmt) (Plan, error) {
	return nil, pgerror.Unimplemented("CREATE ROLE")
}
