package sstable

import "bytes"

// IndexPoint is one data block as the index block describes it: Sep is
// its separator (every key of the block is <= Sep, every key of the next
// block is > Sep), End the file offset where the block and its trailer
// end. The bytes between the End of two points are the data between
// their separators.
type IndexPoint struct {
	Sep []byte
	End int64
}

// SampleIndex returns at most n points of the data blocks that may hold
// keys in [lo, hi) (nil: unbounded), evenly spaced in block order and
// always including the last such block, and start, the offset where the
// first such block begins: the data of the blocks in range lies between
// start and the last point's End. It reads only the index decoded at
// Open. The Sep slices alias the Reader's index: they are valid while the
// Reader is open and must not be modified. Splitting a table into pieces
// of equal bytes uses it (kv.Splitter).
func (r *Reader) SampleIndex(lo, hi []byte, n int, dst []IndexPoint) (start int64, pts []IndexPoint) {
	x := &r.index
	pts = dst[:0]
	from, to := 0, x.len()
	if lo != nil {
		from = x.seekGE(lo)
	}
	if hi != nil {
		// The first block whose separator is >= hi may still hold keys
		// below hi.
		to = min(x.seekGE(hi)+1, to)
	}
	if from >= to || n <= 0 || (hi != nil && (bytes.Compare(hi, r.meta.Smallest) <= 0 || (lo != nil && bytes.Compare(lo, hi) >= 0))) {
		return 0, pts
	}
	start = int64(x.handles[from].Offset)
	m := to - from
	if n > m {
		n = m
	}
	for k := 1; k <= n; k++ {
		i := from + k*m/n - 1
		h := x.handles[i]
		pts = append(pts, IndexPoint{Sep: x.key(i), End: int64(h.Offset + h.Length + trailerLen)})
	}
	return start, pts
}
