package exec

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/txn"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
)

// Transactions in a session.
//
// A session is outside any transaction ('I'), in a transaction block
// ('T': BEGIN, or an implicit block spanning the statements of one
// multi-statement simple Query) or in a failed block ('E': every statement
// but ROLLBACK [TO SAVEPOINT] / COMMIT gets 25P02).
//
// Inside a block the kv.txn transaction is begun lazily, by the first
// statement that reads or writes table data (PostgreSQL takes its
// REPEATABLE READ snapshot at the first statement too); every table access
// then goes through its overlay (executor.kvTable): reads see the
// snapshot plus the block's own writes, writes are buffered and applied
// at COMMIT, where a write-write conflict with a transaction that
// committed first fails with 40001. All isolation levels run as snapshot
// isolation, one snapshot per transaction: SERIALIZABLE and REPEATABLE READ
// as PostgreSQL's REPEATABLE READ, and READ COMMITTED / READ UNCOMMITTED
// stronger than PostgreSQL's (no new snapshot per statement). DDL is not
// transactional: CREATE/DROP TABLE inside a block are applied at once with
// a NOTICE, and a table created after the snapshot reads as empty plus
// the block's own writes.
//
// Outside a block each statement's writes go through Manager.Autocommit,
// one atomic batch per statement and table, registered for conflict
// detection. An UPDATE, DELETE or upsert outside a block is a
// read-modify-write that could lose a race with another session's write
// between its read and its apply (a lost update of n = n + 1, a row
// deleted meanwhile). It runs instead under a txn.Guard (autocommitRetry):
// it reads the live store after the Guard starts and applies its one batch
// through the Guard, which refuses it (applying nothing) when a commit the
// reads may have missed wrote one of its rows; the statement then runs
// again from the start, a bounded number of times (CockroachDB's
// automatic retry of implicit transactions). A Guard takes no snapshot and
// buffers nothing, so an uncontended statement pays a few lock round trips
// and no more. Nothing reaches the client before the apply (RETURNING rows
// are materialized), so a retry is invisible but for sequences, which are
// not transactional: a lost attempt's nextval values are consumed. To the
// client this is PostgreSQL's READ COMMITTED: a row deleted concurrently
// is skipped (UPDATE 0), one updated concurrently is read again, its WHERE
// re-checked and its new version written. Inside a block the same race is
// 40001 at COMMIT, as in PostgreSQL's REPEATABLE READ.
type txnState struct {
	block    bool // a transaction block is open (explicit or implicit)
	implicit bool // the block is the implicit one of a multi-statement Query
	tx       *txn.Txn
	guard    *txn.Guard // outside a block: the Guard of the running UPDATE, DELETE or upsert (autocommitRetry)
	guardBuf txn.Guard  // guard's value, reused from statement to statement
	started  bool       // a statement ran in the block (SET TRANSACTION is too late)

	isolation string // of the block
	readOnly  bool

	savepoints []savepoint
	gucs       map[string]gucUndo // settings changed in the block, by canonical name
}

// savepoint is one SAVEPOINT of a block.
type savepoint struct {
	name   string
	mark   int // txn write-log mark; -1 when the txn had not begun
	values map[string]string
	gucs   map[string]gucUndo
}

// gucUndo remembers how to end a block for one setting: the value before
// the block (restored by ROLLBACK) and the session value (restored at
// COMMIT, undoing SET LOCAL).
type gucUndo struct {
	orig, sess string
}

// beforeAutocommitApply, when set (by tests only), runs in UPDATE, DELETE
// and upsert after they have read their rows and before they apply their
// batch: a test writes from another session there to lose a race on
// purpose.
var beforeAutocommitApply func()

// autocommitAttempts bounds the runs of an autocommit UPDATE, DELETE or
// upsert that keeps losing races; the last loss is 40001.
const autocommitAttempts = 200

