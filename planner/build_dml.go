package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
	"github.com/widesql/widesql/sqlparse"
)

func (b *builder) aggCall(a *ast.AggregateFuncExpr, pre *scope) (AggCall, error) {
	name := strings.ToLower(a.F)
	if len(a.Args) != 1 {
		return AggCall{}, pgerror.New(pgerror.CodeUndefinedFunction, "function %s with %d arguments does not exist", name, len(a.Args))
	}
	if hasAggregate(a.Args[0]) {
		return AggCall{}, pgerror.New(pgerror.CodeGroupingError, "aggregate function calls cannot be nested")
	}
	if a.Order != nil {
		return AggCall{}, pgerror.Unimplemented("ORDER BY inside aggregate calls")
	}
	if name == "count" && !a.Distinct {
		if v, ok := a.Args[0].(*driver.ValueExpr); ok && v.Kind() != driver.KindNull {
			return AggCall{Func: AggCountStar, T: types.TInt8}, nil
		}
	}
	arg, err := b.expr(a.Args[0], pre)
	if err != nil {
		return AggCall{}, err
	}
	arg = resolveUnknown(arg)
	call := AggCall{Arg: arg, Distinct: a.Distinct}
	at := arg.Type()
	switch name {
	case "count":
		call.Func, call.T = AggCount, types.TInt8
	case "sum", "avg":
		if !at.Kind.IsNumeric() {
			return AggCall{}, pgerror.New(pgerror.CodeUndefinedFunction, "function %s(%s) does not exist", name, at)
		}
		call.Func, call.T = AggSum, types.TInt8
		if at.Kind == types.Float8 {
			call.T = types.TFloat8
		}
		if name == "avg" {
			call.Func, call.T = AggAvg, types.TFloat8
		}
	case "min", "max":
		if at.Kind == types.Bool || at.Kind == types.Bytea {
			return AggCall{}, pgerror.New(pgerror.CodeUndefinedFunction, "function %s(%s) does not exist", name, at)
		}
		call.Func, call.T = AggMin, at
		if name == "max" {
			call.Func = AggMax
		}
	default:
		return AggCall{}, pgerror.Unimplemented("aggregate function " + name)
	}
	return call, nil
}

func (b *builder) singleTable(refs *ast.TableRefsClause) (*scope, error) {
	if refs == nil {
		return nil, pgerror.New(pgerror.CodeSyntaxError, "missing table")
	}
	return b.tableSource(refs)
}

func (b *builder) insert(n *ast.InsertStmt, oc *sqlparse.OnConflict) (Plan, error) {
	switch {
	case n.IsReplace:
		return nil, pgerror.Unimplemented("REPLACE")
	case n.Select != nil:
		return nil, pgerror.Unimplemented("INSERT ... SELECT")
	case n.Setlist:
		return nil, pgerror.Unimplemented("INSERT ... SET")
	case len(n.OnDuplicate) > 0:
		return nil, pgerror.Unimplemented("ON DUPLICATE KEY UPDATE (use ON CONFLICT)")
	}
	sc, err := b.singleTable(n.Table)
	if err != nil {
		return nil, err
	}
	t := sc.table
	ins := &Insert{Table: t}
	seen := map[int]bool{}
	for _, c := range n.Columns {
		i := t.ColumnIndex(c.Name.O)
		if i < 0 {
			return nil, pgerror.New(pgerror.CodeUndefinedColumn, "column %q of relation %q does not exist", c.Name.O, t.Name)
		}
		if seen[i] {
			return nil, pgerror.New(pgerror.CodeDuplicateColumn, "column %q specified more than once", c.Name.O)
		}
		seen[i] = true
		ins.Targets = append(ins.Targets, i)
	}
	if len(n.Columns) == 0 {
		for i := range t.Columns {
			ins.Targets = append(ins.Targets, i)
		}
	}
	for _, list := range n.Lists {
		if len(list) > len(ins.Targets) {
			return nil, pgerror.New(pgerror.CodeSyntaxError, "INSERT has more expressions than target columns")
		}
		if len(list) < len(ins.Targets) && len(n.Columns) > 0 {
			return nil, pgerror.New(pgerror.CodeSyntaxError, "INSERT has more target columns than expressions")
		}
		row := make([]Expr, len(ins.Targets))
		for j := range row {
			col := &t.Columns[ins.Targets[j]]
			if j >= len(list) {
				row[j] = &Const{D: types.Null, T: col.Type}
				continue
			}
			if _, ok := list[j].(*ast.DefaultExpr); ok {
				row[j] = &Const{D: types.Null, T: col.Type}
				continue
			}
			e, err := b.expr(list[j], &scope{})
			if err != nil {
				return nil, err
			}
			if row[j], err = b.assign(e, col); err != nil {
				return nil, err
			}
		}
		ins.Rows = append(ins.Rows, row)
	}
	if oc != nil {
		if err := b.onConflict(ins, oc, sc); err != nil {
			return nil, err
		}
	}
	return ins, nil
}

