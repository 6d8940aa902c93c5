package memstore

import (
	"bytes"
	"slices"

	"github.com/widesql/widesql/kv"
)

// span is one run of rows to read: either the single key start (point) or
// the range [start, end), where a nil start or end is unbounded.
type span struct {
	start, end []byte
	point      bool
}

// spans converts rs into disjoint spans in ascending key order, appending to
// buf: overlapping and adjacent ranges are merged, duplicate keys and keys
// covered by a range are dropped, and empty ranges and keys disappear. The
// spans alias rs's slices; rs is not modified.
func spans(rs kv.RowSet, buf []span) []span {
	out := buf[:0]
	if rs.IsFull() {
		return append(out, span{})
	}
	if len(rs.Ranges) == 0 && len(rs.Keys) == 1 {
		if len(rs.Keys[0]) == 0 {
			return out
		}
		return append(out, span{start: rs.Keys[0], point: true})
	}

	var ranges []span
	for _, r := range rs.Ranges {
		if r.End == nil || bytes.Compare(r.Start, r.End) < 0 {
			ranges = append(ranges, span{start: r.Start, end: r.End})
		}
	}
	slices.SortFunc(ranges, func(a, b span) int { return bytes.Compare(a.start, b.start) })
	merged := ranges[:0]
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

	// Merge the two sorted lists, dropping keys inside a range.
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
