package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/sqlparse"
)

// OWNER: helper "families" (ALTER TABLE, SHOW CREATE TABLE).

func (b *builder) alterTable(n *ast.AlterTableStmt, stmt *sqlparse.Statement) (Plan, error) {
	return nil, pgerror.Unimplemented("ALTER TABLE")
}

func (b *builder) alterOptions(a *sqlparse.AlterOptions) (Plan, error) {
	return nil, pgerror.Unimplemented("ALTER TABLE SET")
}

func (b *builder) showCreateTable(n *ast.ShowStmt) (Plan, error) {
	return nil, pgerror.Unimplemented("SHOW CREATE TABLE")
}
