package exec

import (
	"context"
	"errors"
	"io"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// evalRows evaluates an INSERT's VALUES, or its one row template over every
// row of its SELECT, into full table rows, and gives each row of a table
// without a primary key its hidden row id.
func (x *executor) evalRows(ctx context.Context, p *planner.Insert) ([]Row, error) {
	t := p.Table
	var rows []Row
	one := func(exprs []planner.Expr, in Row) error {
		row := make(Row, len(t.Columns))
		for j, e := range exprs {
			v, err := eval(e, in, x.env)
			if err != nil {
				return err
			}
			row[p.Targets[j]] = v
		}
		rows = append(rows, row)
		return nil
	}
	if p.Source == nil {
		rows = make([]Row, 0, len(p.Rows))
		for _, exprs := range p.Rows {
			if err := one(exprs, nil); err != nil {
				return nil, err
			}
		}
	} else {
		op, err := x.build(p.Source)
		if err != nil {
			return nil, err
		}
		defer op.Close()
		for {
			in, err := op.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			if err := one(p.Rows[0], in); err != nil {
				return nil, err
			}
		}
	}
	if t.ShardBits > 0 {
		key, d, col := sequenceKey(t.ID, 0), rowIDDesc(t), t.Key[0].Col
		for _, row := range rows {
			n, err := x.eng.seqs.next(ctx, key, d)
			if err != nil {
				return nil, err
			}
			row[col] = types.NewInt(types.Int8, t.RowID(n))
		}
	}
	return rows, nil
}

// insert writes an INSERT's rows and returns how many it inserted or
// updated, and those rows (for RETURNING).
func (x *executor) insert(ctx context.Context, p *planner.Insert) (int64, []Row, error) {
	t := p.Table
	kvt, err := x.kvTable(t)
	if err != nil {
		return 0, nil, err
	}
	rows, err := x.evalRows(ctx, p)
	if err != nil {
		return 0, nil, err
	}
	ts, err := x.writeTimestamp() // scan_asof.go: the clock or SET widesql.write_timestamp
	if err != nil {
		return 0, nil, err
	}
	w := &rowWriter{t: t, ts: ts}
	keys := make([][]byte, len(rows))
	seen := make(map[string]int, len(rows))
	var keep []int
	for i, row := range rows {
		if keys[i], err = w.key(row); err != nil {
			return 0, nil, err
		}
		if _, dup := seen[string(keys[i])]; dup {
			switch p.Conflict {
			case planner.ConflictDoNothing:
				continue
			case planner.ConflictDoUpdate:
				return 0, nil, pgerror.New(pgerror.CodeCardinalityViolation, "ON CONFLICT DO UPDATE command cannot affect row a second time").
					WithHint("Ensure that no rows proposed for insertion within the same command have duplicate constrained values.")
			}
			return 0, nil, uniqueError(t, row)
		}
		seen[string(keys[i])] = i
		keep = append(keep, i)
	}
	if p.Conflict == planner.ConflictDoUpdate {
		// Outside a block the read-modify-write runs under a Guard and
		// again when it loses a race (autocommitRetry, txn.go); the rows
		// to insert are evaluated once.
		return x.autocommitRetry(ctx, func(ctx context.Context) (int64, []Row, error) {
			return x.upsert(ctx, p, kvt, rows, keys, keep)
		})
	}
	// Insert with RequireAbsent; DO NOTHING drops the conflicting rows and
	// retries, so the statement stays one atomic batch.
	for {
		batch := make([]kv.RowMutation, 0, len(keep))
		for _, i := range keep {
			muts, err := w.cells(rows[i], allColumns(t), nil)
			if err != nil {
				return 0, nil, err
			}
			batch = append(batch, kv.RowMutation{Key: keys[i], Mutations: muts, Require: kv.RequireAbsent})
		}
		if len(batch) == 0 {
			return 0, nil, nil
		}
		err := kvt.Apply(ctx, batch)
		var ce *kv.ConditionError
		if errors.As(err, &ce) {
			if p.Conflict == planner.ConflictDoNothing {
				keep = append(keep[:ce.Index], keep[ce.Index+1:]...)
				continue
			}
			return 0, nil, uniqueError(t, rows[keep[ce.Index]])
		}
		if err != nil {
			return 0, nil, storageError(err)
		}
		written := make([]Row, len(keep))
		for j, i := range keep {
			written[j] = rows[i]
		}
		return int64(len(keep)), written, nil
	}
}

// upsert is INSERT ... ON CONFLICT DO UPDATE: existing rows are read, the
// SET list evaluated over (existing, excluded), and everything written in
// one batch whose preconditions fail if a concurrent writer created or
// deleted one of the rows meanwhile. Outside a block the batch goes
// through the statement's Guard (stmtWriteTable), which also refuses it
// when a concurrent writer updated one of the rows, and autocommitRetry
// runs upsert again; otherwise upsert retries a failed precondition
// itself, a few times.
func (x *executor) upsert(ctx context.Context, p *planner.Insert, kvt kv.Table, rows []Row, keys [][]byte, keep []int) (int64, []Row, error) {
	t := p.Table
	for attempt := 0; ; attempt++ {
		// A timestamp per attempt: taken after the rows it rewrites were
		// written, the new cells shadow theirs.
		ts, err := x.writeTimestamp() // scan_asof.go: the clock or SET widesql.write_timestamp
		if err != nil {
			return 0, nil, err
		}
		w := &rowWriter{t: t, ts: ts}
		existing, err := x.readRows(ctx, p.Table, kvt, keys, keep)
		if err != nil {
			return 0, nil, err
		}
		var batch []kv.RowMutation
		var written []Row
		for _, i := range keep {
			old, ok := existing[string(keys[i])]
			if !ok {
				muts, err := w.cells(rows[i], allColumns(t), nil)
				if err != nil {
					return 0, nil, err
				}
				batch = append(batch, kv.RowMutation{Key: keys[i], Mutations: muts, Require: kv.RequireAbsent})
				written = append(written, rows[i])
				continue
			}
			both := append(append(Row(nil), old...), rows[i]...)
			if p.Where != nil {
				ok, err := evalBool(p.Where, both, x.env)
				if err != nil {
					return 0, nil, err
				}
				if !ok {
					continue
				}
			}
			updated := append(Row(nil), old...)
			cols := make([]int, 0, len(p.Set))
			for _, s := range p.Set {
				if t.Columns[s.Col].IsKey() {
					return 0, nil, pgerror.Unimplemented("ON CONFLICT DO UPDATE of a rowkey column")
				}
				v, err := eval(s.Expr, both, x.env)
				if err != nil {
					return 0, nil, err
				}
				updated[s.Col] = v
				cols = append(cols, s.Col)
			}
			muts, err := w.cells(updated, cols, nil)
			if err != nil {
				return 0, nil, err
			}
			batch = append(batch, kv.RowMutation{Key: keys[i], Mutations: muts, Require: kv.RequirePresent})
			written = append(written, updated)
		}
		if len(batch) == 0 {
			return 0, nil, nil
		}
		if beforeAutocommitApply != nil {
			beforeAutocommitApply()
		}
		wt, guarded, err := x.stmtWriteTable(t, kvt)
		if err != nil {
			return 0, nil, err
		}
		err = wt.Apply(ctx, batch)
		if errors.Is(err, kv.ErrConditionFailed) && !guarded && attempt < 10 {
			continue
		}
		if err != nil {
			return 0, nil, writeError(wt, guarded, err)
		}
		return int64(len(written)), written, nil
	}
}

// rowsOp returns materialized rows: the RETURNING rows of a write.
type rowsOp struct{ rows []Row }

func (o *rowsOp) Next(context.Context) (Row, error) {
	if len(o.rows) == 0 {
		return nil, io.EOF
	}
	r := o.rows[0]
	o.rows = o.rows[1:]
	return r, nil
}

func (o *rowsOp) Close() { o.rows = nil }
