package memstore

import (
	"bytes"
	"context"
	"fmt"
	"sync"

	"github.com/google/btree"

	"github.com/widesql/widesql/kv"
)

// btreeDegree is the degree of every table's btree: nodes hold up to
// 2*btreeDegree-1 rows.
const btreeDegree = 32

// Table is one table of a Store: a copy-on-write btree of immutable rows. It
// is safe for concurrent use.
type Table struct {
	name     string
	families map[string]kv.Family // immutable after newTable
	fillSize int                  // rows per seek of a scan; tests lower it

	mu    sync.Mutex
	tree  *btree.BTreeG[*row] // guarded by mu; nil once err is set
	err   error               // guarded by mu; set when dropped or closed
	probe row                 // guarded by mu; search key for tree.Get
}

var _ kv.Table = (*Table)(nil)

func newTable(name string, spec kv.TableSpec) (*Table, error) {
	if name == "" {
		return nil, fmt.Errorf("memstore: create table: empty name: %w", kv.ErrInvalidArgument)
	}
	t := &Table{
		name:     name,
		families: make(map[string]kv.Family, len(spec.Families)),
		tree:     btree.NewG(btreeDegree, rowLess),
		fillSize: defaultFillSize,
	}
	for _, f := range spec.Families {
		switch _, dup := t.families[f.Name]; {
		case f.Name == "":
			return nil, fmt.Errorf("memstore: create table %q: empty family name: %w", name, kv.ErrInvalidArgument)
		case dup:
			return nil, fmt.Errorf("memstore: create table %q: duplicate family %q: %w", name, f.Name, kv.ErrInvalidArgument)
		case f.MaxVersions < 0 || f.TTL < 0:
			return nil, fmt.Errorf("memstore: create table %q: family %q: negative MaxVersions or TTL: %w", name, f.Name, kv.ErrInvalidArgument)
		}
		t.families[f.Name] = f
	}
	return t, nil
}

// invalidate makes every later call on t fail with err and frees its rows.
func (t *Table) invalidate(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err == nil {
		t.err, t.tree = err, nil
	}
}

// snapshot returns a copy-on-write clone of the tree: O(1), and unaffected by
// later writes. The clone is private to the caller and needs no lock.
func (t *Table) snapshot() (*btree.BTreeG[*row], error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return nil, t.err
	}
	return t.tree.Clone(), nil
}

// lookup appends the existing rows among the point spans to buf, under the
// table lock, so that they are consistent with each other.
func (t *Table) lookup(spans []kv.Span, buf []*row) ([]*row, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return nil, t.err
	}
	for i := range spans {
		t.probe.key = spans[i].Start
		if r, ok := t.tree.Get(&t.probe); ok {
			buf = append(buf, r)
		}
	}
	t.probe.key = nil
	return buf, nil
}

// AtomicBatches reports true: Apply is all-or-nothing across rows.
func (t *Table) AtomicBatches() bool { return true }

// Apply applies batch atomically. Every mutation is validated first: a bad
// key, timestamp or kind yields an error wrapping kv.ErrInvalidArgument, an
// unknown family one wrapping kv.ErrFamilyNotFound. Preconditions are then
// checked in batch order under the table lock, each against the row as left
// by the batch's earlier row mutations; the first failure returns a
// *kv.ConditionError and nothing is applied. Apply does not retain batch or
// any slice in it.
func (t *Table) Apply(ctx context.Context, batch []kv.RowMutation) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	conditional := false
	for i := range batch {
		if err := t.validateRowMutation(&batch[i]); err != nil {
			return fmt.Errorf("memstore: apply to %q: row mutation %d: %w", t.name, i, err)
		}
		conditional = conditional || batch[i].Require != kv.NoPrecondition
	}

	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return t.err
	}
	tree := t.tree
	if conditional && len(batch) > 1 {
		// Stage the batch in an O(1) copy-on-write clone, so that a failed
		// precondition discards the earlier row mutations by dropping it.
		tree = t.tree.Clone()
	}
	for i := range batch {
		rm := &batch[i]
		t.probe.key = rm.Key
		old, _ := tree.Get(&t.probe)
		t.probe.key = nil
		if (rm.Require == kv.RequireAbsent && old != nil) || (rm.Require == kv.RequirePresent && old == nil) {
			return &kv.ConditionError{Index: i, Key: bytes.Clone(rm.Key)}
		}
		switch next := t.mutateRow(old, rm); {
		case next != nil:
			tree.ReplaceOrInsert(next)
		case old != nil:
			tree.Delete(old)
		}
	}
	t.tree = tree
	return nil
}

// validateRowMutation checks rm without looking at the table's rows.
func (t *Table) validateRowMutation(rm *kv.RowMutation) error {
	return rm.Validate(func(f string) bool { _, ok := t.families[f]; return ok })
}
