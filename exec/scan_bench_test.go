package exec_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/widesql/widesql/exec"
	"github.com/widesql/widesql/kv/lsm"
)

// benchScanRows is the table size of the scan benchmarks: big enough that
// per-row costs dominate, small enough to load in a few seconds.
const benchScanRows = 200_000

// openScanBench loads the harness's kv table (tests/harness/load.go: two
// families, a 64-character payload) with benchScanRows rows into a durable
// store and flushes it, so scans read sorted files as they do after a
// large load.
func openScanBench(b *testing.B) *sessionClient {
	b.Helper()
	ctx := context.Background()
	store, err := lsm.Open(b.TempDir(), lsm.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	eng, err := exec.Open(ctx, store, nil)
	if err != nil {
		b.Fatal(err)
	}
	sess, err := eng.NewSession(ctx, map[string]string{"user": "bench", "database": "bench"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(sess.Close)
	c := &sessionClient{s: sess}
	if _, err := c.Exec(ctx, "CREATE TABLE kv (tenant INT, id BIGINT, d.grp INT, d.val INT, p.payload TEXT, PRIMARY KEY (tenant, id))"); err != nil {
		b.Fatal(err)
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
			b.Fatal(err)
		}
	}
	if err := store.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	return c
}

func BenchmarkFilteredFullScan(b *testing.B) {
	c := openScanBench(b)
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		if _, _, err := c.Query(ctx, "SELECT tenant, id, val FROM kv WHERE val < 10000"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchScanRows, "ns/row")
}

func BenchmarkGroupBy(b *testing.B) {
	c := openScanBench(b)
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		if _, _, err := c.Query(ctx, "SELECT grp, count(*), sum(val) FROM kv GROUP BY grp"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchScanRows, "ns/row")
}
