package slt

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/widesql/widesql/tests/sqltest"
)

// Options shape a run.
type Options struct {
	// Engine is the name skipif/onlyif match: "widesql" or "postgresql".
	Engine string
	// Rewrite writes the actual results into the file instead of failing
	// on a mismatch (run against PostgreSQL to produce expected answers).
	Rewrite bool
}

// Reporter is the part of testing.TB that Run reports through; a
// *testing.T is one. Fatalf must not return.
type Reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
}

var _ Reporter = (testing.TB)(nil)

// Run runs the file's records in order on one connection, reporting each
// mismatch through t and going on with the next record.
func Run(t Reporter, f *File, c sqltest.Client, o Options) {
	t.Helper()
	threshold := 0
	labels := map[string]string{} // label -> hash of the first result
	rewritten := map[*Record][]string{}
	for _, r := range f.Records {
		if !r.Runs(o.Engine) {
			continue
		}
		where := fmt.Sprintf("%s:%d:\n    %s\n", f.Path, r.Line, strings.ReplaceAll(r.SQL, "\n", "\n    "))
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		switch r.Kind {
		case Halt:
			cancel()
			goto done
		case HashThreshold:
			threshold = r.Threshold
		case Statement:
			_, err := c.Exec(ctx, r.SQL)
			switch {
			case r.WantError && err == nil:
				t.Errorf("%sexpected an error, got success", where)
			case !r.WantError && err != nil:
				t.Errorf("%sunexpected error: %v", where, err)
			case r.WantError && r.ErrorText != "" && !strings.Contains(err.Error(), r.ErrorText):
				t.Errorf("%sexpected an error containing %q, got: %v", where, r.ErrorText, err)
			}
		case Query:
			cols, rows, err := c.Query(ctx, r.SQL)
			if err != nil {
				t.Errorf("%sunexpected error: %v", where, err)
				break
			}
			if len(cols) != len(r.Types) {
				t.Errorf("%sthe query returns %d columns, the record declares %d (%s)", where, len(cols), len(r.Types), r.Types)
				break
			}
			vals := values(r, rows)
			got := vals
			if len(vals) > threshold && threshold > 0 || r.ExpectedHash != "" {
				got = []string{fmt.Sprintf("%d values hashing to %s", len(vals), hash(vals))}
			}
			if r.Label != "" {
				h := hash(vals)
				if prev, ok := labels[r.Label]; ok && prev != h {
					t.Errorf("%sresult differs from the earlier query labelled %q", where, r.Label)
				}
				labels[r.Label] = h
			}
			want := r.Expected
			if r.ExpectedHash != "" {
				want = []string{fmt.Sprintf("%d values hashing to %s", r.ExpectedCount, r.ExpectedHash)}
			}
			if !slices.Equal(got, want) {
				if o.Rewrite {
					rewritten[r] = got
				} else {
					t.Errorf("%sexpected:\n    %s\ngot:\n    %s", where, strings.Join(want, "\n    "), strings.Join(got, "\n    "))
				}
			}
		}
		cancel()
		if c.Broken() {
			t.Fatalf("%sconnection unusable after this record", where)
		}
	}
done:
	if len(rewritten) > 0 {
		if err := f.rewrite(rewritten); err != nil {
			t.Fatalf("rewriting %s: %v", f.Path, err)
		}
		t.Logf("rewrote %d results in %s", len(rewritten), f.Path)
	}
}

// values renders rows (in the files' text form) as the record's typed,
// sorted value list.
func values(r *Record, rows [][]string) []string {
	out := make([][]string, len(rows))
	for i, row := range rows {
		out[i] = make([]string, len(row))
		for j, v := range row {
			out[i][j] = format(v, r.Types[j])
		}
	}
	if r.Sort == RowSort {
		slices.SortFunc(out, func(a, b []string) int { return slices.Compare(a, b) })
	}
	var flat []string
	for _, row := range out {
		flat = append(flat, row...)
	}
	if r.Sort == ValueSort {
		slices.Sort(flat)
	}
	return flat
}

// format renders one value as sqllogictest prints a column of type typ.
func format(v string, typ byte) string {
	switch v {
	case sqltest.NullText:
		return "NULL"
	case sqltest.EmptyText:
		v = ""
	}
	switch typ {
	case 'I':
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return strconv.FormatInt(n, 10)
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return strconv.FormatInt(int64(f), 10)
		}
		switch v {
		case "t":
			return "1"
		case "f":
			return "0"
		}
	case 'R':
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return fmt.Sprintf("%.3f", f)
		}
	}
	if v == "" {
		return "(empty)"
	}
	b := []byte(v)
	for i, c := range b {
		if c < 0x20 || c > 0x7e {
			b[i] = '@'
		}
	}
	return string(b)
}

// hash is the sqllogictest result hash: MD5 over every value followed by
// a newline.
func hash(vals []string) string {
	h := md5.New()
	for _, v := range vals {
		h.Write([]byte(v))
		h.Write([]byte("\n"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// rewrite writes the file back with the result lines of each record in
// results replaced.
func (f *File) rewrite(results map[*Record][]string) error {
	var edits []sqltest.Edit
	for _, r := range f.Records {
		if got, ok := results[r]; ok {
			edits = append(edits, sqltest.Edit{From: r.resultAt[0], To: r.resultAt[1], Lines: got})
		}
	}
	return sqltest.WriteEdited(f.Path, f.lines, edits)
}
