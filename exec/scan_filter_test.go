package exec_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/widesql/widesql/exec"
)

// TestFastFilter checks scans whose filter compares integer-like columns
// with constants (scan_filter.go) against the same scans through eval,
// serially and in parallel, with partial aggregation, and against counts
// computed here: NULL columns, commuted operands, conjunctions, mixed
// integer widths, dates and timestamps, out-of-range constants, and
// filters that must stay on eval.
func TestFastFilter(t *testing.T) {
	_, c := openParallelTest(t)
	ctx := context.Background()
	mustExec := func(sql string) {
		t.Helper()
		if _, err := c.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	mustExec("CREATE TABLE ff (k INT PRIMARY KEY, d.a SMALLINT, d.b INT, d.c BIGINT, d.dt DATE, d.ts TIMESTAMP, p.pad TEXT)")
	mustExec("CREATE TABLE ffsmall (k INT PRIMARY KEY, b INT)")
	const n = 6000
	ival := func(i, m int) string {
		if i%11 == 0 {
			return "NULL"
		}
		return fmt.Sprint(i%m - m/2)
	}
	insertRows(t, c, "ff", n, func(i int) string {
		return fmt.Sprintf("(%d,%s,%s,%s,DATE '2020-01-01' + %d,TIMESTAMP '2020-01-01 00:00:00' + interval '%d minutes','x%d')",
			i, ival(i, 97), ival(i, 1000), ival(i*7919, 1<<20), i%400, i%5000, i)
	})
	insertRows(t, c, "ffsmall", 300, func(i int) string { return fmt.Sprintf("(%d,%s)", i, ival(i, 50)) })

	// want counts the rows of ff for which pred holds (NULL fails).
	type frow struct {
		a, b, c   int64
		null      bool
		day, mins int
	}
	rows := make([]frow, n)
	for i := range rows {
		rows[i] = frow{a: int64(i%97 - 48), b: int64(i%1000 - 500), c: int64((i*7919)%(1<<20) - (1 << 19)),
			null: i%11 == 0, day: i % 400, mins: i % 5000}
	}
	count := func(pred func(r frow) bool) string {
		k := 0
		for _, r := range rows {
			if pred(r) {
				k++
			}
		}
		return fmt.Sprint(k)
	}
	nn := func(f func(r frow) bool) func(r frow) bool {
		return func(r frow) bool { return !r.null && f(r) }
	}
	cases := []struct {
		where string
		fast  bool
		want  string // count(*), computed here; "" to compare with eval only
	}{
		{"b < 10", true, count(nn(func(r frow) bool { return r.b < 10 }))},
		{"10 > b", true, count(nn(func(r frow) bool { return r.b < 10 }))},
		{"a = 3 AND b <> 203", true, count(nn(func(r frow) bool { return r.a == 3 && r.b != 203 }))},
		{"a >= -5 AND a <= 5 AND c > 0", true, count(nn(func(r frow) bool { return r.a >= -5 && r.a <= 5 && r.c > 0 }))},
		{"a < 100000", true, count(nn(func(r frow) bool { return true }))},
		{"b < 3000000000", true, count(nn(func(r frow) bool { return true }))},
		{"c >= -3000000000 AND b > 490", true, count(nn(func(r frow) bool { return r.b > 490 }))},
		{"dt < DATE '2020-01-05'", true, count(func(r frow) bool { return r.day < 4 })},
		{"ts >= TIMESTAMP '2020-01-04 00:00:00'", true, count(func(r frow) bool { return r.mins >= 3*24*60 })},
		// Not the fast shape: eval runs them.
		{"b < 10 OR a = 1", false, count(nn(func(r frow) bool { return r.b < 10 || r.a == 1 }))},
		{"b + 1 < 10", false, count(nn(func(r frow) bool { return r.b+1 < 10 }))},
		{"b < 10.5", false, count(nn(func(r frow) bool { return r.b <= 10 }))},
		{"b < NULL", false, "0"},
		{"a = b", false, count(nn(func(r frow) bool { return r.a == r.b }))},
		{"dt < TIMESTAMP '2020-01-05 00:00:00'", false, count(func(r frow) bool { return r.day < 4 })},
	}
	queries := func(where string) []string {
		return []string{
			"SELECT count(*) FROM ff WHERE " + where,
			"SELECT k, a, b, pad FROM ff WHERE " + where,
			"SELECT a, count(*), sum(b), min(c) FROM ff WHERE " + where + " GROUP BY a ORDER BY a",
			"SELECT k, b FROM ffsmall WHERE " + strings.NewReplacer("a ", "b ", "c ", "b ").Replace(where),
		}
	}
	for _, tc := range cases {
		for qi, q := range queries(tc.where) {
			if qi == 3 && (strings.Contains(tc.where, "dt") || strings.Contains(tc.where, "ts")) {
				continue // ffsmall has no dates
			}
			exec.NoFastFilter.Store(true)
			_, slow, err := c.Query(ctx, q)
			exec.NoFastFilter.Store(false)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			before := exec.FastFilters.Load()
			_, fast, err := c.Query(ctx, q)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			if used := exec.FastFilters.Load() > before; used != tc.fast {
				t.Errorf("%s: fast filter used = %v, want %v", q, used, tc.fast)
			}
			if d := firstDiff(fast, slow); d >= 0 {
				t.Errorf("%s: fast filter gives %d rows, eval %d; first difference at row %d", q, len(fast), len(slow), d)
			}
			if qi == 0 && tc.want != "" && fmt.Sprint(fast) != "[["+tc.want+"]]" {
				t.Errorf("%s: %v, want %s", q, fast, tc.want)
			}
		}
	}
}

// firstDiff returns the index of the first row where a and b differ, or
// -1 when they are equal.
func firstDiff(a, b [][]string) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || strings.Join(a[i], "|") != strings.Join(b[i], "|") {
			return i
		}
	}
	return -1
}

