package sstable

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
	"time"
)

// kvRow returns the rowkey of the harness's kv table (tenant INT, id
// BIGINT), encoded as the executor's keyenc does: sign-flipped big-endian
// integers, so small values are mostly zero bytes (escaped in the key).
func kvRow(tenant, id int) []byte {
	k := binary.BigEndian.AppendUint32(nil, uint32(tenant)^0x80000000)
	return binary.BigEndian.AppendUint64(k, uint64(id)^0x8000000000000000)
}

// kvPointEntries returns the cells of rows rows of family d of the kv
// table, two small integer columns per row, and the point-read seek key
// of each row (the escaped rowkey and its terminator).
func kvPointEntries(rows int) (entries []kv, seeks [][]byte) {
	val := []byte{0x80, 0, 0, 0, 0, 0, 0, 42}
	for i := range rows {
		row := kvRow(i%16, i)
		seek := cellKey(row, nil, nil, 0, 0, 0)
		seeks = append(seeks, seek[:len(seek)-4-17]) // esc(row) 00 01
		for q := range 2 {
			entries = append(entries, kv{cellKey(row, []byte("d"), []byte{byte(q + 1)}, 7, uint64(i*2+q), 1), val})
		}
	}
	return entries, seeks
}

// BenchmarkSeekGEPoint is a point Get's seek in one file: 200k cells of
// kv-shaped keys in 8 KiB blocks, a warm cache, a random row per seek,
// one iterator per seek (as a single-row Get opens) or one reused.
func BenchmarkSeekGEPoint(b *testing.B) {
	entries, seeks := kvPointEntries(100_000)
	// Rows in key order: tenant-major.
	slices.SortFunc(entries, func(a, b kv) int { return bytes.Compare(a.k, b.k) })
	for _, c := range []Compression{NoCompression, Snappy} {
		f, _ := writeTable(b, entries, WriterOptions{Compression: c, BloomKey: rowOf, BlockSize: 8 << 10})
		r := openTable(b, f, NewCache(1<<30))
		warm := r.NewIter()
		for ok := warm.First(); ok; ok = warm.Next() {
		}
		warm.Close()
		checkSeeks(b, r, seeks[:1000])
		b.Run(fmt.Sprintf("%s/iter-per-seek", c), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				it := r.NewIter()
				if !it.SeekGE(seeks[rng.IntN(len(seeks))]) {
					b.Fatal(it.Err())
				}
				it.Close()
			}
		})
		b.Run(fmt.Sprintf("%s/reused", c), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			it := r.NewIter()
			defer it.Close()
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				if !it.SeekGE(seeks[rng.IntN(len(seeks))]) {
					b.Fatal(it.Err())
				}
			}
		})
		b.Run(fmt.Sprintf("%s/parallel", c), func(b *testing.B) { benchParallelSeeks(b, r, seeks) })
		r.Close()
	}
}

// reportCPU starts counting the process's CPU time; the function it
// returns reports it per op as cpu-ns/op, which a loaded machine inflates
// less than wall time.
func reportCPU(b *testing.B) func() {
	c0 := cpuTime()
	return func() {
		b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchParallelSeeks seeks r to random keys of seeks from every P, with a
// new iterator per seek.
func benchParallelSeeks(b *testing.B, r *Reader, seeks [][]byte) {
	b.ReportAllocs()
	defer reportCPU(b)()
	b.RunParallel(func(pb *testing.PB) {
		rng := rand.New(rand.NewPCG(rand.Uint64(), 1))
		for pb.Next() {
			it := r.NewIter()
			if !it.SeekGE(seeks[rng.IntN(len(seeks))]) {
				b.Fatal(it.Err())
			}
			it.Close()
		}
	})
}

// checkSeeks fails b unless each of seeks finds its row in r: the
// benchmarks' check that they measure seeks that hit.
func checkSeeks(b *testing.B, r *Reader, seeks [][]byte) {
	for _, k := range seeks {
		it := r.NewIter()
		if !it.SeekGE(k) || !bytes.HasPrefix(it.Key(), k) {
			b.Fatalf("SeekGE(%x) = %x", k, it.Key())
		}
		it.Close()
	}
}
