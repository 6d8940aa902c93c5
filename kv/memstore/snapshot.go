package memstore

import (
	"context"
	"fmt"
	"sync"

	"github.com/google/btree"

	"github.com/widesql/widesql/kv"
)

var _ kv.Snapshotter = (*Store)(nil)

// Snapshot implements kv.Snapshotter. It holds the store lock and every
// table's lock at once while it takes an O(1) copy-on-write Clone of each
// table's tree, so the snapshot is one point in time across tables: every
// Apply that returned before the call is in it, none that started after.
// Cost: O(tables) under the locks; later writes copy the nodes they touch
// while the snapshot is held.
func (s *Store) Snapshot(ctx context.Context) (kv.Snapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The exclusive store lock makes this the only goroutine holding more
	// than one table lock, so locking the tables in any order is safe.
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, kv.ErrClosed
	}
	snap := &snapshot{tables: make(map[string]snapTable, len(s.tables))}
	for _, t := range s.tables {
		t.mu.Lock()
	}
	for name, t := range s.tables {
		if t.err == nil {
			snap.tables[name] = snapTable{t: t, tree: t.tree.Clone()}
		}
	}
	for _, t := range s.tables {
		t.mu.Unlock()
	}
	return snap, nil
}

// snapshot is a kv.Snapshot of a Store: a private clone of every table's
// tree. Reads clone the clone again (O(1)), so iterators outlive Release.
type snapshot struct {
	mu       sync.Mutex
	tables   map[string]snapTable // nil once released
	released bool
}

type snapTable struct {
	t    *Table
	tree *btree.BTreeG[*row]
}

// Read implements kv.Snapshot.
func (s *snapshot) Read(ctx context.Context, table string, rs kv.RowSet, opts kv.ReadOptions) kv.RowIterator {
	s.mu.Lock()
	released := s.released
	st, ok := s.tables[table]
	var tree *btree.BTreeG[*row]
	if ok {
		tree = st.tree.Clone()
	}
	s.mu.Unlock()
	switch {
	case released:
		return &iterator{err: kv.ErrClosed, done: true}
	case !ok:
		return &iterator{err: fmt.Errorf("memstore: snapshot: table %q: %w", table, kv.ErrTableNotFound), done: true}
	}
	return st.t.read(ctx, rs, opts, tree)
}

// Release implements kv.Snapshot.
func (s *snapshot) Release() {
	s.mu.Lock()
	s.released, s.tables = true, nil
	s.mu.Unlock()
}
