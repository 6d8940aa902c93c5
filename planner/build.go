package planner

import (
	"sort"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
	"github.com/widesql/widesql/sqlparse"
)

// Build plans one parsed statement against the catalog. paramTypes are the
// client's declared parameter types (Unknown = infer). It returns the plan
// and the final type of every parameter; a parameter no context could type
// is text, as in PostgreSQL's unknown-literal resolution.
func Build(cat Catalog, stmt *sqlparse.Statement, paramTypes []types.T) (Plan, []types.T, error) {
	return BuildIn(cat, stmt, paramTypes, time.UTC)
}

// BuildIn is Build in a session time zone: typed literals whose value
// depends on the zone ('...'::timestamptz) are folded in loc.
func BuildIn(cat Catalog, stmt *sqlparse.Statement, paramTypes []types.T, loc *time.Location) (Plan, []types.T, error) {
	n := stmt.NumParams
	if len(paramTypes) > n {
		n = len(paramTypes)
	}
	pt := &ParamTypes{Types: make([]types.T, n)}
	copy(pt.Types, paramTypes)
	b := &builder{cat: cat, params: pt, loc: loc, columnAliases: stmt.ColumnAliases}
	b.writeTimes = callsWriteTime(stmt.AST) // build_writetime.go
	p, err := b.stmt(stmt)
	if err != nil {
		return nil, nil, err
	}
	b.finishScans()
	for i, t := range pt.Types {
		if t.Kind == types.Unknown {
			pt.Types[i] = types.TText
		}
	}
	return p, pt.Types, nil
}

// query plans a query expression, a SELECT or a set operation, inside
// outer (nil at top level): the scope its correlated column references and
// CTE names resolve in.
func (b *builder) query(n ast.Node, outer *scope) (Plan, error) {
	switch n := n.(type) {
	case *ast.SelectStmt:
		return b.selectStmt(n, outer)
	case *ast.SetOprStmt:
		return b.setOpStmt(n, outer)
	}
	return nil, pgerror.Unimplemented("query " + nodeName(n))
}

func (b *builder) stmt(stmt *sqlparse.Statement) (Plan, error) {
	if stmt.Index != nil {
		return b.indexStmt(stmt.Index)
	}
	if stmt.AlterOptions != nil {
		return b.alterOptions(stmt.AlterOptions) // build_alter.go
	}
	if stmt.Copy != nil {
		return b.copyStmt(stmt.Copy) // build_copy.go
	}
	if stmt.Role != nil {
		return b.roleStmt(stmt.Role) // build_role.go
	}
	if stmt.Comment != nil {
		return b.commentStmt(stmt.Comment) // build_comment.go
	}
	if stmt.Returning != nil {
		switch stmt.AST.(type) {
		case *ast.InsertStmt, *ast.UpdateStmt, *ast.DeleteStmt:
		default:
			return nil, pgerror.Unimplemented("RETURNING")
		}
	}
	switch n := stmt.AST.(type) {
	case *ast.SelectStmt:
		return b.selectStmt(n, nil)
	case *ast.InsertStmt:
		return b.insert(n, stmt)
	case *ast.UpdateStmt:
		return b.update(n, stmt.Returning)
	case *ast.DeleteStmt:
		return b.delete(n, stmt.Returning)
	case *ast.CreateTableStmt:
		return b.createTable(n, stmt)
	case *ast.DropTableStmt:
		return b.dropTable(n)
	case *ast.ExplainStmt:
		if e, ok := n.Stmt.(*ast.ExplainStmt); ok {
			n = e
		}
		in := *stmt
		in.AST = n.Stmt
		inner, err := b.stmt(&in)
		if err != nil {
			return nil, err
		}
		return &Explain{Input: inner, Analyze: n.Analyze, SubPlans: b.subqueries}, nil
	case *ast.SetOprStmt:
		return b.setOpStmt(n, nil) // build_setop.go
	case *ast.CreateIndexStmt:
		return nil, pgerror.Unimplemented("CREATE INDEX (secondary indexes)")
	case *ast.AlterTableStmt:
		return b.alterTable(n, stmt) // build_alter.go
	case *ast.SplitRegionStmt:
		return b.splitTable(n) // build_regions.go
	case *ast.ShowStmt:
		switch n.Tp {
		case ast.ShowCreateTable:
			return b.showCreateTable(n) // build_alter.go
		case ast.ShowRegions:
			return b.showRegions(n) // build_regions.go
		}
		return nil, pgerror.Unimplemented("this SHOW statement")
	case *ast.TruncateTableStmt:
		return nil, pgerror.Unimplemented("TRUNCATE")
	case *ast.CreateViewStmt:
		return nil, pgerror.Unimplemented("CREATE VIEW")
	}
	return nil, pgerror.Unimplemented("statement " + nodeName(stmt.AST))
}