// autocommitRetry runs an UPDATE, DELETE or upsert (run) outside a block
// under a txn.Guard, again from the start each time it loses a race (see
// txnState). Inside a block, or without a session, it runs run once as it
// is.
//
// The statement reads as any autocommit statement does, through the live
// autocommit handle (a prepared write by key keeps its operator tree,
// prepared_write.go), but only after the Guard started: every commit the
// reads may have missed and that wrote one of the statement's rows makes
// the Guard refuse the batch (txn.ErrConflict), and a row created or
// deleted since the read fails the batch's precondition (errLostRace).
// run applies its batch through stmtWriteTable, once.
func (x *executor) autocommitRetry(ctx context.Context, run func(context.Context) (int64, []Row, error)) (int64, []Row, error) {
	s := x.env.sess
	if s == nil || s.tx.tx != nil || s.tx.block || s.tx.guard != nil {
		return run(ctx)
	}
	for attempt := 1; ; attempt++ {
		n, rows, err := x.runGuarded(ctx, s, run)
		if err == nil {
			return n, rows, nil
		}
		lost := errors.Is(err, txn.ErrConflict) || errors.Is(err, errLostRace)
		if !lost || attempt == autocommitAttempts {
			if errors.Is(err, errLostRace) {
				return 0, nil, lostRaceError()
			}
			return 0, nil, txnError(err)
		}
		if err := retryPause(ctx, attempt); err != nil {
			return 0, nil, err
		}
	}
}

// runGuarded runs run once under a Guard, the session's reused one.
func (x *executor) runGuarded(ctx context.Context, s *Session, run func(context.Context) (int64, []Row, error)) (int64, []Row, error) {
	g := &s.tx.guardBuf
	if err := x.eng.txm.StartGuard(ctx, g); err != nil {
		return 0, nil, err
	}
	s.tx.guard = g
	defer func() {
		s.tx.guard = nil
		g.Release()
	}()
	return run(ctx)
}

// errLostRace: a statement's batch found a row it read gone, or one it
// did not read present (a precondition failed): another session wrote
// the row since the read.
var errLostRace = errors.New("exec: row written concurrently")

// lostRaceError is errLostRace for the client: a statement in a block, or
// one that kept losing.
func lostRaceError() error {
	return pgerror.New(pgerror.CodeSerializationFailure, "could not serialize access due to concurrent delete").
		WithHint("The statement may be retried.")
}

// stmtWriteTable returns the table through which an autocommit UPDATE,
// DELETE or upsert that read through kvt (kvTable's table of desc) applies
// its batch: while autocommitRetry runs it, the live table behind the
// session's Guard (guarded); otherwise kvt.
func (x *executor) stmtWriteTable(desc *planner.TableDesc, kvt kv.Table) (t kv.Table, guarded bool, err error) {
	s := x.env.sess
	if s == nil || s.tx.guard == nil {
		return kvt, false, nil
	}
	ac := &s.autocommit
	if ac.desc != desc { // kvTable made no handle for desc: not cached
		live, err := x.eng.cat.kvTable(desc)
		if err != nil {
			return nil, false, err
		}
		return layoutTable(desc, s.tx.guard.Table(desc.KVName(), live)), true, nil
	}
	// The handle keeps one guarded table for the session's statements on
	// its table; only its Guard changes.
	if ac.guarded == nil {
		ac.guardTable = txn.GuardTable{Table: ac.live, Name: desc.KVName()}
		ac.guarded = layoutTable(desc, &ac.guardTable)
	}
	ac.guardTable.G = s.tx.guard
	return ac.guarded, true, nil
}