// TestPartialAggDirect checks the aggregates a parallel scan's workers
// fold without eval (agg_partial.go, directAgg), and the integer-keyed
// group table, against the same queries read serially (a transaction
// block never runs a parallel scan): NULL group keys and arguments,
// count(col), avg of integers, and int8 sums that overflow into numeric.
func TestPartialAggDirect(t *testing.T) {
	_, c := openParallelTest(t)
	ctx := context.Background()
	if _, err := c.Exec(ctx, "CREATE TABLE pad (k INT PRIMARY KEY, d.g INT, d.s SMALLINT, d.x BIGINT, d.t TEXT)"); err != nil {
		t.Fatal(err)
	}
	const n = 6000
	insertRows(t, c, "pad", n, func(i int) string {
		g, x := fmt.Sprint(i%37), fmt.Sprint(int64(i)*1_000_003)
		if i%13 == 0 {
			g = "NULL"
		}
		if i%7 == 0 {
			x = "NULL"
		} else if i%5 == 0 {
			x = "9000000000000000000" // sums of these overflow int64
		}
		return fmt.Sprintf("(%d,%s,%d,%s,'t%d')", i, g, i%300-150, x, i%3)
	})
	queries := []string{
		"SELECT g, count(*), count(x), sum(x), avg(s), sum(s), count(s) FROM pad GROUP BY g ORDER BY g",
		"SELECT s, count(*), sum(g), avg(x) FROM pad WHERE g < 30 GROUP BY s ORDER BY s",
		"SELECT t, count(*), sum(x), min(x), max(g) FROM pad GROUP BY t ORDER BY t",
		"SELECT count(*), sum(x), count(g), avg(g) FROM pad",
	}
	for _, q := range queries {
		before := exec.PartialAggStarts.Load()
		_, par, err := c.Query(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if exec.PartialAggStarts.Load() == before {
			t.Errorf("%s: did not aggregate partially", q)
		}
		if _, err := c.Exec(ctx, "BEGIN"); err != nil {
			t.Fatal(err)
		}
		_, ser, err := c.Query(ctx, q)
		if _, cerr := c.Exec(ctx, "COMMIT"); cerr != nil {
			t.Fatal(cerr)
		}
		if err != nil {
			t.Fatalf("%s (serial): %v", q, err)
		}
		if d := firstDiff(par, ser); d >= 0 || len(par) == 0 {
			t.Errorf("%s: parallel %d rows, serial %d; first difference at row %d", q, len(par), len(ser), d)
		}
	}
}
