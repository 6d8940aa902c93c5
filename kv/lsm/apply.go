package lsm

import (
	"context"
	"time"

	"github.com/widesql/widesql/kv"
)

// Table is a handle on one table of a Store; it implements kv.Table and is
// safe for concurrent use.
type Table struct {
	s *Store
	t *table
}

var _ kv.Table = (*Table)(nil)

// AtomicBatches reports true: a batch is one WAL record and is applied
// all-or-nothing.
func (h *Table) AtomicBatches() bool { return true }

// Apply commits batch atomically and durably (unless Options.NoSync): it
// returns once the batch's WAL record is synced, and the batch becomes
// visible to reads at the same time. Validation errors wrap
// kv.ErrInvalidArgument or kv.ErrFamilyNotFound; a failed precondition
// returns a *kv.ConditionError and applies nothing. After a WAL failure the
// store is read-only and every Apply returns that error. Apply does not
// retain batch.
func (h *Table) Apply(ctx context.Context, batch []kv.RowMutation) error {
	s, t := h.s, h.t
	if err := ctx.Err(); err != nil {
		return err
	}
	needRead := false
	size := 0
	for i := range batch {
		rm := &batch[i]
		if err := validateRowMutation(t, rm); err != nil {
			return errorf("apply to %q: row mutation %d: %w", t.name, i, err)
		}
		needRead = needRead || rm.Require != kv.NoPrecondition
		for j := range rm.Mutations {
			m := &rm.Mutations[j]
			needRead = needRead || (m.Kind == kv.DeleteCells && m.Start > 0)
			size += entrySize(rm.Key, m)
		}
	}
	if err := s.waitForMemory(t); err != nil {
		return err
	}

	s.commitMu.Lock()
	s.mu.Lock()
	err := s.writableLocked(t)
	regions := t.regions
	s.mu.Unlock()
	if err != nil {
		s.commitMu.Unlock()
		return err
	}
	wb := walBatch{tableID: t.id, firstSeq: s.lastSeq.Load() + 1, rows: make([]walRow, len(batch))}
	if needRead {
		if err := s.prepare(t, regions, batch, wb.rows); err != nil {
			s.commitMu.Unlock()
			return err
		}
		size = 0 // prepare may add tombstones: size what it wrote
		for i := range wb.rows {
			for j := range wb.rows[i].muts {
				size += entrySize(wb.rows[i].key, &wb.rows[i].muts[j])
			}
		}
	} else {
		for i := range batch {
			wb.rows[i] = walRow{key: batch[i].Key, muts: batch[i].Mutations}
		}
	}
	n := wb.count()
	s.lastSeq.Add(uint64(n))
	rec := wb.encode(make([]byte, 0, size+16))
	wait := s.wal.AppendAsync(rec)
	seg := s.walSeg.Load()

	// Memtables only change under commitMu, which we hold; mu guards the
	// state pointers.
	rs := make([]*region, len(wb.rows))
	mems := make([]*memtable, len(wb.rows))
	s.mu.Lock()
	for i := range wb.rows {
		rs[i] = regions[regionFor(regions, wb.rows[i].key)]
		mems[i] = rs[i].state.mem
	}
	s.mu.Unlock()
	arena := make([]byte, 0, size)
	es := make([]entry, 0, n)
	seq := wb.firstSeq
	var touched []regionWrites // few: a batch mostly hits one region
	for i := range wb.rows {
		start := len(es)
		es, seq = appendEntries(es, &arena, &wb.rows[i], seq)
		s.memBytes.Add(mems[i].add(es[start:], seq-1, seg))
		touched = countWrite(touched, rs[i])
	}
	s.commitMu.Unlock()

	if err := wait(); err != nil {
		err = errorf("apply to %q: WAL: %w", t.name, err)
		s.fail(err)
		return err
	}
	s.walSyncs.Add(1)
	last := wb.firstSeq + uint64(n) - 1
	for {
		v := s.visibleSeq.Load()
		if v >= last || s.visibleSeq.CompareAndSwap(v, last) {
			break
		}
	}
	kick := s.memBytes.Load() > s.opts.MemoryBudget
	now := time.Now()
	for _, w := range touched {
		w.r.writes.Add(w.n, now)
		kick = kick || s.memSize(w.r) >= s.opts.MemtableSize
	}
	if kick {
		s.kick()
	}
	return nil
}

type regionWrites struct {
	r *region
	n int64
}

func countWrite(ws []regionWrites, r *region) []regionWrites {
	for i := range ws {
		if ws[i].r == r {
			ws[i].n++
			return ws
		}
	}
	return append(ws, regionWrites{r, 1})
}

func (s *Store) memSize(r *region) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return r.state.mem.size.Load()
}

// writableLocked reports why t cannot be written; with mu held.
func (s *Store) writableLocked(t *table) error {
	switch {
	case s.closed:
		return kv.ErrClosed
	case t.dropped:
		return errorf("table %q was dropped: %w", t.name, kv.ErrTableNotFound)
	case s.failed != nil:
		return s.failed
	}
	return nil
}

// waitForMemory stalls while the memtables exceed the memory budget.
func (s *Store) waitForMemory(t *table) error {
	if s.memBytes.Load() <= s.opts.MemoryBudget {
		return nil
	}
	s.kick()
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.memBytes.Load() > s.opts.MemoryBudget && s.writableLocked(t) == nil {
		s.cond.Wait()
	}
	return s.writableLocked(t)
}

// kick wakes the background goroutine.
func (s *Store) kick() {
	select {
	case s.work <- struct{}{}:
	default:
	}
}

func validateRowMutation(t *table, rm *kv.RowMutation) error {
	fs := t.families()
	return rm.Validate(func(f string) bool { _, ok := fs.idx[f]; return ok })
}
