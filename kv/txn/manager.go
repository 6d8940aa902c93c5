package txn

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"sync"
	"sync/atomic"

	"github.com/widesql/widesql/kv"
)

// Sentinel errors.
var (
	// ErrConflict: a transaction that committed after this one started
	// wrote a row this one wrote (or a buffered precondition no longer held
	// at commit). Nothing of this transaction was applied; retry it.
	ErrConflict = errors.New("txn: write-write conflict")
	// ErrTooLarge: the write buffer would exceed Options.MaxWriteBytes.
	ErrTooLarge = errors.New("txn: transaction write set too large")
	// ErrDone: the transaction was already committed or rolled back.
	ErrDone = errors.New("txn: transaction already ended")
)

// DefaultMaxWriteBytes bounds a transaction's write buffer by default.
const DefaultMaxWriteBytes = 64 << 20

// Options configure a Manager.
type Options struct {
	// MaxWriteBytes bounds the bytes a transaction buffers (keys, values
	// and the rows it materializes); 0 means DefaultMaxWriteBytes.
	MaxWriteBytes int64
}

// Manager hands out transactions over one store and detects write-write
// conflicts between them. It is safe for concurrent use. See the package
// documentation for the protocol.
type Manager struct {
	store   kv.Store
	snapper kv.Snapshotter // nil: read committed
	opts    Options
	seed    maphash.Seed

	live    atomic.Int64             // live transactions, mirrored for lock-free reads
	redo    atomic.Pointer[kv.Table] // RedoTable, once opened
	redoSeq atomic.Uint64            // tells apart redo records written in one microsecond

	mu           sync.Mutex
	cond         *sync.Cond          // on mu: an unregistered commit finished
	next         uint64              // last commit number handed out
	watermark    uint64              // every commit <= watermark has finished
	finished     map[uint64]struct{} // finished commits above watermark
	unregistered map[uint64]struct{} // in-flight commits without key hashes
	commits      []commitRecord      // by ascending number
	starts       map[uint64]int      // start numbers of live transactions
	txns         int                 // live transactions, including those in Begin
}

// commitRecord is one commit's written keys, as hashes.
type commitRecord struct {
	num  uint64
	keys map[uint64]struct{}
}

// NewManager returns the transaction manager of store. If store implements
// kv.Snapshotter transactions get snapshot isolation, otherwise read
// committed.
func NewManager(store kv.Store, opts Options) *Manager {
	if opts.MaxWriteBytes <= 0 {
		opts.MaxWriteBytes = DefaultMaxWriteBytes
	}
	m := &Manager{store: store, opts: opts, seed: maphash.MakeSeed(),
		finished: map[uint64]struct{}{}, unregistered: map[uint64]struct{}{}, starts: map[uint64]int{}}
	m.snapper, _ = store.(kv.Snapshotter)
	m.cond = sync.NewCond(&m.mu)
	return m
}

// SnapshotIsolation reports whether transactions read a store snapshot
// (true) or the live store (read committed).
func (m *Manager) SnapshotIsolation() bool { return m.snapper != nil }

// keyHash is the fingerprint of (table, rowkey).
func (m *Manager) keyHash(table string, key []byte) uint64 {
	var h maphash.Hash
	h.SetSeed(m.seed)
	h.WriteString(table)
	h.WriteByte(0)
	h.Write(key)
	return h.Sum64()
}

// registerStart counts a new transaction or Guard as live, waits for
// in-flight unregistered autocommit writes and returns the watermark as
// its start number, registered in starts.
func (m *Manager) registerStart() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.txns++
	m.live.Add(1)
	for len(m.unregistered) > 0 {
		m.cond.Wait()
	}
	start := m.watermark
	m.starts[start]++
	return start
}

// Begin starts a transaction: it waits for in-flight unregistered
// autocommit writes, takes the watermark as its start number and then the
// store snapshot. The caller must end it with Commit or Rollback.
func (m *Manager) Begin(ctx context.Context) (*Txn, error) {
	start := m.registerStart()
	t := &Txn{m: m, start: start, tables: map[string]*txnTable{}}
	if m.snapper != nil {
		snap, err := m.snapper.Snapshot(ctx)
		if err != nil {
			m.endTxn(start)
			return nil, err
		}
		t.snap = snap
	}
	return t, nil
}

// endTxn forgets a live transaction's start number.
func (m *Manager) endTxn(start uint64) {
	m.mu.Lock()
	if m.starts[start]--; m.starts[start] <= 0 {
		delete(m.starts, start)
	}
	m.txns--
	m.live.Add(-1)
	m.pruneLocked()
	m.mu.Unlock()
}

// conflictLocked reports whether a commit numbered above start wrote one of
// keys.
func (m *Manager) conflictLocked(start uint64, keys map[uint64]struct{}) bool {
	for i := len(m.commits) - 1; i >= 0 && m.commits[i].num > start; i-- {
		if intersects(m.commits[i].keys, keys) {
			return true
		}
	}
	return false
}

// intersects reports whether key sets a and b share a hash, walking the
// smaller.
func intersects(a, b map[uint64]struct{}) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	for h := range a {
		if _, ok := b[h]; ok {
			return true
		}
	}
	return false
}

// takeLocked hands out the next commit number and registers keys with it
// (nil keys: an unregistered commit).
func (m *Manager) takeLocked(keys map[uint64]struct{}) uint64 {
	m.next++
	if keys == nil {
		m.unregistered[m.next] = struct{}{}
	} else {
		m.commits = append(m.commits, commitRecord{num: m.next, keys: keys})
	}
	return m.next
}

