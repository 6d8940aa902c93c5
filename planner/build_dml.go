package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

func (b *builder) singleTable(refs *ast.TableRefsClause) (*scope, error) {
	if refs == nil {
		return nil, pgerror.New(pgerror.CodeSyntaxError, "missing table")
	}
	return b.tableSource(refs)
}

// assignable reports whether PostgreSQL has an implicit or assignment cast
// from kind got to kind want, for kinds that differ: among the numeric
// kinds, and among date, timestamp and timestamptz (timestamptz to
// timestamp or date is an assignment cast in the session zone).
func assignable(got, want types.Kind) bool {
	datetime := func(k types.Kind) bool {
		return k == types.Date || k == types.Timestamp || k == types.TimestampTZ
	}
	return (got.IsNumeric() && want.IsNumeric()) || (datetime(got) && datetime(want))
}

// assign coerces a value to a column's type with assignment semantics.
func (b *builder) assign(e Expr, col *ColumnDesc) (Expr, error) {
	got := e.Type()
	if (col.Type.Kind == types.Text || col.Type.Kind == types.BPChar) && got.Kind != types.Unknown && got.Kind != col.Type.Kind {
		// PostgreSQL's automatic I/O conversion casts to string types
		// (text, varchar, char) are assignment casts.
		return &Cast{E: e, T: col.Type, Assign: true}, nil
	}
	if got.Kind != types.Unknown && got.Kind != col.Type.Kind && !assignable(got.Kind, col.Type.Kind) {
		return nil, pgerror.New(pgerror.CodeDatatypeMismatch, "column %q is of type %s but expression is of type %s", col.Name, col.Type, got).
			WithHint("You will need to rewrite or cast the expression.")
	}
	e, err := b.coerce(e, col.Type, "")
	if c, ok := e.(*Cast); ok {
		c.Assign = true
	}
	return e, err
}

func (b *builder) setItems(list []*ast.Assignment, sc *scope) ([]SetItem, error) {
	t := sc.table
	seen := map[int]bool{}
	var out []SetItem
	for _, a := range list {
		i := t.ColumnIndex(a.Column.Name.O)
		if i < 0 {
			return nil, pgerror.New(pgerror.CodeUndefinedColumn, "column %q of relation %q does not exist", a.Column.Name.O, t.Name)
		}
		if seen[i] {
			return nil, pgerror.New(pgerror.CodeSyntaxError, "multiple assignments to same column %q", a.Column.Name.O)
		}
		seen[i] = true
		var e Expr
		if _, ok := a.Expr.(*ast.DefaultExpr); ok {
			var err error
			if e, err = b.defaultExpr(&t.Columns[i]); err != nil {
				return nil, err
			}
		} else {
			if t.Columns[i].Identity == IdentityAlways {
				return nil, pgerror.New(CodeGeneratedAlways, "column %q can only be updated to DEFAULT", a.Column.Name.O).
					WithDetail("Column %q is an identity column defined as GENERATED ALWAYS.", a.Column.Name.O)
			}
			var err error
			if e, err = b.expr(a.Expr, sc); err != nil {
				return nil, err
			}
			if e, err = b.assign(e, &t.Columns[i]); err != nil {
				return nil, err
			}
		}
		out = append(out, SetItem{Col: i, Expr: e})
	}
	return out, nil
}

func (b *builder) update(n *ast.UpdateStmt, ret []*ast.SelectField) (Plan, error) {
	if n.MultipleTable || n.Order != nil || n.Limit != nil {
		return nil, pgerror.Unimplemented("UPDATE with several tables, ORDER BY or LIMIT")
	}
	sc, scan, used, err := b.dmlScan(n.TableRefs, n.Where)
	if err != nil {
		return nil, err
	}
	if err := writableView(sc.table, "UPDATE"); err != nil {
		return nil, err
	}
	set, err := b.setItems(n.List, sc)
	if err != nil {
		return nil, err
	}
	keyChange := false
	for _, s := range set {
		usedColumns(used, len(sc.table.Columns), s.Expr)
		keyChange = keyChange || sc.table.Columns[s.Col].IsKey()
	}
	if keyChange {
		// The row moves to a new rowkey: every column is rewritten.
		for i := range sc.table.Columns {
			used[i] = true
		}
	}
	r, err := b.returning(ret, sc, used)
	if err != nil {
		return nil, err
	}
	finishScan(scan, used)
	return &Update{Table: sc.table, Scan: scan, Set: set, Returning: r}, nil
}

func (b *builder) delete(n *ast.DeleteStmt, ret []*ast.SelectField) (Plan, error) {
	if n.IsMultiTable || n.Order != nil || n.Limit != nil {
		return nil, pgerror.Unimplemented("DELETE with several tables, ORDER BY or LIMIT")
	}
	sc, scan, used, err := b.dmlScan(n.TableRefs, n.Where)
	if err != nil {
		return nil, err
	}
	r, err := b.returning(ret, sc, used)
	if err != nil {
		return nil, err
	}
	finishScan(scan, used)
	return &Delete{Table: sc.table, Scan: scan, Returning: r}, nil
}

// dmlScan resolves the table of an UPDATE or DELETE and plans the scan of
// its WHERE clause exactly like a SELECT's. used holds the columns the
// remaining filter reads; the caller adds its own and calls finishScan.
func (b *builder) dmlScan(refs *ast.TableRefsClause, where ast.ExprNode) (*scope, *Scan, map[int]bool, error) {
	sc, err := b.singleTable(refs)
	if err != nil {
		return nil, nil, nil, err
	}
	scan, err := b.scanOf(sc, where)
	if err != nil {
		return nil, nil, nil, err
	}
	used := map[int]bool{}
	usedColumns(used, len(sc.table.Columns), scan.Filter)
	return sc, scan, used, nil
}
