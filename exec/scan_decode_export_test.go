package exec

import "sync/atomic"

// RawFilterScans and RawAggScans count the scans (a parallel scan's
// workers each once) that judged rows on their raw cells and the
// partial aggregations that folded rows in raw (scan_decode.go,
// scan_decode_agg.go); with NoRawDecode set they take the general path
// instead (results must not change).
var (
	RawFilterScans, RawAggScans atomic.Int64
	NoRawDecode                 atomic.Bool
)

func init() {
	testHookRawDecode = func(agg bool) bool {
		if NoRawDecode.Load() {
			return false
		}
		if agg {
			RawAggScans.Add(1)
		} else {
			RawFilterScans.Add(1)
		}
		return true
	}
}
