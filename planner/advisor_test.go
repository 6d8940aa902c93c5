package planner_test

import (
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
	runDir(t, "testdata/advisor/*.txt", func(t *testing.T, cat testCatalog, cmd, input string) string {
		if cmd == "advise" || cmd == "fullscans" {
			return adviseCase(t, cat, cmd, input)
		}
		return runCase(t, cat, cmd, input)
	})
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
