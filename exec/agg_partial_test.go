package exec_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/widesql/widesql/exec"
)

// TestPartialAggIntKeys checks the parallel workers' integer group keys
// (agg_partial.go: a plain column read without eval, small non-negative
// keys in a direct-indexed table, the others hashed) against the serial
// aggregation: NULL keys, negative keys, keys on both sides of the
// direct table's bound, keys of int2 and int8 columns, integer sums that
// overflow into numeric, and a work_mem small enough that worker tables
// flush their groups many times.
func TestPartialAggIntKeys(t *testing.T) {
	_, c := openParallelTest(t)
	mustExecT(t, c, "CREATE TABLE pak (k INT PRIMARY KEY, d.g INT, d.h SMALLINT, d.w BIGINT, d.v INT, d.b BIGINT)")
	const n = 20000
	key := func(i int) string {
		switch {
		case i%17 == 0:
			return "NULL"
		case i%5 == 0:
			return fmt.Sprint(-(i % 40)) // negative keys (and 0)
		case i%3 == 0:
			return fmt.Sprint(1000 + i%50) // across the bound of 1024
		}
		return fmt.Sprint(i % 100)
	}
	wantNull := 0
	for i := range n {
		if i%17 == 0 {
			wantNull++
		}
	}
	insertRows(t, c, "pak", n, func(i int) string {
		v := "NULL"
		if i%7 != 0 {
			v = fmt.Sprint(i%1000 - 300)
		}
		w := fmt.Sprint(int64(i%30) * 1_000_000_007 * 1_000_000)
		if i%11 == 0 {
			w = "NULL"
		}
		b := fmt.Sprint(int64(math.MaxInt64) - int64(i)) // sums overflow int64
		return fmt.Sprintf("(%d, %s, %d, %s, %s, %s)", i, key(i), i%9-4, w, v, b)
	})
	queries := []string{
		"SELECT g, count(*), sum(v), count(v), avg(v), min(v), max(v) FROM pak GROUP BY g ORDER BY g",
		"SELECT g, sum(b), count(b) FROM pak GROUP BY g ORDER BY g",
		"SELECT h, count(*), sum(v), sum(b) FROM pak GROUP BY h ORDER BY h",
		"SELECT w, count(*), sum(v) FROM pak GROUP BY w ORDER BY w",
		"SELECT g, count(*) FROM pak WHERE v > 100 GROUP BY g ORDER BY g",
		"SELECT g + 1, count(*), sum(v) FROM pak GROUP BY g + 1 ORDER BY 1",
	}
	run := func() {
		t.Helper()
		a0 := exec.PartialAggStarts.Load()
		for _, q := range queries {
			par, ser := serialAndParallel(t, c, q)
			if par != ser {
				t.Errorf("%s:\nparallel %.400s\nserial   %.400s", q, par, ser)
			}
		}
		if a := exec.PartialAggStarts.Load() - a0; a != int64(len(queries)) {
			t.Errorf("%d partial aggregations, want %d", a, len(queries))
		}
	}
	run()
	// The NULL group is one group, counted in full.
	_, rows, err := c.Query(context.Background(), "SELECT count(*) FROM pak WHERE g IS NULL")
	if err != nil {
		t.Fatal(err)
	}
	_, grp, err := c.Query(context.Background(), "SELECT g, count(*) FROM pak GROUP BY g ORDER BY g DESC LIMIT 1")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprint(wantNull); rows[0][0] != want || fmt.Sprint(grp) != fmt.Sprintf("[[NULL %d]]", wantNull) {
		t.Errorf("NULL group: count %v, group %v; want %s rows", rows, grp, want)
	}
	mustExecT(t, c, "SET work_mem = '64kB'")
	run()
}
