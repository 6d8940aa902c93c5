package sqlparse

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/widesql/widesql/pgwire/pgerror"
)

var rewriteFlag = flag.Bool("rewrite", false, "rewrite testdata expectations with actual output")

// TestDataDriven runs testdata/*. Each case is
//
//	<command>
//	<sql, possibly several lines>
//	----
//	<expected output>
//	<blank line>
//
// Commands: parse (restored AST, utility, clauses, params or error) and
// pgtype (the PGType of each column of a CREATE TABLE); autoparam
// (Parameterize's text and constants, or "(unchanged)").
func TestDataDriven(t *testing.T) {
	files, _ := filepath.Glob("testdata/*")
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.IsDir() {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			blocks := strings.Split(strings.TrimRight(string(data), "\n")+"\n", "\n\n")
			for _, blk := range blocks {
				blk = strings.Trim(blk, "\n")
				if blk == "" {
					continue
				}
				head, want, _ := strings.Cut(blk, "\n----\n")
				if strings.HasSuffix(head, "\n----") {
					head, want = strings.TrimSuffix(head, "\n----"), ""
				}
				cmd, input, _ := strings.Cut(head, "\n")
				got := strings.TrimRight(run(cmd, input), "\n")
				if !*rewriteFlag && got != want {
					t.Errorf("%s\n%s\nwant:\n%s\ngot:\n%s", cmd, input, want, got)
				}
				fmt.Fprintf(&out, "%s\n%s\n----\n%s\n\n", cmd, input, got)
			}
			if *rewriteFlag {
				if err := os.WriteFile(f, []byte(strings.TrimRight(out.String(), "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func run(cmd, input string) string {
	if cmd == "autoparam" {
		pz, ok := Parameterize(input)
		if !ok {
			return "(unchanged)"
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s\n", pz.SQL)
		for i, l := range pz.Literals {
			fmt.Fprintf(&b, "$%d %c %q\n", i+1, l.Kind, l.Text)
		}
		return b.String()
	}
	stmts, err := Parse(input)
	if err != nil {
		return fmtErr(err)
	}
	var b strings.Builder
	switch cmd {
	case "parse":
		if len(stmts) == 0 {
			return "(no statements)"
		}
		for _, st := range stmts {
			fmt.Fprintf(&b, "[%d] %q\n", st.Offset, st.SQL)
			if st.Utility != nil {
				fmt.Fprintf(&b, "utility %s\n", fmtUtility(st.Utility))
				continue
			}
			if ix := st.Index; ix != nil {
				fmt.Fprintf(&b, "index drop=%v unique=%v ifnotexists=%v ifexists=%v name=%q names=%q table=%q cols=%q method=%q partial=%v\n",
					ix.Drop, ix.Unique, ix.IfNotExists, ix.IfExists, ix.Name, ix.Names, ix.Table, ix.Columns, ix.Method, ix.Partial)
				continue
			}
			if a := st.AlterOptions; a != nil {
				fmt.Fprintf(&b, "alter options table=%q ifexists=%v reset=%q\n", a.Table, a.IfExists, a.Reset)
				for _, o := range a.Set {
					fmt.Fprintf(&b, "set %s=%q at %d\n", o.Name, o.Value, o.Pos)
				}
				continue
			}
			if c := st.Copy; c != nil {
				fmt.Fprintf(&b, "copy table=%q cols=%q from=%v file=%q program=%v query=%v options=%+v\n",
					c.Table, c.Columns, c.From, c.File, c.Program, c.Query != nil, c.Options)
				continue
			}
			if c := st.Cursor; c != nil {
				fmt.Fprintf(&b, "cursor kind=%d name=%q all=%v hold=%v count=%d", c.Kind, c.Name, c.All, c.Hold, c.Count)
				if c.Query != nil {
					fmt.Fprintf(&b, " query=%s", restore(c.Query.AST))
				}
				b.WriteString("\n")
				continue
			}
			if r := st.Role; r != nil {
				fmt.Fprintf(&b, "role %+v\n", *r)
				continue
			}
			if c := st.Comment; c != nil {
				fmt.Fprintf(&b, "comment %+v\n", *c)
				continue
			}
			fmt.Fprintf(&b, "%s\n", restore(st.AST))
			for _, o := range st.TableOptions {
				fmt.Fprintf(&b, "option %s=%q at %d\n", o.Name, o.Value, o.Pos)
			}
			if st.AllowFullScan {
				b.WriteString("allow full scan\n")
			}
			b.WriteString(rowkeyDetails(st.AST))
			if sel, ok := st.AST.(*ast.SelectStmt); ok && sel.OrderBy != nil {
				b.WriteString("nulls first:")
				for _, it := range sel.OrderBy.Items {
					fmt.Fprintf(&b, " %v", it.NullOrder)
				}
				b.WriteString("\n")
			}
			if ex, ok := st.AST.(*ast.ExplainStmt); ok {
				fmt.Fprintf(&b, "explain analyze=%v\n", ex.Analyze)
			}
			if oc := st.OnConflict; oc != nil {
				fmt.Fprintf(&b, "on conflict cols=%q constraint=%q nothing=%v", oc.Columns, oc.Constraint, oc.DoNothing)
				for _, a := range oc.Set {
					fmt.Fprintf(&b, " set %s.%s=%s", a.Column.Table.O, a.Column.Name.O, restore(a.Expr))
				}
				if oc.Where != nil {
					fmt.Fprintf(&b, " where %s", restore(oc.Where))
				}
				b.WriteString("\n")
			}
			if st.Returning != nil {
				b.WriteString("returning")
				for _, f := range st.Returning {
					fmt.Fprintf(&b, " %s", restore(f))
				}
				b.WriteString("\n")
			}
			if ie := st.Insert; ie != nil {
				fmt.Fprintf(&b, "insert alias=%q overriding=%q default values=%v\n", ie.Alias, ie.Overriding, ie.DefaultValues)
			}
			names := make([]string, 0, len(st.Columns))
			for n := range st.Columns {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				c := st.Columns[n]
				fmt.Fprintf(&b, "column %s default=%q serial=%q identity=%q", n, c.Default, c.Serial, c.Identity)
				for _, o := range []struct {
					k string
					v *int64
				}{{"start", c.Seq.Start}, {"increment", c.Seq.Increment}, {"min", c.Seq.Min}, {"max", c.Seq.Max}} {
					if o.v != nil {
						fmt.Fprintf(&b, " %s=%d", o.k, *o.v)
					}
				}
				b.WriteString("\n")
			}
			if st.NumParams > 0 {
				fmt.Fprintf(&b, "params n=%d order=%v\n", st.NumParams, paramOrders(&st))
			}
		}
	case "pgtype":
		for _, st := range stmts {
			var cols []*ast.ColumnDef
			switch n := st.AST.(type) {
			case *ast.CreateTableStmt:
				cols = n.Cols
			case *ast.AlterTableStmt:
				for _, s := range n.Specs {
					cols = append(cols, s.NewColumns...)
				}
			}
			for _, c := range cols {
				name, w, err := PGType(c.Tp)
				if err != nil {
					fmt.Fprintf(&b, "%s: %s\n", c.Name.String(), fmtErr(err))
					continue
				}
				fmt.Fprintf(&b, "%s.%s: %s %d\n", c.Name.Table.O, c.Name.Name.O, name, w)
			}
		}
	default:
		return "unknown command " + cmd
	}
	return b.String()
}

// rowkeyDetails prints the AST fields the planner reads for issue 6's
// syntax that restore does not show: key parts of a PRIMARY KEY with an
// expression or DESC, AS OF clauses, and the kind of a SHOW.
func rowkeyDetails(n ast.Node) string {
	var b strings.Builder
	switch n := n.(type) {
	case *ast.CreateTableStmt:
		for _, c := range n.Constraints {
			if c.Tp != ast.ConstraintPrimaryKey {
				continue
			}
			show := false
			for _, k := range c.Keys {
				show = show || k.Expr != nil || k.Desc
			}
			if !show {
				continue
			}
			b.WriteString("primary key:")
			for _, k := range c.Keys {
				if k.Expr != nil {
					fmt.Fprintf(&b, " expr(%T %s)", k.Expr, restore(k.Expr))
				} else {
					fmt.Fprintf(&b, " col(%s)", k.Column.Name.O)
				}
				if k.Desc {
					b.WriteString(" desc")
				}
			}
			b.WriteString("\n")
		}
	case *ast.ShowStmt:
		tp := map[ast.ShowStmtType]string{ast.ShowCreateTable: "ShowCreateTable", ast.ShowRegions: "ShowRegions"}[n.Tp]
		fmt.Fprintf(&b, "show %s table=%q.%q index=%q where=%v\n", tp, n.Table.Schema.O, n.Table.Name.O, n.IndexName.O, n.Where != nil)
	case *ast.AlterTableStmt:
		for _, sp := range n.Specs {
			tp := map[ast.AlterTableType]string{ast.AlterTableAddColumns: "AddColumns", ast.AlterTableDropColumn: "DropColumn",
				ast.AlterTableRenameColumn: "RenameColumn", ast.AlterTableRenameTable: "RenameTable"}[sp.Tp]
			fmt.Fprintf(&b, "spec %s ifexists=%v ifnotexists=%v", tp, sp.IfExists, sp.IfNotExists)
			for _, c := range sp.NewColumns {
				fmt.Fprintf(&b, " newcol=%q.%q", c.Name.Table.O, c.Name.Name.O)
			}
			if sp.OldColumnName != nil {
				fmt.Fprintf(&b, " oldcol=%q.%q", sp.OldColumnName.Table.O, sp.OldColumnName.Name.O)
			}
			if sp.NewColumnName != nil {
				fmt.Fprintf(&b, " newname=%q", sp.NewColumnName.Name.O)
			}
			if sp.NewTable != nil {
				fmt.Fprintf(&b, " newtable=%q", sp.NewTable.Name.O)
			}
			b.WriteString("\n")
		}
	}
	if n != nil {
		v := &asOfCollector{b: &b}
		n.Accept(v)
	}
	return b.String()
}

type asOfCollector struct{ b *strings.Builder }

func (c *asOfCollector) Enter(n ast.Node) (ast.Node, bool) {
	if tn, ok := n.(*ast.TableName); ok && tn.AsOf != nil {
		fmt.Fprintf(c.b, "as of %s: %T %s\n", tn.Name.O, tn.AsOf.TsExpr, restore(tn.AsOf.TsExpr))
	}
	return n, false
}

func (c *asOfCollector) Leave(n ast.Node) (ast.Node, bool) { return n, true }

func fmtUtility(u *Utility) string {
	s := u.Kind.String()
	if u.Name != "" {
		s += fmt.Sprintf(" name=%q", u.Name)
	}
	if u.Values != nil {
		s += fmt.Sprintf(" values=%q", u.Values)
	}
	if u.Kind == Set && u.Values == nil {
		s += " default"
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{u.Local, "local"}, {u.All, "all"}, {u.ReadOnly, "read-only"}, {u.ReadWrite, "read-write"}, {u.Deferrable, "deferrable"}} {
		if f.on {
			s += " " + f.name
		}
	}
	if u.Isolation != "" {
		s += fmt.Sprintf(" isolation=%q", u.Isolation)
	}
	return s
}

func fmtErr(err error) string {
	var pe *pgerror.Error
	if !errors.As(err, &pe) {
		return "non-pgerror: " + err.Error()
	}
	return fmt.Sprintf("error %s at %d: %s", pe.Code, pe.Position, pe.Message)
}

type restorer interface {
	Restore(*format.RestoreCtx) error
}

func restore(n restorer) string {
	var sb strings.Builder
	flags := format.RestoreStringSingleQuotes | format.RestoreKeyWordLowercase | format.RestoreNameDoubleQuotes | format.RestoreStringWithoutCharset
	if err := n.Restore(format.NewRestoreCtx(flags, &sb)); err != nil {
		return "restore error: " + err.Error()
	}
	return sb.String()
}

// paramOrders lists the Order of every parameter marker in visiting order
// over the main AST, ON CONFLICT pieces and RETURNING.
func paramOrders(st *Statement) []int {
	c := &orderCollector{}
	st.AST.Accept(c)
	if st.OnConflict != nil {
		for _, a := range st.OnConflict.Set {
			a.Expr.Accept(c)
		}
		if st.OnConflict.Where != nil {
			st.OnConflict.Where.Accept(c)
		}
	}
	for _, f := range st.Returning {
		f.Accept(c)
	}
	return c.orders
}

type orderCollector struct{ orders []int }

func (c *orderCollector) Enter(n ast.Node) (ast.Node, bool) {
	if pm, ok := n.(*test_driver.ParamMarkerExpr); ok {
		c.orders = append(c.orders, pm.Order)
	}
	return n, false
}

func (c *orderCollector) Leave(n ast.Node) (ast.Node, bool) { return n, true }

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*")
	for _, p := range files {
		data, _ := os.ReadFile(p)
		for _, blk := range strings.Split(string(data), "\n\n") {
			head, _, _ := strings.Cut(blk, "\n----\n")
			if _, input, ok := strings.Cut(strings.TrimLeft(head, "\n"), "\n"); ok {
				f.Add(input)
			}
		}
	}
	f.Fuzz(func(t *testing.T, sql string) {
		stmts, err := Parse(sql)
		if err != nil {
			var pe *pgerror.Error
			if !errors.As(err, &pe) {
				t.Fatalf("error is not *pgerror.Error: %v", err)
			}
			return
		}
		for _, st := range stmts {
			if st.Offset < 0 || st.Offset+len(st.SQL) > len(sql) || sql[st.Offset:st.Offset+len(st.SQL)] != st.SQL {
				t.Fatalf("bad statement span %d %q", st.Offset, st.SQL)
			}
		}
	})
}
