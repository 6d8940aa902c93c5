package exec_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/widesql/widesql/exec"
)

// rawEdge are integers at the edges of the raw decoder's varint cases
// (one, two and three bytes, zigzag-encoded) and of the integer types.
var rawEdge = []int64{0, -1, 1, 63, 64, -64, -65, 8191, 8192, -8192, -8193, 1048575, 1048576,
	-1048576, -1048577, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64}

// TestRawDecode checks the scans that judge rows on their raw cells and
// fold them into partial aggregates raw (scan_decode.go,
// scan_decode_agg.go) against the same queries with both turned off and
// against answers computed here: NULL and missing cells (a column added
// after the rows were written), negative values and the varint edges,
// filters on an absent column, several conjuncts on one column, a filter
// family read lazily, group keys beyond the small-key array and NULL
// keys, int8 sums that overflow into numeric, and a table wide enough
// that column ids take two-byte qualifiers.
func TestRawDecode(t *testing.T) {
	_, c := openParallelTest(t)
	ctx := context.Background()
	mustExecT(t, c, "CREATE TABLE rd (k INT PRIMARY KEY, d.a SMALLINT, d.b INT, d.x BIGINT, p.pad TEXT)")
	const n = 5000
	type rrow struct {
		a, b, x, z    int64
		bNull, xNull  bool
		zNull, hasPad bool
	}
	rows := make([]rrow, n)
	insertRows(t, c, "rd", n, func(i int) string {
		r := rrow{a: int64(i%301 - 150), b: rawEdge[i%len(rawEdge)], x: rawEdge[(i*7)%len(rawEdge)]}
		if r.b > math.MaxInt32 || r.b < math.MinInt32 {
			r.b = int64(i) - 2500 // b is an int4
		}
		if i%5 == 0 {
			r.x = 9_000_000_000_000_000_000 // sums of these overflow int64
		}
		b, x := fmt.Sprint(r.b), fmt.Sprint(r.x)
		if r.bNull = i%11 == 0; r.bNull {
			b = "NULL"
		}
		if r.xNull = i%13 == 0; r.xNull {
			x = "NULL"
		}
		rows[i] = r
		return fmt.Sprintf("(%d,%d,%s,%s,'p%d')", i, r.a, b, x, i)
	})
	// z exists only in the rows updated below: the others have no cell.
	mustExecT(t, c, "ALTER TABLE rd ADD COLUMN d.z INT")
	mustExecT(t, c, "UPDATE rd SET z = k % 2000 - 1000 WHERE k % 3 = 0")
	for i := range rows {
		rows[i].zNull = i%3 != 0
		rows[i].z = int64(i%2000 - 1000)
	}

	count := func(pred func(r rrow) bool) string {
		k := 0
		for _, r := range rows {
			if pred(r) {
				k++
			}
		}
		return fmt.Sprint(k)
	}
	cases := []struct {
		where string
		want  string // count(*), computed here
	}{
		{"b < 64", count(func(r rrow) bool { return !r.bNull && r.b < 64 })},
		{"b >= -8192 AND b <= 8192", count(func(r rrow) bool { return !r.bNull && r.b >= -8192 && r.b <= 8192 })},
		{"x > 1048575", count(func(r rrow) bool { return !r.xNull && r.x > 1048575 })},
		{"x = -9223372036854775808", count(func(r rrow) bool { return !r.xNull && r.x == math.MinInt64 })},
		{"z < 0", count(func(r rrow) bool { return !r.zNull && r.z < 0 })},
		{"z <> 5 AND a > 100", count(func(r rrow) bool { return !r.zNull && r.z != 5 && r.a > 100 })},
		{"a = -150", count(func(r rrow) bool { return r.a == -150 })},
	}
	queries := func(where string) []string {
		return []string{
			"SELECT count(*) FROM rd WHERE " + where,
			"SELECT k, a, b, x, z, pad FROM rd WHERE " + where,
			"SELECT k, pad FROM rd WHERE " + where, // pad's family is read lazily
			"SELECT a, count(*), count(z), sum(x), avg(b) FROM rd WHERE " + where + " GROUP BY a ORDER BY a",
			"SELECT k, z FROM rd WHERE k BETWEEN 100 AND 3000 AND " + where, // a serial range scan
		}
	}
	for _, tc := range cases {
		for qi, q := range queries(tc.where) {
			before := exec.RawFilterScans.Load()
			raw := rawVsGeneral(t, c, q)
			if exec.RawFilterScans.Load() == before {
				t.Errorf("%s: did not judge rows raw", q)
			}
			if qi == 0 && fmt.Sprint(raw) != "[["+tc.want+"]]" {
				t.Errorf("%s: %v, want %s", q, raw, tc.want)
			}
		}
	}

	// Raw partial aggregation: every aggregate direct, one integer key.
	groups := []string{
		"SELECT a, count(*), count(b), sum(x), avg(z), sum(b) FROM rd GROUP BY a ORDER BY a",
		"SELECT z, count(*), sum(a) FROM rd GROUP BY z ORDER BY z",   // NULL keys, negative keys
		"SELECT b, count(*), sum(x) FROM rd GROUP BY b ORDER BY b",   // keys beyond the small array
		"SELECT x, count(*), count(z) FROM rd GROUP BY x ORDER BY x", // int8 keys at the edges
		"SELECT a, sum(x) FROM rd WHERE b > 0 GROUP BY a ORDER BY a",
	}
	for _, q := range groups {
		before := exec.RawAggScans.Load()
		rawVsGeneral(t, c, q)
		if exec.RawAggScans.Load() == before {
			t.Errorf("%s: did not aggregate raw", q)
		}
	}
	// Sums computed here: the overflow into numeric and the NULL group.
	sumX := new(big.Int)
	var cntZNull int64
	for _, r := range rows {
		if r.a == 7 && !r.xNull {
			sumX.Add(sumX, big.NewInt(r.x))
		}
		if r.zNull {
			cntZNull++
		}
	}
	_, got, err := c.Query(ctx, "SELECT sum(x) FROM rd WHERE a = 7")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprintf("[[%s]]", sumX) {
		t.Errorf("sum(x) of a = 7: %v, want %s", got, sumX)
	}
	_, got, err = c.Query(ctx, "SELECT z, count(*) FROM rd GROUP BY z ORDER BY z NULLS FIRST LIMIT 1")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprintf("[[NULL %d]]", cntZNull) {
		t.Errorf("NULL group: %v, want [[NULL %d]]", got, cntZNull)
	}
}

