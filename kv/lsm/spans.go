package lsm

import (
	"bytes"
	"slices"

	"github.com/widesql/widesql/kv"
)

// span is one run of rows to read: the single key start (point) or the
// range [start, end), where a nil start or end is unbounded.
type span struct {
	start, end []byte
	point      bool
}

// spans converts rs into disjoint spans in ascending order: ranges sorted
// and merged, keys deduplicated and dropped when a range covers them, empty
// ranges and keys removed. The spans alias rs.
func spans(rs kv.RowSet) []span {
	if rs.IsFull() {
		return []span{{}}
	}
	var ranges []span
	for _, r := range rs.Ranges {
		if r.End == nil || bytes.Compare(r.Start, r.End) < 0 {
			ranges = append(ranges, span{start: r.Start, end: r.End})
		}
	}
	slices.SortFunc(ranges, func(a, b span) int { return bytes.Compare(a.start, b.start) })
	var merged []span
	for _, r := range ranges {
		if n := len(merged); n > 0 && (merged[n-1].end == nil || bytes.Compare(r.start, merged[n-1].end) <= 0) {
			if last := &merged[n-1]; last.end != nil && (r.end == nil || bytes.Compare(r.end, last.end) > 0) {
				last.end = r.end
			}
			continue
		}
		merged = append(merged, r)
	}
	keys := make([][]byte, 0, len(rs.Keys))
	for _, k := range rs.Keys {
		if len(k) > 0 {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, bytes.Compare)
	keys = slices.CompactFunc(keys, bytes.Equal)
	out := make([]span, 0, len(keys)+len(merged))
	i := 0
	for _, r := range merged {
		for ; i < len(keys) && bytes.Compare(keys[i], r.start) < 0; i++ {
			out = append(out, span{start: keys[i], point: true})
		}
		for ; i < len(keys) && (r.end == nil || bytes.Compare(keys[i], r.end) < 0); i++ {
		}
		out = append(out, r)
	}
	for ; i < len(keys); i++ {
		out = append(out, span{start: keys[i], point: true})
	}
	return out
}
