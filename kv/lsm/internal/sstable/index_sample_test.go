package sstable

import (
	"bytes"
	"fmt"
	"testing"
)

// TestSampleIndex checks SampleIndex against the file it samples: points
// come in key order with growing offsets, at most n of them, the last is
// the last block in range, every key in [lo, hi) lies in a sampled span,
// and the offsets cover the file's data blocks.
func TestSampleIndex(t *testing.T) {
	var entries []kv
	for i := range 5000 {
		entries = append(entries, kv{cellKey(fmt.Appendf(nil, "row%05d", i), []byte("f"), []byte("q"), 1, 1, 1),
			bytes.Repeat([]byte{byte(i)}, 40)})
	}
	f, _ := writeTable(t, entries, WriterOptions{BlockSize: 1 << 10, Compression: Snappy})
	r := openTable(t, f, nil)
	defer r.Close()
	nblocks := r.index.len()
	if nblocks < 100 {
		t.Fatalf("%d blocks, want many", nblocks)
	}
	key := func(i int) []byte { return entries[i].k }
	cases := []struct {
		lo, hi []byte
		n      int
	}{
		{nil, nil, 1}, {nil, nil, 7}, {nil, nil, 1 << 20},
		{key(1000), key(2000), 5}, {key(1000), nil, 3}, {nil, key(10), 4},
		{key(4999), nil, 4}, {[]byte("s"), nil, 4}, {nil, []byte("a"), 4}, {key(7), key(7), 4},
	}
	for _, c := range cases {
		start, pts := r.SampleIndex(c.lo, c.hi, c.n, nil)
		// Which entries are in range, by the keys themselves.
		var in []int
		for i := range entries {
			if (c.lo == nil || bytes.Compare(key(i), c.lo) >= 0) && (c.hi == nil || bytes.Compare(key(i), c.hi) < 0) {
				in = append(in, i)
			}
		}
		if len(in) == 0 {
			if len(pts) != 0 {
				t.Errorf("%q..%q: %d points for an empty range", c.lo, c.hi, len(pts))
			}
			continue
		}
		if len(pts) == 0 || len(pts) > c.n {
			t.Fatalf("%q..%q n=%d: %d points", c.lo, c.hi, c.n, len(pts))
		}
		if c.lo == nil && c.hi == nil && c.n >= nblocks && len(pts) != nblocks {
			t.Errorf("whole file, n=%d: %d points, want every block (%d)", c.n, len(pts), nblocks)
		}
		prev := start
		for i, p := range pts {
			if p.End <= prev || (i > 0 && bytes.Compare(p.Sep, pts[i-1].Sep) <= 0) {
				t.Fatalf("%q..%q: point %d (%q at %d) not after the previous (at %d)", c.lo, c.hi, i, p.Sep, p.End, prev)
			}
			prev = p.End
		}
		// The sampled spans cover every key in range: the first key in
		// range is in the first block (at or after start), the last is <=
		// the last point's separator.
		if last := pts[len(pts)-1]; bytes.Compare(key(in[len(in)-1]), last.Sep) > 0 {
			t.Errorf("%q..%q: last key in range %q is past the last point %q", c.lo, c.hi, key(in[len(in)-1]), last.Sep)
		}
		if first := r.index.seekGE(key(in[0])); int64(r.index.handles[first].Offset) < start {
			t.Errorf("%q..%q: first key in range is in a block before start %d", c.lo, c.hi, start)
		}
		if c.lo == nil && c.hi == nil {
			h := r.index.handles[nblocks-1]
			if start != 0 || prev != int64(h.Offset+h.Length+trailerLen) {
				t.Errorf("whole file: start %d end %d, want 0 and the end of the last block", start, prev)
			}
		}
	}
}
