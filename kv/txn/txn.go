package txn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/google/btree"

	"github.com/widesql/widesql/kv"
)

// Txn is one transaction. It is used by one goroutine at a time (a
// session); the overlay tables it hands out share that restriction.
type Txn struct {
	m      *Manager
	start  uint64
	snap   kv.Snapshot // nil: read committed
	tables map[string]*txnTable
	log    []logEntry // buffered row mutations, in Apply order
	size   int64      // bytes buffered
	done   bool
}

// logEntry is one buffered row mutation; rm is a deep copy owned by the
// transaction.
type logEntry struct {
	t    *txnTable
	rm   kv.RowMutation
	size int64
}

// txnTable is the transaction's state of one table.
type txnTable struct {
	tx   *Txn
	name string
	live kv.Table
	fams map[string]kv.Family // nil when unknown: no version GC, any family
	rows *btree.BTreeG[*bufRow]
}

// bufRow is a row the transaction wrote: its cells in the snapshot (all
// versions) and after the buffered mutations. Both cell slices are
// immutable once set; a mutation builds a new cur.
type bufRow struct {
	key  []byte
	base []kv.Cell
	cur  []kv.Cell
	muts int // log entries on this row
}

func bufRowLess(a, b *bufRow) bool { return bytes.Compare(a.key, b.key) < 0 }

// Table returns the transaction's view of table name as a kv.Table: reads
// merge the snapshot with the buffered writes, Apply buffers. live is the
// store's handle on the table, used for reads without a snapshot and by
// Commit. families, when given, are the table's families: the overlay then
// rejects unknown families and keeps MaxVersions versions per column as
// the store would. Handles for one name share state.
func (tx *Txn) Table(name string, live kv.Table, families []kv.Family) kv.Table {
	t := tx.tables[name]
	if t == nil {
		t = &txnTable{tx: tx, name: name, live: live, rows: btree.NewG(16, bufRowLess)}
		if families != nil {
			t.fams = make(map[string]kv.Family, len(families))
			for _, f := range families {
				t.fams[f.Name] = f
			}
		}
		tx.tables[name] = t
	}
	return &overlay{t: t}
}

// Writes reports whether the transaction has buffered writes.
func (tx *Txn) Writes() bool { return len(tx.log) > 0 }

// Savepoint returns a mark of the write log for RollbackTo.
func (tx *Txn) Savepoint() int { return len(tx.log) }

// RollbackTo discards the writes buffered since Savepoint returned sp.
func (tx *Txn) RollbackTo(sp int) {
	if sp < 0 || sp >= len(tx.log) {
		return
	}
	touched := map[*bufRow]*txnTable{}
	probe := &bufRow{}
	for _, e := range tx.log[sp:] {
		probe.key = e.rm.Key
		if r, ok := e.t.rows.Get(probe); ok {
			touched[r] = e.t
			r.cur, r.muts = r.base, 0
		}
		tx.size -= e.size
	}
	clear(tx.log[sp:])
	tx.log = tx.log[:sp]
	// Replay the surviving mutations of the touched rows.
	for _, e := range tx.log {
		probe.key = e.rm.Key
		if r, ok := e.t.rows.Get(probe); ok {
			if _, hit := touched[r]; hit {
				r.cur = e.t.mutate(r.cur, &e.rm)
				r.muts++
			}
		}
	}
	for r, t := range touched {
		if r.muts == 0 {
			t.rows.Delete(r)
			tx.size -= cellsSize(r.base)
		}
	}
}

// Rollback discards the transaction. It is safe to call more than once
// and after Commit.
func (tx *Txn) Rollback() {
	if tx.done {
		return
	}
	tx.end()
}

func (tx *Txn) end() {
	tx.done = true
	if tx.snap != nil {
		tx.snap.Release()
	}
	tx.m.endTxn(tx.start)
	tx.log, tx.tables = nil, nil
}

// Commit applies the buffered writes: ErrConflict (wrapped) if a commit
// numbered above this transaction's start wrote one of its rows, else one
// batch per table in name order, behind a redo record when there are
// several tables (see the package documentation on atomicity). The transaction has ended when Commit returns, whatever the
// result. The apply is not canceled by ctx once it started.
func (tx *Txn) Commit(ctx context.Context) error {
	if tx.done {
		return ErrDone
	}
	if len(tx.log) == 0 {
		tx.end()
		return nil
	}
	m := tx.m
	keys := make(map[uint64]struct{}, len(tx.log))
	for _, e := range tx.log {
		keys[m.keyHash(e.t.name, e.rm.Key)] = struct{}{}
	}
	if err := ctx.Err(); err != nil {
		tx.end()
		return err
	}
	m.mu.Lock()
	if m.conflictLocked(tx.start, keys) {
		m.mu.Unlock()
		tx.end()
		return fmt.Errorf("%w: a concurrent transaction committed a write to a row this one wrote", ErrConflict)
	}
	num := m.takeLocked(keys)
	m.mu.Unlock()

	byTable := map[*txnTable][]kv.RowMutation{}
	for _, e := range tx.log {
		byTable[e.t] = append(byTable[e.t], e.rm)
	}
	tables := make([]*txnTable, 0, len(byTable))
	for t := range byTable {
		tables = append(tables, t)
	}
	slices.SortFunc(tables, func(a, b *txnTable) int { return bytes.Compare([]byte(a.name), []byte(b.name)) })
	actx := context.WithoutCancel(ctx)
	var err error
	var redoKey []byte
	if len(tables) > 1 {
		// Several tables: a redo record makes the commit atomic across a
		// crash (redo.go).
		batches := make([]redoBatch, len(tables))
		for i, t := range tables {
			batches[i] = redoBatch{table: t.name, rows: byTable[t]}
		}
		redoKey, err = m.writeRedo(actx, batches)
	}
	for _, t := range tables {
		if err != nil {
			break
		}
		if err = t.live.Apply(actx, byTable[t]); err != nil {
			if errors.Is(err, kv.ErrConditionFailed) {
				err = fmt.Errorf("%w: %w", ErrConflict, err)
			}
		}
	}
	if redoKey != nil && err == nil {
		err = m.dropRedo(actx, redoKey)
	}
	m.finish(num)
	tx.end()
	return err
}

// deepCopy copies rm into one allocation owned by the transaction.
func deepCopy(rm *kv.RowMutation) (kv.RowMutation, int64) {
	n := len(rm.Key)
	if rm.RequireColumn != nil {
		n += len(rm.RequireColumn.Qualifier)
	}
	for i := range rm.Mutations {
		n += len(rm.Mutations[i].Qualifier) + len(rm.Mutations[i].Value)
	}
	arena := make([]byte, 0, n)
	cp := func(b []byte) []byte {
		if b == nil {
			return nil
		}
		s := len(arena)
		arena = append(arena, b...)
		return arena[s:len(arena):len(arena)]
	}
	out := kv.RowMutation{Key: cp(rm.Key), Require: rm.Require, Mutations: make([]kv.Mutation, len(rm.Mutations))}
	if rm.RequireColumn != nil {
		out.RequireColumn = &kv.Column{Family: rm.RequireColumn.Family, Qualifier: cp(rm.RequireColumn.Qualifier)}
	}
	for i, m := range rm.Mutations {
		m.Qualifier, m.Value = cp(m.Qualifier), cp(m.Value)
		out.Mutations[i] = m
	}
	return out, int64(n) + int64(len(rm.Mutations))*64 + 64
}
