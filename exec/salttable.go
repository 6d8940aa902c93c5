package exec

import (
	"bytes"
	"container/heap"
	"context"
	"errors"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/keyenc"
)

// A salted table (WITH (salt_buckets = N)) prefixes every kv rowkey with
// one byte, SaltOf(key, N), the bucket of the unsalted key, and is pre-split
// at every bucket, so monotonically increasing keys spread over N regions
// (seed 002's "加盐"). saltTable hides the byte from everything above it:
//
//   - a key is read and written at salt(key) ++ key: a point Get stays one
//     Get, because the bucket is a function of the whole key;
//   - a range [S, E) can hold keys of every bucket: it becomes N ranges
//     b ++ S .. b ++ E, read over one snapshot (kv.MultiReader) and merged
//     back into unsalted key order, so ORDER BY on the key needs no sort;
//   - rows come back with the byte stripped.
type saltTable struct {
	kv.Table
	n int
}

func newSaltTable(desc *planner.TableDesc, t kv.Table) kv.Table {
	return &saltTable{Table: t, n: desc.SaltBuckets}
}

// SaltOf is the salt byte of an unsalted rowkey in a table of n buckets:
// FNV-1a (32 bits) of the key, modulo n. It is part of the on-disk format.
func SaltOf(key []byte, n int) byte {
	h := uint32(2166136261)
	for _, c := range key {
		h ^= uint32(c)
		h *= 16777619
	}
	return byte(h % uint32(n))
}

func salted(b byte, key []byte) []byte {
	out := make([]byte, 0, len(key)+1)
	return append(append(out, b), key...)
}

// Apply salts every row's key. A ConditionError keeps its batch index and
// reports the unsalted key.
func (s *saltTable) Apply(ctx context.Context, batch []kv.RowMutation) error {
	out := make([]kv.RowMutation, len(batch))
	for i, m := range batch {
		m.Key = salted(SaltOf(m.Key, s.n), m.Key)
		out[i] = m
	}
	err := s.Table.Apply(ctx, out)
	var ce *kv.ConditionError
	if errors.As(err, &ce) && ce.Index >= 0 && ce.Index < len(batch) {
		return &kv.ConditionError{Index: ce.Index, Key: batch[ce.Index].Key}
	}
	return err
}

// Read splits rs by bucket and merges the buckets' rows in key order.
func (s *saltTable) Read(ctx context.Context, rs kv.RowSet, opts kv.ReadOptions) kv.RowIterator {
	sets := make([]kv.RowSet, s.n)
	for _, k := range rs.Keys {
		b := SaltOf(k, s.n)
		sets[b].Keys = append(sets[b].Keys, salted(b, k))
	}
	ranges := rs.Ranges
	if rs.IsFull() {
		ranges = []kv.KeyRange{{}}
	}
	for _, r := range ranges {
		for b := range s.n {
			sr := kv.KeyRange{Start: salted(byte(b), r.Start)}
			if r.End != nil {
				sr.End = salted(byte(b), r.End)
			} else {
				sr.End = keyenc.PrefixEnd([]byte{byte(b)})
			}
			sets[b].Ranges = append(sets[b].Ranges, sr)
		}
	}
	var used []kv.RowSet
	for _, set := range sets {
		if !set.IsFull() { // IsFull here means empty: nothing of this bucket
			used = append(used, set)
		}
	}
	if len(used) == 0 {
		return &emptyIter{}
	}
	return mergeReads(ctx, s.Table, used, opts, func(k []byte) []byte { return k[1:] }, true)
}

// ReadMulti reads several row sets over one snapshot, each merged over the
// buckets.
func (s *saltTable) ReadMulti(ctx context.Context, sets []kv.RowSet, opts kv.ReadOptions) []kv.RowIterator {
	out := make([]kv.RowIterator, len(sets))
	for i, rs := range sets {
		out[i] = s.Read(ctx, rs, opts)
	}
	return out
}

