package planner

import (
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
	"github.com/widesql/widesql/sqlparse"
)

// ALTER TABLE builds a new descriptor from the published one; exec checks
// what needs the data (an added NOT NULL or DEFAULT column needs an empty
// table), creates new families in the store and publishes it. Rows are
// never rewritten: a column's cells are found by its id, ids are never
// reused, so a dropped column's cells are simply never read again and a
// column added later under the same name starts empty.

// cloneDesc returns a copy of t whose slices may be changed freely.
func cloneDesc(t *TableDesc) *TableDesc {
	n := *t
	n.Columns = slices.Clone(t.Columns)
	n.Key = slices.Clone(t.Key)
	n.Families = slices.Clone(t.Families)
	n.Indexes = slices.Clone(t.Indexes)
	for i := range n.Indexes {
		n.Indexes[i].Columns = slices.Clone(n.Indexes[i].Columns)
	}
	n.keyExprs = nil
	return &n
}

// alterTarget resolves the table an ALTER TABLE or SHOW CREATE TABLE names.
func (b *builder) alterTarget(tn *ast.TableName) (*TableDesc, error) {
	if s := tn.Schema.O; s != "" && s != "public" {
		if s == SchemaCells || s == SchemaVersions || s == SchemaWidesql {
			return nil, pgerror.New(pgerror.CodeWrongObjectType, "%q is not a table", s+"."+tn.Name.O)
		}
		return nil, pgerror.New(pgerror.CodeUndefinedTable, "relation \"%s.%s\" does not exist", s, tn.Name.O)
	}
	return b.cat.Table(tn.Name.O)
}

func (b *builder) alterTable(n *ast.AlterTableStmt, stmt *sqlparse.Statement) (Plan, error) {
	old, err := b.alterTarget(n.Table)
	if err != nil {
		return nil, err
	}
	t := cloneDesc(old)
	for _, spec := range n.Specs {
		switch spec.Tp {
		case ast.AlterTableAddColumns:
			if spec.Position != nil && spec.Position.Tp != ast.ColumnPositionNone {
				return nil, pgerror.New(pgerror.CodeSyntaxError, "syntax error at or near %q", positionWord(spec.Position))
			}
			for _, cd := range spec.NewColumns {
				if err := b.addColumn(t, cd, spec.IfNotExists, stmt.Columns); err != nil {
					return nil, err
				}
			}
		case ast.AlterTableDropColumn:
			if err := dropColumn(old, t, spec.OldColumnName.Name.O, spec.IfExists); err != nil {
				return nil, err
			}
		case ast.AlterTableRenameColumn:
			if err := renameColumn(old, t, spec.OldColumnName.Name.O, spec.NewColumnName.Name.O); err != nil {
				return nil, err
			}
		case ast.AlterTableRenameTable:
			if len(n.Specs) > 1 {
				return nil, pgerror.New(pgerror.CodeSyntaxError, "RENAME TO cannot be combined with other ALTER TABLE actions")
			}
			nt := spec.NewTable
			if s := nt.Schema.O; s != "" && s != "public" {
				return nil, pgerror.New(pgerror.CodeFeatureNotSupported, "cannot move a table to schema %q", s)
			}
			if len(nt.Name.O) > maxIdentifierLength {
				return nil, pgerror.New(pgerror.CodeInvalidParameterValue, "table name %q is too long", nt.Name.O)
			}
			t.Name = nt.Name.O
		case ast.AlterTableAlterColumn:
			if err := b.alterDefault(t, spec); err != nil {
				return nil, err
			}
		default:
			return nil, pgerror.Unimplemented("this ALTER TABLE action (widesql supports ADD COLUMN, DROP COLUMN, RENAME, ALTER COLUMN SET/DROP DEFAULT, SET and RESET)")
		}
	}
	if err := CompileKeyExprs(t); err != nil {
		return nil, err
	}
	return &AlterTable{Old: old, New: t}, nil
}

func positionWord(p *ast.ColumnPosition) string {
	if p.Tp == ast.ColumnPositionFirst {
		return "FIRST"
	}
	return "AFTER"
}

