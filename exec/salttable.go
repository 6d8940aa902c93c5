package exec

import (
	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/planner"
)

// newSaltTable adapts a salted table (see layoutTable): TODO(salt).
func newSaltTable(desc *planner.TableDesc, t kv.Table) kv.Table { return t }
