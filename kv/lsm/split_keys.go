package lsm

import (
	"bytes"
	"context"
	"slices"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
	"github.com/widesql/widesql/kv/lsm/internal/sstable"
)

var _ kv.Splitter = (*Table)(nil)

// samplesPerCut is how many index points per requested piece SplitKeys
// takes from each file: enough that a cut lands within a small fraction
// of a piece of its target, few enough to cost well under a millisecond.
const samplesPerCut = 32

// splitPoint is a sampled block: bytes of data ending just before key
// (nil: the end of the span).
type splitPoint struct {
	key   []byte
	bytes int64
}

// SplitKeys implements kv.Splitter from what the engine keeps in memory:
// the regions overlapping span and, in each, its files' index blocks (a
// block's separator and its size on disk), sampled evenly. Files a split
// shares between regions are clipped to each region, so their blocks
// count once. A region's memtables are not sampled (their keys are not
// indexed): their bytes are spread over the region's sampled blocks, or
// placed at its end if it has no file; when the memtables hold more than
// the files, SplitKeys returns no keys (the caller cuts its own pieces).
func (h *Table) SplitKeys(ctx context.Context, span kv.KeyRange, n int, opts kv.SplitOptions) ([][]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if n < 2 || (span.Start != nil && span.End != nil && bytes.Compare(span.Start, span.End) >= 0) {
		return nil, nil
	}
	s, t := h.s, h.t
	type regionSample struct {
		rs         regionSnap
		start, end []byte // the region clipped to span
		mem        int64
	}
	var regs []regionSample
	var memBytes, fileBytes int64
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, kv.ErrClosed
	}
	if t.dropped {
		s.mu.Unlock()
		return nil, errorf("table %q: %w", t.name, kv.ErrTableNotFound)
	}
	var mask []bool // nil: every family
	if len(opts.Families) > 0 {
		fs := t.families()
		mask = make([]bool, len(fs.fams))
		for _, f := range opts.Families {
			if i, ok := fs.idx[f]; ok {
				mask[i] = true
			}
		}
	}
	for _, r := range t.regions {
		if span.End != nil && r.start != nil && bytes.Compare(r.start, span.End) >= 0 {
			break
		}
		if span.Start != nil && r.end != nil && bytes.Compare(r.end, span.Start) <= 0 {
			continue
		}
		rg := regionSample{rs: s.snapRegion(r, mask), start: r.start, end: r.end}
		if span.Start != nil && (rg.start == nil || bytes.Compare(span.Start, rg.start) > 0) {
			rg.start = span.Start
		}
		if span.End != nil && (rg.end == nil || bytes.Compare(span.End, rg.end) < 0) {
			rg.end = span.End
		}
		rg.mem = r.state.mem.size.Load()
		for _, m := range r.state.imms {
			rg.mem += m.size.Load()
		}
		memBytes += rg.mem
		fileBytes += r.bytes()
		regs = append(regs, rg)
	}
	s.mu.Unlock()
	defer func() {
		for _, rg := range regs {
			for _, f := range rg.rs.files {
				s.unref(f)
			}
		}
	}()
	if memBytes > fileBytes {
		return nil, nil
	}

	var pts []splitPoint
	var buf []sstable.IndexPoint
	for _, rg := range regs {
		var lo, hi []byte
		if rg.start != nil {
			lo = ikey.RowPrefix(nil, rg.start)
		}
		if rg.end != nil {
			hi = ikey.RowPrefix(nil, rg.end)
		}
		first := len(pts)
		var sampled int64
		for _, f := range rg.rs.files {
			var start int64
			start, buf = f.reader.SampleIndex(lo, hi, samplesPerCut*n, buf)
			prev := start
			for _, p := range buf {
				key := rowOfSeparator(p.Sep)
				if rg.end != nil && bytes.Compare(key, rg.end) >= 0 {
					key = rg.end // the last block reaches past the region
				}
				pts = append(pts, splitPoint{key: key, bytes: p.End - prev})
				sampled += p.End - prev
				prev = p.End
			}
		}
		switch {
		case rg.mem == 0:
		case sampled > 0:
			// Spread the memtables' bytes over the region's blocks.
			for i := first; i < len(pts); i++ {
				pts[i].bytes += pts[i].bytes * rg.mem / sampled
			}
		default:
			pts = append(pts, splitPoint{key: rg.end, bytes: rg.mem})
		}
	}
	return cutPoints(pts, span, n, opts.MinPieceBytes), nil
}

// cutPoints chooses up to n-1 keys among pts that cut their bytes into
// about equal shares of at least minPiece bytes, strictly inside span
// and strictly increasing.
func cutPoints(pts []splitPoint, span kv.KeyRange, n int, minPiece int64) [][]byte {
	var total int64
	for _, p := range pts {
		total += p.bytes
	}
	if minPiece > 0 {
		n = int(min(int64(n), total/minPiece))
	}
	if n < 2 || total == 0 {
		return nil
	}
	// A nil key is the span's end: it sorts last.
	slices.SortStableFunc(pts, func(a, b splitPoint) int {
		switch {
		case a.key == nil && b.key == nil:
			return 0
		case a.key == nil:
			return 1
		case b.key == nil:
			return -1
		}
		return bytes.Compare(a.key, b.key)
	})
	var keys [][]byte
	var cum int64
	k := 1
	for _, p := range pts {
		cum += p.bytes
		if cum*int64(n) < total*int64(k) {
			continue
		}
		// p's bytes lie before p.key: cutting there puts them in piece k.
		for k < n && cum*int64(n) >= total*int64(k) {
			k++
		}
		if len(p.key) == 0 || (span.Start != nil && bytes.Compare(p.key, span.Start) <= 0) ||
			(span.End != nil && bytes.Compare(p.key, span.End) >= 0) ||
			(len(keys) > 0 && bytes.Compare(p.key, keys[len(keys)-1]) <= 0) {
			continue
		}
		keys = append(keys, p.key)
		if k >= n {
			break
		}
	}
	return keys
}

// rowOfSeparator returns the rowkey at the start of an index separator:
// a prefix of an internal key (ikey) that a writer may have shortened
// and bumped, so its row component may be cut short or lack its
// terminator. The result sorts at or below the separator's row, which is
// all a split key needs.
func rowOfSeparator(sep []byte) []byte {
	out := make([]byte, 0, len(sep))
	for i := 0; i < len(sep); i++ {
		c := sep[i]
		if c != 0 {
			out = append(out, c)
			continue
		}
		if i+1 < len(sep) && sep[i+1] == 0xff {
			out = append(out, 0)
			i++
			continue
		}
		if i+1 < len(sep) && sep[i+1] == 1 {
			break
		}
		// A bumped terminator (00 02..) or a separator cut after the
		// 00: the row goes on past a zero byte.
		out = append(out, 0)
		break
	}
	return out
}
