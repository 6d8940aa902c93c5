package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
	"github.com/widesql/widesql/sqlparse"
)

// maxIdentifierLength is PostgreSQL's NAMEDATALEN-1.
const maxIdentifierLength = 63

// createTable turns CREATE TABLE into a TableDesc: PRIMARY KEY declares
// the rowkey (with per-column DESC); "fam.col" puts a column in family fam,
// other non-key columns go to DefaultFamily.
func (b *builder) createTable(n *ast.CreateTableStmt, stmt *sqlparse.Statement) (Plan, error) {
	extras := stmt.Columns
	switch {
	case n.Select != nil || n.ReferTable != nil:
		return nil, pgerror.Unimplemented("CREATE TABLE AS / LIKE")
	case n.Partition != nil:
		return nil, pgerror.Unimplemented("partitioned tables (use rowkey design instead)")
	case n.TemporaryKeyword != ast.TemporaryNone:
		return nil, pgerror.Unimplemented("temporary tables")
	}
	if s := n.Table.Schema.O; s != "" && s != "public" {
		return nil, pgerror.New(pgerror.CodeUndefinedObject, "schema %q does not exist", s)
	}
	name := n.Table.Name.O
	if len(name) > maxIdentifierLength {
		return nil, pgerror.New(pgerror.CodeInvalidParameterValue, "table name %q is too long", name)
	}
	t := &TableDesc{Name: name, NextColumnID: 1}
	var pk []*ast.IndexPartSpecification
	for _, cd := range n.Cols {
		c := ColumnDesc{ID: t.NextColumnID, Name: cd.Name.Name.O, Family: cd.Name.Table.O, KeyPos: -1}
		t.NextColumnID++
		if cd.Name.Schema.O != "" {
			return nil, pgerror.New(pgerror.CodeSyntaxError, "column name %q has too many qualifiers", cd.Name.String())
		}
		if t.ColumnIndex(c.Name) >= 0 {
			return nil, pgerror.New(pgerror.CodeDuplicateColumn, "column %q specified more than once", c.Name)
		}
		tn, width, err := sqlparse.PGType(cd.Tp)
		if err != nil {
			return nil, err
		}
		if c.Type, err = types.TypeByName(tn); err != nil {
			return nil, err
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
				pk = append(pk, &ast.IndexPartSpecification{Column: cd.Name})
			case ast.ColumnOptionDefaultValue:
				return nil, pgerror.Unimplemented("column DEFAULT values")
			case ast.ColumnOptionUniqKey:
				return nil, pgerror.Unimplemented("UNIQUE constraints (the rowkey is the only index)")
			case ast.ColumnOptionReference:
				return nil, pgerror.Unimplemented("FOREIGN KEY constraints")
			case ast.ColumnOptionCheck:
				return nil, pgerror.Unimplemented("CHECK constraints")
			case ast.ColumnOptionAutoIncrement:
				return nil, pgerror.Unimplemented("auto-increment columns")
			case ast.ColumnOptionGenerated:
				return nil, pgerror.Unimplemented("generated columns")
			case ast.ColumnOptionComment, ast.ColumnOptionCollate:
			default:
				return nil, pgerror.Unimplemented("this column option")
			}
		}
		if ex := extras[c.Name]; ex != nil {
			if err := b.columnExtra(t, &c, ex); err != nil {
				return nil, err
			}
		}
		t.Columns = append(t.Columns, c)
	}
	for _, con := range n.Constraints {
		switch con.Tp {
		case ast.ConstraintPrimaryKey:
			if len(pk) > 0 {
				return nil, pgerror.New(pgerror.CodeInvalidTableDefinition, "multiple primary keys for table %q are not allowed", name)
			}
			pk = con.Keys
			t.PKName = con.Name
		case ast.ConstraintUniq, ast.ConstraintUniqKey, ast.ConstraintUniqIndex:
			return nil, pgerror.Unimplemented("UNIQUE constraints (the rowkey is the only index)")
		case ast.ConstraintForeignKey:
			return nil, pgerror.Unimplemented("FOREIGN KEY constraints")
		case ast.ConstraintCheck:
			return nil, pgerror.Unimplemented("CHECK constraints")
		default:
			return nil, pgerror.Unimplemented("this table constraint")
		}
	}
	if len(pk) == 0 {
		addRowID(t)
	}
	for pos, part := range pk {
		if part.Expr != nil {
			i, err := b.keyExprColumn(t, part.Expr, pos) // build_keyexpr.go
			if err != nil {
				return nil, err
			}
			t.Key = append(t.Key, KeyColumn{Col: i, Desc: part.Desc})
			continue
		}
		if part.Column == nil {
			return nil, pgerror.Unimplemented("this PRIMARY KEY part")
		}
		i := t.ColumnIndex(part.Column.Name.O)
		if i < 0 {
			return nil, pgerror.New(pgerror.CodeUndefinedColumn, "column %q named in key does not exist", part.Column.Name.O)
		}
		c := &t.Columns[i]
		if c.IsKey() {
			return nil, pgerror.New(pgerror.CodeDuplicateColumn, "column %q appears twice in primary key constraint", c.Name)
		}
		if c.Family != "" {
			return nil, pgerror.New(pgerror.CodeInvalidTableDefinition, "rowkey column %q cannot belong to column family %q", c.Name, c.Family).
				WithHint("Key columns are stored in the rowkey, not in a family.")
		}
		if !keyenc.HasKeyEncoding(c.Type) {
			return nil, pgerror.New(pgerror.CodeUndefinedObject, "data type %s has no default operator class for access method \"btree\"", c.Type).
				WithHint("You must specify an operator class for the index or define a default operator class for the data type.")
		}
		c.KeyPos, c.NotNull = pos, true
		t.Key = append(t.Key, KeyColumn{Col: i, Desc: part.Desc})
	}
	seen := map[string]bool{}
	for i := range t.Columns {
		c := &t.Columns[i]
		if c.IsKey() {
			continue
		}
		if c.Family == "" {
			c.Family = DefaultFamily
		}
		if !seen[c.Family] {
			seen[c.Family] = true
			t.Families = append(t.Families, FamilyDesc{Name: c.Family, MaxVersions: 1})
		}
	}
	t.MarkerFamily = DefaultFamily
	if !seen[DefaultFamily] {
		if len(t.Families) > 0 {
			t.MarkerFamily = t.Families[0].Name
		} else {
			t.Families = append(t.Families, FamilyDesc{Name: DefaultFamily, MaxVersions: 1})
		}
	}
	if err := applyTableOptions(t, stmt.TableOptions); err != nil { // build_options.go
		return nil, err
	}
	if err := CompileKeyExprs(t); err != nil {
		return nil, err
	}
	return &CreateTable{Desc: t, IfNotExists: n.IfNotExists}, nil
}

func (b *builder) dropTable(n *ast.DropTableStmt) (Plan, error) {
	if n.IsView {
		return nil, pgerror.Unimplemented("views")
	}
	d := &DropTable{IfExists: n.IfExists}
	for _, t := range n.Tables {
		if s := t.Schema.O; s != "" && s != "public" {
			return nil, pgerror.New(pgerror.CodeUndefinedTable, "schema %q does not exist", s)
		}
		d.Names = append(d.Names, t.Name.O)
	}
	return d, nil
}
