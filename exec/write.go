package exec

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
)

// write runs a statement that changes data or schema and returns its
// command tag and, with RETURNING, the returned rows. Each statement is
// applied as one atomic kv batch.
func (x *executor) write(ctx context.Context, p planner.Plan) (string, []Row, error) {
	switch p := p.(type) {
	case *planner.Insert:
		n, rows, err := x.insert(ctx, p)
		if err != nil {
			return "", nil, err
		}
		out, err := x.returning(p.Returning, rows)
		return fmt.Sprintf("INSERT 0 %d", n), out, err
	case *planner.Update:
		n, rows, err := x.update(ctx, p)
		if err != nil {
			return "", nil, err
		}
		out, err := x.returning(p.Returning, rows)
		return fmt.Sprintf("UPDATE %d", n), out, err
	case *planner.Delete:
		n, rows, err := x.delete(ctx, p)
		if err != nil {
			return "", nil, err
		}
		out, err := x.returning(p.Returning, rows)
		return fmt.Sprintf("DELETE %d", n), out, err
	case *planner.CreateTable:
		created, err := x.eng.cat.create(ctx, p.Desc, p.IfNotExists)
		if err == nil && !created {
			x.env.sess.notice("NOTICE", "42P07", fmt.Sprintf("relation %q already exists, skipping", p.Desc.Name))
		}
		if err == nil && created {
			for _, a := range planner.Advise(p.Desc) { // planner/advisor.go
				x.env.sess.noticeHint("NOTICE", "01000", a.Message, a.Hint)
			}
		}
		return "CREATE TABLE", nil, err
	case *planner.AlterTable:
		return x.alterTable(ctx, p) // alter.go
	case *planner.CommentOn:
		return x.comment(ctx, p) // comment.go
	case *planner.SplitTable:
		return x.splitTable(ctx, p) // regions.go
	case *planner.DropTable:
		for _, name := range p.Names {
			desc, _ := x.eng.cat.Table(name)
			dropped, err := x.eng.cat.drop(ctx, name, p.IfExists)
			if err != nil {
				return "", nil, err
			}
			if !dropped {
				x.env.sess.notice("NOTICE", "00000", fmt.Sprintf("table %q does not exist, skipping", name))
				continue
			}
			if err := x.eng.seqs.dropTable(ctx, desc); err != nil {
				return "", nil, err
			}
		}
		return "DROP TABLE", nil, nil
	case *planner.CreateIndex, *planner.DropIndex:
		return x.indexDDL(ctx, p)
	}
	return "", nil, pgerror.New(pgerror.CodeInternalError, "cannot execute %T", p)
}

// returning evaluates a RETURNING list over the written rows; nil without
// RETURNING.
func (x *executor) returning(r planner.Returning, rows []Row) ([]Row, error) {
	if r.Exprs == nil {
		return nil, nil
	}
	out := make([]Row, len(rows))
	for i, row := range rows {
		o := make(Row, len(r.Exprs))
		for j, e := range r.Exprs {
			v, err := eval(e, row, x.env)
			if err != nil {
				return nil, err
			}
			o[j] = v
		}
		out[i] = o
	}
	return out, nil
}

// rowWriter builds the kv mutations of whole rows.
type rowWriter struct {
	t  *planner.TableDesc
	ts kv.Timestamp
}

// key encodes a row's rowkey; a NULL key column is 23502. Key-expression
// columns are computed from the row first (and stored in it, so RETURNING
// and moves see them).
func (w *rowWriter) key(row Row) ([]byte, error) {
	var key []byte
	for _, kc := range w.t.Key {
		c := &w.t.Columns[kc.Col]
		if e := w.t.KeyExpr(kc.Col); e != nil {
			v, err := eval(e, row, keyExprEnv)
			if err != nil {
				return nil, err
			}
			row[kc.Col] = v
		}
		if row[kc.Col].IsNull() {
			return nil, notNullError(w.t, c)
		}
		key = keyenc.AppendKey(key, row[kc.Col], c.Type, kc.Desc)
	}
	if len(key) > kv.MaxKeySize {
		return nil, pgerror.New("54000", "rowkey of %d bytes exceeds the maximum of %d", len(key), kv.MaxKeySize)
	}
	return key, nil
}