// retryPause waits before attempt+1 of a statement that lost a race:
// not at all after the first loss, then a random pause whose bound
// doubles with the losses up to 10ms. Racers that keep colliding spread
// out, and one that keeps losing to busier ones (optimistic conflicts
// give no fairness) still gets a quiet window within its attempts.
func retryPause(ctx context.Context, attempt int) error {
	if attempt < 2 {
		return nil
	}
	bound := min(50*time.Microsecond<<min(attempt, 16), 10*time.Millisecond)
	t := time.NewTimer(time.Duration(rand.Int64N(int64(bound))))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// kvTable is the single funnel through which the executor reaches table
// data: the overlay of the session's transaction inside a block, else
// the autocommit handle that registers writes with the transaction manager.
func (x *executor) kvTable(desc *planner.TableDesc) (kv.Table, error) {
	s := x.env.sess
	// gen is read before the lookup: while it is unchanged, no DDL has
	// replaced or dropped the table since, so the session's handle of an
	// earlier statement on desc still holds and the catalog's lock and
	// map (a lookup per execution of a prepared read) are skipped.
	gen := x.eng.cat.gen.Load()
	if s != nil && s.tx.tx == nil {
		if ac := &s.autocommit; ac.desc == desc && ac.gen == gen && ac.t != nil {
			return layoutTable(desc, ac.t), nil
		}
	}
	t, err := x.eng.cat.kvTable(desc)
	if err != nil {
		return nil, err
	}
	if s != nil && s.tx.tx != nil {
		return layoutTable(desc, s.tx.tx.Table(desc.KVName(), t, kvFamilies(desc))), nil
	}
	if s == nil {
		return layoutTable(desc, x.eng.txm.Autocommit(desc.KVName(), t)), nil
	}
	// The handle is immutable; a session running one statement after
	// another on a table reuses it rather than naming and wrapping the
	// table again.
	ac := &s.autocommit
	if ac.desc != desc || ac.live != t {
		*ac = autocommitHandle{desc: desc, live: t, t: x.eng.txm.Autocommit(desc.KVName(), t)}
	}
	ac.gen = gen
	return layoutTable(desc, ac.t), nil
}

// autocommitHandle is the transaction manager's autocommit handle t of the
// kv table live of desc.
type autocommitHandle struct {
	desc *planner.TableDesc
	live kv.Table
	t    kv.Table
	// gen is the catalog generation read before the lookup that last
	// found live for desc (kvTable).
	gen uint64
	// tree is the closed operator tree of treePlan that the session's
	// last UPDATE or DELETE by key on the table left for its next
	// execution (prepared_write.go); nil while one runs it.
	tree     operator
	treePlan planner.Plan
	// guarded is layoutTable over guardTable, the live table behind the
	// running statement's Guard: stmtWriteTable's, made on first use.
	guarded    kv.Table
	guardTable txn.GuardTable
}

// beginBlock opens a transaction block.
func (s *Session) beginBlock(implicit bool, isolation string, readOnly bool) {
	if isolation == "" {
		isolation = s.values["default_transaction_isolation"]
	}
	s.tx = txnState{block: true, implicit: implicit, isolation: isolation, readOnly: readOnly, gucs: map[string]gucUndo{}}
	s.txn = 'T'
}

// startStatement is called before a statement runs: inside a block it
// begins the kv transaction if that has not happened yet.
func (s *Session) startStatement(ctx context.Context) error {
	if !s.tx.block {
		return nil
	}
	s.tx.started = true
	if s.tx.tx != nil {
		return nil
	}
	tx, err := s.eng.txm.Begin(ctx)
	if err != nil {
		return err
	}
	s.tx.tx = tx
	return nil
}

// checkWrite rejects writes in a read-only transaction.
func (s *Session) checkWrite(p planner.Plan) error {
	readOnly := s.tx.readOnly
	if !s.tx.block {
		readOnly = false
	}
	if !readOnly {
		return nil
	}
	verb := "INSERT"
	switch p.(type) {
	case *planner.Update:
		verb = "UPDATE"
	case *planner.Delete:
		verb = "DELETE"
	case *planner.CreateTable:
		verb = "CREATE TABLE"
	case *planner.DropTable:
		verb = "DROP TABLE"
	case *planner.AlterTable:
		verb = "ALTER TABLE"
	case *planner.SplitTable:
		verb = "SPLIT TABLE"
	case *planner.CommentOn:
		verb = "COMMENT"
	}
	return pgerror.New(pgerror.CodeReadOnlySQLTransaction, "cannot execute %s in a read-only transaction", verb)
}

// ddlNotice tells the client that DDL in a block is not transactional.
func (s *Session) ddlNotice(p planner.Plan) {
	if !s.tx.block {
		return
	}
	switch p.(type) {
	case *planner.CreateTable, *planner.DropTable, *planner.AlterTable, *planner.SplitTable, *planner.CommentOn:
		s.notice("NOTICE", "00000", "widesql applies DDL at once: a ROLLBACK of this transaction will not undo it")
	}
}

// commitBlock ends the block, applying its writes unless it failed. A
// write-write conflict is 40001; the block is over either way.
func (s *Session) commitBlock(ctx context.Context) error {
	st := s.tx
	s.tx, s.txn = txnState{}, 'I'
	failed := false
	var err error
	if st.tx != nil {
		err = st.tx.Commit(ctx)
	}
	if err != nil {
		failed = true
	}
	s.endGUCs(st.gucs, !failed)
	s.endTxnCursors(!failed) // cursor.go
	return txnError(err)
}

// rollbackBlock ends the block and discards its writes.
func (s *Session) rollbackBlock() {
	st := s.tx
	s.tx, s.txn = txnState{}, 'I'
	if st.tx != nil {
		st.tx.Rollback()
	}
	s.endGUCs(st.gucs, false)
	s.endTxnCursors(false) // cursor.go
}

// txnError attaches SQLSTATEs to kv/txn's sentinels.
func txnError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, txn.ErrConflict):
		return pgerror.Wrap(err, pgerror.CodeSerializationFailure, "could not serialize access due to concurrent update")
	case errors.Is(err, txn.ErrTooLarge):
		return pgerror.Wrap(err, pgerror.CodeProgramLimitExceeded,
			fmt.Sprintf("transaction write set exceeds %d MiB; split the transaction", txn.DefaultMaxWriteBytes>>20))
	}
	return err
}