// addColumn appends a column defined as in CREATE TABLE; a family not yet
// in the table is added with the default options.
func (b *builder) addColumn(t *TableDesc, cd *ast.ColumnDef, ifNotExists bool, extras map[string]*sqlparse.ColumnExtra) error {
	name := cd.Name.Name.O
	if cd.Name.Schema.O != "" {
		return pgerror.New(pgerror.CodeSyntaxError, "column name %q has too many qualifiers", cd.Name.String())
	}
	if t.ColumnIndex(name) >= 0 {
		if ifNotExists {
			return nil // PostgreSQL notices "already exists, skipping"
		}
		return pgerror.New(pgerror.CodeDuplicateColumn, "column %q of relation %q already exists", name, t.Name)
	}
	if len(name) > maxIdentifierLength {
		return pgerror.New(pgerror.CodeInvalidParameterValue, "column name %q is too long", name)
	}
	c := ColumnDesc{ID: t.NextColumnID, Name: name, Family: cd.Name.Table.O, KeyPos: -1}
	tn, width, err := sqlparse.PGType(cd.Tp)
	if err != nil {
		return err
	}
	if c.Type, err = types.TypeByName(tn); err != nil {
		return err
	}
	if (c.Type.Kind == types.Text || c.Type.Kind == types.BPChar) && width > 0 {
		c.Type.Width = width
	}
	for _, opt := range cd.Options {
		switch opt.Tp {
		case ast.ColumnOptionNotNull:
			c.NotNull = true
		case ast.ColumnOptionNull:
			c.NotNull = false
		case ast.ColumnOptionPrimaryKey:
			return pgerror.New(pgerror.CodeFeatureNotSupported, "cannot add a primary key column to an existing table").
				WithHint("The primary key is the rowkey every row is stored under: create a new table and copy the rows.")
		case ast.ColumnOptionUniqKey:
			return pgerror.Unimplemented("UNIQUE constraints (the rowkey is the only index)")
		case ast.ColumnOptionReference:
			return pgerror.Unimplemented("FOREIGN KEY constraints")
		case ast.ColumnOptionCheck:
			return pgerror.Unimplemented("CHECK constraints")
		case ast.ColumnOptionGenerated:
			return pgerror.Unimplemented("generated columns")
		case ast.ColumnOptionComment, ast.ColumnOptionCollate:
		default:
			return pgerror.Unimplemented("this column option")
		}
	}
	if ex := extras[name]; ex != nil {
		if err := b.columnExtra(t, &c, ex); err != nil {
			return err
		}
	}
	if c.Family == "" {
		c.Family = DefaultFamily
	}
	if !slices.ContainsFunc(t.Families, func(f FamilyDesc) bool { return f.Name == c.Family }) {
		t.Families = append(t.Families, FamilyDesc{Name: c.Family, MaxVersions: 1})
	}
	t.NextColumnID++
	t.Columns = append(t.Columns, c)
	return nil
}

// dropColumn removes a non-key column from t. Its cells stay in the store
// unread (ids are never reused). A family left without columns leaves the
// descriptor unless it holds the row markers; the store keeps it.
func dropColumn(old, t *TableDesc, name string, ifExists bool) error {
	i := t.ColumnIndex(name)
	if i < 0 {
		if ifExists {
			return nil
		}
		return pgerror.New(pgerror.CodeUndefinedColumn, "column %q of relation %q does not exist", name, t.Name)
	}
	c := t.Columns[i]
	if c.IsKey() {
		return pgerror.New(pgerror.CodeFeatureNotSupported, "cannot drop column %q of table %q because it is part of the primary key", name, t.Name).
			WithHint("The primary key is the rowkey every row is stored under: create a new table with the key you want and copy the rows.")
	}
	if usedByKeyExpr(old, name) {
		return pgerror.New(pgerror.CodeFeatureNotSupported, "cannot drop column %q of table %q because a primary key expression uses it", name, t.Name)
	}
	if t.Layout == LayoutWide {
		// The wide adapter deletes a row cell by cell, by the columns the
		// descriptor lists: a dropped column's cells would outlive it.
		return pgerror.New(pgerror.CodeFeatureNotSupported, "cannot drop a column of wide table %q", t.Name).
			WithHint("Set the column to NULL instead, or create a new table and copy the rows.")
	}
	t.Columns = slices.Delete(t.Columns, i, i+1)
	for k := range t.Key {
		if t.Key[k].Col > i {
			t.Key[k].Col--
		}
	}
	// PostgreSQL drops the indexes on a dropped column.
	t.Indexes = slices.DeleteFunc(t.Indexes, func(ix IndexDesc) bool { return slices.Contains(ix.Columns, name) })
	if c.Family != t.MarkerFamily && !slices.ContainsFunc(t.Columns, func(o ColumnDesc) bool { return o.Family == c.Family }) {
		t.Families = slices.DeleteFunc(t.Families, func(f FamilyDesc) bool { return f.Name == c.Family })
	}
	return nil
}

// usedByKeyExpr reports whether one of old's key expressions reads the
// named column.
func usedByKeyExpr(old *TableDesc, name string) bool {
	i := old.ColumnIndex(name)
	if i < 0 {
		return false
	}
	used := false
	for _, kc := range old.Key {
		if e := old.KeyExpr(kc.Col); e != nil {
			WalkCols(e, func(c *ColRef) { used = used || c.Idx == i })
		}
	}
	return used
}

