// Package kvtest is the conformance suite of the kv.Store contract: a
// datadriven runner and command language that every engine runs on the
// same testdata files (kv/memstore/testdata), so engines are held to
// identical results.
package kvtest

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A tiny datadriven runner in the style of cockroachdb/datadriven. A test
// file is a sequence of cases:
//
//	# comment
//	command arg key=value ...
//	input line
//	----
//	expected output
//	<blank line>
//
// Comments and blank lines between cases are kept by -rewrite, which
// replaces every expected output with the actual one.

var rewrite = flag.Bool("rewrite", false, "rewrite datadriven expected output")

// TestCase is one datadriven case.
type TestCase = testCase

type testCase struct {
	pos      string   // file:line of the command, for failures
	cmd      string   // first line
	input    []string // lines between the command and ----
	expected string
}

type ddItem struct {
	text string    // verbatim comments and blank lines
	tc   *testCase // or a case
}

func parseTestFile(t *testing.T, path string) []ddItem {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	var items []ddItem
	for i := 0; i < len(lines); {
		if l := lines[i]; l == "" || strings.HasPrefix(l, "#") {
			items = append(items, ddItem{text: l})
			i++
			continue
		}
		tc := &testCase{pos: path + ":" + strconv.Itoa(i+1), cmd: lines[i]}
		for i++; i < len(lines) && lines[i] != "----"; i++ {
			tc.input = append(tc.input, lines[i])
		}
		if i == len(lines) {
			t.Fatalf("%s: missing ----", tc.pos)
		}
		var out []string
		for i++; i < len(lines) && lines[i] != ""; i++ {
			out = append(out, lines[i])
		}
		tc.expected = strings.Join(out, "\n")
		items = append(items, ddItem{tc: tc})
	}
	return items
}

// runDataDriven runs every case of path through run, in order, and compares
// or (with -rewrite) rewrites the expected output.
func runDataDriven(t *testing.T, path string, run func(tc *testCase) string, rewriteOK bool) {
	items := parseTestFile(t, path)
	var b strings.Builder
	for _, it := range items {
		if it.tc == nil {
			b.WriteString(it.text + "\n")
			continue
		}
		tc := it.tc
		got := strings.TrimRight(run(tc), "\n")
		if got == "" {
			got = "ok"
		}
		if !(*rewrite && rewriteOK) && got != tc.expected {
			t.Errorf("%s: %s\ngot:\n%s\nwant:\n%s", tc.pos, tc.cmd, got, tc.expected)
		}
		b.WriteString(tc.cmd + "\n")
		for _, l := range tc.input {
			b.WriteString(l + "\n")
		}
		b.WriteString("----\n" + got + "\n")
	}
	if *rewrite && rewriteOK {
		out := strings.TrimRight(b.String(), "\n") + "\n"
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func walkTestdata(t *testing.T, dir string, run func(t *testing.T, path string)) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) { run(t, p) })
	}
}
