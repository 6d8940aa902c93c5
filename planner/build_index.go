package planner

import (
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/sqlparse"
)

// indexStmt plans CREATE INDEX and DROP INDEX. No secondary index is built
// yet: CREATE INDEX records the index (exec notices that queries scan), and
// a UNIQUE index is accepted only on the primary key's columns, which the
// rowkey already keeps unique.
func (b *builder) indexStmt(ix *sqlparse.IndexStmt) (Plan, error) {
	if ix.Drop {
		return &DropIndex{Names: ix.Names, IfExists: ix.IfExists}, nil
	}
	t, err := b.cat.Table(ix.Table)
	if err != nil {
		return nil, err
	}
	if ix.Method != "" && ix.Method != "btree" && ix.Method != "hash" {
		return nil, pgerror.Unimplemented("index access method " + ix.Method)
	}
	seen := map[int]bool{}
	for _, c := range ix.Columns {
		i := t.ColumnIndex(c)
		if i < 0 {
			return nil, pgerror.New(pgerror.CodeUndefinedColumn, "column %q does not exist", c)
		}
		seen[i] = true
	}
	if ix.Unique {
		onKey := len(seen) == len(t.Key) && t.ShardBits == 0 && !ix.Partial
		for i := range seen {
			onKey = onKey && t.Columns[i].IsKey()
		}
		if !onKey {
			return nil, pgerror.Unimplemented("UNIQUE indexes on columns other than the primary key's").
				WithHint("The rowkey is the only index; make these columns the PRIMARY KEY.")
		}
	}
	name := ix.Name
	if name == "" {
		suffix := "_idx"
		if ix.Unique {
			suffix = "_key"
		}
		name = t.Name + "_" + strings.Join(ix.Columns, "_")
		if len(name)+len(suffix) > maxIdentifierLength {
			name = name[:maxIdentifierLength-len(suffix)]
		}
		name += suffix
	}
	return &CreateIndex{Table: t.Name, IfNotExists: ix.IfNotExists, AutoName: ix.Name == "", Index: IndexDesc{Name: name, Columns: ix.Columns, Unique: ix.Unique}}, nil
}