// mergeReads reads every set from t (over one snapshot when t is a
// kv.MultiReader) and merges the rows in the order of strip(key), which
// also becomes the key callers see when stripKey is set. opts.Limit bounds
// each read and the merged result.
func mergeReads(ctx context.Context, t kv.Table, sets []kv.RowSet, opts kv.ReadOptions, strip func([]byte) []byte, stripKey bool) kv.RowIterator {
	var its []kv.RowIterator
	if mr, ok := t.(kv.MultiReader); ok && len(sets) > 1 {
		its = mr.ReadMulti(ctx, sets, opts)
	} else {
		for _, set := range sets {
			its = append(its, t.Read(ctx, set, opts))
		}
	}
	return &mergeIter{its: its, strip: strip, stripKey: stripKey, reverse: opts.Reverse, limit: opts.Limit}
}

// mergeIter merges row iterators whose rows are each in strip(key) order.
// An input is advanced only after its current row was returned and the
// caller moved on, so every returned row stays valid until the next Next.
type mergeIter struct {
	its      []kv.RowIterator
	strip    func([]byte) []byte
	stripKey bool
	reverse  bool
	limit    int64
	emitted  int64

	h       mergeHeap
	started bool
	last    int // input whose row was returned last; -1 none
	row     kv.Row
	err     error
	closed  bool
}

type mergeHeap struct {
	items   []mergeItem
	reverse bool
}

type mergeItem struct {
	key []byte // stripped key of the input's current row
	idx int
}

func (h *mergeHeap) Len() int { return len(h.items) }
func (h *mergeHeap) Less(i, j int) bool {
	c := bytes.Compare(h.items[i].key, h.items[j].key)
	if h.reverse {
		return c > 0
	}
	return c < 0
}
func (h *mergeHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *mergeHeap) Push(x any)    { h.items = append(h.items, x.(mergeItem)) }
func (h *mergeHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

// advance moves input i and pushes its next row, if any.
func (m *mergeIter) advance(i int) bool {
	it := m.its[i]
	if it.Next() {
		heap.Push(&m.h, mergeItem{key: m.strip(it.Row().Key), idx: i})
		return true
	}
	if err := it.Err(); err != nil {
		m.err = err
		return false
	}
	return true
}

func (m *mergeIter) Next() bool {
	if m.err != nil || m.closed || (m.limit > 0 && m.emitted >= m.limit) {
		return false
	}
	if !m.started {
		m.started, m.last = true, -1
		m.h.reverse = m.reverse
		for i := range m.its {
			if !m.advance(i) {
				return false
			}
		}
	} else if m.last >= 0 {
		if !m.advance(m.last) {
			return false
		}
	}
	if m.h.Len() == 0 {
		m.last = -1
		return false
	}
	top := heap.Pop(&m.h).(mergeItem)
	m.last = top.idx
	m.row = m.its[top.idx].Row()
	if m.stripKey {
		m.row.Key = top.key
	}
	m.emitted++
	return true
}

func (m *mergeIter) Row() kv.Row { return m.row }
func (m *mergeIter) Err() error  { return m.err }

func (m *mergeIter) Stats() kv.ReadStats {
	var st kv.ReadStats
	for _, it := range m.its {
		s := it.Stats()
		st.Add(s)
	}
	return st
}

func (m *mergeIter) Close() error {
	if m.closed {
		return nil
	}
	m.closed = true
	var first error
	for _, it := range m.its {
		if err := it.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// emptyIter is a read that selects nothing.
type emptyIter struct{}

func (*emptyIter) Next() bool          { return false }
func (*emptyIter) Row() kv.Row         { return kv.Row{} }
func (*emptyIter) Err() error          { return nil }
func (*emptyIter) Stats() kv.ReadStats { return kv.ReadStats{} }
func (*emptyIter) Close() error        { return nil }
