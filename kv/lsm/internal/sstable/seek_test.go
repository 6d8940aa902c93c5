package sstable

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSeekReusesPosition checks that SeekGE on an iterator already
// positioned (its seek within the loaded block, stepping forward from the
// current entry) lands where SeekGE on a fresh iterator lands, for
// random sequences of mostly ascending seeks (a multi-get), interleaved
// with Next, Prev, SeekLT, First and Last, over tables with small and
// default blocks.
func TestSeekReusesPosition(t *testing.T) {
	for _, blockSize := range []int{256, 4096} {
		for seed := range uint64(6) {
			rng := rand.New(rand.NewPCG(seed, uint64(blockSize)))
			entries := randomEntries(rng, 200+rng.IntN(2000))
			f, _ := writeTable(t, entries, WriterOptions{BlockSize: blockSize})
			r := openTable(t, f, NewCache(1<<20))
			it := r.NewIter()
			// target returns a key near an existing one: equal, just
			// below, or just above.
			target := func() []byte {
				k := slices.Clone(entries[rng.IntN(len(entries))].k)
				switch rng.IntN(3) {
				case 0:
					k[len(k)-1]--
				case 1:
					k = append(k, 0)
				}
				return k
			}
			var last []byte
			for op := range 3000 {
				var desc string
				var want int // index into entries; len(entries) or -1: invalid
				switch c := rng.IntN(20); {
				case c < 12: // mostly forward from the last seek
					k := target()
					if last != nil && rng.IntN(2) == 0 && bytes.Compare(k, last) < 0 {
						k = last
					}
					last = k
					desc = "SeekGE"
					it.SeekGE(k)
					want, _ = slices.BinarySearchFunc(entries, k, func(e kv, k []byte) int { return bytes.Compare(e.k, k) })
				case c < 15:
					desc = "Next"
					want = posOf(t, entries, it) + 1
					it.Next()
				case c < 17:
					desc = "Prev"
					want = posOf(t, entries, it) - 1
					it.Prev()
				case c < 18:
					k := target()
					desc = "SeekLT"
					it.SeekLT(k)
					want, _ = slices.BinarySearchFunc(entries, k, func(e kv, k []byte) int { return bytes.Compare(e.k, k) })
					want--
				case c < 19:
					desc = "First"
					it.First()
					want = 0
				default:
					desc = "Last"
					it.Last()
					want = len(entries) - 1
				}
				valid := want >= 0 && want < len(entries)
				if it.Valid() != valid {
					t.Fatalf("block %d seed %d op %d %s: valid %v, want %v (err %v)", blockSize, seed, op, desc, it.Valid(), valid, it.Err())
				}
				if valid && (!bytes.Equal(it.Key(), entries[want].k) || !bytes.Equal(it.Value(), entries[want].v)) {
					t.Fatalf("block %d seed %d op %d %s: at %x, want %x", blockSize, seed, op, desc, it.Key(), entries[want].k)
				}
				if !valid {
					last = nil
					if rng.IntN(2) == 0 {
						it.First()
					}
				}
			}
			if err := it.Close(); err != nil {
				t.Fatal(err)
			}
			r.Close()
		}
	}
}

// posOf returns the index of it's current entry in entries; an invalid
// iterator gives -3, so that Next and Prev from it expect invalid.
func posOf(t *testing.T, entries []kv, it *Iter) int {
	if !it.Valid() {
		return -3
	}
	i, ok := slices.BinarySearchFunc(entries, it.Key(), func(e kv, k []byte) int { return bytes.Compare(e.k, k) })
	if !ok {
		t.Fatalf("iterator at %x, not an entry", it.Key())
	}
	return i
}
