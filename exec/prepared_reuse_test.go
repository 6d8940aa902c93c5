package exec_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/widesql/widesql/exec"
	"github.com/widesql/widesql/kv/memstore"
	"github.com/widesql/widesql/pgwire"
)

// TestPreparedTreeReuse runs one prepared keyed read many times with other
// parameters, with two of its portals open at once, through empty key
// sets, errors and a re-plan after DDL: a prepared statement keeps the
// operator tree of a keyed read between executions (reusablePlan), and
// every execution must see its own parameters and rows.
func TestPreparedTreeReuse(t *testing.T) {
	ctx := context.Background()
	c := memSessionClient(t)
	for _, q := range []string{
		"CREATE TABLE r (a INT, b INT, v TEXT, PRIMARY KEY (a, b))",
		"INSERT INTO r SELECT g / 10, g % 10, 'v' || g FROM generate_series(0, 99) g",
	} {
		if _, _, _, err := c.run(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	prepare := func(sql string) pgwire.Prepared { return exec.MustPrepare(t, c.s, sql) }
	bind := func(p pgwire.Prepared, args ...any) pgwire.Portal {
		raw := make([][]byte, len(args))
		for i, a := range args {
			if a != nil {
				raw[i] = []byte(fmt.Sprint(a))
			}
		}
		pt, err := p.Bind(ctx, raw, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return pt
	}
	// next returns the portal's next row as text, "" at the end, or the
	// error's text.
	next := func(pt pgwire.Portal) string {
		vals, err := pt.Next(ctx)
		if errors.Is(err, io.EOF) {
			return ""
		}
		if err != nil {
			return "error: " + err.Error()
		}
		out := make([]string, len(vals))
		for i, v := range vals {
			out[i] = string(v)
			if v == nil {
				out[i] = "NULL"
			}
		}
		return strings.Join(out, ",")
	}
	all := func(pt pgwire.Portal) string {
		defer pt.Close()
		var rows []string
		for r := next(pt); r != ""; r = next(pt) {
			rows = append(rows, r)
			if strings.HasPrefix(r, "error") {
				break
			}
		}
		return strings.Join(rows, " ")
	}
	check := func(what, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s: got %q, want %q", what, got, want)
		}
	}

	get := prepare("SELECT v, b FROM r WHERE a = $1 AND b = $2")
	for i := 0; i < 30; i++ {
		check("point get", all(bind(get, i%10, i%7)), fmt.Sprintf("v%d,%d", i%10*10+i%7, i%7))
	}
	check("NULL key", all(bind(get, nil, 1)), "")
	check("after an empty key set", all(bind(get, 3, 4)), "v34,4")
	check("missing row", all(bind(get, 42, 1)), "")
	check("after a missing row", all(bind(get, 9, 9)), "v99,9")

	rng := prepare("SELECT b, v FROM r WHERE a = $1 AND b >= $2 ORDER BY b LIMIT $3")
	check("range", all(bind(rng, 2, 5, 3)), "5,v25 6,v26 7,v27")
	// A named portal left suspended while another runs the same statement.
	open := bind(rng, 4, 0, 10)
	check("first portal, row 1", next(open), "0,v40")
	check("second portal", all(bind(rng, 7, 8, 10)), "8,v78 9,v79")
	check("third portal", all(bind(rng, 1, 1, 2)), "1,v11 2,v12")
	check("first portal, row 2", next(open), "1,v41")
	check("first portal, rest", all(open), "2,v42 3,v43 4,v44 5,v45 6,v46 7,v47 8,v48 9,v49")
	check("negative limit", all(bind(rng, 2, 5, -1)), "error: LIMIT must not be negative")
	check("after an error", all(bind(rng, 2, 8, 5)), "8,v28 9,v29")
	check("no limit", all(bind(rng, 5, 7, nil)), "7,v57 8,v58 9,v59")

	in := prepare("SELECT a, b FROM r WHERE a = $1 AND b IN ($2, $3, $4) ORDER BY b")
	check("multi-get", all(bind(in, 6, 9, 1, 5)), "6,1 6,5 6,9")
	check("multi-get again", all(bind(in, 0, 3, 3, nil)), "0,3")

	// DDL re-plans the statement: the kept tree belongs to the old plan.
	if _, _, _, err := c.run(ctx, "ALTER TABLE r ADD COLUMN w INT"); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := c.run(ctx, "UPDATE r SET v = 'x' WHERE a = 3 AND b = 4"); err != nil {
		t.Fatal(err)
	}
	check("after DDL", all(bind(get, 3, 4)), "x,4")
	check("after DDL, again", all(bind(get, 3, 5)), "v35,5")
}

// TestPreparedRangeReuse runs prepared ranges again and again with other
// bounds, over an ascending and a descending key column: a kept tree
// encodes each execution's bounds into the buffers of the last one, and
// a query keeps the tag of its last large row count.
func TestPreparedRangeReuse(t *testing.T) {
	ctx := context.Background()
	c := memSessionClient(t)
	for _, q := range []string{
		"CREATE TABLE ra (a INT, b INT, PRIMARY KEY (a, b))",
		"CREATE TABLE rd (a INT, b INT, PRIMARY KEY (a, b DESC))",
		"INSERT INTO ra SELECT g / 100, g % 100 FROM generate_series(0, 299) g",
		"INSERT INTO rd SELECT g / 100, g % 100 FROM generate_series(0, 299) g",
	} {
		if _, _, _, err := c.run(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	// run returns the b values and the tag of one execution.
	run := func(p pgwire.Prepared, args ...int) (string, string) {
		raw := make([][]byte, len(args))
		for i, a := range args {
			raw[i] = []byte(fmt.Sprint(a))
		}
		pt, err := p.Bind(ctx, raw, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer pt.Close()
		var bs []string
		for {
			vals, err := pt.Next(ctx)
			if errors.Is(err, io.EOF) {
				return strings.Join(bs, ","), pt.Tag()
			}
			if err != nil {
				t.Fatal(err)
			}
			bs = append(bs, string(vals[0]))
		}
	}
	// want lists b in (lo, hi] in the order of the key column.
	want := func(lo, hi int, desc bool) (string, string) {
		var bs []string
		for b := range 100 {
			if b > lo && b <= hi {
				bs = append(bs, fmt.Sprint(b))
			}
		}
		if desc {
			slices.Reverse(bs)
		}
		return strings.Join(bs, ","), fmt.Sprintf("SELECT %d", len(bs))
	}
	bounds := [][2]int{{10, 40}, {-5, 3}, {90, 200}, {0, 99}, {50, 50}, {60, 20}, {-1, 98}, {30, 40}, {10, 40}}
	for _, table := range []string{"ra", "rd"} {
		p := exec.MustPrepare(t, c.s, "SELECT b FROM "+table+" WHERE a = $1 AND b > $2 AND b <= $3")
		for i, bd := range bounds {
			a := i % 3
			rows, tag := run(p, a, bd[0], bd[1])
			wantRows, wantTag := want(bd[0], bd[1], table == "rd")
			if rows != wantRows || tag != wantTag {
				t.Errorf("%s a=%d b in (%d, %d]: got %q %q, want %q %q", table, a, bd[0], bd[1], rows, tag, wantRows, wantTag)
			}
		}
	}
}

// memSessionClient opens an engine on a fresh in-memory store and a
// session on it, closed when the test ends.
func memSessionClient(t *testing.T) *sessionClient {
	t.Helper()
	ctx := context.Background()
	eng, err := exec.Open(ctx, memstore.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := eng.NewSession(ctx, map[string]string{"user": "test", "database": "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close() })
	return &sessionClient{s: sess}
}
