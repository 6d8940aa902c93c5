package exec

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/widesql/widesql/kv/memstore"
	"github.com/widesql/widesql/pgwire"
)

// TestRawTextOutput checks the raw TEXT output path (row_raw.go): TEXT
// columns returned as they are stored are copied from the cells into the
// DataRow, in both result formats and through both of the portal's row
// paths (AppendRow and Next), with NULLs, empty strings, columns in
// another family, a column added by ALTER TABLE that old rows lack, and
// rows whose cells differ in presence. Columns that an expression reads
// (a filter, a computed output) must keep the decoded path; the test
// checks which columns took the raw path, so that it fails if the fast
// path is silently off.
func TestRawTextOutput(t *testing.T) {
	ctx := context.Background()
	eng, err := Open(ctx, memstore.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := eng.NewSession(ctx, map[string]string{"user": "test", "database": "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer ps.Close()
	prepare := func(sql string) pgwire.Prepared { return MustPrepare(t, ps, sql) }
	// run executes sql with args and result formats fmts, returning its
	// rows as "a|b|NULL" lines and the raw output columns of its portal.
	// A statement is prepared once: later runs reuse its operator tree.
	stmts := map[string]pgwire.Prepared{}
	run := func(sql string, appendRow bool, fmts []int16, args ...any) (rows []string, raw []int) {
		t.Helper()
		p := stmts[sql]
		if p == nil {
			p = prepare(sql)
			stmts[sql] = p
		}
		params := make([][]byte, len(args))
		for i, a := range args {
			params[i] = []byte(fmt.Sprint(a))
		}
		pgp, err := p.Bind(ctx, params, nil, fmts)
		if err != nil {
			t.Fatal(err)
		}
		pt := pgp.(*portal)
		defer pt.Close()
		for {
			var vals []string
			if appendRow {
				b, err := pt.AppendRow(ctx, nil)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				n := int(binary.BigEndian.Uint16(b))
				b = b[2:]
				for range n {
					l := int32(binary.BigEndian.Uint32(b))
					b = b[4:]
					if l < 0 {
						vals = append(vals, "NULL")
						continue
					}
					vals = append(vals, string(b[:l]))
					b = b[l:]
				}
				if len(b) != 0 {
					t.Fatalf("%s: %d trailing bytes in a DataRow", sql, len(b))
				}
			} else {
				out, err := pt.Next(ctx)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range out {
					s := string(v)
					if v == nil {
						s = "NULL"
					}
					vals = append(vals, s)
				}
			}
			if raw == nil {
				raw = append([]int{}, pt.raw...)
			}
			rows = append(rows, strings.Join(vals, "|"))
		}
		return rows, raw
	}
	exec := func(sql string) {
		t.Helper()
		p := prepare(sql)
		pt, err := p.Bind(ctx, nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := pt.Next(ctx); err != nil {
				if !errors.Is(err, io.EOF) {
					t.Fatalf("%s: %v", sql, err)
				}
				break
			}
		}
		pt.Close()
	}
	exec("CREATE TABLE rt (a INT, b INT, v TEXT, f2.w TEXT, n INT, PRIMARY KEY (a, b))")
	exec(`INSERT INTO rt SELECT g / 10, g % 10,
		CASE g % 5 WHEN 0 THEN NULL WHEN 1 THEN '' ELSE 'v' || g END,
		CASE WHEN g % 3 = 0 THEN NULL ELSE repeat('w', g) END, g
		FROM generate_series(0, 59) g`)
	text := func(g int) (v, w string) {
		switch g % 5 {
		case 0:
			v = "NULL"
		case 1:
			v = ""
		default:
			v = fmt.Sprintf("v%d", g)
		}
		w = strings.Repeat("w", g)
		if g%3 == 0 {
			w = "NULL"
		}
		return v, w
	}
	check := func(name string, got, want []string, raw, wantRaw []int) {
		t.Helper()
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: rows\n%s\nwant\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if fmt.Sprint(raw) != fmt.Sprint(wantRaw) {
			t.Errorf("%s: raw columns %v, want %v", name, raw, wantRaw)
		}
	}
	for _, appendRow := range []bool{true, false} {
		for _, fmts := range [][]int16{nil, {0, 0, 0, 0}, {0, 1, 1, 0}} {
			name := fmt.Sprintf("range appendRow=%v formats=%v", appendRow, fmts)
			// Range: v (slot 2) and w (slot 3) are raw, n is not TEXT.
			for _, a := range []int{1, 2, 4} {
				got, raw := run("SELECT b, v, w, n FROM rt WHERE a = $1 AND b BETWEEN $2 AND $3 ORDER BY b", appendRow, fmts, a, 2, 7)
				var want []string
				for b := 2; b <= 7; b++ {
					g := a*10 + b
					v, w := text(g)
					nb, ng := fmt.Sprint(b), fmt.Sprint(g)
					want = append(want, strings.Join([]string{nb, v, w, ng}, "|"))
				}
				check(name, got, want, raw, []int{-1, 2, 3, -1})
			}
		}
		// Multi-get of whole rows, no projection above the scan.
		got, raw := run("SELECT * FROM rt WHERE a = 3 AND b IN (0, 1, 2, 9)", appendRow, nil)
		var want []string
		for _, b := range []int{0, 1, 2, 9} {
			g := 30 + b
			v, w := text(g)
			want = append(want, fmt.Sprintf("3|%d|%s|%s|%d", b, v, w, g))
		}
		check("multi-get *", got, want, raw, []int{-1, -1, 2, 3, -1})
		// A filter reads v: v is decoded; w stays raw.
		got, raw = run("SELECT v, w FROM rt WHERE a = 5 AND v LIKE 'v5%'", appendRow, nil)
		want = nil
		for b := range 10 {
			if v, w := text(50 + b); strings.HasPrefix(v, "v5") {
				want = append(want, v+"|"+w)
			}
		}
		check("filtered", got, want, raw, []int{-1, 3})
		// A computed column reads w: w is decoded, v stays raw.
		got, raw = run("SELECT v, length(w), w FROM rt WHERE a = 0 AND b = 2", appendRow, nil)
		check("computed", got, []string{"v2|2|ww"}, raw, []int{2, -1, -1})
		// An expression over a key and an integer only: both texts raw.
		got, raw = run("SELECT b + 1, w, v FROM rt WHERE a = 0 AND b = 4", appendRow, nil)
		check("computed key", got, []string{"5|wwww|v4"}, raw, []int{-1, 3, 2})
	}
	// A column added later: old rows have no cell for it; new ones do.
	exec("ALTER TABLE rt ADD COLUMN f3.z TEXT")
	exec("INSERT INTO rt VALUES (9, 0, 'x', NULL, 90, 'zed'), (9, 1, NULL, 'y', 91, '')")
	exec("UPDATE rt SET z = 'upd' WHERE a = 0 AND b = 1")
	for _, appendRow := range []bool{true, false} {
		got, raw := run("SELECT a, b, z, v, w FROM rt WHERE a IN (0, 9) AND b IN (0, 1)", appendRow, nil)
		want := []string{"0|0|NULL|NULL|NULL", "0|1|upd||w", "9|0|zed|x|NULL", "9|1||NULL|y"}
		check("added column", got, want, raw, []int{-1, -1, 5, 2, 3})
	}
}
