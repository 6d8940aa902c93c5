package exec_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/widesql/widesql/exec"
	"github.com/widesql/widesql/pgwire"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// TestPreparedDirectOutput runs prepared statements whose result is a
// projection of bare columns (permuted, repeated, NULL) through both of a
// portal's row paths (Next and AppendRow), in text and binary formats:
// such a portal reads its rows from the projection's input by the
// statement's column map (directColumns), which must follow the plan
// through DDL that moves the table's columns (ALTER TABLE, DROP and
// CREATE again under the same name).
func TestPreparedDirectOutput(t *testing.T) {
	ctx := context.Background()
	c := memSessionClient(t)
	exec1 := func(q string) {
		t.Helper()
		if _, _, _, err := c.run(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec1("CREATE TABLE d (a INT, b INT, v TEXT, n INT, PRIMARY KEY (a, b))")
	exec1("INSERT INTO d SELECT g / 10, g % 10, 'v' || g, CASE WHEN g % 3 = 0 THEN NULL ELSE g * 7 END FROM generate_series(0, 49) g")

	// run executes p with args through Next (appender false) or AppendRow
	// and returns its rows as text, "|" between rows.
	run := func(p pgwire.Prepared, appender bool, formats []int16, args ...int) string {
		t.Helper()
		raw := make([][]byte, len(args))
		for i, a := range args {
			raw[i] = []byte(fmt.Sprint(a))
		}
		pt, err := p.Bind(ctx, raw, nil, formats)
		if err != nil {
			t.Fatal(err)
		}
		defer pt.Close()
		var rows []string
		for {
			var vals [][]byte
			if appender {
				var dr []byte
				dr, err = pt.(pgwire.RowAppender).AppendRow(ctx, nil)
				if err == nil {
					vals = splitDataRow(t, dr)
				}
			} else {
				vals, err = pt.Next(ctx)
			}
			if errors.Is(err, io.EOF) {
				return strings.Join(rows, "|")
			}
			if err != nil {
				return "error: " + err.Error()
			}
			out := make([]string, len(vals))
			for i, v := range vals {
				switch {
				case v == nil:
					out[i] = "NULL"
				case len(formats) > 0 && formats[0] == 1 && len(v) == 4:
					out[i] = fmt.Sprint(int32(binary.BigEndian.Uint32(v)))
				default:
					out[i] = string(v)
				}
			}
			rows = append(rows, strings.Join(out, ","))
		}
	}
	check := func(what, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s: got %q, want %q", what, got, want)
		}
	}
	both := func(what string, p pgwire.Prepared, formats []int16, want string, args ...int) {
		t.Helper()
		for i := 0; i < 3; i++ { // again and again: the kept tree and portal
			check(what+" (Next)", run(p, false, formats, args...), want)
			check(what+" (AppendRow)", run(p, true, formats, args...), want)
		}
	}

	get := exec.MustPrepare(t, c.s, "SELECT n, v, b, b, a FROM d WHERE a = $1 AND b = $2")
	both("point get", get, nil, "NULL,v30,0,0,3", 3, 0)
	both("point get 2", get, nil, "217,v31,1,1,3", 3, 1)
	both("missing row", get, nil, "", 9, 9)
	rng := exec.MustPrepare(t, c.s, "SELECT b, n, a FROM d WHERE a = $1 AND b BETWEEN $2 AND $3 ORDER BY b")
	both("range", rng, nil, "2,NULL,4|3,301,4|4,308,4", 4, 2, 4)
	both("range, binary", rng, []int16{1}, "2,NULL,4|3,301,4|4,308,4", 4, 2, 4)
	// A computed column is no direct output: the projection runs.
	calc := exec.MustPrepare(t, c.s, "SELECT b, n + 1, a FROM d WHERE a = $1 AND b BETWEEN $2 AND $3 ORDER BY b")
	both("computed", calc, nil, "2,NULL,4|3,302,4|4,309,4", 4, 2, 4)

	// A new column moves nothing but re-plans the statements.
	exec1("ALTER TABLE d ADD COLUMN w INT")
	exec1("UPDATE d SET n = 1000, w = 5 WHERE a = 4 AND b = 3")
	both("range after ALTER", rng, nil, "2,NULL,4|3,1000,4|4,308,4", 4, 2, 4)
	both("point get after ALTER", get, nil, "217,v31,1,1,3", 3, 1)

	// The same name, the columns in another order: the column map of the
	// old plan would read the wrong slots.
	exec1("DROP TABLE d")
	exec1("CREATE TABLE d (v TEXT, n INT, b INT, x TEXT, a INT, PRIMARY KEY (a, b))")
	exec1("INSERT INTO d (a, b, v, n, x) SELECT g / 10, g % 10, 'new' || g, g, 'x' FROM generate_series(0, 49) g")
	both("point get after re-CREATE", get, nil, "31,new31,1,1,3", 3, 1)
	both("range after re-CREATE", rng, nil, "2,42,4|3,43,4|4,44,4", 4, 2, 4)
	both("range after re-CREATE, binary", rng, []int16{1}, "2,42,4|3,43,4|4,44,4", 4, 2, 4)
	both("computed after re-CREATE", calc, nil, "2,43,4|3,44,4|4,45,4", 4, 2, 4)

	// search_path: widesql has one schema (CREATE SCHEMA is refused), so
	// a new search_path changes no name's table; the statements go on.
	exec1("SET search_path = pg_catalog, public")
	both("range on a new search_path", rng, nil, "2,42,4|3,43,4|4,44,4", 4, 2, 4)
	exec1("SET search_path = public")
	both("range on the old search_path again", rng, nil, "2,42,4|3,43,4|4,44,4", 4, 2, 4)
}

// splitDataRow splits a DataRow body (AppendRow's output) into its
// values, nil for NULL.
func splitDataRow(t *testing.T, b []byte) [][]byte {
	t.Helper()
	if len(b) < 2 {
		t.Fatalf("short DataRow %q", b)
	}
	n := int(binary.BigEndian.Uint16(b))
	b = b[2:]
	vals := make([][]byte, n)
	for i := range vals {
		l := int32(binary.BigEndian.Uint32(b))
		b = b[4:]
		if l < 0 {
			continue
		}
		vals[i], b = b[:l], b[l:]
	}
	if len(b) != 0 {
		t.Fatalf("%d bytes after the DataRow's values", len(b))
	}
	return vals
}

// TestPreparedIntParams binds integer parameters in text, which Bind
// parses without a string when they are plain digits: every other
// spelling must still be read, or rejected, as PostgreSQL does.
func TestPreparedIntParams(t *testing.T) {
	ctx := context.Background()
	c := memSessionClient(t)
	for _, q := range []string{
		"CREATE TABLE ip (s SMALLINT, i INT, b BIGINT, PRIMARY KEY (s, i, b))",
		"INSERT INTO ip VALUES (-32768, -2147483648, -9223372036854775808), (32767, 2147483647, 9223372036854775807), (0, 7, 1000000000000000000)",
	} {
		if _, _, _, err := c.run(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	p := exec.MustPrepare(t, c.s, "SELECT s, i, b FROM ip WHERE s = $1 AND i = $2 AND b = $3")
	run := func(args ...string) string {
		raw := make([][]byte, len(args))
		for i, a := range args {
			raw[i] = []byte(a)
		}
		pt, err := p.Bind(ctx, raw, nil, nil)
		if err != nil {
			return "error " + pgerror.Flatten(err).Code + ": " + pgerror.Flatten(err).Message
		}
		defer pt.Close()
		var rows []string
		for {
			vals, err := pt.Next(ctx)
			if errors.Is(err, io.EOF) {
				return strings.Join(rows, "|")
			}
			if err != nil {
				return "error: " + err.Error()
			}
			rows = append(rows, fmt.Sprintf("%s,%s,%s", vals[0], vals[1], vals[2]))
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-32768", "-2147483648", "-9223372036854775808"}, "-32768,-2147483648,-9223372036854775808"},
		{[]string{"32767", "2147483647", "9223372036854775807"}, "32767,2147483647,9223372036854775807"},
		{[]string{"0", "7", "1000000000000000000"}, "0,7,1000000000000000000"},
		{[]string{"-0", "+7", " 1000000000000000000 "}, "0,7,1000000000000000000"},
		{[]string{"00", "0007", "1_000_000_000_000_000_000"}, "0,7,1000000000000000000"},
		{[]string{"0", "8", "1000000000000000000"}, ""},
		{[]string{"32768", "7", "1"}, `error 22003: value "32768" is out of range for type smallint (parameter $1)`},
		{[]string{"0", "2147483648", "1"}, `error 22003: value "2147483648" is out of range for type integer (parameter $2)`},
		{[]string{"0", "-2147483649", "1"}, `error 22003: value "-2147483649" is out of range for type integer (parameter $2)`},
		{[]string{"0", "7", "9223372036854775808"}, `error 22003: value "9223372036854775808" is out of range for type bigint (parameter $3)`},
		{[]string{"0", "7", "99999999999999999999"}, `error 22003: value "99999999999999999999" is out of range for type bigint (parameter $3)`},
		{[]string{"0", "7a", "1"}, `error 22P02: invalid input syntax for type integer: "7a" (parameter $2)`},
		{[]string{"0", "-", "1"}, `error 22P02: invalid input syntax for type integer: "-" (parameter $2)`},
		{[]string{"0", "", "1"}, `error 22P02: invalid input syntax for type integer: "" (parameter $2)`},
		{[]string{"0", "--7", "1"}, `error 22P02: invalid input syntax for type integer: "--7" (parameter $2)`},
		{[]string{"0", "7:", "1"}, `error 22P02: invalid input syntax for type integer: "7:" (parameter $2)`},
		{[]string{"0", "/7", "1"}, `error 22P02: invalid input syntax for type integer: "/7" (parameter $2)`},
	} {
		got, want := run(tc.args...), tc.want
		if got != want {
			t.Errorf("%q: got %q, want %q", tc.args, got, want)
		}
	}
}
