package sstable

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
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
	for _, k := range []string{"a", "b", "", "ab"} {
		if err := w.Add([]byte(k), nil); err == nil {
			t.Fatalf("Add(%q) after b: want error", k)
		}
	}
	// The order check works from the prefix shared with the last key: a
	// key that is a prefix of the last one, or equal to it over 8-byte
	// words, or smaller in the byte after a long shared prefix, is refused.
	long := "b" + strings.Repeat("0123456789abcdef", 3)
	for _, k := range []string{"b\x00", long, long + "\x00"} {
		if err := w.Add([]byte(k), nil); err != nil {
			t.Fatalf("Add(%q): %v", k, err)
		}
	}
	for _, k := range []string{long, long[:len(long)-1], long[:17], long[:len(long)-1] + "e", long[:8] + "0"} {
		if err := w.Add([]byte(k), nil); err == nil {
			t.Fatalf("Add(%q) after %q: want error", k, long+"\x00")
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

// TestRoundTripShapes covers what random cell keys rarely reach: shared
// prefixes and key suffixes of 128 bytes or more (multi-byte lengths in an
// entry), values above 127 bytes, blocks larger than the Writer's write
// buffer (written through scratch rather than compressed in place) and
// keys that extend the previous key.
func TestRoundTripShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var entries []kv
	long := strings.Repeat("p", 300)
	for i := range 400 {
		var k []byte
		switch i % 4 {
		case 0:
			k = fmt.Appendf(nil, "%s%06d", long, i) // 300 shared bytes
		case 1:
			k = fmt.Appendf(nil, "%s%06d%s", long, i-1, strings.Repeat("s", 200)) // extends the previous key
		case 2:
			k = fmt.Appendf(nil, "%s%06dt", long, i-2)
		case 3:
			k = fmt.Appendf(nil, "%s%06du", long, i-3)
		}
		v := make([]byte, []int{0, 5, 130, 20000, 300 << 10}[rng.IntN(5)])
		for j := range v {
			v[j] = byte('a' + rng.IntN(3))
		}
		entries = append(entries, kv{k, v})
	}
	if !slices.IsSortedFunc(entries, func(a, b kv) int { return bytes.Compare(a.k, b.k) }) {
		t.Fatal("entries not sorted")
	}
	for _, comp := range []Compression{NoCompression, Snappy, Zstd} {
		for _, bs := range []int{1, 4096, 32 << 10, 1 << 20} {
			t.Run(fmt.Sprintf("%s/bs=%d", comp, bs), func(t *testing.T) {
				runModel(t, rand.New(rand.NewPCG(uint64(bs), 1)), entries, WriterOptions{BlockSize: bs, Compression: comp}, nil)
			})
		}
	}
}

// TestWriterBytes pins the bytes a Writer produces for a fixed input to
// those of the writer before round 3 of issue 8 (which changed how
// entries, blocks and their compression are produced, not what is
// written): files written before and after read the same. A change of
// these hashes is a change of the on-disk format.
func TestWriterBytes(t *testing.T) {
	want := map[Compression]string{
		NoCompression: "627f475200f50c1d",
		Snappy:        "6bc5e123aafc910e",
		Zstd:          "617807fe6b2fd01c",
	}
	rng := rand.New(rand.NewPCG(3, 4))
	entries := randomEntries(rng, 5000)
	for _, c := range []Compression{NoCompression, Snappy, Zstd} {
		f, _ := writeTable(t, entries, WriterOptions{BlockSize: 4096, Compression: c, BloomKey: rowOf})
		sum := sha256.Sum256(f.data)
		if got := hex.EncodeToString(sum[:8]); got != want[c] {
			t.Errorf("%s: file hash %s, want %s", c, got, want[c])
		}
	}
}

// TestBloomKeyPerRow writes the cells of rows that are prefixes of one
// another or hold 00, 01 and ff bytes, with bloom keys that end before
// the row's 00 01 terminator (rowOf) or include it, and checks that the
// Writer hashed each row exactly once (it skips BloomKey within a row)
// and that the filter has no false negative.
func TestBloomKeyPerRow(t *testing.T) {
	withTerminator := func(k []byte) []byte {
		r := rowOf(k)
		if len(r) < len(k) {
			return k[:len(r)+2]
		}
		return r
	}
	var rowKeys [][]byte
	for _, base := range []string{"a", "ab", "ab\x00", "ab\x00\x01", "ab\x01", "ab\xff", "b", "b\x00\x00"} {
		rowKeys = append(rowKeys, []byte(base))
	}
	for i := range 300 {
		rowKeys = append(rowKeys, fmt.Appendf(nil, "row\x00%03d\x01", i))
	}
	var entries []kv
	for _, rk := range rowKeys {
		for _, fam := range []string{"d", "p\x00"} {
			for q := range 3 {
				entries = append(entries, kv{cellKey(rk, []byte(fam), []byte{byte('a' + q), 0}, uint64(q), 9, 1), []byte("v")})
			}
		}
	}
	slices.SortFunc(entries, func(a, b kv) int { return bytes.Compare(a.k, b.k) })
	for name, bk := range map[string]func([]byte) []byte{"rowOf": rowOf, "withTerminator": withTerminator} {
		t.Run(name, func(t *testing.T) {
			f := &memFile{}
			w := NewWriter(f, "bloom.sst", WriterOptions{BlockSize: 256, BloomKey: bk})
			for _, e := range entries {
				if err := w.Add(e.k, e.v); err != nil {
					t.Fatal(err)
				}
			}
			if w.nHashes != len(rowKeys) {
				t.Fatalf("%d bloom hashes for %d rows", w.nHashes, len(rowKeys))
			}
			if _, err := w.Finish(); err != nil {
				t.Fatal(err)
			}
			r := openTable(t, f, nil)
			defer r.Close()
			for _, e := range entries {
				if !r.MayContain(bk(e.k)) {
					t.Fatalf("false negative for %q", e.k)
				}
			}
		})
	}
}
