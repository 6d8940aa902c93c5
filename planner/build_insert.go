package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
	"github.com/widesql/widesql/sqlparse"
)

// CodeGeneratedAlways is PostgreSQL's generated_always (428C9).
const CodeGeneratedAlways = "428C9"

// insert plans INSERT ... VALUES | SELECT | DEFAULT VALUES. Every visible
// column is a target: omitted ones and DEFAULT take the column's default.
func (b *builder) insert(n *ast.InsertStmt, stmt *sqlparse.Statement) (Plan, error) {
	switch {
	case n.IsReplace:
		return nil, pgerror.Unimplemented("REPLACE")
	case n.Setlist:
		return nil, pgerror.Unimplemented("INSERT ... SET")
	case len(n.OnDuplicate) > 0:
		return nil, pgerror.Unimplemented("ON DUPLICATE KEY UPDATE (use ON CONFLICT)")
	}
	sc, err := b.singleTable(n.Table)
	if err != nil {
		return nil, err
	}
	if err := writableView(sc.table, "INSERT"); err != nil {
		return nil, err
	}
	ex := stmt.Insert
	if ex == nil {
		ex = &sqlparse.InsertExtras{}
	}
	if ex.Alias != "" {
		sc.alias, sc.rels[0].alias = ex.Alias, ex.Alias
	}
	t := sc.table
	ins := &Insert{Table: t, Targets: t.Visible()}
	// pos maps a column index to its position in the values or select list.
	pos := map[int]int{}
	if len(n.Columns) > 0 {
		for j, c := range n.Columns {
			i := t.ColumnIndex(c.Name.O)
			if i < 0 {
				return nil, pgerror.New(pgerror.CodeUndefinedColumn, "column %q of relation %q does not exist", c.Name.O, t.Name)
			}
			if _, dup := pos[i]; dup {
				return nil, pgerror.New(pgerror.CodeDuplicateColumn, "column %q specified more than once", c.Name.O)
			}
			pos[i] = j
		}
	} else {
		for j, i := range ins.Targets {
			pos[i] = j
		}
	}
	lists := n.Lists
	var srcCols []ResultColumn
	if n.Select != nil {
		if ins.Source, err = b.query(n.Select, nil); err != nil {
			return nil, err
		}
		srcCols = ins.Source.Columns()
		lists = [][]ast.ExprNode{nil}
	}
	defaults := map[int]Expr{}
	for _, list := range lists {
		width := len(list)
		if ins.Source != nil {
			width = len(srcCols)
		}
		if width > len(pos) {
			return nil, pgerror.New(pgerror.CodeSyntaxError, "INSERT has more expressions than target columns")
		}
		if width < len(pos) && len(n.Columns) > 0 {
			return nil, pgerror.New(pgerror.CodeSyntaxError, "INSERT has more target columns than expressions")
		}
		row := make([]Expr, len(ins.Targets))
		for j, ci := range ins.Targets {
			col := &t.Columns[ci]
			var e Expr
			if p, listed := pos[ci]; listed && p < width {
				if ins.Source != nil {
					e = &ColRef{Idx: p, Name: srcCols[p].Name, T: srcCols[p].T}
				} else if _, isDefault := list[p].(*ast.DefaultExpr); !isDefault {
					if e, err = b.expr(list[p], &scope{}); err != nil {
						return nil, err
					}
				}
			}
			if e != nil && col.Identity != "" {
				switch {
				case ex.Overriding == "user":
					e = nil // OVERRIDING USER VALUE: the sequence wins
				case col.Identity == IdentityAlways && ex.Overriding != "system":
					return nil, pgerror.New(CodeGeneratedAlways, "cannot insert a non-DEFAULT value into column %q", col.Name).
						WithDetail("Column %q is an identity column defined as GENERATED ALWAYS.", col.Name).
						WithHint("Use OVERRIDING SYSTEM VALUE to override.")
				}
			}
			if e == nil {
				if defaults[ci] == nil {
					if defaults[ci], err = b.defaultExpr(col); err != nil {
						return nil, err
					}
				}
				row[j] = defaults[ci]
				continue
			}
			if row[j], err = b.assign(e, col); err != nil {
				return nil, err
			}
		}
		ins.Rows = append(ins.Rows, row)
	}
	if oc := stmt.OnConflict; oc != nil {
		if err := b.onConflict(ins, oc, sc); err != nil {
			return nil, err
		}
	}
	used := map[int]bool{}
	if ins.Returning, err = b.returning(stmt.Returning, tableScope(t, sc.alias), used); err != nil {
		return nil, err
	}
	return ins, nil
}

