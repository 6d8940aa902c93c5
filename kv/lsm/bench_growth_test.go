package lsm

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
)

// growthRow is the rowkey of row i of the growth benchmark: the shape of
// the harness's kv table, (tenant INT, id BIGINT) with 1000 rows a tenant,
// as order-preserving big-endian integers.
func growthRow(dst []byte, i int) []byte {
	dst = binary.BigEndian.AppendUint32(dst[:0], uint32(i/1000+1)^1<<31)
	return binary.BigEndian.AppendUint64(dst, uint64(i%1000+1)^1<<63)
}

// growthMarker is the qualifier of exec's row marker (planner.MarkerQualifier).
var growthMarker = []byte{0}

// loadGrowth loads n rows shaped like the harness's kv table (the row
// marker and two small ints in family d, a 64-byte payload in family p,
// as exec writes them) through Apply, 1000 rows
// a batch, with the default options but NoSync, then does what a server
// does after a load: a checkpoint (Flush) and the compactions the store
// schedules by itself (not a full compaction).
func loadGrowth(b *testing.B, dir string, n int, opts Options) (*Store, kv.Table) {
	ctx := context.Background()
	opts.NoSync = true
	opts.BlockSize = growthBlockSize()
	s, err := Open(dir, opts)
	if err != nil {
		b.Fatal(err)
	}
	c := os.Getenv("WIDESQL_GROWTH_COMPRESSION")
	spec := kv.TableSpec{Families: []kv.Family{{Name: "d", MaxVersions: 1, Compression: c}, {Name: "p", MaxVersions: 1, Compression: c}}}
	if err := s.CreateTable(ctx, "kv", spec); err != nil {
		b.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "kv")
	rng := rand.New(rand.NewPCG(1, 2))
	batch := make([]kv.RowMutation, 0, 1000)
	for i := range n {
		key := growthRow(nil, i)
		v := binary.BigEndian.AppendUint32(make([]byte, 0, 72), rng.Uint32()%100)
		v = binary.BigEndian.AppendUint32(v, rng.Uint32()%1_000_000)
		v = fmt.Appendf(v, "%016x%016x%016x%016x", rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64())
		batch = append(batch, kv.RowMutation{Key: key, Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "d", Qualifier: growthMarker, Timestamp: 1000, Value: []byte{}},
			{Kind: kv.SetCell, Family: "d", Qualifier: []byte("grp"), Timestamp: 1000, Value: v[0:4:4]},
			{Kind: kv.SetCell, Family: "d", Qualifier: []byte("val"), Timestamp: 1000, Value: v[4:8:8]},
			{Kind: kv.SetCell, Family: "p", Qualifier: []byte("payload"), Timestamp: 1000, Value: v[8:72:72]},
		}})
		if len(batch) == cap(batch) || i == n-1 {
			if err := tbl.Apply(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if err := s.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	settle(b, s)
	return s, tbl
}

// settle runs the compactions the background would run until a pass
// does nothing (a split marks its children for a rewrite by the next one).
// A store may keep more than MaxFilesPerStore files when they do not
// overlap (compactStore leaves them as they are), so the file count is
// no criterion: a pass that compacts nothing and splits nothing is.
func settle(b *testing.B, s *Store) {
	regions := func() int {
		s.mu.Lock()
		defer s.mu.Unlock()
		n := 0
		for _, t := range s.tables {
			n += len(t.regions)
		}
		return n
	}
	for range 20 {
		c0, r0 := s.compactions.Load(), regions()
		if err := s.compactNeeded(context.Background(), false); err != nil {
			b.Fatal(err)
		}
		if s.compactions.Load() == c0 && regions() == r0 {
			return
		}
	}
	b.Fatal("compactions do not settle")
}

// BenchmarkGetGrowth measures a point Get of a random existing row (all
// families, as SELECT * by primary key) at 10^4 to 10^6 rows, and 10^7 with
// WIDESQL_GROWTH_MAX=7 (the load takes minutes; WIDESQL_GROWTH_DIR=dir
// keeps the loaded stores in dir/<rows> for later runs;
// WIDESQL_GROWTH_BLOCKSIZE=n loads with n-byte blocks,
// WIDESQL_GROWTH_COMPRESSION=c with the families' Compression c). The target is at most
// 1.5x growth of ns/op from 10^4 to 10^7. It reports the store's shape:
// regions, files, and the block cache's miss ratio while measuring.
//
//	go test ./kv/lsm -run XXX -bench GetGrowth -benchtime 200000x
func BenchmarkGetGrowth(b *testing.B) {
	maxExp := 6
	if v, err := strconv.Atoi(os.Getenv("WIDESQL_GROWTH_MAX")); err == nil {
		maxExp = v
	}
	for exp := 4; exp <= maxExp; exp++ {
		n := 1
		for range exp {
			n *= 10
		}
		b.Run(fmt.Sprintf("rows=1e%d", exp), func(b *testing.B) {
			start := time.Now()
			s, tbl := growthStore(b, n)
			defer s.Close()
			load := time.Since(start)
			ctx := context.Background()
			rng := rand.New(rand.NewPCG(3, 4))
			keys := make([][]byte, 1<<16)
			for i := range keys {
				keys[i] = growthRow(nil, rng.IntN(n))
			}
			for i := range 1 << 14 { // warm the cache as a running server would be
				getOne(b, ctx, tbl, keys[i%len(keys)])
			}
			m0, cpu0 := s.Metrics(), cpuTime()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				getOne(b, ctx, tbl, keys[i%len(keys)])
			}
			b.StopTimer()
			cpu := cpuTime() - cpu0
			m := s.Metrics()
			regions, _ := s.Regions(ctx, "kv")
			files := 0
			for _, r := range regions {
				files += r.Files
			}
			hits, misses := m.CacheHits-m0.CacheHits, m.CacheMisses-m0.CacheMisses
			b.ReportMetric(float64(len(regions)), "regions")
			b.ReportMetric(float64(files), "files")
			b.ReportMetric(float64(misses)/float64(max(hits+misses, 1)), "miss/block")
			b.ReportMetric(load.Seconds(), "load-s")
			// CPU time per Get (all threads: includes GC), steadier than
			// ns/op on a shared machine.
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// growthBlockSize is $WIDESQL_GROWTH_BLOCKSIZE, to compare block sizes
// (0, the default, otherwise).
func growthBlockSize() int {
	n, _ := strconv.Atoi(os.Getenv("WIDESQL_GROWTH_BLOCKSIZE"))
	return n
}

// growthStore opens a store of n growth rows: loaded afresh, or kept in
// $WIDESQL_GROWTH_DIR/<n> (loaded there on the first run).
func growthStore(b *testing.B, n int) (*Store, kv.Table) {
	keep := os.Getenv("WIDESQL_GROWTH_DIR")
	if keep == "" {
		return loadGrowth(b, b.TempDir(), n, Options{})
	}
	dir := filepath.Join(keep, strconv.Itoa(n))
	done := filepath.Join(keep, strconv.Itoa(n)+".loaded")
	if _, err := os.Stat(done); err != nil {
		os.RemoveAll(dir)
		s, tbl := loadGrowth(b, dir, n, Options{})
		if err := os.WriteFile(done, nil, 0o644); err != nil {
			b.Fatal(err)
		}
		return s, tbl
	}
	s, err := Open(dir, Options{NoSync: true, BlockSize: growthBlockSize()})
	if err != nil {
		b.Fatal(err)
	}
	tbl, err := s.Table(context.Background(), "kv")
	if err != nil {
		b.Fatal(err)
	}
	settle(b, s)
	return s, tbl
}

// cpuTime returns the process's user plus system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func getOne(b *testing.B, ctx context.Context, tbl kv.Table, key []byte) {
	it := tbl.Read(ctx, kv.RowSet{Keys: [][]byte{key}}, kv.ReadOptions{})
	if !it.Next() {
		b.Fatalf("row %x missing: %v", key, it.Err())
	}
	it.Close()
}

// BenchmarkLoadMemory loads 10^6 growth rows, then reads 10^5 random rows,
// with the engine sizes a server would pass (in MiB, from
// $WIDESQL_MEMTABLE_MB, $WIDESQL_BUDGET_MB, $WIDESQL_CACHE_MB; the
// defaults otherwise) and the server's soft heap limit (budget + cache +
// $WIDESQL_HEADROOM_MB, default 256). It reports the load time and the
// process's peak resident memory, to weigh memory defaults; run one
// setting per process:
//
//	WIDESQL_BUDGET_MB=128 go test ./kv/lsm -run XXX -bench LoadMemory -benchtime 1x
func BenchmarkLoadMemory(b *testing.B) {
	mib := func(env string, def int64) int64 {
		if v, err := strconv.ParseInt(os.Getenv(env), 10, 64); err == nil {
			return v << 20
		}
		return def
	}
	opts := Options{MemtableSize: mib("WIDESQL_MEMTABLE_MB", 64<<20), MemoryBudget: mib("WIDESQL_BUDGET_MB", 256<<20),
		BlockCacheSize: mib("WIDESQL_CACHE_MB", 128<<20)}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(opts.MemoryBudget + opts.BlockCacheSize + mib("WIDESQL_HEADROOM_MB", 256<<20)))
	for b.Loop() {
		start := time.Now()
		s, tbl := loadGrowth(b, b.TempDir(), 1_000_000, opts)
		load := time.Since(start)
		rng := rand.New(rand.NewPCG(3, 4))
		start = time.Now()
		for range 100_000 {
			getOne(b, context.Background(), tbl, growthRow(nil, rng.IntN(1_000_000)))
		}
		get := time.Since(start)
		s.Close()
		b.ReportMetric(load.Seconds(), "load-s")
		b.ReportMetric(float64(get.Nanoseconds())/100_000, "get-ns")
		b.ReportMetric(float64(peakRSS())/(1<<20), "peak-rss-MiB")
	}
}

// peakRSS returns the process's peak resident set size (VmHWM), or 0.
func peakRSS() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
