package planner_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/sqlparse"
)

// TestOptionsDatadriven runs testdata/options/*.txt: table and family
// options, ALTER TABLE and SHOW CREATE TABLE at the planner level. Cases
// are as in TestDatadriven, with the commands:
//
//	ddl        CREATE TABLE or ALTER TABLE; publishes the new descriptor and
//	           prints its CreateTableSQL, then one line per family:
//	           "family <name>[ marker]: versions=.. ttl=.. compression=.. bloom=.."
//	           (ALTER TABLE ... RENAME TO moves the entry)
//
// Errors print as "error <SQLSTATE>: <message>" plus "detail:" and
// "hint:" lines when set.
func TestOptionsDatadriven(t *testing.T) {
	runDir(t, "testdata/options/*.txt", func(t *testing.T, cat testCatalog, cmd, input string) string {
		if cmd != "ddl" {
			t.Fatalf("unknown command %q", cmd)
		}
		return runDDL(cat, input)
	})
}

func runDDL(cat testCatalog, sql string) string {
	fail := func(err error) string {
		e := pgerror.Flatten(err)
		s := fmt.Sprintf("error %s: %s", e.Code, e.Message)
		if e.Detail != "" {
			s += "\ndetail: " + e.Detail
		}
		if e.Hint != "" {
			s += "\nhint: " + e.Hint
		}
		return s
	}
	stmts, err := sqlparse.Parse(sql)
	if err != nil {
		return fail(err)
	}
	p, _, err := planner.Build(cat, &stmts[0], nil)
	if err != nil {
		return fail(err)
	}
	var d *planner.TableDesc
	isCreate := false
	switch p := p.(type) {
	case *planner.CreateTable:
		d, isCreate = p.Desc, true
	case *planner.AlterTable:
		if p.Old == nil {
			return "skipped: " + p.New.Name
		}
		delete(cat, p.Old.Name)
		d = p.New
	case *planner.ShowCreateTable:
		return planner.CreateTableSQL(p.Table)
	default:
		return fmt.Sprintf("unexpected plan %T", p)
	}
	cat[d.Name] = d
	if msg := roundTrip(d, isCreate); msg != "" {
		return msg
	}
	var sb strings.Builder
	sb.WriteString(planner.CreateTableSQL(d))
	for _, f := range d.Families {
		marker := ""
		if f.Name == d.MarkerFamily {
			marker = " marker"
		}
		fmt.Fprintf(&sb, "\nfamily %s%s: versions=%d ttl=%s compression=%q bloom=%q", f.Name, marker, f.MaxVersions, f.TTL, f.Compression, f.Bloom)
	}
	return sb.String()
}

// roundTrip plans CreateTableSQL(d) again: the result must print the same
// text and, for a table fresh from CREATE TABLE, be the same descriptor.
// It returns a description of the difference, "" if none.
func roundTrip(d *planner.TableDesc, sameDesc bool) string {
	text := planner.CreateTableSQL(d)
	stmts, err := sqlparse.Parse(text)
	if err != nil {
		return "round trip: " + err.Error()
	}
	p, _, err := planner.Build(testCatalog{}, &stmts[0], nil)
	if err != nil {
		return "round trip: " + err.Error()
	}
	again := p.(*planner.CreateTable).Desc
	if got := planner.CreateTableSQL(again); got != text {
		return "round trip changed the text:\n" + got
	}
	if sameDesc {
		a, _ := json.Marshal(d)
		b, _ := json.Marshal(again)
		if string(a) != string(b) {
			return "round trip changed the descriptor:\n" + string(a) + "\n" + string(b)
		}
	}
	return ""
}
