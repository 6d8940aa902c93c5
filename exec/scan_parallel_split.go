package exec

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/bits"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/planner"
)

// A parallel scan's pieces are key ranges of about equal size. A store
// that knows where its data lies cuts them (kv.Splitter: kv/lsm from its
// files' index blocks, Bigtable from SampleRowKeys), balancing the bytes
// of the families the scan reads for every row. Otherwise they are cut
// between the table's first and last rowkeys by interpolating the bytes
// after their common prefix, as if keys were spread evenly. Either way
// there are several pieces per worker, handed out in key order, so a
// slower piece (skewed keys, a cold block cache) does not leave a core
// idle at the end of the scan.

// piecesPerWorker is how many pieces a parallel scan cuts per worker:
// the last piece to finish leaves the other workers idle for up to its
// length, so pieces are short; each costs an iterator and a seek.
const piecesPerWorker = 8

// minPieceBytes is the least data a piece cut by the store holds: a
// smaller table is cut into fewer pieces, or read serially (see
// pieceKeys).
const minPieceBytes = 64 << 10

// pieceKeys returns the split keys of a parallel scan of t (whose live
// table is base) in n pieces, or none for a serial read; fromStore
// reports that the store cut them. The store's keys need no read; the
// fallback probes the table's first rows and its last (tableBounds).
func pieceKeys(base, t kv.Table, desc *planner.TableDesc, families []string, n int) (keys [][]byte, fromStore bool) {
	if sp, ok := base.(kv.Splitter); ok {
		keys, err := sp.SplitKeys(context.Background(), kv.KeyRange{}, n,
			kv.SplitOptions{Families: families, MinPieceBytes: minPieceBytes})
		if err == nil && len(keys) > 0 {
			return keys, true
		}
		// No keys: too little data in files for two pieces, or most of
		// it in memtables. The probe decides by rows.
	}
	first, last, ok := tableBounds(t, desc)
	if !ok {
		return nil, false
	}
	return splitKeys(first, last, n), false
}

// minParallelRows is the fewest rows a table needs for a parallel scan:
// below it, starting workers costs more than they save (PostgreSQL's
// min_parallel_table_scan_size plays this part).
const minParallelRows = 4096

// tableBounds returns the first and last rowkeys of t, reading the
// marker column of the first minParallelRows rows and of the last row;
// ok is false for a table smaller than that, or on an error, when the
// caller reads serially.
func tableBounds(t kv.Table, desc *planner.TableDesc) (first, last []byte, ok bool) {
	opts := kv.ReadOptions{
		Families: []string{desc.MarkerFamily},
		Columns:  []kv.Column{{Family: desc.MarkerFamily, Qualifier: planner.MarkerQualifier}},
		Limit:    minParallelRows,
	}
	it := t.Read(context.Background(), kv.RowSet{}, opts)
	n := 0
	for ; it.Next(); n++ {
		if n == 0 {
			first = bytes.Clone(it.Row().Key)
		}
	}
	it.Close()
	if n < minParallelRows {
		return nil, nil, false
	}
	opts.Limit, opts.Reverse = 1, true
	it = t.Read(context.Background(), kv.RowSet{}, opts)
	if it.Next() {
		last = bytes.Clone(it.Row().Key)
	}
	it.Close()
	if last == nil || bytes.Compare(first, last) >= 0 {
		return nil, nil, false
	}
	return first, last, true
}

// splitKeys returns up to n-1 increasing keys strictly between lo and hi
// (lo < hi), cutting [lo, hi] into n pieces of about equal width when
// the keys' 8 bytes after their common prefix are read as a number.
func splitKeys(lo, hi []byte, n int) [][]byte {
	c := 0
	for c < len(lo) && c < len(hi) && lo[c] == hi[c] {
		c++
	}
	word := func(k []byte) uint64 {
		var b [8]byte
		if c < len(k) {
			copy(b[:], k[c:])
		}
		return binary.BigEndian.Uint64(b[:])
	}
	a, b := word(lo), word(hi)
	if b <= a {
		return nil
	}
	var out [][]byte
	for i := 1; i < n; i++ {
		// a + (b-a)*i/n without overflow.
		h, l := bits.Mul64(b-a, uint64(i))
		q, _ := bits.Div64(h, l, uint64(n))
		w := a + q
		key := make([]byte, c+8)
		copy(key, lo[:c])
		binary.BigEndian.PutUint64(key[c:], w)
		if bytes.Compare(key, lo) <= 0 || bytes.Compare(key, hi) > 0 {
			continue
		}
		if len(out) > 0 && bytes.Compare(key, out[len(out)-1]) <= 0 {
			continue
		}
		out = append(out, key)
	}
	return out
}

// pieceSets turns split keys into the row sets of the pieces, in key
// order, covering the whole key space: [nil, k1), [k1, k2), ..., [kn, nil).
func pieceSets(keys [][]byte) []kv.RowSet {
	sets := make([]kv.RowSet, 0, len(keys)+1)
	var start []byte
	for _, k := range keys {
		sets = append(sets, kv.RowSet{Ranges: []kv.KeyRange{{Start: start, End: k}}})
		start = k
	}
	// An unbounded range with a nil Start would be IsFull: give the last
	// piece an explicit Start (there is at least one key).
	return append(sets, kv.RowSet{Ranges: []kv.KeyRange{{Start: start}}})
}
