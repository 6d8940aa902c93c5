package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// setOpStmt plans UNION, INTERSECT and EXCEPT, with their ORDER BY and
// LIMIT. outer is the enclosing scope (correlation and CTE names).
func (b *builder) setOpStmt(n *ast.SetOprStmt, outer *scope) (Plan, error) {
	return nil, pgerror.Unimplemented("UNION, INTERSECT and EXCEPT")
}
