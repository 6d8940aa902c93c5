package kv

import (
	"bytes"
	"slices"
)

// Span is one run of rows an engine reads: the single key Start when Point,
// else the range [Start, End), where a nil Start or End is unbounded.
type Span struct {
	Start, End []byte
	Point      bool
}

// Spans normalizes rs into disjoint spans in ascending key order, appending
// to buf[:0]: overlapping and adjacent ranges are merged, duplicate keys and
// keys covered by a range are dropped, and empty ranges and keys disappear.
// A full RowSet is one unbounded span. The spans alias rs's slices; rs is
// not modified. Every engine reads a RowSet through this, so the contract's
// union semantics live in one place.
func (rs RowSet) Spans(buf []Span) []Span {
	out := buf[:0]
	if rs.IsFull() {
		return append(out, Span{})
	}
	if len(rs.Ranges) == 0 && len(rs.Keys) == 1 {
		if len(rs.Keys[0]) == 0 {
			return out
		}
		return append(out, Span{Start: rs.Keys[0], Point: true})
	}
	// Without keys the ranges are sorted and merged in out itself (no
	// allocation once buf has room); with keys they go to a list of
	// their own, merged with the keys into out below.
	var ranges []Span
	if len(rs.Keys) == 0 {
		ranges = out
	}
	for _, r := range rs.Ranges {
		if r.End == nil || bytes.Compare(r.Start, r.End) < 0 {
			ranges = append(ranges, Span{Start: r.Start, End: r.End})
		}
	}
	slices.SortFunc(ranges, func(a, b Span) int { return bytes.Compare(a.Start, b.Start) })
	merged := ranges[:0]
	for _, r := range ranges {
		if n := len(merged); n > 0 && (merged[n-1].End == nil || bytes.Compare(r.Start, merged[n-1].End) <= 0) {
			if last := &merged[n-1]; last.End != nil && (r.End == nil || bytes.Compare(r.End, last.End) > 0) {
				last.End = r.End
			}
			continue
		}
		merged = append(merged, r)
	}
	if len(rs.Keys) == 0 {
		clear(merged[len(merged):len(ranges)]) // the merged-away spans alias rs
		return merged
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
		for ; i < len(keys) && bytes.Compare(keys[i], r.Start) < 0; i++ {
			out = append(out, Span{Start: keys[i], Point: true})
		}
		for ; i < len(keys) && (r.End == nil || bytes.Compare(keys[i], r.End) < 0); i++ {
		}
		out = append(out, r)
	}
	for ; i < len(keys); i++ {
		out = append(out, Span{Start: keys[i], Point: true})
	}
	return out
}
