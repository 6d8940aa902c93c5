package sstable

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestPrefixCompression writes 100k cells whose keys share 40-byte
// rowkeys (10 cells a row) and checks that, without block compression,
// the file is far smaller than the raw key bytes.
func TestPrefixCompression(t *testing.T) {
	var entries []kv
	for row := range 10_000 {
		rk := fmt.Appendf(nil, "tenant-0042/table-0007/pk-%014d", row) // 40 bytes
		if len(rk) != 40 {
			t.Fatalf("rowkey is %d bytes", len(rk))
		}
		for q := range 10 {
			entries = append(entries, kv{cellKey(rk, []byte("f"), fmt.Appendf(nil, "col%d", q), 7, uint64(row*10+q), 1), nil})
		}
	}
	f, meta := writeTable(t, entries, WriterOptions{Compression: NoCompression})
	ratio := float64(meta.Size) / float64(meta.RawKeyBytes)
	t.Logf("%d entries, raw keys %d bytes, file %d bytes (%.3f of raw)", meta.Entries, meta.RawKeyBytes, meta.Size, ratio)
	if ratio > 0.45 {
		t.Fatalf("file is %.2f of the raw key bytes, want <= 0.45", ratio)
	}
	r := openTable(t, f, nil)
	defer r.Close()
	it := r.NewIter()
	defer it.Close()
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		n++
	}
	if n != len(entries) || it.Err() != nil {
		t.Fatalf("scanned %d, err %v", n, it.Err())
	}
}

// TestCompressionShrinks checks that compressible values make Snappy and
// Zstd files smaller, and that incompressible ones are stored raw.
func TestCompressionShrinks(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	compressible := randomEntries(rng, 5000)
	random := make([]kv, len(compressible))
	for i, e := range compressible {
		v := make([]byte, len(e.v))
		for j := range v {
			v[j] = byte(rng.Uint32())
		}
		random[i] = kv{e.k, v}
	}
	sizes := map[Compression][2]int64{}
	for _, c := range []Compression{NoCompression, Snappy, Zstd} {
		_, m1 := writeTable(t, compressible, WriterOptions{Compression: c})
		_, m2 := writeTable(t, random, WriterOptions{Compression: c})
		sizes[c] = [2]int64{m1.Size, m2.Size}
	}
	t.Logf("sizes (compressible, random): %v", sizes)
	for _, c := range []Compression{Snappy, Zstd} {
		if sizes[c][0] >= sizes[NoCompression][0]*3/4 {
			t.Errorf("%s: compressible file %d, uncompressed %d", c, sizes[c][0], sizes[NoCompression][0])
		}
		if sizes[c][1] > sizes[NoCompression][1]*101/100 {
			t.Errorf("%s: incompressible file %d grew beyond uncompressed %d", c, sizes[c][1], sizes[NoCompression][1])
		}
	}
}
