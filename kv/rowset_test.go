package kv

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSpansMatchesUnion checks RowSet.Spans against the RowSet's meaning,
// key by key over a small key space: a key is in a span exactly when it
// is one of the keys or in one of the ranges (the empty key is no row).
// The spans must be sorted and disjoint, ranges neither overlapping nor
// adjacent, and the answer must not depend on the buffer passed in, which
// the test leaves with the spans of the read before (a reader's pooled
// buffer).
func TestSpansMatchesUnion(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var universe [][]byte
	for a := range 6 {
		universe = append(universe, []byte{'a' + byte(a)})
		for b := range 6 {
			universe = append(universe, []byte{'a' + byte(a), 'a' + byte(b)})
		}
	}
	pick := func() []byte { return universe[rng.IntN(len(universe))] }
	var buf []Span
	for i := range 3000 {
		var rs RowSet
		for range rng.IntN(4) {
			rs.Keys = append(rs.Keys, pick())
		}
		if rng.IntN(10) == 0 {
			rs.Keys = append(rs.Keys, []byte{})
		}
		for range rng.IntN(5) {
			r := KeyRange{Start: pick(), End: pick()}
			if rng.IntN(8) == 0 {
				r.Start = nil
			}
			if rng.IntN(8) == 0 {
				r.End = nil
			}
			rs.Ranges = append(rs.Ranges, r)
		}
		fresh := rs.Spans(nil)
		buf = rs.Spans(buf) // on the last iteration's spans
		if !slices.EqualFunc(fresh, buf, func(a, b Span) bool {
			return bytes.Equal(a.Start, b.Start) && bytes.Equal(a.End, b.End) && a.Point == b.Point
		}) {
			t.Fatalf("%d: %+v: with a used buffer %v, fresh %v", i, rs, buf, fresh)
		}
		if rs.IsFull() {
			if len(fresh) != 1 || fresh[0].Start != nil || fresh[0].End != nil || fresh[0].Point {
				t.Fatalf("%d: full RowSet: %v", i, fresh)
			}
			continue
		}
		for j := 1; j < len(fresh); j++ {
			prev, cur := fresh[j-1], fresh[j]
			end := prev.End
			if prev.Point {
				end = append(slices.Clip(prev.Start), 0) // the key's successor
			}
			if end == nil || bytes.Compare(end, cur.Start) > 0 || (!prev.Point && !cur.Point && bytes.Equal(end, cur.Start)) {
				t.Fatalf("%d: %+v: spans %d and %d overlap or touch: %v", i, rs, j-1, j, fresh)
			}
		}
		for _, k := range universe {
			want := slices.ContainsFunc(rs.Keys, func(x []byte) bool { return bytes.Equal(x, k) })
			for _, r := range rs.Ranges {
				want = want || (bytes.Compare(k, r.Start) >= 0 && (r.End == nil || bytes.Compare(k, r.End) < 0))
			}
			got := slices.ContainsFunc(fresh, func(s Span) bool {
				if s.Point {
					return bytes.Equal(s.Start, k)
				}
				return bytes.Compare(k, s.Start) >= 0 && (s.End == nil || bytes.Compare(k, s.End) < 0)
			})
			if got != want {
				t.Fatalf("%d: %+v: key %q in spans %v: %v, want %v", i, rs, k, fresh, got, want)
			}
		}
	}
}

// TestSpansNoAllocRanges checks that ranges without keys are normalized
// in the buffer, without allocating, once it has room.
func TestSpansNoAllocRanges(t *testing.T) {
	rs := RowSet{Ranges: []KeyRange{{Start: []byte("c"), End: []byte("d")}, {Start: []byte("a"), End: []byte("b")}}}
	buf := rs.Spans(nil)
	if n := testing.AllocsPerRun(100, func() { buf = rs.Spans(buf) }); n != 0 {
		t.Fatalf("%v allocations", n)
	}
	if len(buf) != 2 || string(buf[0].Start) != "a" || string(buf[1].Start) != "c" {
		t.Fatalf("spans %v", buf)
	}
}
