package exec

import (
	"context"
	"errors"
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
// command tag. Each statement is applied as one atomic kv batch.
func (x *executor) write(ctx context.Context, p planner.Plan) (string, error) {
	switch p := p.(type) {
	case *planner.Insert:
		n, err := x.insert(ctx, p)
		return fmt.Sprintf("INSERT 0 %d", n), err
	case *planner.Update:
		n, err := x.update(ctx, p)
		return fmt.Sprintf("UPDATE %d", n), err
	case *planner.Delete:
		n, err := x.delete(ctx, p)
		return fmt.Sprintf("DELETE %d", n), err
	case *planner.CreateTable:
		created, err := x.eng.cat.create(ctx, p.Desc, p.IfNotExists)
		if err == nil && !created {
			x.env.sess.notice("NOTICE", "42P07", fmt.Sprintf("relation %q already exists, skipping", p.Desc.Name))
		}
		return "CREATE TABLE", err
	case *planner.DropTable:
		for _, name := range p.Names {
			dropped, err := x.eng.cat.drop(ctx, name, p.IfExists)
			if err != nil {
				return "", err
			}
			if !dropped {
				x.env.sess.notice("NOTICE", "00000", fmt.Sprintf("table %q does not exist, skipping", name))
			}
		}
		return "DROP TABLE", nil
	}
	return "", pgerror.New(pgerror.CodeInternalError, "cannot execute %T", p)
}

// rowWriter builds the kv mutations of whole rows.
type rowWriter struct {
	t  *planner.TableDesc
	ts kv.Timestamp
}

// key encodes a row's rowkey; a NULL key column is 23502.
func (w *rowWriter) key(row Row) ([]byte, error) {
	var key []byte
	for _, kc := range w.t.Key {
		c := &w.t.Columns[kc.Col]
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
	e := pgerror.New(pgerror.CodeUniqueViolation, "duplicate key value violates unique constraint %q", t.Name+"_pkey")
	e.Detail = fmt.Sprintf("Key (%s)=(%s) already exists.", strings.Join(names, ", "), strings.Join(vals, ", "))
	e.Table, e.Constraint = t.Name, t.Name+"_pkey"
	return e
}

// evalRows evaluates an INSERT's VALUES into full table rows.
func (x *executor) evalRows(p *planner.Insert) ([]Row, error) {
	rows := make([]Row, len(p.Rows))
	for i, exprs := range p.Rows {
		row := make(Row, len(p.Table.Columns))
		for j, e := range exprs {
			v, err := eval(e, nil, x.env)
			if err != nil {
				return nil, err
			}
			row[p.Targets[j]] = v
		}
		rows[i] = row
	}
	return rows, nil
}

func (x *executor) insert(ctx context.Context, p *planner.Insert) (int64, error) {
	t := p.Table
	kvt, err := x.eng.cat.kvTable(t)
	if err != nil {
		return 0, err
	}
	rows, err := x.evalRows(p)
	if err != nil {
		return 0, err
	}
	w := &rowWriter{t: t, ts: x.eng.clock.now()}
	keys := make([][]byte, len(rows))
	seen := make(map[string]int, len(rows))
	var keep []int
	for i, row := range rows {
		if keys[i], err = w.key(row); err != nil {
			return 0, err
		}
		if _, dup := seen[string(keys[i])]; dup {
			switch p.Conflict {
			case planner.ConflictDoNothing:
				continue
			case planner.ConflictDoUpdate:
				return 0, pgerror.New(pgerror.CodeCardinalityViolation, "ON CONFLICT DO UPDATE command cannot affect row a second time").
					WithHint("Ensure that no rows proposed for insertion within the same command have duplicate constrained values.")
			}
			return 0, uniqueError(t, row)
		}
		seen[string(keys[i])] = i
		keep = append(keep, i)
	}
	if p.Conflict == planner.ConflictDoUpdate {
		return x.upsert(ctx, p, kvt, w, rows, keys, keep)
	}
	// Insert with RequireAbsent; DO NOTHING drops the conflicting rows and
	// retries, so the statement stays one atomic batch.
	for {
		batch := make([]kv.RowMutation, 0, len(keep))
		for _, i := range keep {
			muts, err := w.cells(rows[i], allColumns(t), nil)
			if err != nil {
				return 0, err
			}
			batch = append(batch, kv.RowMutation{Key: keys[i], Mutations: muts, Require: kv.RequireAbsent})
		}
		err := kvt.Apply(ctx, batch)
		var ce *kv.ConditionError
		if errors.As(err, &ce) {
			if p.Conflict == planner.ConflictDoNothing {
				keep = append(keep[:ce.Index], keep[ce.Index+1:]...)
				continue
			}
			return 0, uniqueError(t, rows[keep[ce.Index]])
		}
		if err != nil {
			return 0, storageError(err)
		}
		return int64(len(keep)), nil
	}
}

// upsert is INSERT ... ON CONFLICT DO UPDATE: existing rows are read, the
// SET list evaluated over (existing, excluded), and everything written in
// one batch whose preconditions fail (and the statement retries) if a
// concurrent writer created or deleted one of the rows meanwhile.
func (x *executor) upsert(ctx context.Context, p *planner.Insert, kvt kv.Table, w *rowWriter, rows []Row, keys [][]byte, keep []int) (int64, error) {
	t := p.Table
	for attempt := 0; ; attempt++ {
		existing, err := x.readRows(ctx, p.Table, kvt, keys, keep)
		if err != nil {
			return 0, err
		}
		var batch []kv.RowMutation
		var n int64
		for _, i := range keep {
			old, ok := existing[string(keys[i])]
			if !ok {
				muts, err := w.cells(rows[i], allColumns(t), nil)
				if err != nil {
					return 0, err
				}
				batch = append(batch, kv.RowMutation{Key: keys[i], Mutations: muts, Require: kv.RequireAbsent})
				n++
				continue
			}
			both := append(append(Row(nil), old...), rows[i]...)
			if p.Where != nil {
				ok, err := evalBool(p.Where, both, x.env)
				if err != nil {
					return 0, err
				}
				if !ok {
					continue
				}
			}
			updated := append(Row(nil), old...)
			cols := make([]int, 0, len(p.Set))
			for _, s := range p.Set {
				if t.Columns[s.Col].IsKey() {
					return 0, pgerror.Unimplemented("ON CONFLICT DO UPDATE of a rowkey column")
				}
				v, err := eval(s.Expr, both, x.env)
				if err != nil {
					return 0, err
				}
				updated[s.Col] = v
				cols = append(cols, s.Col)
			}
			muts, err := w.cells(updated, cols, nil)
			if err != nil {
				return 0, err
			}
			batch = append(batch, kv.RowMutation{Key: keys[i], Mutations: muts, Require: kv.RequirePresent})
			n++
		}
		err = kvt.Apply(ctx, batch)
		if errors.Is(err, kv.ErrConditionFailed) && attempt < 10 {
			continue
		}
		if err != nil {
			return 0, storageError(err)
		}
		return n, nil
	}
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
