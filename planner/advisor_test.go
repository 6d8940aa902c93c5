package planner_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/sqlparse"
)

// TestAdvisor runs testdata/advisor/*.txt: blocks starting with # are
// comments; cases are the commands of TestDatadriven plus
//
//	advise          CREATE TABLE ...: registers the table and prints the
//	                rowkey advisor's NOTICEs ("ok" when it has none)
//	fullscans       a statement: prints the tables of the full scans the
//	                guardrail would see, with their reasons
func TestAdvisor(t *testing.T) {
	files, _ := filepath.Glob("testdata/advisor/*.txt")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { runAdvisorFile(t, f) })
	}
}

func runAdvisorFile(t *testing.T, path string) {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cat := testCatalog{}
	var out strings.Builder
	for _, block := range strings.Split(strings.TrimSpace(string(raw)), "\n\n") {
		if strings.HasPrefix(block, "#") {
			out.WriteString(block + "\n\n") // a comment block
			continue
		}
		lines := strings.Split(block, "\n")
		cmd := lines[0]
		sep := len(lines)
		for i, l := range lines {
			if l == "----" {
				sep = i
				break
			}
		}
		input := strings.Join(lines[1:sep], "\n")
		var expected string
		if sep < len(lines) {
			expected = strings.Join(lines[sep+1:], "\n")
		}
		var got string
		switch cmd {
		case "advise", "fullscans":
			got = adviseCase(t, cat, cmd, input)
		default:
			got = runCase(t, cat, cmd, input)
		}
		out.WriteString(cmd + "\n" + input + "\n----\n" + got + "\n\n")
		if !*rewrite && got != expected {
			t.Errorf("%s: %s\n%s\ngot:\n%s\nwant:\n%s", path, cmd, input, got, expected)
		}
	}
	if *rewrite {
		if err := os.WriteFile(path, []byte(strings.TrimRight(out.String(), "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func adviseCase(t *testing.T, cat testCatalog, cmd, sql string) string {
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
	var lines []string
	switch cmd {
	case "advise":
		ct, ok := p.(*planner.CreateTable)
		if !ok {
			t.Fatalf("advise takes CREATE TABLE: %s", sql)
		}
		cat[ct.Desc.Name] = ct.Desc
		for _, a := range planner.Advise(ct.Desc) {
			lines = append(lines, "NOTICE: "+a.Message, "HINT: "+a.Hint)
		}
	case "fullscans":
		for _, s := range planner.FullScans(p) {
			lines = append(lines, s.Table.Name+": "+s.FullScanReason)
		}
	}
	if len(lines) == 0 {
		return "ok"
	}
	return strings.Join(lines, "\n")
}
