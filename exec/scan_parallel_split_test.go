package exec_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/widesql/widesql/exec"
)

// TestParallelScanStoreSplit checks the pieces a parallel scan gets from
// the store (kv.Splitter): over skewed keys (a dense run and a long
// sparse tail, which interpolating rowkeys cuts into a few full pieces
// and many empty ones) in files, every piece reads about the same number
// of rows; results match the serial ones, partial aggregation uses the
// same pieces, and EXPLAIN ANALYZE reports the workers and pieces.
func TestParallelScanStoreSplit(t *testing.T) {
	_, c := openParallelTest(t)
	mustExecT(t, c, "CREATE TABLE skew (k BIGINT PRIMARY KEY, d.v INT, p.pad TEXT)")
	const n = 40000
	insertRows(t, c, "skew", n, func(i int) string {
		k := int64(i)
		if i%10 == 0 {
			k = int64(i) * 1_000_003
		}
		return fmt.Sprintf("(%d, %d, '%s')", k, i%1000, strings.Repeat("p", 20))
	})
	mustExecT(t, c, "CHECKPOINT")
	for _, q := range []string{
		"SELECT k, v, pad FROM skew WHERE v < 10",
		"SELECT v % 7, count(*), sum(k) FROM skew GROUP BY 1 ORDER BY 1",
	} {
		p0 := exec.ParallelStarts.Load()
		_, rows, err := c.Query(context.Background(), q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if exec.ParallelStarts.Load() == p0 {
			t.Fatalf("%s: no parallel scan", q)
		}
		fromStore, pieces := exec.LastParallelPieces()
		if !fromStore {
			t.Errorf("%s: the store did not cut the pieces", q)
		}
		var sum, most int64
		for _, r := range pieces {
			sum += r
			most = max(most, r)
		}
		if sum != n || len(pieces) < 8 {
			t.Errorf("%s: %d pieces read %d rows, want >= 8 pieces and %d rows", q, len(pieces), sum, n)
		} else if mean := sum / int64(len(pieces)); most > 2*mean {
			t.Errorf("%s: unbalanced pieces %v (mean %d rows)", q, pieces, mean)
		}
		par, ser := serialAndParallel(t, c, q)
		if par != ser || fmt.Sprint(rows) != par {
			t.Errorf("%s: parallel and serial results differ", q)
		}
	}
	_, rows, err := c.Query(context.Background(), "EXPLAIN ANALYZE SELECT k FROM skew WHERE v < 10")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`^FULL SCAN ON skew .*\(actual rows=400 rows_read=40000 cells_read=\d+ workers=4 pieces=\d+ time=[0-9.]+ms\)$`)
	if len(rows) == 0 || !re.MatchString(rows[0][0]) {
		t.Errorf("EXPLAIN ANALYZE: %q", rows)
	}
}
