package txn

import (
	"context"
	"fmt"

	"github.com/widesql/widesql/kv"
)

// Guard makes one read-modify-write outside a transaction (an SQL UPDATE
// by key, an upsert) safe against lost updates at a fraction of a
// transaction's cost: no store snapshot, nothing buffered. The caller
// takes a Guard, reads the live table, and applies its one batch through
// Guard.Apply (or a GuardTable); Apply fails with ErrConflict, applying
// nothing, if a commit it might not have seen wrote one of the batch's
// rows, and the caller runs the read-modify-write again under a new Guard.
// Release ends it. A Guard is used by one goroutine.
//
// # Why it is race free
//
// Guard counts as a live transaction: it increments txns under the lock,
// waits for the in-flight unregistered commits, and takes the watermark as
// its start number, registered in starts (so no registration above it is
// pruned while it lives). Then:
//
//   - Every commit numbered at or below start has finished applying before
//     Guard returns, so every read of the live table made after it sees it.
//   - A commit numbered above start took its number after the in-flight
//     unregistered commits Guard waited for, which have all finished (and
//     are visible, as above). Every number taken after txns++ is
//     registered with its keys: autocommit writes hash their keys while
//     txns > 0, transaction commits and Guard.Apply always do (an Apply
//     while its own Guard is the only live one is the exception, below).
//     So a commit the reads may have missed, one numbered above start, is
//     in commits when Apply checks, and Apply's check under the lock
//     (conflictLocked, as Txn.Commit) finds it if it wrote one of the
//     batch's rows. The check and the taking of Apply's own number are
//     one critical section, so of two racing Guards on one row the second
//     to lock sees the first. A commit above start that the reads did see
//     is a conflict too (a false positive): it only costs a retry.
//   - Apply's own commit is registered whenever another transaction or
//     Guard is live under the lock, so those detect it as they would a
//     transaction's commit. When its Guard is the only live one, nobody
//     can check the keys: the commit is taken unregistered, and a later
//     Begin or Guard waits for it to finish, as for Autocommit.
//   - Ingests (Autocommit's NewIngest) commit unregistered even while
//     transactions are live. Guard waits for those in flight at its start;
//     a later one installs rows that were absent. A read made before the
//     install did not see those rows, so the read-modify-write did not
//     base a write on them, but it may write one of those keys believing
//     it absent: such an insert carries RequireAbsent and fails in Apply.
//   - Apply's batch failing its own precondition (kv.ErrConditionFailed,
//     returned as is) means a row changed since the read; nothing was
//     applied when the table's batches are atomic, and the caller retries.
//     The commit number was taken and registered and is finished anyway,
//     so at worst another Guard or transaction sees a false conflict.
//
// Reads are the live table's: a statement's rows are not one snapshot
// (another row it reads may be newer than start), which is what an
// autocommit statement gets anyway; only its writes are guarded.
type Guard struct {
	m     *Manager
	start uint64
	own   []uint64 // commit numbers of this Guard's Applies: not conflicts
	done  bool
}

// Guard starts a guarded read-modify-write. The caller must end it with
// Release. ctx is accepted for symmetry with Begin; Guard does no I/O.
func (m *Manager) Guard(ctx context.Context) (*Guard, error) {
	g := new(Guard)
	return g, m.StartGuard(ctx, g)
}

// StartGuard is Guard into g, a zero Guard or one released, so that a
// caller running one statement after another reuses one Guard value.
func (m *Manager) StartGuard(ctx context.Context, g *Guard) error {
	if g.m != nil && !g.done {
		return fmt.Errorf("txn: StartGuard of a live Guard")
	}
	start := m.registerStart()
	*g = Guard{m: m, start: start, own: g.own[:0]}
	return nil
}

// Release ends the Guard. It is safe to call more than once.
func (g *Guard) Release() {
	if g.done {
		return
	}
	g.done = true
	g.m.endTxn(g.start)
}

// Apply applies batch to live, the store's handle of table name (the name
// the table's other writers use with Autocommit and Txn.Table), unless a
// commit the Guard's reads may have missed wrote one of its rows: then it
// returns ErrConflict (wrapped) and applies nothing. Errors of live.Apply,
// kv.ErrConditionFailed among them, are returned as they are. Several
// Applies under one Guard are separate commits, each checked; they do not
// conflict with each other.
func (g *Guard) Apply(ctx context.Context, name string, live kv.Table, batch []kv.RowMutation) error {
	if g.done {
		return ErrDone
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	m := g.m
	var keys map[uint64]struct{}
	for {
		m.mu.Lock()
		// Keys are needed to check a commit above start, and to register
		// this one while someone else is live. Hash them outside the lock.
		need := m.txns > 1 || m.commitsAbove(g.start)
		if need && keys == nil {
			m.mu.Unlock()
			keys = make(map[uint64]struct{}, len(batch))
			for i := range batch {
				keys[m.keyHash(name, batch[i].Key)] = struct{}{}
			}
			continue
		}
		if keys != nil && g.conflictLocked(keys) {
			m.mu.Unlock()
			return fmt.Errorf("%w: a concurrent write reached a row this statement writes", ErrConflict)
		}
		if m.txns <= 1 {
			keys = nil // only this Guard is live: nobody could check them
		}
		num := m.takeLocked(keys)
		m.mu.Unlock()
		if keys != nil {
			g.own = append(g.own, num)
		}
		err := live.Apply(ctx, batch)
		m.finish(num)
		return err
	}
}

// commitsAbove reports whether a commit numbered above start is
// registered.
func (m *Manager) commitsAbove(start uint64) bool {
	return len(m.commits) > 0 && m.commits[len(m.commits)-1].num > start
}

// conflictLocked is Manager.conflictLocked without the Guard's own
// commits.
func (g *Guard) conflictLocked(keys map[uint64]struct{}) bool {
	if len(g.own) == 0 {
		return g.m.conflictLocked(g.start, keys)
	}
	commits := g.m.commits
	for i := len(commits) - 1; i >= 0 && commits[i].num > g.start; i-- {
		if !g.ownCommit(commits[i].num) && intersects(commits[i].keys, keys) {
			return true
		}
	}
	return false
}

func (g *Guard) ownCommit(num uint64) bool {
	for _, n := range g.own {
		if n == num {
			return true
		}
	}
	return false
}

// Table returns a kv.Table over live, the store's handle of table name,
// whose Apply is g.Apply. Reads pass through to live, and so does
// ReadVersion (kv.ReadVersioner, 0 when live has none): the Guard's reads
// and writes are the live table's own, so its versions hold for
// RowMutation.ReadSeq.
func (g *Guard) Table(name string, live kv.Table) kv.Table {
	return &GuardTable{Table: live, G: g, Name: name}
}

// GuardTable is Guard.Table's kv.Table; its fields may be set directly to
// reuse one value across Guards.
type GuardTable struct {
	kv.Table        // the live handle
	G        *Guard // the Guard the writes go through
	Name     string // the table's name, as for Autocommit
}

var _ kv.ReadVersioner = (*GuardTable)(nil)

// Apply implements kv.Table through the Guard.
func (t *GuardTable) Apply(ctx context.Context, batch []kv.RowMutation) error {
	return t.G.Apply(ctx, t.Name, t.Table, batch)
}

// ReadVersion implements kv.ReadVersioner by passing through to the live
// table.
func (t *GuardTable) ReadVersion() uint64 {
	if rv, ok := t.Table.(kv.ReadVersioner); ok {
		return rv.ReadVersion()
	}
	return 0
}
