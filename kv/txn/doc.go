// Package txn is widesql's transaction layer over any kv.Store: snapshot
// isolation with optimistic, in-process write-write conflict detection. It
// knows nothing of SQL; exec maps its sentinels to SQLSTATEs.
//
// # Lifecycle
//
//	m := txn.NewManager(store, txn.Options{})      // one per store
//	tx, err := m.Begin(ctx)                         // start number + store snapshot
//	t := tx.Table(name, liveHandle, families)       // overlay kv.Table
//	t.Read(...) / t.Apply(...)                      // snapshot + own writes; writes buffered
//	sp := tx.Savepoint(); tx.RollbackTo(sp)         // truncate the write log
//	err = tx.Commit(ctx)                            // ErrConflict, or applied
//	tx.Rollback()                                   // discard (safe after Commit)
//
// Statements outside a transaction write through m.Autocommit(name, live),
// a kv.Table whose Apply registers its keys with the Manager, so that a
// transaction that started earlier sees the conflict.
//
// A read-modify-write outside a transaction (an SQL UPDATE in autocommit)
// uses a Guard: g, err := m.Guard(ctx), reads of the live table, then
// g.Apply(ctx, name, live, batch), which fails with ErrConflict and
// applies nothing if a commit above the Guard's start wrote one of the
// batch's keys, and g.Release(). It takes no snapshot and buffers nothing
// (guard.go says why it is race free).
//
// # Isolation
//
// Reads see the store snapshot taken by Begin (kv.Snapshotter) plus the
// transaction's own buffered writes, applied in order on top of each row.
// When the store is no Snapshotter (Cloud Bigtable) there is no snapshot:
// every read sees the live store at the time of that read (read committed),
// still merged with the transaction's own writes; conflict detection is the
// same.
//
// # Conflicts
//
// The Manager numbers commits. A transaction's start number is the
// watermark: the highest commit number all of whose predecessors have
// finished applying, taken under the Manager lock just before the store
// snapshot, so every commit at or below it is in the snapshot. Each commit
// registers 64-bit hashes of the (table, rowkey) pairs it wrote. At Commit,
// under the lock, a transaction fails with ErrConflict if a commit numbered
// above its start wrote one of its keys (first committer wins; a hash
// collision can only cause a spurious conflict); otherwise it takes the next
// number and registers its keys, releases the lock, applies, and marks the
// number finished. The lock is never held across Apply, so concurrent
// commits reach the store's group commit together. Registrations at or
// below every live transaction's start (and the watermark) are dropped.
//
// Autocommit writes take a number too. While no transaction is live they
// skip hashing their keys; such an unregistered commit is remembered while
// it is in flight, and Begin waits for in-flight unregistered commits
// before it computes its start, so a transaction can never start below an
// unregistered commit it might not see (see Manager.Autocommit).
//
// # Atomicity
//
// A transaction's writes to one table are applied as one kv batch, atomic
// when the store's AtomicBatches is true. The store contract has no
// multi-table batch, so a transaction that wrote several tables first
// writes its whole write set as one redo record (a row of RedoTable, one
// atomic single-row apply), then applies one batch per table in name
// order, then deletes the record. Manager.Recover, run at start-up,
// re-applies any record a crash left behind, so such a commit is
// all-or-nothing across a crash. Conflicts are detected before the record
// is written, and the buffered preconditions were checked against the
// snapshot, which no registered commit has changed since.
//
// # Limits
//
// The write buffer is bounded (Options.MaxWriteBytes, 64 MiB by default):
// beyond it Apply returns ErrTooLarge and buffers nothing of that batch.
// The overlay applies family MaxVersions garbage collection when given the
// table's families, and hides cells past their TTL in reads and
// preconditions. Overlays and autocommit handles implement kv.MultiReader:
// an overlay's iterators read the transaction's snapshot and its buffered
// rows as they were at the call (without a store snapshot, the base reads
// share one only if the live table is a kv.MultiReader).
package txn