// finish marks commit num applied (successfully or not) and advances the
// watermark.
func (m *Manager) finish(num uint64) {
	m.mu.Lock()
	m.finished[num] = struct{}{}
	for {
		if _, ok := m.finished[m.watermark+1]; !ok {
			break
		}
		delete(m.finished, m.watermark+1)
		m.watermark++
	}
	if _, ok := m.unregistered[num]; ok {
		delete(m.unregistered, num)
		if len(m.unregistered) == 0 {
			m.cond.Broadcast()
		}
	}
	m.pruneLocked()
	m.mu.Unlock()
}

// pruneLocked drops the registrations no live or future transaction can
// check: those at or below every live start and the watermark.
func (m *Manager) pruneLocked() {
	lo := m.watermark
	for s := range m.starts {
		lo = min(lo, s)
	}
	i := 0
	for i < len(m.commits) && m.commits[i].num <= lo {
		i++
	}
	if i > 0 {
		m.commits = append(m.commits[:0], m.commits[i:]...)
	}
}

// Autocommit returns a kv.Table over live, the handle of table name, for
// writes outside a transaction: Apply registers the batch's keys with the
// Manager and applies it at once. Reads pass through.
//
// While no transaction is live, Apply does not hash its keys. That is race
// free: the number is taken under the lock, and if no transaction was live
// then, the commit is marked unregistered until it finishes; Begin waits
// for unregistered commits, so every transaction's start number is at or
// above it and its snapshot contains it. If a transaction became live
// after the lock-free check, Apply hashes its keys and retries.
func (m *Manager) Autocommit(name string, live kv.Table) kv.Table {
	return &autocommitTable{Table: live, m: m, name: name}
}

type autocommitTable struct {
	kv.Table
	m    *Manager
	name string
}

var (
	_ kv.MultiReader = (*autocommitTable)(nil)
	_ kv.ReadReuser  = (*autocommitTable)(nil)
)

// ReadReuse implements kv.ReadReuser by passing through to the live
// table: an autocommit read is the live table's read.
func (a *autocommitTable) ReadReuse(ctx context.Context, rs kv.RowSet, opts kv.ReadOptions, old kv.RowIterator) kv.RowIterator {
	return kv.ReadReusing(ctx, a.Table, rs, opts, old)
}

// ReadMulti implements kv.MultiReader by passing through to the live
// table. If that is no kv.MultiReader, each row set is read on its own
// and the iterators share no snapshot.
func (a *autocommitTable) ReadMulti(ctx context.Context, sets []kv.RowSet, opts kv.ReadOptions) []kv.RowIterator {
	if mr, ok := a.Table.(kv.MultiReader); ok {
		return mr.ReadMulti(ctx, sets, opts)
	}
	out := make([]kv.RowIterator, len(sets))
	for i, rs := range sets {
		out[i] = a.Table.Read(ctx, rs, opts)
	}
	return out
}

var _ kv.Ingester = (*autocommitTable)(nil)

// NewIngest implements kv.Ingester by passing through to the live table
// (kv.ErrIngestUnsupported if it cannot ingest). The builder's Commit
// takes a commit number as Apply does, unregistered: Begin waits for the
// install, and transactions live meanwhile do not check their writes
// against the ingested keys. Those keys were absent before, so such a
// transaction cannot have read them; an insert of one still fails its
// RequireAbsent at commit.
func (a *autocommitTable) NewIngest(ctx context.Context) (kv.IngestBuilder, error) {
	in, ok := a.Table.(kv.Ingester)
	if !ok {
		return nil, kv.ErrIngestUnsupported
	}
	b, err := in.NewIngest(ctx)
	if err != nil {
		return nil, err
	}
	return &autocommitIngest{IngestBuilder: b, m: a.m}, nil
}

type autocommitIngest struct {
	kv.IngestBuilder
	m *Manager
}

func (b *autocommitIngest) Commit(ctx context.Context) error {
	m := b.m
	m.mu.Lock()
	num := m.takeLocked(nil)
	m.mu.Unlock()
	err := b.IngestBuilder.Commit(ctx)
	m.finish(num)
	return err
}

// ReadVersion implements kv.ReadVersioner by passing through to the live
// table; 0 (no version: RowMutation.ReadSeq is then no hint) when it has
// none. Autocommit reads and writes are the live table's own, so its
// versions hold for them.
func (a *autocommitTable) ReadVersion() uint64 {
	if rv, ok := a.Table.(kv.ReadVersioner); ok {
		return rv.ReadVersion()
	}
	return 0
}

var _ kv.ReadVersioner = (*autocommitTable)(nil)

func (a *autocommitTable) Apply(ctx context.Context, batch []kv.RowMutation) error {
	m := a.m
	var keys map[uint64]struct{}
	for {
		if keys == nil && m.live.Load() > 0 {
			keys = make(map[uint64]struct{}, len(batch))
			for i := range batch {
				keys[m.keyHash(a.name, batch[i].Key)] = struct{}{}
			}
		}
		m.mu.Lock()
		if keys == nil && m.txns > 0 {
			m.mu.Unlock()
			continue
		}
		if m.txns == 0 {
			keys = nil // nobody could check them
		}
		num := m.takeLocked(keys)
		m.mu.Unlock()
		err := a.Table.Apply(ctx, batch)
		m.finish(num)
		return err
	}
}

// String describes the manager's state, for debugging.
func (m *Manager) String() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return fmt.Sprintf("txn.Manager{next: %d, watermark: %d, live: %d, registered: %d}",
		m.next, m.watermark, len(m.starts), len(m.commits))
}
