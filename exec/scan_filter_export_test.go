package exec

import "sync/atomic"

// FastFilters counts the scans (a parallel scan once) that ran their
// filter without eval; with NoFastFilter set they use eval instead
// (results must not change).
var (
	FastFilters  atomic.Int64
	NoFastFilter atomic.Bool
)

func init() {
	testHookFastFilter = func() bool {
		if NoFastFilter.Load() {
			return false
		}
		FastFilters.Add(1)
		return true
	}
}
