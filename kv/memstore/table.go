package memstore

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

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
	fillSize int // rows per seek of a scan; tests lower it

	// families is replaced (never modified) by SetFamilies, under mu;
	// validation and reads load it without the lock.
	families atomic.Pointer[familyMap]
	// regions is replaced (never modified) by Split, under mu; iterators
	// load it without the lock to count their reads.
	regions      atomic.Pointer[[]*region]
	nextRegionID uint64 // guarded by mu

	mu    sync.Mutex
	tree  *btree.BTreeG[*row] // guarded by mu; nil once err is set
	err   error               // guarded by mu; set when dropped or closed
	probe row                 // guarded by mu; search key for tree.Get
}

// familyMap is a table's families by name.
type familyMap map[string]kv.Family

func (t *Table) fams() familyMap { return *t.families.Load() }

var _ kv.Table = (*Table)(nil)

func newTable(name string, spec kv.TableSpec) (*Table, error) {
	if name == "" {
		return nil, fmt.Errorf("memstore: create table: empty name: %w", kv.ErrInvalidArgument)
	}
	if err := kv.ValidateFamilies(spec.Families); err != nil {
		return nil, fmt.Errorf("memstore: create table %q: %w", name, err)
	}
	keys := make([][]byte, 0, len(spec.SplitKeys))
	for _, k := range spec.SplitKeys {
		if len(k) == 0 || len(k) > kv.MaxKeySize {
			return nil, fmt.Errorf("memstore: create table %q: split key length %d: %w", name, len(k), kv.ErrInvalidArgument)
		}
		keys = append(keys, bytes.Clone(k))
	}
	slices.SortFunc(keys, bytes.Compare)
	keys = slices.CompactFunc(keys, bytes.Equal)
	t := &Table{
		name:     name,
		tree:     btree.NewG(btreeDegree, rowLess),
		fillSize: defaultFillSize,
	}
	fams := make(familyMap, len(spec.Families))
	for _, f := range spec.Families {
		fams[f.Name] = f
	}
	t.families.Store(&fams)
	regions := newRegions(keys, &t.nextRegionID)
	t.regions.Store(&regions)
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
	fams, now := t.fams(), kv.Now()
	regions := *t.regions.Load()
	var deltas []regionDelta
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
		if rm.Require != kv.NoPrecondition {
			present := old != nil && hasLiveCell(old.cells, rm.RequireColumn, fams, now)
			if (rm.Require == kv.RequireAbsent && present) || (rm.Require == kv.RequirePresent && !present) {
				return &kv.ConditionError{Index: i, Key: bytes.Clone(rm.Key)}
			}
		}
		next := t.mutateRow(old, rm, fams, now)
		switch {
		case next != nil:
			tree.ReplaceOrInsert(next)
		case old != nil:
			tree.Delete(old)
		}
		deltas = addDelta(deltas, regions[regionFor(regions, rm.Key)], old, next)
	}
	t.tree = tree
	commitDeltas(deltas)
	return nil
}

// hasLiveCell reports whether cells hold one a read would return (TTL
// applies; versions beyond MaxVersions never hide a column's newest), in
// column col when col is not nil.
func hasLiveCell(cells []kv.Cell, col *kv.Column, fams familyMap, now kv.Timestamp) bool {
	for i := range cells {
		c := &cells[i]
		if col != nil && (c.Family != col.Family || !bytes.Equal(c.Qualifier, col.Qualifier)) {
			continue
		}
		if f := fams[c.Family]; f.Expired(c.Timestamp, now) {
			continue
		}
		return true
	}
	return false
}

// validateRowMutation checks rm without looking at the table's rows.
func (t *Table) validateRowMutation(rm *kv.RowMutation) error {
	fams := t.fams()
	return rm.Validate(func(f string) bool { _, ok := fams[f]; return ok })
}
