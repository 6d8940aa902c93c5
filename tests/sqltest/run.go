package sqltest

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// NullText and EmptyText are how results spell NULL and the empty string.
const (
	NullText  = "NULL"
	EmptyText = "(empty)"
)

// CellText renders a non-NULL text value in the files' form.
func CellText(s string) string {
	if s == "" {
		return EmptyText
	}
	return s
}

// Client runs one statement at a time on one connection and reports
// results in the files' text form: each value as PostgreSQL's text output,
// NullText for NULL, EmptyText for the empty string.
type Client interface {
	// Exec runs a statement and returns the rows affected from its command tag.
	Exec(ctx context.Context, query string) (int64, error)
	// Query runs a statement and returns its column names and rows.
	Query(ctx context.Context, query string) (cols []string, rows [][]string, err error)
	// Broken reports whether the connection is unusable.
	Broken() bool
}

// Options shape a run.
type Options struct {
	// OnPostgres runs `# postgres-only` records and skips `# widesql-only`
	// ones.
	OnPostgres bool
	// Rewrite records actual query results into the file instead of
	// failing on a mismatch.
	Rewrite bool
	// SQLState extracts the SQLSTATE and message of a server error, ok=false
	// for any other error.
	SQLState func(error) (code, msg string, ok bool)
	// RecordTimeout bounds each record; 0 means 10 s.
	RecordTimeout time.Duration
}

// Files returns the *.sql files of dir, sorted.
func Files(t testing.TB, dir string) []string {
	paths, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no %s/*.sql files", dir)
	}
	return paths
}

// Name is a file's test name: its base name without .sql.
func Name(path string) string { return strings.TrimSuffix(filepath.Base(path), ".sql") }

// Run runs f's records in order on one connection.
func Run(t *testing.T, f *File, c Client, o Options) {
	t.Helper()
	if o.RecordTimeout == 0 {
		o.RecordTimeout = 10 * time.Second
	}
	results := map[*record][]string{}
	for _, r := range f.records {
		if (r.onlyOnWS && o.OnPostgres) || (r.onlyOnPG && !o.OnPostgres) {
			continue
		}
		got, ok := runRecord(t, f, r, c, o)
		if ok && o.Rewrite && r.kind == QueryRows && !slices.Equal(got, r.expected) {
			results[r] = got
		}
		if c.Broken() {
			t.Fatalf("%s: connection unusable after this record; stopping the file", r.pos(f))
		}
	}
	if len(results) > 0 {
		if err := f.rewriteResults(results); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote %d results in %s", len(results), f.Path)
	}
}

// runRecord runs one record and reports mismatches (except result
// mismatches when rewriting). For a query that ran it returns the actual
// result in file form and ok=true.
func runRecord(t *testing.T, f *File, r *record, c Client, o Options) (got []string, ok bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), o.RecordTimeout)
	defer cancel()
	where := func() string { return r.pos(f) + ":\n" + indent(r.sql) + "\n" }

	switch r.kind {
	case StatementOK, StatementCount:
		n, err := c.Exec(ctx, r.sql)
		if err != nil {
			t.Errorf("%sunexpected error: %v", where(), err)
		} else if r.kind == StatementCount && n != r.count {
			t.Errorf("%sexpected %d rows affected, got %d", where(), r.count, n)
		}
	case StatementError, QueryError:
		var err error
		if r.kind == StatementError {
			_, err = c.Exec(ctx, r.sql)
		} else {
			_, _, err = c.Query(ctx, r.sql)
		}
		checkError(t, where, r, err, o.SQLState)
	case QueryRows:
		cols, rows, err := c.Query(ctx, r.sql)
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
		if !o.Rewrite && !resultMatches(r, len(cols), table) {
			t.Errorf("%sexpected:\n%s\ngot:\n%s", where(), indent(strings.Join(r.expected, "\n")), indent(strings.Join(got, "\n")))
		}
		return got, true
	}
	return nil, false
}

func checkError(t *testing.T, where func() string, r *record, err error, sqlState func(error) (string, string, bool)) {
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
