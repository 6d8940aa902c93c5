package planner_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/sqlparse"
)

var rewrite = flag.Bool("rewrite", false, "rewrite testdata expectations from actual output")

// testCatalog is a plain map of descriptors built by CREATE TABLE through
// the real parser and planner.
type testCatalog map[string]*planner.TableDesc

func (c testCatalog) Table(name string) (*planner.TableDesc, error) {
	if t, ok := c[name]; ok {
		return t, nil
	}
	return nil, pgerror.New(pgerror.CodeUndefinedTable, "relation %q does not exist", name)
}

// TestDatadriven runs testdata/*.txt. Each case is a command line, an
// input block, "----" and the expected output, separated by blank lines:
//
//	exec            CREATE TABLE ... (registers the table; prints nothing)
//	where <table>   a WHERE clause; prints the scan line of SELECT * with it
//	plan            a statement; prints its EXPLAIN lines
//
// Errors print as "error <SQLSTATE>: <message>".
func TestDatadriven(t *testing.T) {
	runDir(t, "testdata/*.txt", func(t *testing.T, cat testCatalog, cmd, input string) string {
		return runCase(t, cat, cmd, input)
	})
}

// caseFunc runs one case of a testdata file against the file's catalog.
type caseFunc func(t *testing.T, cat testCatalog, cmd, input string) string

// runDir runs every file matching glob as a subtest (see runFile).
func runDir(t *testing.T, glob string, run caseFunc) {
	files, _ := filepath.Glob(glob)
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { runFile(t, f, run) })
	}
}

// runFile runs the cases of one file, each a command line, an input
// block, "----" and the expected output, separated by blank lines; a block
// starting with # is a comment. With -rewrite it writes the actual output
// back.
func runFile(t *testing.T, path string, run caseFunc) {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cat := testCatalog{}
	var out strings.Builder
	for _, block := range strings.Split(strings.TrimSpace(string(raw)), "\n\n") {
		if strings.HasPrefix(block, "#") {
			out.WriteString(block + "\n\n")
			continue
		}
		lines := strings.Split(block, "\n")
		cmd := lines[0]
		var input, expected []string
		sep := len(lines)
		for i, l := range lines {
			if l == "----" {
				sep = i
				break
			}
		}
		input = lines[1:sep]
		if sep < len(lines) {
			expected = lines[sep+1:]
		}
		got := run(t, cat, cmd, strings.Join(input, "\n"))
		out.WriteString(cmd + "\n" + strings.Join(input, "\n") + "\n----\n" + got + "\n\n")
		if !*rewrite && got != strings.Join(expected, "\n") {
			t.Errorf("%s: %s\n%s\ngot:\n%s\nwant:\n%s", path, cmd, strings.Join(input, "\n"), got, strings.Join(expected, "\n"))
		}
	}
	if *rewrite {
		if err := os.WriteFile(path, []byte(strings.TrimRight(out.String(), "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func runCase(t *testing.T, cat testCatalog, cmd, input string) string {
	fields := strings.Fields(cmd)
	sql := input
	if fields[0] == "where" {
		sql = "SELECT * FROM " + fields[1] + " WHERE " + input
	}
	stmts, err := sqlparse.Parse(sql)
	if err != nil {
		return errString(err)
	}
	if len(stmts) != 1 {
		t.Fatalf("want one statement: %s", sql)
	}
	p, _, err := planner.Build(cat, &stmts[0], nil)
	if err != nil {
		return errString(err)
	}
	switch fields[0] {
	case "exec":
		ct, ok := p.(*planner.CreateTable)
		if !ok {
			t.Fatalf("exec takes CREATE TABLE: %s", sql)
		}
		cat[ct.Desc.Name] = ct.Desc
		return "ok"
	case "where":
		for {
			switch n := p.(type) {
			case *planner.Scan:
				return n.String()
			case *planner.Project:
				p = n.Input
				continue
			}
			t.Fatalf("no scan in plan of %s", sql)
		}
	case "plan":
		return strings.Join(planner.ExplainLines(p, nil), "\n")
	}
	t.Fatalf("unknown command %q", cmd)
	return ""
}

func errString(err error) string {
	e := pgerror.Flatten(err)
	return "error " + e.Code + ": " + e.Message
}