// endGUCs restores settings at the end of a block: the session values on
// commit (undoing SET LOCAL), the values before the block on rollback.
func (s *Session) endGUCs(gucs map[string]gucUndo, commit bool) {
	for name, g := range gucs {
		v := g.orig
		if commit {
			v = g.sess
		}
		s.setValue(name, v)
	}
}

// savepointCmd runs SAVEPOINT name.
func (s *Session) savepointCmd(ctx context.Context, name string) error {
	if !s.tx.block || s.tx.implicit {
		return pgerror.New(pgerror.CodeNoActiveSQLTransaction, "SAVEPOINT can only be used in transaction blocks")
	}
	if err := s.startStatement(ctx); err != nil {
		return err
	}
	sp := savepoint{name: name, mark: s.tx.tx.Savepoint(), values: cloneMap(s.values), gucs: cloneMap(s.tx.gucs)}
	s.tx.savepoints = append(s.tx.savepoints, sp)
	return nil
}

// findSavepoint returns the index of the innermost savepoint named name.
func (s *Session) findSavepoint(name string) (int, error) {
	for i := len(s.tx.savepoints) - 1; i >= 0; i-- {
		if s.tx.savepoints[i].name == name {
			return i, nil
		}
	}
	return 0, pgerror.New(pgerror.CodeInvalidSavepointSpecification, "savepoint \"%s\" does not exist", name)
}

// releaseCmd runs RELEASE SAVEPOINT name: it and the savepoints after it
// are forgotten, their writes kept.
func (s *Session) releaseCmd(name string) error {
	if !s.tx.block || s.tx.implicit {
		return pgerror.New(pgerror.CodeNoActiveSQLTransaction, "RELEASE SAVEPOINT can only be used in transaction blocks")
	}
	i, err := s.findSavepoint(name)
	if err != nil {
		return err
	}
	s.tx.savepoints = s.tx.savepoints[:i]
	return nil
}

// rollbackToCmd runs ROLLBACK TO SAVEPOINT name: the writes and settings
// since the savepoint are undone, the savepoint stays, and a failed block
// is usable again.
func (s *Session) rollbackToCmd(name string) error {
	if !s.tx.block || s.tx.implicit {
		return pgerror.New(pgerror.CodeNoActiveSQLTransaction, "ROLLBACK TO SAVEPOINT can only be used in transaction blocks")
	}
	i, err := s.findSavepoint(name)
	if err != nil {
		return err
	}
	sp := s.tx.savepoints[i]
	s.tx.savepoints = s.tx.savepoints[:i+1]
	s.tx.tx.RollbackTo(sp.mark)
	for n, v := range sp.values {
		s.setValue(n, v)
	}
	s.tx.gucs = cloneMap(sp.gucs)
	s.txn = 'T'
	return nil
}

func cloneMap[V any](m map[string]V) map[string]V {
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// StartQuery implements pgwire.Session: a simple Query of several
// statements outside a block runs as one implicit transaction block.
func (s *Session) StartQuery(statements int) {
	if statements > 1 && s.txn == 'I' {
		s.beginBlock(true, "", s.values["default_transaction_read_only"] == "on")
	}
}

// EndQuery implements pgwire.Session: it commits the implicit block of
// the Query, or rolls it back if a statement failed.
func (s *Session) EndQuery(ctx context.Context, failed bool) error {
	if !s.tx.implicit {
		return nil
	}
	if failed || s.txn == 'E' {
		s.rollbackBlock()
		return nil
	}
	return s.commitBlock(ctx)
}
