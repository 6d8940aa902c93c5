package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// writetime(col) is Cassandra's WRITETIME: the timestamptz of the cell
// version the query read for col; for a rowkey column, the row marker's;
// NULL when col is NULL.
//
// A statement that calls writetime anywhere gives each table of its FROM
// clauses write-time slots: the table is read through a copy of its
// descriptor with one hidden timestamptz column per column appended
// (column n+i holds the write time of column i, n = len(Base.Columns)),
// which the scan fills from the cells' timestamps. writetime(x) resolves x
// like any column and reads x's write-time slot instead. The slots are
// hidden, so SELECT * is unchanged; a statement without writetime pays
// nothing.

// writeTimePrefix names the hidden write-time columns; a name with
// parentheses can never be resolved as a column.
const writeTimePrefix = "writetime("

// withWriteTimes returns a copy of t with write-time slots. The copy's
// Base is t: that is how WriteTimeSource tells it from a plain table.
func withWriteTimes(t *TableDesc) *TableDesc {
	c := *t
	n := len(t.Columns)
	c.Columns = make([]ColumnDesc, n, 2*n)
	copy(c.Columns, t.Columns)
	for i := range t.Columns {
		c.Columns = append(c.Columns, ColumnDesc{Name: writeTimePrefix + t.Columns[i].Name + ")",
			Type: types.TTimestampTZ, KeyPos: -1, Hidden: true})
	}
	c.Base = t
	return &c
}

// WriteTimeSource reports whether column i of a scanned table is a
// write-time slot, and of which column.
func WriteTimeSource(t *TableDesc, i int) (int, bool) {
	if t.Virtual != "" || t.Base == nil || i < len(t.Base.Columns) || i >= len(t.Columns) {
		return 0, false
	}
	return i - len(t.Base.Columns), true
}

// hasWriteTimes reports whether t is a copy with write-time slots.
func hasWriteTimes(t *TableDesc) bool {
	return t != nil && t.Virtual == "" && t.Base != nil && len(t.Columns) == 2*len(t.Base.Columns)
}

// writetime builds writetime(x).
func (b *builder) writetime(n *ast.FuncCallExpr, sc *scope) (Expr, error) {
	if len(n.Args) != 1 {
		return nil, pgerror.New(pgerror.CodeUndefinedFunction, "function writetime() takes exactly one argument")
	}
	arg := n.Args[0]
	for {
		p, ok := arg.(*ast.ParenthesesExpr)
		if !ok {
			break
		}
		arg = p.Expr
	}
	cn, ok := arg.(*ast.ColumnNameExpr)
	if !ok {
		return nil, pgerror.New(pgerror.CodeFeatureNotSupported, "the argument of writetime() must be a column of a table")
	}
	if sc.agg != nil {
		// Not a GROUP BY expression (aggExpr matched those first).
		return nil, pgerror.New(pgerror.CodeGroupingError,
			"writetime(%s) must appear in the GROUP BY clause or be used in an aggregate function", cn.Name.Name.O)
	}
	// Resolve the column as b.column does, to find its FROM item.
	name, qual := cn.Name.Name.O, cn.Name.Table.O
	depth := 0
	for s := sc; s != nil; s = s.outer {
		if s.carrier {
			continue
		}
		slot, err := s.resolve(name, qual)
		if err != nil {
			return nil, err
		}
		if slot < 0 || slot >= len(s.cols) {
			depth++
			continue
		}
		c := &s.cols[slot]
		r := c.rel
		if r == nil || !hasWriteTimes(r.table) || c.col >= len(r.table.Base.Columns) {
			return nil, pgerror.New(pgerror.CodeFeatureNotSupported,
				"writetime(%s): %q is not a column of a table read by a query", name, name).
				WithHint("writetime() reads the cells of a table in FROM; it does not apply to subqueries, views, UPDATE or DELETE.")
		}
		if c.fullUsing >= 0 && qual == "" {
			return nil, pgerror.New(pgerror.CodeAmbiguousColumn, "writetime(%s) is ambiguous: %q merges two FULL JOIN columns", name, name)
		}
		r.used[c.col] = true // NULL-ness decides a NULL write time
		return b.slotRef(s, r.first+len(r.table.Base.Columns)+c.col, depth, qual == ""), nil
	}
	// Not found: the usual error.
	_, err := b.column(cn.Name, sc)
	if err == nil {
		err = pgerror.New(pgerror.CodeUndefinedColumn, "column %q does not exist", name)
	}
	return nil, err
}

// callsWriteTime reports whether a statement calls writetime() anywhere.
func callsWriteTime(n ast.Node) bool {
	if n == nil {
		return false
	}
	v := &writeTimeFinder{}
	n.Accept(v)
	return v.found
}

type writeTimeFinder struct{ found bool }

func (v *writeTimeFinder) Enter(n ast.Node) (ast.Node, bool) {
	if f, ok := n.(*ast.FuncCallExpr); ok && strings.EqualFold(f.FnName.O, "writetime") {
		v.found = true
	}
	return n, v.found
}

func (v *writeTimeFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// writeTimesWanted reports whether the statement being built calls
// writetime(), so that its FROM tables get write-time slots.
func (b *builder) writeTimesWanted() bool { return b.writeTimes }
