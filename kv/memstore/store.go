package memstore

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/widesql/widesql/kv"
)

// Store is an in-memory kv.Store. It is safe for concurrent use. The zero
// value is not usable; call New.
type Store struct {
	mu     sync.RWMutex
	tables map[string]*Table // guarded by mu
	closed bool              // guarded by mu
}

var _ kv.Store = (*Store)(nil)

// New returns an empty in-memory store.
func New() *Store {
	return &Store{tables: make(map[string]*Table)}
}

// CreateTable creates a table. It returns an error wrapping kv.ErrTableExists
// if the name is taken and kv.ErrInvalidArgument for an empty name or a bad
// family list (kv.ValidateFamilies) or split key. SplitKeys become region
// boundaries: bookkeeping for kv.Admin's load counters, as all rows live in
// one tree.
func (s *Store) CreateTable(ctx context.Context, name string, spec kv.TableSpec) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	t, err := newTable(name, spec)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return kv.ErrClosed
	}
	if _, ok := s.tables[name]; ok {
		return fmt.Errorf("memstore: create table %q: %w", name, kv.ErrTableExists)
	}
	s.tables[name] = t
	return nil
}

// DropTable deletes a table; kv.ErrTableNotFound if absent. Handles on the
// dropped table return kv.ErrTableNotFound from then on, even if a table of
// the same name is created later. Iterators already open keep their snapshot.
func (s *Store) DropTable(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return kv.ErrClosed
	}
	t, ok := s.tables[name]
	if !ok {
		return fmt.Errorf("memstore: drop table %q: %w", name, kv.ErrTableNotFound)
	}
	delete(s.tables, name)
	t.invalidate(fmt.Errorf("memstore: table %q was dropped: %w", name, kv.ErrTableNotFound))
	return nil
}

// ListTables returns the table names in sorted order, in a new slice.
func (s *Store) ListTables(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, kv.ErrClosed
	}
	names := make([]string, 0, len(s.tables))
	for name := range s.tables {
		names = append(names, name)
	}
	slices.Sort(names)
	return names, nil
}

// Table returns a handle on an existing table; kv.ErrTableNotFound if absent.
// Handles are cheap and may be kept; the result is always a *Table.
func (s *Store) Table(ctx context.Context, name string) (kv.Table, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, kv.ErrClosed
	}
	t, ok := s.tables[name]
	if !ok {
		return nil, fmt.Errorf("memstore: table %q: %w", name, kv.ErrTableNotFound)
	}
	return t, nil
}

// Close releases every table. Afterwards every Store method, every table
// handle and Close itself return kv.ErrClosed. Iterators already open keep
// their snapshot and may be drained.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return kv.ErrClosed
	}
	s.closed = true
	for _, t := range s.tables {
		t.invalidate(kv.ErrClosed)
	}
	s.tables = nil
	return nil
}
