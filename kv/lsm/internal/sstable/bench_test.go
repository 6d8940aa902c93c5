package sstable

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchEntries returns n cells: 10 columns per row, 40-byte rowkeys,
// 100-byte values.
func benchEntries(n int) []kv {
	entries := make([]kv, 0, n)
	val := make([]byte, 100)
	for i := range val {
		val[i] = byte('a' + i%7)
	}
	for i := 0; len(entries) < n; i++ {
		rk := fmt.Appendf(nil, "tenant-0042/table-0007/pk-%014d", i)
		for q := 0; q < 10 && len(entries) < n; q++ {
			entries = append(entries, kv{cellKey(rk, []byte("f"), fmt.Appendf(nil, "col%d", q), 7, uint64(i*10+q), 1), val})
		}
	}
	return entries
}

func benchReader(b *testing.B, n int, c Compression, cache *Cache) (*Reader, []kv) {
	entries := benchEntries(n)
	f, _ := writeTable(b, entries, WriterOptions{Compression: c, BloomKey: rowOf})
	return openTable(b, f, cache), entries
}

func BenchmarkSeekGE(b *testing.B) {
	for _, c := range []Compression{NoCompression, Snappy, Zstd} {
		r, entries := benchReader(b, 200_000, c, NewCache(1<<30))
		b.Run(fmt.Sprintf("%s/cached", c), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			it := r.NewIter()
			defer it.Close()
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				k := entries[rng.IntN(len(entries))].k
				if !it.SeekGE(k) {
					b.Fatal(it.Err())
				}
			}
		})
		b.Run(fmt.Sprintf("%s/cached/iter-per-seek", c), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				k := entries[rng.IntN(len(entries))].k
				it := r.NewIter()
				if !it.SeekGE(k) {
					b.Fatal(it.Err())
				}
				it.Close()
			}
		})
		r.Close()
	}
	r, entries := benchReader(b, 200_000, Snappy, nil)
	defer r.Close()
	b.Run("snappy/uncached", func(b *testing.B) {
		rng := rand.New(rand.NewPCG(1, 1))
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			it := r.NewIter()
			if !it.SeekGE(entries[rng.IntN(len(entries))].k) {
				b.Fatal(it.Err())
			}
			it.Close()
		}
	})
}

func BenchmarkScan100(b *testing.B) {
	for _, c := range []Compression{NoCompression, Snappy, Zstd} {
		r, entries := benchReader(b, 200_000, c, NewCache(1<<30))
		for _, dir := range []string{"forward", "reverse"} {
			b.Run(fmt.Sprintf("%s/%s", c, dir), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, 1))
				it := r.NewIter()
				defer it.Close()
				b.ReportAllocs()
				defer reportCPU(b)()
				defer reportCPU(b)()
				for b.Loop() {
					k := entries[rng.IntN(len(entries)-200)+100].k
					if dir == "forward" {
						ok := it.SeekGE(k)
						for range 99 {
							ok = it.Next()
						}
						if !ok {
							b.Fatal("short scan")
						}
					} else {
						ok := it.SeekLT(k)
						for range 99 {
							ok = it.Prev()
						}
						if !ok {
							b.Fatal("short scan")
						}
					}
				}
			})
		}
		r.Close()
	}
}

func BenchmarkWrite(b *testing.B) {
	entries := benchEntries(100_000)
	var raw int64
	for _, e := range entries {
		raw += int64(len(e.k) + len(e.v))
	}
	for _, c := range []Compression{NoCompression, Snappy, Zstd} {
		b.Run(c.String(), func(b *testing.B) {
			b.SetBytes(raw)
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				f := &memFile{data: make([]byte, 0, 16<<20)}
				w := NewWriter(f, "bench.sst", WriterOptions{Compression: c, BloomKey: rowOf})
				for _, e := range entries {
					if err := w.Add(e.k, e.v); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := w.Finish(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkMayContain(b *testing.B) {
	r, _ := benchReader(b, 200_000, NoCompression, nil)
	defer r.Close()
	key := []byte("tenant-0042/table-0007/pk-00000000001234")
	b.ReportAllocs()
	for b.Loop() {
		r.MayContain(key)
	}
}
