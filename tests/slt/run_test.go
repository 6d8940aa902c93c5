package slt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/widesql/widesql/tests/sqltest"
)

// fakeClient answers each SQL text from a table and logs what ran.
type fakeClient struct {
	results map[string][][]string // SQL -> rows (the first row holds the column names)
	fail    map[string]string     // SQL -> error message
	ran     []string
}

func (c *fakeClient) Exec(ctx context.Context, sql string) (int64, error) {
	_, _, err := c.Query(ctx, sql)
	return 0, err
}

func (c *fakeClient) Query(_ context.Context, sql string) ([]string, [][]string, error) {
	c.ran = append(c.ran, sql)
	if msg, ok := c.fail[sql]; ok {
		return nil, nil, errors.New(msg)
	}
	rows, ok := c.results[sql]
	if !ok {
		return nil, nil, nil // a statement
	}
	return rows[0], rows[1:], nil
}

func (c *fakeClient) Broken() bool { return false }

var _ sqltest.Client = (*fakeClient)(nil)

// recorder collects what Run reports.
type recorder struct{ errors, logs []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	panic("Fatalf: " + fmt.Sprintf(format, args...))
}
func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

// The fake's canned results, shared by the cases below.
func newFake() *fakeClient {
	return &fakeClient{
		results: map[string][][]string{
			"SELECT two":   {{"a", "b"}, {"2", "b"}, {"1", "a"}},
			"SELECT three": {{"t", "n"}, {"c", "3"}, {"a", "1"}, {"b", "2"}},
			"SELECT same":  {{"t", "n"}, {"b", "2"}, {"a", "1"}, {"c", "3"}},
			"SELECT other": {{"t", "n"}, {"a", "1"}},
			"SELECT mixed": {{"i", "r", "t"}, {"1.0", "2", "t"}, {"NULL", "0.5", "(empty)"}},
		},
		fail: map[string]string{"SELECT bad": "ERROR: no such thing (SQLSTATE 42P01)"},
	}
}

func runSource(t *testing.T, src string, c *fakeClient, o Options) (*recorder, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.test")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	Run(rec, f, c, o)
	out, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return rec, string(out)
}

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name   string
		src    string
		engine string
		errs   []string // substrings, one per expected reported error
		ran    []string // when non-nil, the SQL that must have run, in order
	}{{
		name: "values, rowsort and nosort",
		src:  "query IT rowsort\nSELECT two\n----\n1\na\n2\nb\n\nquery IT nosort\nSELECT two\n----\n2\nb\n1\na\n",
	}, {
		name: "a wrong value",
		src:  "query IT rowsort\nSELECT two\n----\n1\na\n2\nc\n",
		errs: []string{"expected:"},
	}, {
		name: "valuesort sorts every value",
		src:  "query TI valuesort\nSELECT three\n----\n1\n2\n3\na\nb\nc\n",
	}, {
		name: "types format values",
		src:  "query IRT nosort\nSELECT mixed\n----\n1\n2.000\nt\nNULL\n0.500\n(empty)\n",
	}, {
		name: "results over the threshold compare by hash",
		src:  "hash-threshold 4\n\nquery TI rowsort\nSELECT three\n----\n6 values hashing to c91ca425381e660b0b2dab1bc5989912\n",
	}, {
		name: "a hash in the file is checked even under the threshold",
		src:  "query TI nosort\nSELECT other\n----\n2 values hashing to 00000000000000000000000000000000\n",
		errs: []string{"expected:"},
	}, {
		name: "wrong column count",
		src:  "query I nosort\nSELECT two\n----\n2\nb\n1\na\n",
		errs: []string{"returns 2 columns"},
	}, {
		name: "labels agree",
		src:  "query TI rowsort lbl\nSELECT three\n----\na\n1\nb\n2\nc\n3\n\nquery TI rowsort lbl\nSELECT same\n----\na\n1\nb\n2\nc\n3\n",
	}, {
		name: "labels disagree",
		src:  "query TI rowsort lbl\nSELECT three\n----\na\n1\nb\n2\nc\n3\n\nquery TI rowsort lbl\nSELECT other\n----\na\n1\n",
		errs: []string{`labelled "lbl"`},
	}, {
		name: "statement error",
		src:  "statement error no such\nSELECT bad\n\nstatement error\nSELECT bad\n\nstatement ok\nCREATE x\n",
	}, {
		name: "statement error mismatches",
		src:  "statement error other text\nSELECT bad\n\nstatement error\nCREATE x\n\nstatement ok\nSELECT bad\n",
		errs: []string{`containing "other text"`, "expected an error", "unexpected error"},
	}, {
		name:   "skipif and onlyif",
		engine: "widesql",
		src:    "skipif widesql\nstatement ok\nA\n\nonlyif postgresql\nstatement ok\nB\n\nonlyif widesql\nstatement ok\nC\n\nskipif postgresql\nstatement ok\nD\n",
		ran:    []string{"C", "D"},
	}, {
		name:   "halt under onlyif applies to that engine only",
		engine: "widesql",
		src:    "statement ok\nA\n\nonlyif postgresql\nhalt\n\nstatement ok\nB\n\nhalt\n\nstatement ok\nC\n",
		ran:    []string{"A", "B"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			c := newFake()
			engine := tc.engine
			if engine == "" {
				engine = "widesql"
			}
			rec, _ := runSource(t, tc.src, c, Options{Engine: engine})
			if len(rec.errors) != len(tc.errs) {
				t.Fatalf("reported %d errors, want %d:\n%s", len(rec.errors), len(tc.errs), strings.Join(rec.errors, "\n"))
			}
			for i, want := range tc.errs {
				if !strings.Contains(rec.errors[i], want) {
					t.Errorf("error %d = %q, want it to contain %q", i, rec.errors[i], want)
				}
			}
			if tc.ran != nil && !slices.Equal(c.ran, tc.ran) {
				t.Errorf("ran %q, want %q", c.ran, tc.ran)
			}
		})
	}
}

func TestRunRewrite(t *testing.T) {
	src := "hash-threshold 4\n\nquery IT nosort\nSELECT two\n----\n\nquery TI rowsort\nSELECT three\n----\nstale\n\n" +
		"query TI nosort\nSELECT other\n----\na\n1\n\n# a comment stays\nstatement ok\nCREATE x\n"
	rec, out := runSource(t, src, newFake(), Options{Engine: "postgresql", Rewrite: true})
	if len(rec.errors) != 0 {
		t.Fatalf("errors: %q", rec.errors)
	}
	// SELECT other already matches and is left alone.
	want := "hash-threshold 4\n\nquery IT nosort\nSELECT two\n----\n2\nb\n1\na\n\nquery TI rowsort\nSELECT three\n----\n" +
		"6 values hashing to c91ca425381e660b0b2dab1bc5989912\n\nquery TI nosort\nSELECT other\n----\na\n1\n\n# a comment stays\nstatement ok\nCREATE x\n"
	if out != want {
		t.Errorf("rewritten file:\n%s\nwant:\n%s", out, want)
	}
}
