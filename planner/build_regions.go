package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// OWNER: helper "regions" (SPLIT TABLE, SHOW TABLE REGIONS, widesql.regions).

// regionsView is the descriptor of widesql.regions.
func regionsView() *TableDesc {
	return &TableDesc{Name: "regions", Virtual: VirtualRegions}
}

func (b *builder) splitTable(n *ast.SplitRegionStmt) (Plan, error) {
	return nil, pgerror.Unimplemented("SPLIT TABLE")
}

func (b *builder) showRegions(n *ast.ShowStmt) (Plan, error) {
	return nil, pgerror.Unimplemented("SHOW TABLE REGIONS")
}
