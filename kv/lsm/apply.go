package lsm

import (
	"context"
	"slices"
	"sync"
	"time"
	"unsafe"

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
	needRead, needGC := false, false
	size := 0
	for i := range batch {
		rm := &batch[i]
		if err := validateRowMutation(t, rm); err != nil {
			return errorf("apply to %q: row mutation %d: %w", t.name, i, err)
		}
		needRead = needRead || rm.Require != kv.NoPrecondition
		for j := range rm.Mutations {
			m := &rm.Mutations[j]
			needGC = needGC || (m.Kind == kv.DeleteCells && m.Start > 0)
			size += entrySize(rm.Key, m)
		}
	}
	needRead = needRead || needGC
	if err := s.waitForMemory(t); err != nil {
		return err
	}

	// Unless prepare may add GC tombstones, the WAL record and the
	// memtable entries are built here, before commitMu, with sequence
	// numbers patched in under it: the commit mutex then covers only the
	// precondition checks, the WAL write and the memtable inserts, and
	// concurrent committers (COPYs on several connections, many small
	// transactions) build their batches in parallel.
	wb := walBatch{tableID: t.id, rows: make([]walRow, len(batch))}
	sc := getApplyScratch()
	defer putApplyScratch(sc)
	var body, arena []byte
	var es []entry
	pre := !needGC
	if pre {
		for i := range batch {
			wb.rows[i] = walRow{key: batch[i].Key, muts: batch[i].Mutations}
		}
		body = wb.encodeBody(sc.body[:0])
		arena = slices.Grow(sc.arena[:0], size)
		es = slices.Grow(sc.es[:0], wb.count())
		for i := range wb.rows {
			es, _ = appendEntries(es, &arena, &wb.rows[i], 0)
		}
		sc.body, sc.arena, sc.es = body, arena, es
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
	wb.firstSeq = s.lastSeq.Load() + 1
	if needRead {
		if err := s.prepare(t, regions, batch, wb.rows); err != nil {
			s.commitMu.Unlock()
			return err
		}
	}
	n := wb.count()
	var rec []byte
	if pre {
		// prepare added nothing (it only adds GC tombstones): patch the
		// sequence numbers into the record and the entries.
		rec = wb.finishBody(body)
		for k := range es {
			setSeq(es[k].key, wb.firstSeq+uint64(k))
		}
	} else {
		size = 0 // prepare may add tombstones: size what it wrote
		for i := range wb.rows {
			for j := range wb.rows[i].muts {
				size += entrySize(wb.rows[i].key, &wb.rows[i].muts[j])
			}
		}
		rec = wb.finishBody(wb.encodeBody(sc.body[:0]))
		arena = slices.Grow(sc.arena[:0], size)
		es = slices.Grow(sc.es[:0], n)
		seq := wb.firstSeq
		for i := range wb.rows {
			es, seq = appendEntries(es, &arena, &wb.rows[i], seq)
		}
		sc.body, sc.arena, sc.es = rec, arena, es
	}
	s.lastSeq.Add(uint64(n))
	if rc := s.rc.Load(); rc != nil {
		// Before the memtable inserts, so before any read can see
		// the batch (rowcache.go).
		last := wb.firstSeq + uint64(n) - 1
		for i := range wb.rows {
			rc.invalidate(t.id, wb.rows[i].key, last)
		}
	}
	wait := s.wal.AppendAsync(rec)
	seg := s.walSeg.Load()

	// Memtables only change under commitMu, which we hold; mu guards the
	// state pointers. Consecutive rows of one region go to its memtable in
	// one add (one lock of the tree).
	var touched []regionWrites // few: a batch mostly hits one region
	s.mu.Lock()
	var mems []*memtable
	var runs []int // rows [runs[k], runs[k+1]) go to mems[k]
	for i := range wb.rows {
		r := regions[regionFor(regions, wb.rows[i].key)]
		if len(mems) == 0 || r.state.mem != mems[len(mems)-1] {
			mems = append(mems, r.state.mem)
			runs = append(runs, i)
		}
		touched = countWrite(touched, r)
	}
	s.mu.Unlock()
	runs = append(runs, len(wb.rows))
	e := 0
	for k, m := range mems {
		start := e
		for i := runs[k]; i < runs[k+1]; i++ {
			e += len(wb.rows[i].muts)
		}
		s.memBytes.Add(m.add(es[start:e], wb.firstSeq+uint64(e)-1, seg))
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

// applyScratch holds an Apply's WAL record, entries and their arena: the
// WAL writer copies the record and the memtable copies the entries, so
// they are free again once Apply released commitMu, and the next Apply
// reuses them instead of allocating (and zeroing) them anew.
type applyScratch struct {
	body, arena []byte
	es          []entry
}

var applyScratchPool = sync.Pool{New: func() any { return new(applyScratch) }}

// applyScratchMax bounds the buffers kept for reuse: a rare huge batch
// (a COPY's 64 MiB) does not stay pinned.
const applyScratchMax = 4 << 20

func getApplyScratch() *applyScratch { return applyScratchPool.Get().(*applyScratch) }

func putApplyScratch(sc *applyScratch) {
	if cap(sc.body) > applyScratchMax || cap(sc.arena) > applyScratchMax || cap(sc.es)*int(unsafe.Sizeof(entry{})) > applyScratchMax {
		return
	}
	clear(sc.es) // drop the references into the arena
	applyScratchPool.Put(sc)
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
