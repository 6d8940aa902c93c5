package sstable

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNextFastPathBlocks checks Iter.Next's in-block step (decoded in
// Next itself, iter.go) against blockIter.next, the general decoder, on
// well-formed blocks (restart intervals 1, 2 and 16; keys and values with
// one- and multi-byte lengths, so both paths run) and on the same blocks
// with random bytes flipped or cut: the same entries come out in the same
// order, and a malformed entry stops both, as an error for the Iter,
// never a panic.
func TestNextFastPathBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	// A one-block table gives the Iter a Reader and index; the test
	// swaps the loaded block's bytes for its own.
	f, _ := writeTable(t, []kv{{[]byte("a"), []byte("1")}}, WriterOptions{})
	r := openTable(t, f, nil)
	defer r.Close()
	for round := range 400 {
		interval := []int{1, 2, 16}[round%3]
		block := randomBlock(rng, interval, 1+rng.IntN(60))
		if round >= 30 {
			block = slices.Clone(block)
			switch rng.IntN(3) {
			case 0:
				block[rng.IntN(len(block))] ^= 1 << rng.IntN(8)
			case 1:
				block[rng.IntN(len(block))] = byte(rng.IntN(256))
			default:
				// Cut an entry short but keep a restart array.
				cut := rng.IntN(len(block))
				block = append(block[:cut:cut], 0, 0, 0, 0)
			}
		}
		want, wantErr := scanBlockIter(block)
		got, gotErr := scanIterNext(t, r, block)
		if !slices.EqualFunc(got, want, func(a, b kv) bool { return bytes.Equal(a.k, b.k) && bytes.Equal(a.v, b.v) }) {
			t.Fatalf("round %d: Iter.Next read %d entries, blockIter.next %d (or different ones)", round, len(got), len(want))
		}
		if (gotErr != nil) != wantErr {
			t.Fatalf("round %d: Iter error %v, blockIter error %v", round, gotErr, wantErr)
		}
		if gotErr != nil {
			wantCorruption(t, gotErr, fmt.Sprintf("round %d", round))
		}
	}
}

// randomBlock builds a block of n sorted entries whose keys share
// prefixes of any length with their predecessors; some keys' unshared
// parts and some values are 128 bytes or longer (multi-byte lengths).
func randomBlock(rng *rand.Rand, interval, n int) []byte {
	keys := make([][]byte, 0, n)
	for len(keys) < n {
		k := fmt.Appendf(nil, "row%03d/f/q%d", rng.IntN(40), rng.IntN(4))
		if rng.IntN(15) == 0 {
			k = append(k, bytes.Repeat([]byte{'x'}, 128+rng.IntN(40))...)
		}
		k = append(k, byte(rng.IntN(3)))
		keys = append(keys, k)
	}
	slices.SortFunc(keys, bytes.Compare)
	keys = slices.CompactFunc(keys, bytes.Equal)
	b := blockWriter{restartInterval: interval}
	for i, k := range keys {
		v := fmt.Appendf(nil, "v%d", i)
		if rng.IntN(10) == 0 {
			v = bytes.Repeat(v, 60)
		}
		b.add(k, v)
	}
	return slices.Clone(b.finish())
}

// scanBlockIter reads block forward with blockIter.next.
func scanBlockIter(block []byte) ([]kv, bool) {
	var it blockIter
	if it.init(block) != nil {
		return nil, true
	}
	var out []kv
	for ok := it.first(); ok; ok = it.next() {
		out = append(out, kv{slices.Clone(it.key), slices.Clone(it.val)})
	}
	return out, it.err != nil
}

// scanIterNext reads block forward with Iter.Next, as the data block of
// r's only index entry.
func scanIterNext(t *testing.T, r *Reader, block []byte) ([]kv, error) {
	it := r.NewIter()
	defer it.Close()
	if !it.First() {
		t.Fatal("fixture table is empty", it.Err())
	}
	if err := it.data.init(block); err != nil {
		return nil, r.corrupt(int64(it.dataOff), err.Error())
	}
	if !it.data.first() {
		if it.data.err != nil {
			return nil, r.corrupt(int64(it.dataOff), it.data.err.Error())
		}
		return nil, nil
	}
	var out []kv
	for ok := true; ok; ok = it.Next() {
		out = append(out, kv{slices.Clone(it.Key()), slices.Clone(it.Value())})
	}
	if it.Err() == nil && it.data.err != nil {
		t.Fatal("a block error was not reported by Err")
	}
	if it.Next() {
		t.Fatal("Next after the end moved")
	}
	return out, it.Err()
}

// TestNextFastPathThenSeek mixes Next (the in-block fast path and block
// boundaries) with SeekGE, SeekLT and Prev over a table of many small
// blocks, against the sorted entries.
func TestNextFastPathThenSeek(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	entries := randomEntries(rng, 3000)
	f, _ := writeTable(t, entries, WriterOptions{BlockSize: 512})
	r := openTable(t, f, NewCache(1<<20))
	defer r.Close()
	it := r.NewIter()
	defer it.Close()
	pos := -1 // index in entries; -1 or len(entries): unpositioned
	check := func(op string, ok bool) {
		t.Helper()
		if want := pos >= 0 && pos < len(entries); ok != want || it.Valid() != want {
			t.Fatalf("%s: positioned %v, want %v (pos %d): %v", op, ok, want, pos, it.Err())
		}
		if ok && (!bytes.Equal(it.Key(), entries[pos].k) || !bytes.Equal(it.Value(), entries[pos].v)) {
			t.Fatalf("%s: at %q, want %q", op, it.Key(), entries[pos].k)
		}
	}
	for range 2000 {
		switch op := rng.IntN(10); {
		case op < 2:
			target := entries[rng.IntN(len(entries))].k
			if rng.IntN(2) == 0 {
				target = append(slices.Clone(target), 0) // between entries
			}
			pos, _ = slices.BinarySearchFunc(entries, target, func(e kv, k []byte) int { return bytes.Compare(e.k, k) })
			check("SeekGE", it.SeekGE(target))
		case op == 2:
			target := entries[rng.IntN(len(entries))].k
			i, _ := slices.BinarySearchFunc(entries, target, func(e kv, k []byte) int { return bytes.Compare(e.k, k) })
			pos = i - 1
			check("SeekLT", it.SeekLT(target))
		case op == 3:
			if pos < 0 || pos >= len(entries) {
				continue
			}
			pos--
			check("Prev", it.Prev())
		default:
			// A run of Nexts, across restart points and blocks.
			for range 1 + rng.IntN(40) {
				if pos < 0 || pos >= len(entries) {
					break
				}
				pos++
				check("Next", it.Next())
			}
		}
	}
}
