package kv

import (
	"bytes"
	"slices"
)

// Selects reports whether o's time range and family and column projection
// let cell c through (MaxVersions and Limit are applied by the reader). A
// MaxTimestamp of 0 or at least MaxTimestamp means no upper bound. Engines
// and overlays share it so that they project alike.
func (o *ReadOptions) Selects(c *Cell) bool {
	if c.Timestamp < o.MinTimestamp || (o.MaxTimestamp != 0 && o.MaxTimestamp < MaxTimestamp && c.Timestamp >= o.MaxTimestamp) {
		return false
	}
	if len(o.Families) > 0 && !slices.Contains(o.Families, c.Family) {
		return false
	}
	if len(o.Columns) == 0 {
		return true
	}
	for i := range o.Columns {
		if o.Columns[i].Family == c.Family && bytes.Equal(o.Columns[i].Qualifier, c.Qualifier) {
			return true
		}
	}
	return false
}
