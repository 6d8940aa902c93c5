package memstore

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/widesql/widesql/kv"
)

var (
	_ kv.Admin       = (*Store)(nil)
	_ kv.MultiReader = (*Table)(nil)
)

// table returns the open table name.
func (s *Store) table(name string) (*Table, error) {
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

// Regions implements kv.Admin. Rows and Bytes are exact: the table's live
// rows in the region (expired cells count until a write to their row
// drops them) and the bytes of their keys, qualifiers and values. Files
// is 0.
func (s *Store) Regions(ctx context.Context, name string) ([]kv.RegionInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t, err := s.table(name)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return nil, t.err
	}
	regions := *t.regions.Load()
	out := make([]kv.RegionInfo, len(regions))
	for i, r := range regions {
		out[i] = r.info(now)
	}
	return out, nil
}

// Split implements kv.Admin: it adds region boundaries at keys; the
// children of a split region count their rows and bytes afresh and their
// reads and writes from zero. Errors wrap kv.ErrInvalidArgument (an empty
// or too long key) or kv.ErrTableNotFound.
func (s *Store) Split(ctx context.Context, name string, keys [][]byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, k := range keys {
		if len(k) == 0 || len(k) > kv.MaxKeySize {
			return fmt.Errorf("memstore: split %q: key length %d not in [1, %d]: %w", name, len(k), kv.MaxKeySize, kv.ErrInvalidArgument)
		}
	}
	t, err := s.table(name)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return t.err
	}
	regions := slices.Clone(*t.regions.Load())
	for _, k := range keys {
		i := regionFor(regions, k)
		r := regions[i]
		if bytes.Equal(r.start, k) {
			continue
		}
		k = bytes.Clone(k)
		a := &region{id: t.nextRegionID + 1, start: r.start, end: k}
		b := &region{id: t.nextRegionID + 2, start: k, end: r.end}
		t.nextRegionID += 2
		a.countRange(t.tree)
		b.countRange(t.tree)
		regions = slices.Replace(regions, i, i+1, a, b)
	}
	t.regions.Store(&regions)
	return nil
}

// SetFamilies implements kv.Admin. Reads apply a lower MaxVersions or TTL
// at once; the versions it hides are dropped at the row's next write. A
// higher MaxVersions does not bring back versions already dropped (they
// are dropped at write time), nor does a longer TTL bring back cells a
// write dropped. Errors wrap kv.ErrInvalidArgument or kv.ErrTableNotFound.
func (s *Store) SetFamilies(ctx context.Context, name string, fams []kv.Family) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := kv.ValidateFamilies(fams); err != nil {
		return fmt.Errorf("memstore: set families of %q: %w", name, err)
	}
	t, err := s.table(name)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return t.err
	}
	next := make(familyMap, len(t.fams())+len(fams))
	for n, f := range t.fams() {
		next[n] = f
	}
	for _, f := range fams {
		next[f.Name] = f
	}
	t.families.Store(&next)
	return nil
}

// ReadMulti implements kv.MultiReader: one iterator per row set, each over
// its own O(1) clone of one snapshot of the tree.
func (t *Table) ReadMulti(ctx context.Context, sets []kv.RowSet, opts kv.ReadOptions) []kv.RowIterator {
	out := make([]kv.RowIterator, len(sets))
	tree, err := t.snapshot()
	for i, rs := range sets {
		if err != nil {
			out[i] = &iterator{err: err, done: true}
			continue
		}
		out[i] = t.read(ctx, rs, opts, tree.Clone())
	}
	return out
}
