package lsm

import (
	"bytes"
	"context"
	"slices"

	"github.com/widesql/widesql/kv"
)

var (
	_ kv.Admin       = (*Store)(nil)
	_ kv.Flusher     = (*Store)(nil)
	_ kv.MultiReader = (*Table)(nil)
)

// Split implements kv.Admin: it splits the regions holding keys at keys,
// as the background split does (the children share the parent's files
// until compaction rewrites them, and divide its memtables), and records
// the new regions in the manifest, so they survive a restart. Keys that
// are already region boundaries are skipped. Errors wrap
// kv.ErrInvalidArgument (an empty or too long key) or kv.ErrTableNotFound.
func (s *Store) Split(ctx context.Context, name string, keys [][]byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, k := range keys {
		if len(k) == 0 || len(k) > kv.MaxKeySize {
			return errorf("split %q: key length %d not in [1, %d]: %w", name, len(k), kv.MaxKeySize, kv.ErrInvalidArgument)
		}
	}
	keys = slices.Clone(keys)
	slices.SortFunc(keys, bytes.Compare)
	keys = slices.CompactFunc(keys, bytes.Equal)

	s.manifestMu.Lock()
	defer s.manifestMu.Unlock()
	s.commitMu.Lock()
	s.mu.Lock()
	t, err := s.liveTableLocked(name)
	if err != nil {
		s.mu.Unlock()
		s.commitMu.Unlock()
		return err
	}
	regions := slices.Clone(t.regions)
	split := 0
	for _, k := range keys {
		i := regionFor(regions, k)
		r := regions[i]
		if bytes.Equal(r.start, k) {
			continue
		}
		a, b := s.splitRegionLocked(t, r, slices.Clone(k))
		regions = slices.Replace(regions, i, i+1, a, b)
		split++
	}
	t.regions = regions
	s.mu.Unlock()
	s.commitMu.Unlock()
	if split == 0 {
		return nil
	}
	s.opts.Logger.Info("lsm: split table", "table", name, "keys", split)
	if err := s.saveManifest(); err != nil {
		return err
	}
	s.kick() // compaction gives the children files of their own
	return nil
}

// SetFamilies implements kv.Admin. New families get empty stores in every
// region; changed options apply to reads at once (MaxVersions, TTL) and to
// files written from now on (Compression, Bloom); compaction drops what
// the new MaxVersions and TTL hide. A larger MaxVersions or TTL shows
// again the versions no compaction has dropped yet (as in HBase), so
// which come back is not defined. The families are recorded in the
// manifest. Errors wrap kv.ErrInvalidArgument or kv.ErrTableNotFound.
func (s *Store) SetFamilies(ctx context.Context, name string, fams []kv.Family) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := validateFamilies(fams); err != nil {
		return errorf("set families of %q: %w", name, err)
	}
	s.manifestMu.Lock()
	defer s.manifestMu.Unlock()
	s.mu.Lock()
	t, err := s.liveTableLocked(name)
	if err != nil {
		s.mu.Unlock()
		return err
	}
	old := t.families()
	next := newFamSet(kv.MergeFamilies(old.spec, fams))
	if len(next.fams) != len(old.fams) {
		// Families sort by name: renumber every region's file lists.
		for _, r := range t.regions {
			st := *r.state // a new value: readers may hold the old one
			st.files = make([][]*fileMeta, len(next.fams))
			for oi := range old.fams {
				st.files[next.idx[old.fams[oi].name]] = r.state.files[oi]
			}
			r.state = &st
		}
	}
	t.fs.Store(next)
	s.mu.Unlock()
	if rc := s.rc.Load(); rc != nil {
		// After the new set is in place: inserts of reads that took
		// the old one are refused from now on (rowcache.go).
		rc.clearTable(t.id)
	}
	return s.saveManifest()
}

// liveTableLocked returns the table name if the store is open and
// writable; with mu held.
func (s *Store) liveTableLocked(name string) (*table, error) {
	if err := s.checkLocked(); err != nil {
		return nil, err
	}
	if s.failed != nil {
		return nil, s.failed
	}
	t, ok := s.tables[name]
	if !ok {
		return nil, errorf("table %q: %w", name, kv.ErrTableNotFound)
	}
	return t, nil
}

// ReadMulti implements kv.MultiReader: one iterator per row set, all at
// the sequence number visible at the call. The sequence number is
// registered while the iterators take their region states, so no
// compaction drops what they need in between.
func (h *Table) ReadMulti(ctx context.Context, sets []kv.RowSet, opts kv.ReadOptions) []kv.RowIterator {
	s := h.s
	s.mu.Lock()
	seq := s.visibleSeq.Load()
	s.snapshots[seq]++
	s.mu.Unlock()
	out := make([]kv.RowIterator, len(sets))
	for i, rs := range sets {
		out[i] = h.readAt(ctx, rs, opts, seq, true)
	}
	s.mu.Lock()
	if s.snapshots[seq]--; s.snapshots[seq] == 0 {
		delete(s.snapshots, seq)
	}
	s.mu.Unlock()
	return out
}
