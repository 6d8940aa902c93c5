package lsm

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"testing"
)

// TestMemIterSeekModel compares memIter against a sorted slice of the
// memtable's keys under random SeekGE, First, SeekLT and Next, bounded
// (a row) and not, on one iterator reused across resets (so its buffer
// is as large as a scan left it, or as small as a Get's): seeks forward
// within the copied entries and past them, back before the current
// entry, below and past the bound, to a column's end (the reader's skip
// past a column's versions). The memtable grows between operations, as
// under a concurrent writer: entries inserted after the iterator's reset
// are newer than its read and skipped, as the reader skips them by
// sequence number, so the iterator must serve exactly the entries of the
// reset's time in order, whichever of the later ones it also shows.
func TestMemIterSeekModel(t *testing.T) {
	for seed := range uint64(10) {
		rng := rand.New(rand.NewPCG(seed, 11))
		m := newMemtable()
		var keys [][]byte // every key in m, sorted
		n := 0            // keys added so far, for unique versions
		add := func(k int) {
			var es []entry
			for range k {
				row := rng.IntN(8)
				if rng.IntN(3) == 0 {
					row = 3 // a hot row
				}
				n++
				key := fmt.Appendf(nil, "r%d/c%d/%06d", row, rng.IntN(4), n)
				es = append(es, entry{key: key, value: fmt.Appendf(nil, "%d", n)})
				i, _ := slices.BinarySearchFunc(keys, key, bytes.Compare)
				keys = slices.Insert(keys, i, key)
			}
			m.add(es, uint64(n), 1)
		}
		add(100 + rng.IntN(600))
		it := newMemIter(m)
		for round := range 200 {
			var bound []byte
			if rng.IntN(2) == 0 {
				bound = fmt.Appendf(nil, "r%d/", rng.IntN(9))
			}
			it.reset(m, bound)
			n0 := n // entries numbered above are newer than the read
			isNew := func() bool {
				v, _ := strconv.Atoi(string(it.Value()))
				return v > n0
			}
			// The reference: the keys of the reset's time within bound.
			var ref [][]byte
			for _, k := range keys {
				if bound == nil || bytes.HasPrefix(k, bound) {
					ref = append(ref, k)
				}
			}
			// at is the reference's position, len(ref) when exhausted.
			at := -1
			check := func(op string) {
				t.Helper()
				for it.Valid() && isNew() {
					it.Next()
				}
				switch {
				case at < len(ref) && !it.Valid():
					t.Fatalf("seed %d round %d bound %q: after %s: exhausted, want %q", seed, round, bound, op, ref[at])
				case at == len(ref) && it.Valid():
					t.Fatalf("seed %d round %d bound %q: after %s: at %q, want exhausted", seed, round, bound, op, it.Key())
				case at < len(ref) && !bytes.Equal(it.Key(), ref[at]):
					t.Fatalf("seed %d round %d bound %q: after %s: at %q, want %q", seed, round, bound, op, it.Key(), ref[at])
				}
			}
			target := func() []byte {
				switch rng.IntN(6) {
				case 0: // an existing key, maybe beyond the bound
					if len(keys) > 0 {
						return keys[rng.IntN(len(keys))]
					}
				case 1: // a few entries ahead of the current one
					if at >= 0 && at < len(ref) {
						return ref[min(at+rng.IntN(20), len(ref)-1)]
					}
				case 2: // a column's end, as the reader's skip
					return fmt.Appendf(nil, "r%d/c%d/\xff", rng.IntN(9), rng.IntN(5))
				case 3: // between keys
					if at >= 0 && at < len(ref) {
						return append(slices.Clone(ref[min(at+rng.IntN(300), len(ref)-1)]), 0)
					}
				case 4: // the bound's end, or past every key
					if bound != nil {
						return append(slices.Clone(bound[:len(bound)-1]), '0')
					}
					return []byte("s")
				}
				return fmt.Appendf(nil, "r%d/", rng.IntN(9)) // a row's start
			}
			for op := range 1 + rng.IntN(40) {
				if at >= 0 && rng.IntN(8) == 0 {
					add(1 + rng.IntN(8))
				}
				switch r := rng.IntN(10); {
				case op == 0 || r == 0:
					it.First()
					at = 0
					check("First")
				case r < 7:
					k := target()
					it.SeekGE(k)
					at = sort.Search(len(ref), func(i int) bool { return bytes.Compare(ref[i], k) >= 0 })
					check(fmt.Sprintf("SeekGE(%q)", k))
				case r == 7:
					k := target()
					if bound != nil {
						// A bounded SeekLT serves a reverse Get, which
						// seeks at most to the row's end (above it,
						// memIter finds the key before and, that being
						// out of bound, nothing).
						if end := append(slices.Clone(bound[:len(bound)-1]), '0'); bytes.Compare(k, end) > 0 {
							k = end
						}
					}
					it.SeekLT(k)
					// SeekLT may land on a newer entry, which the
					// reader would skip backwards: compare only
					// when it lands on an old one.
					at = sort.Search(len(ref), func(i int) bool { return bytes.Compare(ref[i], k) >= 0 }) - 1
					if at < 0 {
						if it.Valid() && !isNew() {
							t.Fatalf("seed %d round %d: SeekLT(%q) at %q, want none", seed, round, k, it.Key())
						}
						at = -1
						continue
					}
					if it.Valid() && isNew() {
						at = -1
						continue
					}
					check(fmt.Sprintf("SeekLT(%q)", k))
				default:
					if at < 0 || at == len(ref) {
						continue
					}
					for range 1 + rng.IntN(40) {
						if at == len(ref) {
							break
						}
						it.Next()
						at++
						check("Next")
					}
				}
			}
			it.Close()
		}
	}
}
