package sstable

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func corruptionFixture(t testing.TB, c Compression) (*memFile, footer) {
	rng := rand.New(rand.NewPCG(7, 7))
	f, _ := writeTable(t, randomEntries(rng, 2000), WriterOptions{BlockSize: 1024, Compression: c, BloomKey: rowOf})
	ft, reason := decodeFooter(f.data[len(f.data)-footerLen:])
	if reason != "" {
		t.Fatal(reason)
	}
	return f, ft
}

func wantCorruption(t *testing.T, err error, what string) *CorruptionError {
	t.Helper()
	var ce *CorruptionError
	if !errors.As(err, &ce) || !errors.Is(err, ErrCorruption) {
		t.Fatalf("%s: want *CorruptionError, got %v", what, err)
	}
	if ce.File != "test.sst" || !strings.Contains(ce.Error(), "test.sst") {
		t.Fatalf("%s: error does not name the file: %v", what, err)
	}
	return ce
}

func TestCorruptDataBlock(t *testing.T) {
	for _, c := range []Compression{NoCompression, Snappy, Zstd} {
		f, ft := corruptionFixture(t, c)
		rng := rand.New(rand.NewPCG(1, uint64(c)))
		for range 50 {
			g := f.reopen()
			off := rng.IntN(int(ft.bloom.Offset))
			g.data[off] ^= 1 << rng.IntN(8)
			r, err := Open(g, "test.sst", 1, nil)
			if err != nil {
				t.Fatalf("%s: Open failed on a data block flip: %v", c, err)
			}
			it := r.NewIter()
			n := 0
			for ok := it.First(); ok; ok = it.Next() {
				n++
			}
			ce := wantCorruption(t, it.Err(), "scan over flipped data block")
			if ce.Offset > int64(off) || int64(off)-ce.Offset > 10_000 {
				t.Fatalf("corruption reported at %d, flipped byte at %d", ce.Offset, off)
			}
			if it.Next() || it.SeekGE(nil) || it.Valid() {
				t.Fatal("iterator usable after corruption")
			}
			if err := it.Close(); err == nil {
				t.Fatal("Close lost the error")
			}
			r.Close()
		}
	}
}

func TestCorruptMetaBlocks(t *testing.T) {
	f, ft := corruptionFixture(t, Snappy)
	regions := map[string][2]uint64{
		"bloom":  {ft.bloom.Offset, ft.bloom.Length + trailerLen},
		"index":  {ft.index.Offset, ft.index.Length + trailerLen},
		"props":  {ft.props.Offset, ft.props.Length + trailerLen},
		"footer": {uint64(len(f.data) - footerLen), footerLen},
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for name, reg := range regions {
		for range 30 {
			g := f.reopen()
			g.data[reg[0]+rng.Uint64N(reg[1])] ^= 1 << rng.IntN(8)
			_, err := Open(g, "test.sst", 1, nil)
			wantCorruption(t, err, name)
		}
	}
}

func TestTruncated(t *testing.T) {
	f, _ := corruptionFixture(t, Zstd)
	for _, n := range []int{0, 1, footerLen - 1, footerLen, len(f.data) / 2, len(f.data) - 1} {
		g := &memFile{data: slices.Clone(f.data[:n])}
		_, err := Open(g, "test.sst", 1, nil)
		wantCorruption(t, err, "truncated")
	}
}

// TestCorruptionUnderCache reads a corrupt block twice through a cache:
// corrupt blocks must never be cached.
func TestCorruptionUnderCache(t *testing.T) {
	f, ft := corruptionFixture(t, NoCompression)
	g := f.reopen()
	g.data[ft.bloom.Offset/2] ^= 0x40
	r, err := Open(g, "test.sst", 1, NewCache(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for range 2 {
		it := r.NewIter()
		for ok := it.First(); ok; ok = it.Next() {
		}
		wantCorruption(t, it.Err(), "cached scan")
		it.Close()
	}
}

// FuzzOpen opens arbitrary bytes and iterates what opens: no panics.
func FuzzOpen(f *testing.F) {
	// Small seeds: the fuzzer minimizes slowly on large inputs.
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []Compression{NoCompression, Snappy, Zstd} {
		g, _ := writeTable(f, randomEntries(rng, 20), WriterOptions{BlockSize: 128, Compression: c})
		f.Add(g.data)
	}
	small, _ := writeTable(f, []kv{{[]byte("a"), []byte("1")}, {[]byte("b"), []byte("2")}}, WriterOptions{})
	f.Add(small.data)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Open(&memFile{data: data}, "fuzz.sst", 1, NewCache(1<<16))
		if err != nil {
			return
		}
		it := r.NewIter()
		for ok := it.First(); ok; ok = it.Next() {
		}
		for ok := it.Last(); ok; ok = it.Prev() {
		}
		it.SeekGE([]byte("b"))
		it.SeekLT([]byte("b"))
		r.MayContain([]byte("a"))
		it.Close()
		r.Close()
	})
}

// FuzzBlock iterates arbitrary bytes as a block: no panics, and keys come
// out in the order seen.
func FuzzBlock(f *testing.F) {
	b := blockWriter{restartInterval: 2}
	for _, k := range []string{"a", "ab", "abc", "b", "bcd"} {
		b.add([]byte(k), []byte(k))
	}
	f.Add(slices.Clone(b.finish()), []byte("ab"))
	f.Add([]byte{0, 0, 0, 0}, []byte{})
	f.Fuzz(func(t *testing.T, data, target []byte) {
		var it blockIter
		if it.init(data) != nil {
			return
		}
		n := 0
		var keys [][]byte
		for ok := it.first(); ok && n < 1e5; ok = it.next() {
			keys = append(keys, slices.Clone(it.key))
			n++
		}
		sorted := it.err == nil && slices.IsSortedFunc(keys, func(a, b []byte) int { return bytes.Compare(a, b) })
		sorted = sorted && len(slices.CompactFunc(slices.Clone(keys), bytes.Equal)) == len(keys)
		for ok := it.last(); ok && n < 2e5; ok = it.prev() {
			n++
		}
		it.seekGE(target)
		it.seekLT(target)
		it.prev()
		// The cached form (restart key abbreviations) must not panic
		// either and, on a well-formed block, seeks where the plain
		// one does.
		for _, lt := range []bool{false, true} {
			var pt, ct blockIter
			if pt.init(data) != nil || ct.initCached(newCachedBlock(data)) != nil {
				t.Fatal("init rejected what it accepted")
			}
			var ok, cok bool
			if lt {
				ok, cok = pt.seekLT(target), ct.seekLT(target)
			} else {
				ok, cok = pt.seekGE(target), ct.seekGE(target)
			}
			if sorted && (ok != cok || ok && !bytes.Equal(pt.key, ct.key)) {
				t.Fatalf("seek (lt %v) %x: plain %v %x, cached %v %x", lt, target, ok, pt.key, cok, ct.key)
			}
			ct.prev()
		}
	})
}