// TestRawDecodeWide checks the raw paths on a table of 160 integer
// columns, whose later column ids take two-byte qualifiers, with a
// filter and group key among them.
func TestRawDecodeWide(t *testing.T) {
	_, c := openParallelTest(t)
	ctx := context.Background()
	const cols, n = 160, 1200
	var sb strings.Builder
	sb.WriteString("CREATE TABLE rw (k INT PRIMARY KEY")
	for j := range cols {
		fmt.Fprintf(&sb, ", c%d INT", j)
	}
	sb.WriteString(")")
	mustExecT(t, c, sb.String())
	val := func(i, j int) int64 { return int64((i*(j+3))%997 - 498) }
	insertRows(t, c, "rw", n, func(i int) string {
		var sb strings.Builder
		fmt.Fprintf(&sb, "(%d", i)
		for j := range cols {
			if (i+j)%17 == 0 {
				sb.WriteString(",NULL")
			} else {
				fmt.Fprintf(&sb, ",%d", val(i, j))
			}
		}
		sb.WriteString(")")
		return sb.String()
	})
	want := 0
	for i := range n {
		if (i+150)%17 != 0 && val(i, 150) < 0 && (i+3)%17 != 0 && val(i, 3) > -400 {
			want++
		}
	}
	queries := []string{
		"SELECT count(*) FROM rw WHERE c150 < 0 AND c3 > -400",
		"SELECT k, c0, c150, c159 FROM rw WHERE c150 < 0 AND c3 > -400",
		"SELECT * FROM rw WHERE c140 >= 400",
		"SELECT c135 % 10, count(*) FROM rw GROUP BY 1 ORDER BY 1",
		"SELECT c135, count(*), sum(c159), count(c2) FROM rw WHERE c140 < 100 GROUP BY c135 ORDER BY c135",
	}
	for i, q := range queries {
		got := rawVsGeneral(t, c, q)
		if i == 0 && fmt.Sprint(got) != fmt.Sprintf("[[%d]]", want) {
			t.Errorf("%s: %v, want %d", q, got, want)
		}
	}
	if _, _, err := c.Query(ctx, "SELECT 1"); err != nil {
		t.Fatal(err)
	}
}

// rawVsGeneral runs q with the raw paths off, then on, fails the test
// when the results differ, and returns them.
func rawVsGeneral(t *testing.T, c *sessionClient, q string) [][]string {
	t.Helper()
	ctx := context.Background()
	exec.NoRawDecode.Store(true)
	_, general, err := c.Query(ctx, q)
	exec.NoRawDecode.Store(false)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	_, raw, err := c.Query(ctx, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if d := firstDiff(raw, general); d >= 0 || len(raw) == 0 {
		t.Errorf("%s: raw %d rows, general %d; first difference at row %d", q, len(raw), len(general), d)
	}
	return raw
}
