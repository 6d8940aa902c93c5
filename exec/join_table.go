package exec

import (
	"github.com/widesql/widesql/exec/spill"
)

// joinEntryOverhead approximates what the table spends per row besides the
// row itself: its hash, chain link, bucket slot and matched flag.
const joinEntryOverhead = 32

// joinNoChain marks a row kept in the table but in no chain: a row with a NULL
// key, which matches nothing but is still emitted by RIGHT and FULL joins.
const joinNoChain = -2

// joinTable is the in-memory hash table of a hash join's build side. Each
// stored row holds the right row's columns followed by its key values
// (computed once). Rows with equal hashes are chained: buckets holds the
// head of each chain plus one (0: empty) and next the following row (-1:
// end). Every row's memory is reserved in the budget; reset releases it.
type joinTable struct {
	budget  *spill.Budget
	rows    []Row
	hashes  []uint64
	next    []int32
	buckets []int32
	matched []bool // per row, for RIGHT and FULL joins
	// reserved is the memory reserved for the rows.
	reserved int64
}

// joinEntrySize is the memory a stored row is charged.
func joinEntrySize(row Row) int64 { return spill.RowSize(row) + joinEntryOverhead }

// add stores row (which the table now owns, its memory already reserved
// as joinEntrySize(row)) with hash h; chained is false for a NULL key.
func (t *joinTable) add(row Row, h uint64, chained bool) {
	t.reserved += joinEntrySize(row)
	t.rows = append(t.rows, row)
	t.hashes = append(t.hashes, h)
	t.matched = append(t.matched, false)
	if !chained {
		t.next = append(t.next, joinNoChain)
		return
	}
	t.next = append(t.next, -1)
	if len(t.rows) > len(t.buckets) {
		t.rehash(max(2*len(t.buckets), 64))
		return
	}
	t.link(int32(len(t.rows) - 1))
}

func (t *joinTable) link(i int32) {
	b := t.hashes[i] & uint64(len(t.buckets)-1)
	t.next[i] = t.buckets[b] - 1
	t.buckets[b] = i + 1
}

// rehash rebuilds the chains over n buckets (a power of two).
func (t *joinTable) rehash(n int) {
	if cap(t.buckets) >= n {
		t.buckets = t.buckets[:n]
		clear(t.buckets)
	} else {
		t.buckets = make([]int32, n)
	}
	for i := range t.rows {
		if t.next[i] != joinNoChain {
			t.link(int32(i))
		}
	}
}

// head returns the first row of h's chain, or -1. Rows of other hashes
// share chains: callers compare hashes.
func (t *joinTable) head(h uint64) int32 {
	if len(t.buckets) == 0 {
		return -1
	}
	return t.buckets[h&uint64(len(t.buckets)-1)] - 1
}

// filter keeps the rows for which keep returns true, releasing the others'
// memory.
func (t *joinTable) filter(keep func(row Row, h uint64) (bool, error)) error {
	n := 0
	for i, r := range t.rows {
		ok, err := keep(r, t.hashes[i])
		if err != nil {
			return err
		}
		if !ok {
			sz := joinEntrySize(r)
			t.reserved -= sz
			t.budget.Shrink(sz)
			continue
		}
		t.rows[n], t.hashes[n], t.next[n], t.matched[n] = r, t.hashes[i], t.next[i], t.matched[i]
		n++
	}
	clear(t.rows[n:])
	t.rows, t.hashes, t.next, t.matched = t.rows[:n], t.hashes[:n], t.next[:n], t.matched[:n]
	t.rehash(max(len(t.buckets), 64))
	return nil
}

// reset empties the table and releases its memory.
func (t *joinTable) reset() {
	t.budget.Shrink(t.reserved)
	t.reserved = 0
	t.rows, t.hashes, t.next, t.buckets, t.matched = nil, nil, nil, nil, nil
}