// keyExprEnv evaluates key expressions: they are immutable (planner
// checkKeyExpr), so they read no session state.
var keyExprEnv = &evalEnv{}

func notNullError(t *planner.TableDesc, c *planner.ColumnDesc) error {
	e := pgerror.New(pgerror.CodeNotNullViolation, "null value in column %q of relation %q violates not-null constraint", c.Name, t.Name)
	e.Table, e.Column = t.Name, c.Name
	return e
}

// cells returns the mutations writing the given columns of row: a set
// for a value, a delete for a NULL, and the row marker.
func (w *rowWriter) cells(row Row, cols []int, muts []kv.Mutation) ([]kv.Mutation, error) {
	muts = append(muts, kv.Mutation{Kind: kv.SetCell, Family: w.t.MarkerFamily, Qualifier: planner.MarkerQualifier, Timestamp: w.ts})
	for _, ci := range cols {
		c := &w.t.Columns[ci]
		if c.IsKey() {
			continue
		}
		d := row[ci]
		if d.IsNull() {
			if c.NotNull {
				return nil, notNullError(w.t, c)
			}
			muts = append(muts, kv.Mutation{Kind: kv.DeleteCells, Family: c.Family, Qualifier: c.Qualifier()})
			continue
		}
		muts = append(muts, kv.Mutation{Kind: kv.SetCell, Family: c.Family, Qualifier: c.Qualifier(),
			Timestamp: w.ts, Value: keyenc.AppendValue(nil, d, c.Type)})
	}
	return muts, nil
}

func allColumns(t *planner.TableDesc) []int {
	out := make([]int, len(t.Columns))
	for i := range out {
		out[i] = i
	}
	return out
}

// uniqueError is PostgreSQL's message for a duplicate rowkey.
func uniqueError(t *planner.TableDesc, row Row) error {
	names := make([]string, len(t.Key))
	vals := make([]string, len(t.Key))
	for i, kc := range t.Key {
		names[i] = t.Columns[kc.Col].Name
		vals[i] = string(types.AppendText(nil, row[kc.Col]))
	}
	e := pgerror.New(pgerror.CodeUniqueViolation, "duplicate key value violates unique constraint %q", t.PrimaryKeyName())
	e.Detail = fmt.Sprintf("Key (%s)=(%s) already exists.", strings.Join(names, ", "), strings.Join(vals, ", "))
	e.Table, e.Constraint = t.Name, t.PrimaryKeyName()
	return e
}

// readRows point-reads whole rows by key.
func (x *executor) readRows(ctx context.Context, t *planner.TableDesc, kvt kv.Table, keys [][]byte, which []int) (map[string]Row, error) {
	out := map[string]Row{}
	if len(which) == 0 {
		return out, nil
	}
	scan := &planner.Scan{Table: t, Access: planner.Access{Kind: planner.MultiGet}, Needed: allColumns(t)}
	for _, f := range t.Families {
		scan.Families = append(scan.Families, f.Name)
	}
	var rs kv.RowSet
	for _, i := range which {
		rs.Keys = append(rs.Keys, keys[i])
	}
	err := eachRow(ctx, newScanOp(scan, kvt, rs, x.env), t, func(row Row, key []byte) error {
		out[string(key)] = append(Row(nil), row...)
		return nil
	})
	return out, err
}

// eachRow drains op, calling fn with each row and its rowkey, and closes op.
func eachRow(ctx context.Context, op operator, t *planner.TableDesc, fn func(row Row, key []byte) error) error {
	defer op.Close()
	w := &rowWriter{t: t}
	for {
		row, err := op.Next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		key, err := w.key(row)
		if err != nil {
			return err
		}
		if err := fn(row, key); err != nil {
			return err
		}
	}
}
