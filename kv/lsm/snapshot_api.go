package lsm

import (
	"context"
	"sync"

	"github.com/widesql/widesql/kv"
)

var _ kv.Snapshotter = (*Store)(nil)

// Snapshot implements kv.Snapshotter. A store snapshot is a registered
// read sequence number (the visible seq at the call) plus the tables that
// existed then: every Apply that returned before the call published its seq,
// so it is visible; later ones have larger seqs and are skipped. While the
// seq is registered in s.snapshots, flush and compaction keep every entry a
// read at it needs (oldestSnapshot), so reads survive both, and region
// splits, because each read acquires the regions' current state at the
// pinned seq. A table dropped after the snapshot reads as
// kv.ErrTableNotFound: its files are gone.
func (s *Store) Snapshot(ctx context.Context) (kv.Snapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, kv.ErrClosed
	}
	seq := s.visibleSeq.Load()
	s.snapshots[seq]++
	snap := &storeSnapshot{s: s, seq: seq, tables: make(map[string]*table, len(s.tables))}
	for name, t := range s.tables {
		snap.tables[name] = t
	}
	return snap, nil
}

// storeSnapshot is a kv.Snapshot of a Store. Each Read registers the seq
// again for its own iterator, so iterators may outlive Release.
type storeSnapshot struct {
	s   *Store
	seq uint64

	mu       sync.Mutex
	tables   map[string]*table // as of the snapshot; nil once released
	released bool
}

// Read implements kv.Snapshot.
func (sn *storeSnapshot) Read(ctx context.Context, name string, rs kv.RowSet, opts kv.ReadOptions) kv.RowIterator {
	sn.mu.Lock()
	released := sn.released
	t := sn.tables[name]
	sn.mu.Unlock()
	switch {
	case released:
		return &rowIterator{err: kv.ErrClosed, done: true}
	case t == nil:
		return &rowIterator{err: errorf("snapshot: table %q: %w", name, kv.ErrTableNotFound), done: true}
	}
	h := &Table{s: sn.s, t: t}
	return h.readAt(ctx, rs, opts, sn.seq, true)
}

// Release implements kv.Snapshot.
func (sn *storeSnapshot) Release() {
	sn.mu.Lock()
	if sn.released {
		sn.mu.Unlock()
		return
	}
	sn.released, sn.tables = true, nil
	sn.mu.Unlock()
	s := sn.s
	s.mu.Lock()
	if s.snapshots[sn.seq]--; s.snapshots[sn.seq] == 0 {
		delete(s.snapshots, sn.seq)
	}
	s.mu.Unlock()
}
