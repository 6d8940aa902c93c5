package exec

import (
	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/planner"
)

// layoutTable wraps a table's kv handle in the adapters of its physical
// design, so that every operator above reads and writes "tall" rows keyed
// by the unsalted SQL rowkey:
//
//	operators ─► wideTable (Layout wide: SQL row = qualifier group) ─► saltTable (salt byte) ─► kv
//
// Both adapters translate RowSets and mutations on the way down and rows on
// the way up; neither buffers more than one kv row (wide) or one row per
// bucket (salt).
func layoutTable(desc *planner.TableDesc, t kv.Table) kv.Table {
	if desc.SaltBuckets > 0 {
		t = newSaltTable(desc, t)
	}
	if desc.Layout == planner.LayoutWide {
		t = newWideTable(desc, t)
	}
	return t
}
