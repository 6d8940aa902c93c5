package exec

import (
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
)

// virtualScan produces the rows of a system view (planner/build_virtual.go).
func (x *executor) virtualScan(p *planner.Scan) (operator, error) {
	switch p.Table.Virtual {
	case planner.VirtualCells, planner.VirtualVersions:
		return x.timeViewScan(p) // timeviews.go
	case planner.VirtualRegions:
		return x.regionsScan(p) // regions.go
	case planner.VirtualCatalog:
		return x.catalogScan(p) // pgcatalog.go
	}
	return nil, pgerror.New(pgerror.CodeInternalError, "unknown system view %q", p.Table.Virtual)
}