// defaultExpr is the value an INSERT gives a column it does not set: the
// next value of its sequence, its DEFAULT expression, or NULL.
func (b *builder) defaultExpr(col *ColumnDesc) (Expr, error) {
	if col.Seq != nil {
		e := &Func{Name: "nextval", Args: []Expr{&Const{D: types.NewText(col.Seq.Name), T: types.TText}}, T: types.TInt8}
		return b.assign(e, col)
	}
	if col.Default == "" {
		return &Const{D: types.Null, T: col.Type}, nil
	}
	e, err := b.parseDefault(col.Default)
	if err != nil {
		return nil, err
	}
	return b.assign(e, col)
}

// parseDefault builds a DEFAULT expression from its SQL text. It may not
// read columns or parameters.
func (b *builder) parseDefault(text string) (Expr, error) {
	stmts, err := sqlparse.Parse("SELECT " + text)
	if err != nil {
		return nil, err
	}
	sel, ok := stmts[0].AST.(*ast.SelectStmt)
	if len(stmts) != 1 || !ok || sel.From != nil || len(sel.Fields.Fields) != 1 || sel.Fields.Fields[0].Expr == nil ||
		stmts[0].NumParams > 0 {
		return nil, pgerror.New(pgerror.CodeSyntaxError, "invalid DEFAULT expression %s", text)
	}
	if hasAggregate(sel.Fields.Fields[0].Expr) {
		return nil, pgerror.New(pgerror.CodeGroupingError, "aggregate functions are not allowed in DEFAULT expressions")
	}
	return b.expr(sel.Fields.Fields[0].Expr, &scope{})
}

// onConflict plans ON CONFLICT. The only unique constraint is the primary
// key, so a target must name exactly its columns (in any order) or it.
func (b *builder) onConflict(ins *Insert, oc *sqlparse.OnConflict, sc *scope) error {
	t := ins.Table
	if oc.Constraint != "" && oc.Constraint != t.PrimaryKeyName() {
		for _, ix := range t.Indexes {
			if ix.Name == oc.Constraint {
				return pgerror.New(pgerror.CodeInvalidColumnReference, "there is no unique or exclusion constraint matching the ON CONFLICT specification")
			}
		}
		return pgerror.New(pgerror.CodeUndefinedObject, "constraint %q for table %q does not exist", oc.Constraint, t.Name)
	}
	if oc.Constraint != "" && t.ShardBits > 0 {
		return pgerror.New(pgerror.CodeUndefinedObject, "constraint %q for table %q does not exist", oc.Constraint, t.Name)
	}
	if len(oc.Columns) > 0 {
		match := map[int]bool{}
		for _, c := range oc.Columns {
			i := t.ColumnIndex(c)
			if i < 0 {
				return pgerror.New(pgerror.CodeUndefinedColumn, "column %q does not exist", c)
			}
			if t.Columns[i].IsKey() {
				match[i] = true
			} else {
				match[-1] = true
			}
		}
		if len(match) != len(t.Key) || match[-1] {
			return pgerror.New(pgerror.CodeInvalidColumnReference, "there is no unique or exclusion constraint matching the ON CONFLICT specification")
		}
	}
	if oc.DoNothing {
		ins.Conflict = ConflictDoNothing
		return nil
	}
	ins.Conflict = ConflictDoUpdate
	usc := tableScope(t, sc.alias)
	usc.excluded = true
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

// returning plans a RETURNING list over sc's table row and adds the
// columns it reads to used. It returns the zero Returning for none.
func (b *builder) returning(fields []*ast.SelectField, sc *scope, used map[int]bool) (Returning, error) {
	var r Returning
	if fields == nil {
		return r, nil
	}
	t := sc.table
	for _, f := range fields {
		if f.WildCard != nil {
			if q := f.WildCard.Table.O; q != "" && q != sc.alias && q != t.Name {
				return r, pgerror.New(pgerror.CodeUndefinedTable, "missing FROM-clause entry for table %q", q)
			}
			for _, i := range t.Visible() {
				c := &t.Columns[i]
				r.Exprs = append(r.Exprs, &ColRef{Idx: i, Name: c.Name, T: c.Type})
				r.Cols = append(r.Cols, ResultColumn{Name: c.Name, T: c.Type})
			}
			continue
		}
		if hasAggregate(f.Expr) {
			return r, pgerror.New(pgerror.CodeGroupingError, "aggregate functions are not allowed in RETURNING")
		}
		e, err := b.expr(f.Expr, sc)
		if err != nil {
			return r, err
		}
		e = resolveUnknown(e)
		name := f.AsName.O
		if name == "" {
			name = outputName(f.Expr)
		}
		r.Exprs = append(r.Exprs, e)
		r.Cols = append(r.Cols, ResultColumn{Name: name, T: e.Type()})
	}
	usedColumns(used, len(t.Columns), r.Exprs...)
	return r, nil
}
