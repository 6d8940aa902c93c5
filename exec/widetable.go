package exec

import (
	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/planner"
)

// newWideTable adapts a wide-layout table (see layoutTable): TODO(wide).
func newWideTable(desc *planner.TableDesc, t kv.Table) kv.Table { return t }
