package tests

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

const recordTimeout = 10 * time.Second

// TestSQL runs every testdata/sql/*.sql file against a fresh database in each
// client mode.
func TestSQL(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "sql", "*.sql"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no testdata/sql/*.sql files")
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".sql")
		t.Run(name, func(t *testing.T) {
			for i, mode := range clientModes {
				t.Run(mode.name, func(t *testing.T) {
					f, err := parseSQLFile(path) // again: an earlier mode may have rewritten it
					if err != nil {
						t.Fatal(err)
					}
					if f.widesqlOnly && *pgURL != "" {
						t.Skip("widesql-only file")
					}
					tg := newTarget(t)
					runSQLFile(t, f, mode.connect(t, tg), tg.postgres, *rewrite && i == 0)
				})
			}
		})
	}
}

// runSQLFile runs f's records in order on one connection. With rewrite set it
// records actual query results and writes them into the file instead of
// failing on a mismatch.
func runSQLFile(t *testing.T, f *sqlFile, c sqlClient, onPostgres, rewrite bool) {
	results := map[*record][]string{}
	for _, r := range f.records {
		if (r.onlyOnWS && onPostgres) || (r.onlyOnPG && !onPostgres) {
			continue
		}
		got, ok := runRecord(t, f, r, c, rewrite)
		if ok && rewrite && r.kind == queryRows && !slices.Equal(got, r.expected) {
			results[r] = got
		}
		if c.broken() {
			t.Fatalf("%s:%d: connection unusable after this record; stopping the file", f.path, r.line)
		}
	}
	if len(results) > 0 {
		if err := f.rewriteResults(results); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote %d results in %s", len(results), f.path)
	}
}

// runRecord runs one record and reports mismatches (except result
// mismatches when rewriting). For a query that ran it returns the actual
// result in file form and ok=true.
func runRecord(t *testing.T, f *sqlFile, r *record, c sqlClient, rewriting bool) (got []string, ok bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), recordTimeout)
	defer cancel()
	where := func() string { return f.path + ":" + strconv.Itoa(r.line) + ":\n" + indent(r.sql) + "\n" }

	switch r.kind {
	case statementOK, statementCount:
		n, err := c.exec(ctx, r.sql)
		if err != nil {
			t.Errorf("%sunexpected error: %v", where(), err)
		} else if r.kind == statementCount && n != r.count {
			t.Errorf("%sexpected %d rows affected, got %d", where(), r.count, n)
		}
	case statementError, queryError:
		var err error
		if r.kind == statementError {
			_, err = c.exec(ctx, r.sql)
		} else {
			_, _, err = c.query(ctx, r.sql)
		}
		checkError(t, where, r, err)
	case queryRows:
		cols, rows, err := c.query(ctx, r.sql)
		if err != nil {
			t.Errorf("%sunexpected error: %v", where(), err)
			return nil, false
		}
		if r.rowsort {
			slices.SortFunc(rows, func(a, b []string) int { return slices.Compare(a, b) })
		}
		table := rows
		if r.colnames {
			table = append([][]string{cols}, rows...)
		}
		got = formatRows(table)
		if !rewriting && !resultMatches(r, len(cols), table) {
			t.Errorf("%sexpected:\n%s\ngot:\n%s", where(), indent(strings.Join(r.expected, "\n")), indent(strings.Join(got, "\n")))
		}
		return got, true
	}
	return nil, false
}

func checkError(t *testing.T, where func() string, r *record, err error) {
	t.Helper()
	if err == nil {
		t.Errorf("%sexpected error %s, got success", where(), r.code)
		return
	}
	code, msg, ok := sqlState(err)
	switch {
	case !ok:
		t.Errorf("%sexpected error %s, got a non-server error: %v", where(), r.code, err)
	case code != r.code:
		t.Errorf("%sexpected error %s, got %s: %s", where(), r.code, code, msg)
	case r.message != "" && !strings.Contains(msg, r.message):
		t.Errorf("%sexpected error %s containing %q, got: %s", where(), r.code, r.message, msg)
	}
}

// resultMatches compares table (rows, with column names first if asked)
// with the record's expected lines value by value.
func resultMatches(r *record, ncols int, table [][]string) bool {
	if len(table) != len(r.expected) {
		return false
	}
	expected := make([][]string, len(r.expected))
	for i, line := range r.expected {
		expected[i] = splitExpected(line, ncols)
	}
	if r.rowsort {
		// The header line, if any, stays first; the rows sort as the actual ones did.
		from := 0
		if r.colnames {
			from = 1
		}
		slices.SortFunc(expected[from:], func(a, b []string) int { return slices.Compare(a, b) })
	}
	for i := range table {
		want, got := expected[i], table[i]
		if ncols == 1 && len(got) == 1 {
			if strings.TrimRight(got[0], " ") != want[0] {
				return false
			}
			continue
		}
		if !slices.Equal(want, got) {
			return false
		}
	}
	return true
}

func indent(s string) string { return "    " + strings.ReplaceAll(s, "\n", "\n    ") }
