package planner

import (
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/sqlparse"
)

// OWNER: helper "infoschema".

func (b *builder) commentStmt(s *sqlparse.CommentStmt) (Plan, error) {
	return nil, pgerror.Unimplemented("COMMENT ON")
}
