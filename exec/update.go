package exec

import (
	"context"
	"errors"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/txn"
	"github.com/widesql/widesql/planner"
)

// update rewrites the cells of the rows its scan finds. A change to a
// rowkey column moves the row: the old row is deleted and the new one
// written, checked against the rows that exist and are not moving.
// Outside a transaction block it runs again when it loses a race
// (autocommitRetry, txn.go).
func (x *executor) update(ctx context.Context, p *planner.Update) (int64, []Row, error) {
	return x.autocommitRetry(ctx, func(ctx context.Context) (int64, []Row, error) { return x.updateOnce(ctx, p) })
}

// updateOnce runs update once.
func (x *executor) updateOnce(ctx context.Context, p *planner.Update) (int64, []Row, error) {
	t := p.Table
	kvt, err := x.kvTable(t)
	if err != nil {
		return 0, nil, err
	}
	// The version of the read below, taken before it starts: kv may then
	// skip re-reading a row to check RequirePresent when nothing wrote it
	// since (kv.RowMutation.ReadSeq). 0 (no hint) inside a transaction,
	// whose overlay is no kv.ReadVersioner.
	var readSeq uint64
	if rv, ok := kvt.(kv.ReadVersioner); ok {
		readSeq = rv.ReadVersion()
	}
	op, err := x.writeScan(p.Scan) // prepared_write.go
	if err != nil {
		return 0, nil, err
	}
	ts, err := x.writeTimestamp() // scan_asof.go: the clock or SET widesql.write_timestamp
	if err != nil {
		op.Close()
		return 0, nil, err
	}
	w := &rowWriter{t: t, ts: ts}
	cols := make([]int, len(p.Set))
	keyChange := false
	for i, s := range p.Set {
		cols[i] = s.Col
		keyChange = keyChange || t.AffectsKey(s.Col)
	}
	var batch, moved []kv.RowMutation
	var movedRows []Row
	oldKeys := map[string]bool{}
	var n int64
	var out []Row
	err = eachRowKeyed(ctx, op, w, func(row Row, oldKey []byte) error {
		updated := append(Row(nil), row...)
		var err error
		for _, s := range p.Set {
			if updated[s.Col], err = eval(s.Expr, row, x.env); err != nil {
				return err
			}
		}
		n++
		if p.Returning.Exprs != nil {
			out = append(out, updated)
		}
		if !keyChange {
			muts, err := w.cells(updated, cols, nil)
			if err != nil {
				return err
			}
			batch = append(batch, kv.RowMutation{Key: oldKey, Mutations: muts, Require: kv.RequirePresent, ReadSeq: readSeq})
			return nil
		}
		newKey, err := w.key(updated)
		if err != nil {
			return err
		}
		// DeleteRow first: the moved row never merges with stale cells.
		muts, err := w.cells(updated, allColumns(t), []kv.Mutation{{Kind: kv.DeleteRow}})
		if err != nil {
			return err
		}
		oldKeys[string(oldKey)] = true
		batch = append(batch, kv.RowMutation{Key: oldKey, Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}, Require: kv.RequirePresent})
		moved = append(moved, kv.RowMutation{Key: newKey, Mutations: muts})
		movedRows = append(movedRows, updated)
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	x.keepWriteScan(p.Scan, op) // eachRow closed it
	if len(moved) > 0 {
		if err := x.checkMoves(ctx, t, kvt, moved, movedRows, oldKeys); err != nil {
			return 0, nil, err
		}
		batch = append(batch, moved...)
	}
	if len(batch) == 0 {
		return 0, nil, nil
	}
	if err := x.applyWrite(ctx, t, kvt, batch); err != nil {
		return 0, nil, err
	}
	return n, out, nil
}

// checkMoves rejects key updates that collide with each other or with rows
// that exist and are not themselves moving away.
func (x *executor) checkMoves(ctx context.Context, t *planner.TableDesc, kvt kv.Table, moved []kv.RowMutation, rows []Row, oldKeys map[string]bool) error {
	keys := make([][]byte, len(moved))
	which := make([]int, len(moved))
	seen := map[string]bool{}
	for i, m := range moved {
		if seen[string(m.Key)] {
			return uniqueError(t, rows[i])
		}
		seen[string(m.Key)] = true
		keys[i], which[i] = m.Key, i
	}
	existing, err := x.readRows(ctx, t, kvt, keys, which)
	if err != nil {
		return err
	}
	for i, m := range moved {
		if _, ok := existing[string(m.Key)]; ok && !oldKeys[string(m.Key)] {
			return uniqueError(t, rows[i])
		}
	}
	return nil
}

// delete removes the rows its scan finds, in one batch. Outside a
// transaction block it runs again when it loses a race (autocommitRetry,
// txn.go).
func (x *executor) delete(ctx context.Context, p *planner.Delete) (int64, []Row, error) {
	if p.Table.Virtual == planner.VirtualCells {
		return x.deleteCells(ctx, p) // timeviews.go
	}
	return x.autocommitRetry(ctx, func(ctx context.Context) (int64, []Row, error) { return x.deleteOnce(ctx, p) })
}

// deleteOnce runs delete once.
func (x *executor) deleteOnce(ctx context.Context, p *planner.Delete) (int64, []Row, error) {
	kvt, err := x.kvTable(p.Table)
	if err != nil {
		return 0, nil, err
	}
	op, err := x.writeScan(p.Scan) // prepared_write.go
	if err != nil {
		return 0, nil, err
	}
	var batch []kv.RowMutation
	var out []Row
	err = eachRow(ctx, op, p.Table, func(row Row, key []byte) error {
		batch = append(batch, kv.RowMutation{Key: key, Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}})
		if p.Returning.Exprs != nil {
			out = append(out, append(Row(nil), row...))
		}
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	x.keepWriteScan(p.Scan, op) // eachRow closed it
	if len(batch) == 0 {
		return 0, nil, nil
	}
	if err := x.applyWrite(ctx, p.Table, kvt, batch); err != nil {
		return 0, nil, err
	}
	return int64(len(batch)), out, nil
}

// applyWrite applies the batch of an UPDATE or DELETE that read its rows
// through kvt: to kvt, or outside a block through the statement's Guard
// (stmtWriteTable, txn.go). A failed precondition means another session
// wrote one of the rows since the read: errLostRace, which autocommitRetry
// retries; in a block it is 40001.
func (x *executor) applyWrite(ctx context.Context, t *planner.TableDesc, kvt kv.Table, batch []kv.RowMutation) error {
	if beforeAutocommitApply != nil {
		beforeAutocommitApply()
	}
	wt, guarded, err := x.stmtWriteTable(t, kvt)
	if err != nil {
		return err
	}
	return writeError(wt, guarded, wt.Apply(ctx, batch))
}

// writeError maps the error of a read-modify-write's Apply through wt.
// A failed precondition is errLostRace when autocommitRetry may run the
// statement again (guarded, and the batch applied nothing, which only an
// atomic batch promises; a retry after a partial apply would write some
// rows twice), else 40001. The Guard's refusal (txn.ErrConflict) is
// returned as it is, for autocommitRetry.
func writeError(wt kv.Table, guarded bool, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, kv.ErrConditionFailed) && guarded && wt.AtomicBatches():
		return errLostRace
	case errors.Is(err, kv.ErrConditionFailed):
		return lostRaceError()
	case errors.Is(err, txn.ErrConflict) && guarded:
		return err
	}
	return storageError(err)
}
