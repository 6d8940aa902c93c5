package sstable

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIndexAbbrSeekGE checks the abbreviated index search against a plain
// binary search over the same separators, for sorted key sets with long
// shared prefixes, keys shorter than the prefix + 8 bytes, runs of equal
// abbreviations and targets inside, between and outside the keys.
func TestIndexAbbrSeekGE(t *testing.T) {
	alphabet := []byte{0, 1, 2, 0x7f, 0x80, 0xfe, 0xff}
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 7))
		randBytes := func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
			return b
		}
		prefix := randBytes(rng.IntN(12))
		n := 1 + rng.IntN(60)
		set := map[string]bool{}
		var keys [][]byte
		for len(keys) < n {
			k := append(slices.Clone(prefix), randBytes(rng.IntN(14))...)
			if rng.IntN(4) == 0 && len(keys) > 0 {
				// a long shared tail: equal abbreviations, differing later
				k = append(slices.Clone(keys[rng.IntN(len(keys))]), randBytes(1+rng.IntN(3))...)
			}
			if !set[string(k)] {
				set[string(k)] = true
				keys = append(keys, k)
			}
		}
		slices.SortFunc(keys, bytes.Compare)
		var x decodedIndex
		for _, k := range keys {
			x.keys = append(x.keys, k...)
			x.ends = append(x.ends, uint32(len(x.keys)))
		}
		x.buildAbbr()
		targets := [][]byte{nil, {}, prefix, append(slices.Clone(prefix), 0xff, 0xff)}
		for _, k := range keys {
			targets = append(targets, k, k[:rng.IntN(len(k)+1)], append(slices.Clone(k), 0), append(slices.Clone(k), randBytes(3)...))
		}
		for range 50 {
			targets = append(targets, append(slices.Clone(prefix[:rng.IntN(len(prefix)+1)]), randBytes(rng.IntN(12))...))
		}
		for _, target := range targets {
			want, _ := slices.BinarySearchFunc(keys, target, bytes.Compare)
			if got := x.seekGE(target); got != want {
				t.Fatalf("seed %d: seekGE(%x) over %d keys with prefix %x = %d, want %d", seed, target, n, x.ab.prefix, got, want)
			}
		}
	}
}

// BenchmarkIndexSeekGE is the index search of a point read in a large
// table: 40 files' indexes of 10,000 kv-shaped separators each (a 10^7-row
// table's), a random file and row per seek, so most probes miss the CPU
// caches as they do in a server. "full" is the plain binary search over
// whole keys the abbreviated search replaced.
func BenchmarkIndexSeekGE(b *testing.B) {
	const files, perFile = 40, 10_000
	xs := make([]decodedIndex, files)
	for f := range xs {
		for i := range perFile {
			row := f*perFile*25 + i*25
			sep := cellKey(kvRow(row/1000+1, row%1000+1), []byte("d"), []byte{1}, 7, 1, 1)
			xs[f].keys = append(xs[f].keys, sep...)
			xs[f].ends = append(xs[f].ends, uint32(len(xs[f].keys)))
		}
		xs[f].buildAbbr()
	}
	seeks := make([][]byte, 1<<16)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range seeks {
		row := rng.IntN(files * perFile * 25)
		k := cellKey(kvRow(row/1000+1, row%1000+1), nil, nil, 0, 0, 0)
		seeks[i] = k[:len(k)-4-17]
	}
	for _, full := range []bool{true, false} {
		b.Run(map[bool]string{true: "full", false: "abbr"}[full], func(b *testing.B) {
			i := 0
			for b.Loop() {
				k := seeks[i&(len(seeks)-1)]
				x := &xs[(i*7919)%files]
				if full {
					x.seekGEFull(k, 0, x.len())
				} else {
					x.seekGE(k)
				}
				i++
			}
		})
	}
}
