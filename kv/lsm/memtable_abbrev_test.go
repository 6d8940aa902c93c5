package lsm

import (
	"bytes"
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// abbrevTestKeys returns distinct keys that stress the abbreviated
// compare of memTree.less: short keys (shorter than the abbreviation,
// empty), keys that are prefixes of others and differ from them only by
// trailing 0x00 bytes (equal zero-padded abbreviations), keys that share
// their first abbrevLen bytes or more and differ only after byte 8 or
// 16, and bytes drawn mostly from 0x00, 0x01, 0x7f, 0x80 and 0xff (the
// escape bytes and the sign bits of the words compared).
func abbrevTestKeys(rng *rand.Rand, n int) [][]byte {
	alphabet := []byte{0x00, 0x00, 0x01, 0x7f, 0x80, 0xff, 'a'}
	randBytes := func(l int) []byte {
		b := make([]byte, l)
		for i := range b {
			if rng.IntN(4) == 0 {
				b[i] = byte(rng.Uint32())
			} else {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		return b
	}
	bases := [][]byte{randBytes(8), randBytes(16), randBytes(24)}
	seen := map[string]bool{}
	var keys [][]byte
	add := func(k []byte) {
		if !seen[string(k)] {
			seen[string(k)] = true
			keys = append(keys, k)
		}
	}
	add([]byte{})
	for len(keys) < n {
		var k []byte
		switch rng.IntN(5) {
		case 0: // short
			k = randBytes(rng.IntN(abbrevLen + 1))
		case 1: // a shared base, then a tail: ties in the abbreviation
			base := bases[rng.IntN(len(bases))]
			k = append(slices.Clip(base[:rng.IntN(len(base)+1)]), randBytes(rng.IntN(6))...)
		case 2: // an existing key with 0x00 bytes appended or cut
			k = slices.Clone(keys[rng.IntN(len(keys))])
			if len(k) > 0 && rng.IntN(2) == 0 {
				k = k[:len(k)-1]
			} else {
				k = append(k, make([]byte, 1+rng.IntN(3))...)
			}
		case 3: // an existing key with its last byte changed
			k = slices.Clone(keys[rng.IntN(len(keys))])
			if len(k) > 0 {
				k[len(k)-1] = alphabet[rng.IntN(len(alphabet))]
			}
		default:
			k = randBytes(rng.IntN(3 * abbrevLen))
		}
		add(k)
	}
	return keys
}

// TestMemtableAbbrevOrder checks that the memtable orders keys by
// bytes.Compare whatever their abbreviations (see abbrev): inserted in a
// random order, the keys come back sorted, every search (a pivot, whose
// abbreviation is computed apart from the stored items') finds the first
// key at or after (at or before) its target, and less agrees with
// bytes.Compare on every pair of a sample, both ways.
func TestMemtableAbbrevOrder(t *testing.T) {
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(seed, 17))
		keys := abbrevTestKeys(rng, 3000)
		m := newMemtable()
		for _, i := range rng.Perm(len(keys)) {
			m.add([]entry{{key: keys[i], value: []byte{byte(i)}}}, 1, 1)
		}
		sorted := slices.Clone(keys)
		slices.SortFunc(sorted, bytes.Compare)

		var got [][]byte
		m.ascend(func(e entry) bool {
			got = append(got, e.key)
			return true
		})
		if !slices.EqualFunc(got, sorted, bytes.Equal) {
			for i := range min(len(got), len(sorted)) {
				if !bytes.Equal(got[i], sorted[i]) {
					t.Fatalf("seed %d: entry %d is %x, want %x (%d entries, want %d)",
						seed, i, got[i], sorted[i], len(got), len(sorted))
				}
			}
			t.Fatalf("seed %d: %d entries, want %d", seed, len(got), len(sorted))
		}

		// Searches for present keys and for absent ones next to them.
		targets := abbrevTestKeys(rng, 1000)
		for _, k := range keys[:500] {
			targets = append(targets, k, append(slices.Clone(k), 0), k[:len(k)/2])
		}
		for _, q := range targets {
			i, _ := slices.BinarySearchFunc(sorted, q, bytes.Compare)
			var want []byte
			if i < len(sorted) {
				want = sorted[i]
			}
			if got := m.firstAtOrAfter(q); !bytes.Equal(got, want) || (got == nil) != (want == nil) {
				t.Fatalf("seed %d: first at or after %x is %x, want %x", seed, q, got, want)
			}
			var last []byte
			m.mu.RLock()
			m.tree.DescendLessOrEqual(entry{key: q}, func(e entry) bool {
				last = e.key
				return false
			})
			m.mu.RUnlock()
			j, found := slices.BinarySearchFunc(sorted, q, bytes.Compare)
			if !found {
				j--
			}
			want = nil
			if j >= 0 {
				want = sorted[j]
			}
			if !bytes.Equal(last, want) || (last == nil) != (want == nil) {
				t.Fatalf("seed %d: last at or before %x is %x, want %x", seed, q, last, want)
			}
		}

		// less itself on stored items, pairs drawn among neighbours in
		// order (the ties) and at random.
		var tr memTree
		items := make([]mitem, len(sorted))
		for i, k := range sorted {
			items[i] = tr.store(entry{key: k})
		}
		for range 20000 {
			i := rng.IntN(len(items))
			j := rng.IntN(len(items))
			if rng.IntN(2) == 0 {
				j = min(len(items)-1, i+rng.IntN(4))
			}
			if got, want := tr.less(items[i], items[j]), i < j; got != want {
				t.Fatalf("less(%x, %x) = %v, want %v", sorted[i], sorted[j], got, want)
			}
		}
	}
}

// TestAbbrevMonotone checks the property less relies on: a key orders
// at or before another only if its abbreviation does, on keys around the
// abbreviation's length with zero bytes at the cut.
func TestAbbrevMonotone(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	keys := abbrevTestKeys(rng, 2000)
	slices.SortFunc(keys, bytes.Compare)
	for i := 1; i < len(keys); i++ {
		a, b := makeItem(keys[i-1], 0, 0, 0), makeItem(keys[i], 0, 0, 0)
		if cmpAbbrev(a, b) > 0 {
			t.Fatalf("%x < %x but its abbreviation is larger", keys[i-1], keys[i])
		}
	}
}

// cmpAbbrev compares the abbreviations of a and b.
func cmpAbbrev(a, b mitem) int {
	return cmp.Or(cmp.Compare(a.abbr0, b.abbr0), cmp.Compare(a.abbr1, b.abbr1))
}
