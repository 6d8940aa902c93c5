package sstable

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBlockSeekModel checks blockIter.seekGE and seekLT against a sorted
// slice on blocks of random keys: keys that are prefixes of others, long
// shared prefixes, byte values 00 and ff, and entries whose stored shared
// length is shorter than the longest one (a legal encoding the seek must
// not assume away), each block searched both as read and as cached with
// its restart key abbreviations.
func TestBlockSeekModel(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 7))
		alphabet := []byte{0, 1, 'a', 'b', 0xfe, 0xff}
		randKey := func() []byte {
			k := bytes.Repeat([]byte("p"), rng.IntN(3)*8)
			for range rng.IntN(12) {
				k = append(k, alphabet[rng.IntN(len(alphabet))])
			}
			return k
		}
		var keys [][]byte
		for range 1 + rng.IntN(300) {
			keys = append(keys, randKey())
		}
		slices.SortFunc(keys, bytes.Compare)
		keys = slices.CompactFunc(keys, bytes.Equal)
		bw := blockWriter{restartInterval: 1 + rng.IntN(20)}
		var prev []byte
		for j, k := range keys {
			shared := commonPrefix(k, prev)
			if rng.IntN(4) == 0 {
				shared = rng.IntN(shared + 1) // shorter than possible
			}
			bw.addShared(k, []byte{byte(j), byte(j >> 8)}, shared)
			prev = k
		}
		data := slices.Clone(bw.finish())
		for _, cached := range []bool{false, true} {
			var it blockIter
			if cached {
				if err := it.initCached(newCachedBlock(data)); err != nil {
					t.Fatal(err)
				}
			} else if err := it.init(data); err != nil {
				t.Fatal(err)
			}
			for range 500 {
				target := randKey()
				if rng.IntN(2) == 0 {
					target = slices.Clone(keys[rng.IntN(len(keys))])
					switch rng.IntN(3) {
					case 0:
						target = append(target, alphabet[rng.IntN(len(alphabet))])
					case 1:
						target = target[:rng.IntN(len(target)+1)]
					}
				}
				want, _ := slices.BinarySearchFunc(keys, target, bytes.Compare)
				ok := it.seekGE(target)
				if ok != (want < len(keys)) || ok && (!bytes.Equal(it.key, keys[want]) || int(it.val[0])|int(it.val[1])<<8 != want) {
					t.Fatalf("seed %d cached %v: seekGE(%x) = %v %x, want #%d of %d", seed, cached, target, ok, it.key, want, len(keys))
				}
				if ok {
					// The iterator continues from the position found.
					for j := want + 1; j < min(want+20, len(keys)); j++ {
						if !it.next() || !bytes.Equal(it.key, keys[j]) {
							t.Fatalf("seed %d: next after seekGE(%x) = %x, want %x", seed, target, it.key, keys[j])
						}
					}
				}
				ok = it.seekLT(target)
				if ok != (want > 0) || ok && !bytes.Equal(it.key, keys[want-1]) {
					t.Fatalf("seed %d cached %v: seekLT(%x) = %v %x, want #%d", seed, cached, target, ok, it.key, want-1)
				}
				if it.err != nil {
					t.Fatal(it.err)
				}
			}
		}
	}
}