// renameColumn renames a column in t and in its index definitions.
func renameColumn(old, t *TableDesc, from, to string) error {
	i := t.ColumnIndex(from)
	if i < 0 {
		return pgerror.New(pgerror.CodeUndefinedColumn, "column %q does not exist", from)
	}
	if t.ColumnIndex(to) >= 0 {
		return pgerror.New(pgerror.CodeDuplicateColumn, "column %q of relation %q already exists", to, t.Name)
	}
	if len(to) > maxIdentifierLength {
		return pgerror.New(pgerror.CodeInvalidParameterValue, "column name %q is too long", to)
	}
	if usedByKeyExpr(old, from) {
		// The expression is stored as text over column names.
		return pgerror.New(pgerror.CodeFeatureNotSupported, "cannot rename column %q of table %q because a primary key expression uses it", from, t.Name)
	}
	t.Columns[i].Name = to
	for k := range t.Indexes {
		for j, c := range t.Indexes[k].Columns {
			if c == from {
				t.Indexes[k].Columns[j] = to
			}
		}
	}
	return nil
}

// alterDefault is ALTER COLUMN c SET DEFAULT <literal> / DROP DEFAULT. The
// parser hands over a TiDB literal: the default is stored as its SQL text.
func (b *builder) alterDefault(t *TableDesc, spec *ast.AlterTableSpec) error {
	if len(spec.NewColumns) != 1 {
		return pgerror.Unimplemented("this ALTER COLUMN action")
	}
	cd := spec.NewColumns[0]
	i := t.ColumnIndex(cd.Name.Name.O)
	if i < 0 {
		return pgerror.New(pgerror.CodeUndefinedColumn, "column %q of relation %q does not exist", cd.Name.Name.O, t.Name)
	}
	c := &t.Columns[i]
	if c.Seq != nil {
		return pgerror.New(pgerror.CodeFeatureNotSupported, "cannot change the default of serial or identity column %q", c.Name)
	}
	if len(cd.Options) == 0 {
		c.Default = ""
		return nil
	}
	if len(cd.Options) != 1 || cd.Options[0].Expr == nil {
		return pgerror.Unimplemented("this ALTER COLUMN action")
	}
	text, ok := literalText(cd.Options[0].Expr)
	if !ok {
		return pgerror.Unimplemented("ALTER COLUMN SET DEFAULT with an expression other than a literal")
	}
	e, err := b.parseDefault(text)
	if err != nil {
		return err
	}
	if _, err := b.assign(e, c); err != nil {
		return err
	}
	c.Default = text
	return nil
}

// literalText renders a literal (or a negated one) as SQL.
func literalText(e ast.ExprNode) (string, bool) {
	switch e := e.(type) {
	case *driver.ValueExpr:
	case *ast.UnaryOperationExpr:
		if _, ok := e.V.(*driver.ValueExpr); !ok {
			return "", false
		}
	case *ast.ParenthesesExpr:
		return literalText(e.Expr)
	default:
		return "", false
	}
	var sb strings.Builder
	if err := e.Restore(format.NewRestoreCtx(format.RestoreStringSingleQuotes|format.RestoreStringWithoutCharset|format.RestoreKeyWordLowercase, &sb)); err != nil {
		return "", false
	}
	return sb.String(), true
}

// alterOptions is ALTER TABLE t SET (...) / RESET (...). Family options
// change in place (the store applies a new TTL or version count to reads
// at once); salt_buckets and layout decide where every row is stored, so
// changing them is refused.
func (b *builder) alterOptions(a *sqlparse.AlterOptions) (Plan, error) {
	old, err := b.cat.Table(a.Table)
	if err != nil {
		if a.IfExists && pgerror.Flatten(err).Code == pgerror.CodeUndefinedTable {
			return &AlterTable{New: &TableDesc{Name: a.Table}}, nil // exec notices "skipping"
		}
		return nil, err
	}
	t := cloneDesc(old)
	if err := checkDuplicateOptions(a.Set); err != nil {
		return nil, err
	}
	for _, o := range a.Set {
		if err := setOption(t, o.Name, o.Value); err != nil {
			return nil, err
		}
	}
	for _, name := range a.Reset {
		if err := resetOption(t, name); err != nil {
			return nil, err
		}
	}
	if err := checkPhysical(old, t); err != nil {
		return nil, err
	}
	if err := CompileKeyExprs(t); err != nil {
		return nil, err
	}
	return &AlterTable{Old: old, New: t}, nil
}

// checkPhysical refuses a change of the options that place rows.
func checkPhysical(old, t *TableDesc) error {
	what := ""
	switch {
	case t.SaltBuckets != old.SaltBuckets:
		what = optSaltBuckets
	case t.Layout != old.Layout:
		what = optLayout
	default:
		return nil
	}
	return pgerror.New(pgerror.CodeFeatureNotSupported, "cannot change %s of an existing table", what).
		WithHint("It decides every row's key: create a new table WITH (%s = ...) and copy the rows with INSERT INTO ... SELECT.", what)
}

func (b *builder) showCreateTable(n *ast.ShowStmt) (Plan, error) {
	t, err := b.alterTarget(n.Table)
	if err != nil {
		return nil, err
	}
	return &ShowCreateTable{Table: t, Cols: []ResultColumn{{Name: "Table", T: types.TText}, {Name: "Create Table", T: types.TText}}}, nil
}
