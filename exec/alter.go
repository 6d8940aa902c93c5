package exec

import (
	"context"
	"fmt"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// alterTable publishes the descriptor an ALTER TABLE built. Rows are never
// rewritten (see planner/build_alter.go), so what needs the data is
// checked here: a column added with NOT NULL, DEFAULT, serial or identity
// needs the table to be empty, because its existing rows would read NULL.
// New families and changed family options go to the store first
// (kv.Admin.SetFamilies), then the descriptor to the catalog.
//
// The emptiness check and the publication are not atomic with concurrent
// writers of the old descriptor: a row inserted between them reads NULL in
// the new column.
func (x *executor) alterTable(ctx context.Context, p *planner.AlterTable) (string, []Row, error) {
	old, nw := p.Old, p.New
	if old == nil { // ALTER TABLE IF EXISTS of a missing table
		x.env.sess.notice("NOTICE", "00000", fmt.Sprintf("relation %q does not exist, skipping", nw.Name))
		return "ALTER TABLE", nil, nil
	}
	prepare := func(kv.Table) error {
		if err := x.checkAddedColumns(ctx, old, nw); err != nil {
			return err
		}
		return x.setFamilies(ctx, old, nw)
	}
	if err := x.eng.cat.alter(ctx, old, nw, prepare); err != nil { // catalog.go
		return "", nil, err
	}
	var dropped []planner.ColumnDesc
	for i := range old.Columns {
		if c := &old.Columns[i]; c.Seq != nil && !hasColumnID(nw, c.ID) {
			dropped = append(dropped, *c)
		}
	}
	if len(dropped) > 0 || len(nw.Columns) != len(old.Columns) || nw.Name != old.Name {
		// Sequence names are cached with their column's position.
		x.eng.seqs.forgetTable(old.ID)
	}
	if len(dropped) > 0 {
		if err := x.eng.seqs.dropTable(ctx, &planner.TableDesc{ID: old.ID, Columns: dropped}); err != nil {
			return "", nil, err
		}
	}
	return "ALTER TABLE", nil, nil
}

func hasColumnID(t *planner.TableDesc, id uint32) bool {
	for i := range t.Columns {
		if t.Columns[i].ID == id {
			return true
		}
	}
	return false
}

// checkAddedColumns refuses added columns that existing rows cannot
// satisfy without a rewrite, when there are rows. PostgreSQL fills them
// with the default; widesql asks for an UPDATE instead.
func (x *executor) checkAddedColumns(ctx context.Context, old, nw *planner.TableDesc) error {
	var needs []*planner.ColumnDesc
	for i := range nw.Columns {
		c := &nw.Columns[i]
		if c.ID >= old.NextColumnID && (c.NotNull || c.Default != "" || c.Seq != nil) {
			needs = append(needs, c)
		}
	}
	if len(needs) == 0 {
		return nil
	}
	empty, err := x.tableEmpty(ctx, old)
	if err != nil || empty {
		return err
	}
	c := needs[0]
	switch {
	case c.Seq != nil:
		return pgerror.New(pgerror.CodeFeatureNotSupported, "cannot add serial or identity column %q to table %q because it has rows", c.Name, nw.Name).
			WithHint("widesql does not rewrite existing rows: add a plain column and fill it with UPDATE.")
	case c.Default != "":
		return pgerror.New(pgerror.CodeFeatureNotSupported, "cannot add column %q with a DEFAULT to table %q because it has rows", c.Name, nw.Name).
			WithHint("widesql does not rewrite existing rows: add the column without DEFAULT, fill it with UPDATE %s SET %s = ..., then ALTER TABLE %[1]s ALTER COLUMN %[2]s SET DEFAULT ....",
				planner.QuoteIdent(nw.Name), planner.QuoteIdent(c.Name))
	}
	e := pgerror.New(pgerror.CodeNotNullViolation, "column %q of relation %q contains null values", c.Name, nw.Name)
	e.Table, e.Column = nw.Name, c.Name
	return e
}

// tableEmpty reports whether t has no row, as this statement sees it (in a
// transaction block, its own writes count).
func (x *executor) tableEmpty(ctx context.Context, t *planner.TableDesc) (bool, error) {
	kt, err := x.kvTable(t)
	if err != nil {
		return false, err
	}
	it := kt.Read(ctx, kv.RowSet{}, kv.ReadOptions{Limit: 1,
		Columns: []kv.Column{{Family: t.MarkerFamily, Qualifier: planner.MarkerQualifier}}})
	defer it.Close()
	if it.Next() {
		return false, nil
	}
	return true, storageErr(it.Err())
}

func storageErr(err error) error {
	if err == nil {
		return nil
	}
	return storageError(err)
}

// setFamilies sends the store the families nw adds and those whose
// options changed. A family dropped from the descriptor (its last column
// was dropped) stays in the store; added again, it gets nw's options.
func (x *executor) setFamilies(ctx context.Context, old, nw *planner.TableDesc) error {
	var changed []planner.FamilyDesc
	for _, f := range nw.Families {
		same := false
		for _, o := range old.Families {
			if o.Name == f.Name {
				same = o == f
				break
			}
		}
		if !same {
			changed = append(changed, f)
		}
	}
	if len(changed) == 0 {
		return nil
	}
	admin, ok := x.eng.cat.store.(kv.Admin)
	if !ok {
		return pgerror.New(pgerror.CodeFeatureNotSupported, "this store cannot change the column families of an existing table")
	}
	if err := admin.SetFamilies(ctx, old.KVName(), kvFamilies(&planner.TableDesc{Families: changed})); err != nil {
		return storageError(err)
	}
	return nil
}

// forgetTable drops the cached sequence names of a table whose columns
// moved or whose name changed; lookup finds them again in the catalog.
func (s *sequences) forgetTable(id uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, o := range s.names {
		if o.id == id {
			delete(s.names, name)
		}
	}
}

// showCreateTable prints the table published under the name now: a
// prepared SHOW CREATE TABLE (clients cache them) must not show the
// descriptor it was planned with, as PostgreSQL would re-plan it.
func (x *executor) showCreateTable(p *planner.ShowCreateTable) (operator, error) {
	t, err := x.eng.cat.Table(p.Table.Name)
	if err != nil {
		return nil, err
	}
	return &rowsOp{rows: []Row{{types.NewText(t.Name), types.NewText(planner.CreateTableSQL(t))}}}, nil
}
