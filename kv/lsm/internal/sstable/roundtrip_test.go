package sstable

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRoundTripModel writes random sorted entries under every compression
// and several block sizes, then drives iterators with random operations
// and compares each step with a sorted-slice model.
func TestRoundTripModel(t *testing.T) {
	for _, comp := range []Compression{NoCompression, Snappy, Zstd} {
		for _, bs := range []int{1, 64, 512, 4096, 32 << 10} {
			for seed := range uint64(4) {
				t.Run(fmt.Sprintf("%s/bs=%d/seed=%d", comp, bs, seed), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(seed, uint64(bs)))
					n := []int{0, 1, 17, 300, 3000}[rng.IntN(5)]
					entries := randomEntries(rng, n)
					var cache *Cache
					if seed%2 == 0 {
						cache = NewCache(1 << 20)
					}
					runModel(t, rng, entries, WriterOptions{BlockSize: bs, Compression: comp, BloomKey: rowOf}, cache)
				})
			}
		}
	}
}

func runModel(t *testing.T, rng *rand.Rand, entries []kv, opts WriterOptions, cache *Cache) {
	f, meta := writeTable(t, entries, opts)
	r := openTable(t, f, cache)
	defer func() {
		if err := r.Close(); err != nil {
			t.Error(err)
		}
	}()
	checkMeta(t, r.Meta(), meta, entries)

	it := r.NewIter()
	defer it.Close()
	// A full forward and backward pass.
	i := 0
	for ok := it.First(); ok; ok = it.Next() {
		expectAt(t, it, entries, i, "scan")
		i++
	}
	if i != len(entries) || it.Err() != nil {
		t.Fatalf("forward scan saw %d of %d entries, err %v", i, len(entries), it.Err())
	}
	i = len(entries) - 1
	for ok := it.Last(); ok; ok = it.Prev() {
		expectAt(t, it, entries, i, "reverse scan")
		i--
	}
	if i != -1 {
		t.Fatalf("reverse scan stopped at %d", i)
	}

	pos := -1
	for step := range 2000 {
		var op string
		switch rng.IntN(6) {
		case 0:
			op, pos = "First", 0
			it.First()
		case 1:
			op, pos = "Last", len(entries)-1
			it.Last()
		case 2:
			k := probeKey(rng, entries)
			op = fmt.Sprintf("SeekGE(%q)", k)
			pos = sortSearch(entries, k)
			it.SeekGE(k)
		case 3:
			k := probeKey(rng, entries)
			op = fmt.Sprintf("SeekLT(%q)", k)
			pos = sortSearch(entries, k) - 1
			it.SeekLT(k)
		case 4:
			op = "Next"
			if pos >= 0 && pos < len(entries) {
				pos++
			}
			it.Next()
		case 5:
			op = "Prev"
			if pos >= 0 && pos < len(entries) {
				pos--
			}
			it.Prev()
		}
		if pos >= len(entries) {
			pos = -1
		}
		expectAt(t, it, entries, pos, fmt.Sprintf("step %d %s", step, op))
	}
}

func sortSearch(entries []kv, k []byte) int {
	i, _ := slices.BinarySearchFunc(entries, k, func(e kv, k []byte) int { return bytes.Compare(e.k, k) })
	return i
}

// probeKey returns an existing key, a near miss, or a random key.
func probeKey(rng *rand.Rand, entries []kv) []byte {
	if len(entries) == 0 || rng.IntN(5) == 0 {
		return fmt.Appendf(nil, "row%08d", rng.IntN(1000))
	}
	k := slices.Clone(entries[rng.IntN(len(entries))].k)
	switch rng.IntN(4) {
	case 0:
		return append(k, 0)
	case 1:
		return k[:rng.IntN(len(k)+1)]
	case 2:
		if len(k) > 0 {
			k[len(k)-1]++
		}
	}
	return k
}

func expectAt(t *testing.T, it *Iter, entries []kv, pos int, what string) {
	t.Helper()
	if it.Err() != nil {
		t.Fatalf("%s: unexpected error %v", what, it.Err())
	}
	if pos < 0 || pos >= len(entries) {
		if it.Valid() {
			t.Fatalf("%s: want exhausted, at %q", what, it.Key())
		}
		return
	}
	if !it.Valid() {
		t.Fatalf("%s: want %q (#%d), iterator exhausted", what, entries[pos].k, pos)
	}
	if !bytes.Equal(it.Key(), entries[pos].k) || !bytes.Equal(it.Value(), entries[pos].v) {
		t.Fatalf("%s: want %q (#%d), got %q", what, entries[pos].k, pos, it.Key())
	}
}

func checkMeta(t *testing.T, got, written Meta, entries []kv) {
	t.Helper()
	var rawK, rawV int64
	for _, e := range entries {
		rawK += int64(len(e.k))
		rawV += int64(len(e.v))
	}
	want := Meta{Entries: int64(len(entries)), Size: written.Size, RawKeyBytes: rawK, RawValueBytes: rawV}
	if len(entries) > 0 {
		want.Smallest, want.Largest = entries[0].k, entries[len(entries)-1].k
	}
	for _, m := range []Meta{got, written} {
		if m.Entries != want.Entries || m.Size != want.Size || m.RawKeyBytes != want.RawKeyBytes ||
			m.RawValueBytes != want.RawValueBytes || !bytes.Equal(m.Smallest, want.Smallest) ||
			!bytes.Equal(m.Largest, want.Largest) {
			t.Fatalf("meta %+v, want %+v", m, want)
		}
	}
}

func TestAddOutOfOrder(t *testing.T) {
	w := NewWriter(&memFile{}, "x.sst", WriterOptions{})
	if err := w.Add([]byte("b"), nil); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "b"} {
		if err := w.Add([]byte(k), nil); err == nil {
			t.Fatalf("Add(%q) after b: want error", k)
		}
	}
	if err := w.Add([]byte("c"), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := w.Add([]byte("d"), nil); err == nil {
		t.Fatal("Add after Finish: want error")
	}
}

func TestCompressionByName(t *testing.T) {
	for name, want := range map[string]Compression{"": NoCompression, "none": NoCompression, "snappy": Snappy, "zstd": Zstd} {
		got, err := CompressionByName(name)
		if err != nil || got != want {
			t.Errorf("CompressionByName(%q) = %v, %v", name, got, err)
		}
	}
	if _, err := CompressionByName("lz4"); err == nil {
		t.Error("lz4: want error")
	}
}

func TestSeparator(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"abc", "abd", "abc"},
		{"abc", "abf", "abd"},
		{"ab", "abc", "ab"},
		{"row1\x00\x01x", "row2\x00\x01", "row1\x01"},
		{"a\xff\xff", "b", "a\xff\xff"},
		{"", "a", ""},
	} {
		got := string(separator(nil, []byte(c.a), []byte(c.b)))
		if got != c.want || got < c.a || got >= c.b {
			t.Errorf("separator(%q, %q) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}
