package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// OWNER: helper "time" (versions, AS OF, write time, cells view).

// timeView returns the descriptor of cells.<base> or versions.<base>.
func timeView(kind string, base *TableDesc) (*TableDesc, error) {
	return nil, pgerror.Unimplemented(kind + " views")
}

// asOf returns t read as of the AS OF TIMESTAMP clause.
func (b *builder) asOf(t *TableDesc, n *ast.AsOfClause) (*TableDesc, error) {
	return nil, pgerror.Unimplemented("AS OF TIMESTAMP")
}