// assign coerces a value to a column's type with assignment semantics.
func (b *builder) assign(e Expr, col *ColumnDesc) (Expr, error) {
	got := e.Type()
	if col.Type.Kind == types.Text && got.Kind != types.Unknown && got.Kind != types.Text {
		// PostgreSQL's automatic I/O conversion casts to string types are
		// assignment casts.
		return &Cast{E: e, T: col.Type, Assign: true}, nil
	}
	if got.Kind != types.Unknown && got.Kind != col.Type.Kind && !(got.Kind.IsNumeric() && col.Type.Kind.IsNumeric()) {
		return nil, pgerror.New(pgerror.CodeDatatypeMismatch, "column %q is of type %s but expression is of type %s", col.Name, col.Type, got).
			WithHint("You will need to rewrite or cast the expression.")
	}
	e, err := b.coerce(e, col.Type, "")
	if c, ok := e.(*Cast); ok {
		c.Assign = true
	}
	return e, err
}

func (b *builder) onConflict(ins *Insert, oc *sqlparse.OnConflict, sc *scope) error {
	t := ins.Table
	if oc.Constraint != "" {
		return pgerror.Unimplemented("ON CONFLICT ON CONSTRAINT")
	}
	if len(oc.Columns) > 0 || !oc.DoNothing {
		// The target must name exactly the rowkey columns.
		match := len(oc.Columns) == len(t.Key)
		for _, c := range oc.Columns {
			i := t.ColumnIndex(c)
			if i < 0 {
				return pgerror.New(pgerror.CodeUndefinedColumn, "column %q does not exist", c)
			}
			match = match && t.Columns[i].IsKey()
		}
		if !match {
			return pgerror.New(pgerror.CodeInvalidColumnReference, "there is no unique or exclusion constraint matching the ON CONFLICT specification")
		}
	}
	if oc.DoNothing {
		ins.Conflict = ConflictDoNothing
		return nil
	}
	ins.Conflict = ConflictDoUpdate
	usc := &scope{table: t, alias: sc.alias, excluded: true}
	set, err := b.setItems(oc.Set, usc)
	if err != nil {
		return err
	}
	ins.Set = set
	if oc.Where != nil {
		if ins.Where, err = b.boolExpr(oc.Where, usc, "WHERE"); err != nil {
			return err
		}
	}
	return nil
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
			e = &Const{D: types.Null, T: t.Columns[i].Type}
		} else {
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

func (b *builder) update(n *ast.UpdateStmt) (Plan, error) {
	if n.MultipleTable || n.Order != nil || n.Limit != nil {
		return nil, pgerror.Unimplemented("UPDATE with several tables, ORDER BY or LIMIT")
	}
	sc, scan, used, err := b.dmlScan(n.TableRefs, n.Where)
	if err != nil {
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
	finishScan(scan, used)
	return &Update{Table: sc.table, Scan: scan, Set: set}, nil
}

func (b *builder) delete(n *ast.DeleteStmt) (Plan, error) {
	if n.IsMultiTable || n.Order != nil || n.Limit != nil {
		return nil, pgerror.Unimplemented("DELETE with several tables, ORDER BY or LIMIT")
	}
	sc, scan, used, err := b.dmlScan(n.TableRefs, n.Where)
	if err != nil {
		return nil, err
	}
	finishScan(scan, used)
	return &Delete{Table: sc.table, Scan: scan}, nil
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
