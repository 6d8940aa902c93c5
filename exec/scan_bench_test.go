package exec_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/widesql/widesql/exec"
	"github.com/widesql/widesql/kv/lsm"
)

// benchScanRows is the table size of the scan benchmarks: big enough that
// per-row costs dominate, small enough to load in a few seconds.
const benchScanRows = 200_000

// The scan benchmarks share one loaded store per test binary: loading is
// far slower than a scan, and the benchmark framework calls each function
// several times while it sizes b.N.
var scanBench struct {
	once  sync.Once
	dir   string
	store *lsm.Store
	eng   *exec.Engine
	err   error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if scanBench.store != nil {
		scanBench.store.Close()
	}
	if scanBench.dir != "" {
		os.RemoveAll(scanBench.dir)
	}
	os.Exit(code)
}

// openScanBench returns a session on the harness's kv table
// (tests/harness/load.go: two families, a 64-character payload) holding
// benchScanRows rows in 200 tenants of 1000, loaded into a durable store
// and flushed, so scans read sorted files as they do after a large load.
func openScanBench(b *testing.B) *sessionClient {
	b.Helper()
	ctx := context.Background()
	scanBench.once.Do(func() { scanBench.err = loadScanBench(ctx) })
	if scanBench.err != nil {
		b.Fatal(scanBench.err)
	}
	sess, err := scanBench.eng.NewSession(ctx, map[string]string{"user": "bench", "database": "bench"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(sess.Close)
	runtime.GC() // the load's garbage is not the scan's cost
	return &sessionClient{s: sess}
}

func loadScanBench(ctx context.Context) error {
	dir, err := os.MkdirTemp("", "widesql-scanbench-")
	if err != nil {
		return err
	}
	scanBench.dir = dir
	store, err := lsm.Open(dir, lsm.Options{NoSync: true})
	if err != nil {
		return err
	}
	scanBench.store = store
	eng, err := exec.Open(ctx, store, nil)
	if err != nil {
		return err
	}
	scanBench.eng = eng
	sess, err := eng.NewSession(ctx, map[string]string{"user": "bench", "database": "bench"})
	if err != nil {
		return err
	}
	defer sess.Close()
	c := &sessionClient{s: sess}
	if _, err := c.Exec(ctx, "CREATE TABLE kv (tenant INT, id BIGINT, d.grp INT, d.val INT, p.payload TEXT, PRIMARY KEY (tenant, id))"); err != nil {
		return err
	}
	payload := strings.Repeat("x", 64)
	var sb strings.Builder
	for start := 0; start < benchScanRows; start += 1000 {
		sb.Reset()
		sb.WriteString("INSERT INTO kv VALUES ")
		for i := start; i < start+1000; i++ {
			if i > start {
				sb.WriteByte(',')
			}
			h := uint32(i) * 2654435761
			fmt.Fprintf(&sb, "(%d,%d,%d,%d,'%s')", i/1000, i, h%100, h%1000000, payload)
		}
		if _, err := c.Exec(ctx, sb.String()); err != nil {
			return err
		}
	}
	return store.Flush(ctx)
}

func benchQuery(b *testing.B, sql string, rowsPerOp int) {
	c := openScanBench(b)
	ctx := context.Background()
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		if _, _, err := c.Query(ctx, sql); err != nil {
			b.Fatal(err)
		}
	}
	reportPerRow(b, cpu, rowsPerOp)
}

// reportPerRow reports wall and CPU time per row. On a shared machine the
// process's CPU time (user+system, all threads, GC included) is the
// steadier figure: it does not count time spent waiting for a core.
func reportPerRow(b *testing.B, cpu0 time.Duration, rowsPerOp int) {
	n := float64(b.N) * float64(rowsPerOp)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/row")
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/n, "cpu-ns/row")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkFilteredFullScan is the harness's filtered full scan: about 1%
// of the rows match a predicate on a non-key column; every column is
// returned, so both families are read.
func BenchmarkFilteredFullScan(b *testing.B) {
	benchQuery(b, "SELECT tenant, id, grp, val, payload FROM kv WHERE val < 10000", benchScanRows)
}

// BenchmarkFilteredFullScanNarrow reads only family d's columns.
func BenchmarkFilteredFullScanNarrow(b *testing.B) {
	benchQuery(b, "SELECT tenant, id, val FROM kv WHERE val < 10000", benchScanRows)
}

func BenchmarkGroupBy(b *testing.B) {
	benchQuery(b, "SELECT grp, count(*), sum(val) FROM kv GROUP BY grp", benchScanRows)
}

// BenchmarkRangeScan100 is the harness's range scan: 100 consecutive rows
// of one tenant by key, in key order (ns/row is per row returned).
func BenchmarkRangeScan100(b *testing.B) {
	c := openScanBench(b)
	ctx := context.Background()
	b.ResetTimer()
	cpu := cpuTime()
	for i := range b.N {
		t, lo := i%200, (i*37)%900
		sql := fmt.Sprintf("SELECT id, grp, val, payload FROM kv WHERE tenant = %d AND id BETWEEN %d AND %d ORDER BY id", t, t*1000+lo, t*1000+lo+99)
		_, rows, err := c.Query(ctx, sql)
		if err != nil {
			b.Fatal(err)
		}
		if len(rows) != 100 {
			b.Fatalf("%s: %d rows, want 100", sql, len(rows))
		}
	}
	reportPerRow(b, cpu, 100)
}

// TestFullScanPrefetch checks the two-core full scan (scan.go,
// prefetchIter) against what it must preserve: every row, in key order,
// across many batches and several files; a consumer that stops early
// (LIMIT above a filter); and a scan inside a transaction block, which
// reads on one core and sees the block's own writes.
func TestFullScanPrefetch(t *testing.T) {
	ctx := context.Background()
	c := newTestSession(t, openLSMEngine(t, lsm.Options{MemtableSize: 64 << 10, NoSync: true}))
	mustExec := func(sql string) {
		t.Helper()
		if _, err := c.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	mustExec("CREATE TABLE pf (k INT PRIMARY KEY, d.v INT, p.pad TEXT)")
	const n = 5000
	for start := 0; start < n; start += 500 {
		var sb strings.Builder
		sb.WriteString("INSERT INTO pf VALUES ")
		for i := start; i < start+500; i++ {
			if i > start {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, "(%d,%d,'%s')", i, i%7, strings.Repeat("p", i%300))
		}
		mustExec(sb.String())
	}
	_, rows, err := c.Query(ctx, "SELECT k, v, length(pad) FROM pf")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != n {
		t.Fatalf("full scan: %d rows, want %d", len(rows), n)
	}
	for i, r := range rows {
		if want := []string{fmt.Sprint(i), fmt.Sprint(i % 7), fmt.Sprint(i % 300)}; strings.Join(r, ",") != strings.Join(want, ",") {
			t.Fatalf("row %d: %v, want %v", i, r, want)
		}
	}
	_, rows, err = c.Query(ctx, "SELECT k FROM pf WHERE v = 3 LIMIT 5")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(rows); got != "[[3] [10] [17] [24] [31]]" {
		t.Fatalf("limit over filter: %s", got)
	}
	mustExec("BEGIN")
	mustExec("DELETE FROM pf WHERE k < 4990")
	_, rows, err = c.Query(ctx, "SELECT count(*), sum(v) FROM pf")
	if err != nil {
		t.Fatal(err)
	}
	mustExec("ROLLBACK")
	if got := fmt.Sprint(rows); got != "[[10 28]]" {
		t.Fatalf("scan in a block: %s, want [[10 28]]", got)
	}
}

// BenchmarkLazyFamilies runs the filtered full scan with on-demand family
// loading (lazy: family d for every row, p only for the rows that pass)
// and without it (full: both families of every row), for the harness's
// filter (1% of the rows pass) and for one every row passes (the lazy
// read's worst case: every row is completed by a seek).
func BenchmarkLazyFamilies(b *testing.B) {
	queries := []struct{ name, sql string }{
		{"pass1pct", "SELECT tenant, id, grp, val, payload FROM kv WHERE val < 10000"},
		{"passAll", "SELECT tenant, id, grp, val, payload FROM kv WHERE val >= 0"},
	}
	for _, q := range queries {
		for _, mode := range []string{"lazy", "full"} {
			b.Run(q.name+"/"+mode, func(b *testing.B) {
				exec.NoLazyFamilies.Store(mode == "full")
				defer exec.NoLazyFamilies.Store(false)
				benchQuery(b, q.sql, benchScanRows)
			})
		}
	}
}
