package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// Time in SQL. Every cell of the store is versioned (kv keeps a family's
// newest f.versions versions per column); these views and clauses show
// that history:
//
//	versions.t   one row per version of each row: t's columns + _ts
//	cells.t      one row per cell version: the raw storage, decoded
//	t AS OF TIMESTAMP x   t as it was at x (scan_asof.go in exec)
//
// Both views keep t's rowkey as their key (the same KeyColumns over
// columns of the same types), so DeriveAccess turns key predicates on a
// view into a POINT GET or RANGE SCAN of t itself; exec reads t's kv
// table with all retained versions and makes up the view's rows.

// versionTSColumn is the column versions.<t> has after t's own: the
// version's timestamp (__ts if t has a column _ts).
const versionTSColumn = "_ts"

// cellsColumns are the columns of cells.<t> after the key columns, in
// order. A name a key column already has gets a cell_ prefix.
var cellsColumns = []struct {
	name string
	t    types.T
}{
	{"rowkey", types.TBytea},
	{"family", types.TText},
	{"qualifier", types.TBytea},
	{"column_name", types.TText},
	{"ts", types.TTimestampTZ},
	{"value", types.TBytea},
	{"value_text", types.TText},
}

// viewColumn is a made-up column of a system view: id 0 (no cell), no
// family, not in the key.
func viewColumn(name string, t types.T) ColumnDesc {
	return ColumnDesc{Name: name, Type: t, KeyPos: -1}
}

// timeView returns the descriptor of cells.<base> or versions.<base>.
func timeView(kind string, base *TableDesc) (*TableDesc, error) {
	if base.Virtual != "" {
		return nil, pgerror.New(pgerror.CodeWrongObjectType, "%q is not a table", base.Name)
	}
	v := &TableDesc{
		Name:         kind + "." + base.Name,
		Families:     base.Families,
		MarkerFamily: base.MarkerFamily,
		NextColumnID: base.NextColumnID,
		ShardBits:    base.ShardBits,
		SaltBuckets:  base.SaltBuckets,
		Layout:       base.Layout,
		Virtual:      kind,
		Base:         base,
	}
	switch kind {
	case VirtualVersions:
		// t's columns at their own indexes (so t's key applies as is),
		// then the version's timestamp.
		name := versionTSColumn
		for base.ColumnIndex(name) >= 0 {
			name = "_" + name // t has a column _ts of its own
		}
		v.Columns = append(append([]ColumnDesc(nil), base.Columns...), viewColumn(name, types.TTimestampTZ))
		v.Key = base.Key
	case VirtualCells:
		// The key columns in rowkey order, then the cell's coordinates.
		for i, kc := range base.Key {
			c := base.Columns[kc.Col]
			c.KeyPos = i
			v.Columns = append(v.Columns, c)
			v.Key = append(v.Key, KeyColumn{Col: i, Desc: kc.Desc})
		}
		for _, c := range cellsColumns {
			// A key column may be called ts (time series often are): the
			// cell's own column then takes a cell_ prefix.
			name := c.name
			for v.ColumnIndex(name) >= 0 {
				name = "cell_" + name
			}
			v.Columns = append(v.Columns, viewColumn(name, c.t))
		}
	default:
		return nil, pgerror.New(pgerror.CodeInternalError, "unknown time view %q", kind)
	}
	return v, nil
}

// asOf returns t read as of the AS OF TIMESTAMP clause: a copy of t whose
// AsOf is the clause's value as a timestamptz expression. The value is
// computed once per statement, so it may use constants, parameters and
// functions (now() - interval '1 hour') but no column of the query.
func (b *builder) asOf(t *TableDesc, n *ast.AsOfClause) (*TableDesc, error) {
	if t.Virtual != "" {
		return nil, pgerror.New(pgerror.CodeFeatureNotSupported, "AS OF TIMESTAMP cannot be used with system view %q", t.Name).
			WithHint("versions.<table> and cells.<table> already show every retained version.")
	}
	if t.AsOf != nil {
		return nil, pgerror.New(pgerror.CodeSyntaxError, "AS OF TIMESTAMP specified more than once")
	}
	v := &asOfChecker{}
	n.TsExpr.Accept(v)
	if v.err != nil {
		return nil, v.err
	}
	e, err := b.expr(n.TsExpr, &scope{})
	if err != nil {
		return nil, err
	}
	if e, err = b.coerce(e, types.TTimestampTZ, "AS OF TIMESTAMP"); err != nil {
		return nil, err
	}
	c := *t
	c.AsOf = e
	return &c, nil
}

// asOfChecker rejects what an AS OF TIMESTAMP value may not contain, with
// PostgreSQL's codes for the same rule on LIMIT and DEFAULT: a column
// (42P10), a subquery (0A000), an aggregate or a window function (42803).
type asOfChecker struct{ err error }

func (v *asOfChecker) Enter(n ast.Node) (ast.Node, bool) {
	if v.err != nil {
		return n, true
	}
	switch n.(type) {
	case *ast.ColumnNameExpr:
		v.err = pgerror.New(pgerror.CodeInvalidColumnReference, "argument of AS OF TIMESTAMP must not contain variables")
	case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr:
		v.err = pgerror.New(pgerror.CodeFeatureNotSupported, "cannot use subquery in AS OF TIMESTAMP")
	case *ast.AggregateFuncExpr:
		v.err = pgerror.New(pgerror.CodeGroupingError, "aggregate functions are not allowed in AS OF TIMESTAMP")
	case *ast.WindowFuncExpr:
		v.err = pgerror.New(pgerror.CodeWindowingError, "window functions are not allowed in AS OF TIMESTAMP")
	}
	return n, v.err != nil
}

func (v *asOfChecker) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// writableView checks that a statement may change t: only DELETE may, and
// only on cells.<t> (it deletes cell versions); other system views and
// statements get 42809.
func writableView(t *TableDesc, verb string) error {
	if t.Virtual == "" || t.Virtual == VirtualCells && verb == "DELETE" {
		return nil
	}
	e := pgerror.New(pgerror.CodeWrongObjectType, "cannot change system view %q", t.Name)
	if t.Virtual == VirtualCells || t.Virtual == VirtualVersions {
		e = e.WithHint("DELETE FROM cells.<table> deletes cell versions; change the table itself otherwise.")
	}
	return e
}