// tableSource resolves a single-table FROM clause.
func (b *builder) tableSource(refs *ast.TableRefsClause) (*scope, error) {
	j := refs.TableRefs
	if j.Right != nil {
		return nil, pgerror.Unimplemented("joins")
	}
	ts, ok := j.Left.(*ast.TableSource)
	if !ok {
		if _, ok := j.Left.(*ast.Join); ok {
			return nil, pgerror.Unimplemented("joins")
		}
		return nil, pgerror.Unimplemented("this FROM clause")
	}
	tn, ok := ts.Source.(*ast.TableName)
	if !ok {
		return nil, pgerror.Unimplemented("subqueries in FROM")
	}
	t, err := b.lookupTable(tn.Schema.O, tn.Name.O)
	if err != nil {
		return nil, err
	}
	if t.Virtual != "" && t.Virtual != VirtualCells {
		return nil, writableView(t, "") // build_time.go; DELETE FROM cells.<t> deletes cells
	}
	alias := t.Name
	if ts.AsName.O != "" {
		alias = ts.AsName.O
	}
	return tableScope(t, alias), nil
}

// scanOf builds the scan of sc's table filtered by where.
func (b *builder) scanOf(sc *scope, where ast.ExprNode) (*Scan, error) {
	t := sc.table
	s := &Scan{Table: t}
	if where != nil {
		if hasAggregate(where) {
			return nil, pgerror.New(pgerror.CodeGroupingError, "aggregate functions are not allowed in WHERE")
		}
		cond, err := b.boolExpr(where, sc, "WHERE")
		if err != nil {
			return nil, err
		}
		var rest []Expr
		conds := splitAnd(cond, nil)
		s.Access, rest = b.access(t, conds)
		s.Filter = andAll(rest)
		if s.Access.Kind == FullScan {
			s.FullScanReason = fullScanReason(t, conds)
		}
	} else {
		s.Access = Access{Kind: FullScan}
		s.FullScanReason = fullScanReason(t, nil)
	}
	for i := range t.Columns {
		c := &t.Columns[i]
		s.cols = append(s.cols, ResultColumn{Name: c.Name, T: c.Type})
	}
	return s, nil
}

// finishScan records the columns and families the query reads.
func finishScan(s *Scan, used map[int]bool) {
	s.Needed = s.Needed[:0]
	fams := map[string]bool{s.Table.MarkerFamily: true}
	for i := range s.Table.Columns {
		if used[i] {
			s.Needed = append(s.Needed, i)
			if f := s.Table.Columns[i].Family; f != "" {
				fams[f] = true
			}
		}
	}
	s.Families = s.Families[:0]
	for f := range fams {
		s.Families = append(s.Families, f)
	}
	sort.Strings(s.Families)
}

// usedColumns collects the table columns read by exprs.
func usedColumns(used map[int]bool, n int, exprs ...Expr) {
	for _, e := range exprs {
		if e == nil {
			continue
		}
		WalkCols(e, func(c *ColRef) {
			if c.Idx < n {
				used[c.Idx] = true
			}
		})
	}
}

func hasAggregate(n ast.Node) bool {
	v := &aggFinder{}
	n.Accept(v)
	return v.found
}

type aggFinder struct{ found bool }

func (v *aggFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch n.(type) {
	case *ast.AggregateFuncExpr:
		v.found = true
		return n, true
	case *ast.SubqueryExpr:
		return n, true
	}
	return n, false
}

func (v *aggFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// constInt evaluates a LIMIT/OFFSET operand: a literal or a parameter.
func (b *builder) limitExpr(n ast.ExprNode) (Expr, error) {
	if n == nil {
		return nil, nil
	}
	if v, ok := n.(*driver.ValueExpr); ok && v.Kind() == driver.KindUint64 && v.GetUint64() > 1<<63-1 {
		return nil, nil // LIMIT ALL
	}
	if v, ok := n.(*driver.ValueExpr); ok && v.Kind() == driver.KindString {
		// GORM sends LIMIT '1'.
		d, err := types.ParseText(types.TInt8, v.GetString())
		if err != nil {
			return nil, err
		}
		return &Const{D: d, T: types.TInt8}, nil
	}
	e, err := b.expr(n, &scope{})
	if err != nil {
		return nil, err
	}
	return b.coerce(e, types.TInt8, "LIMIT")
}
