package txn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/widesql/widesql/kv"
)

// overlay is the kv.Table a transaction hands out.
type overlay struct{ t *txnTable }

var (
	_ kv.Table       = (*overlay)(nil)
	_ kv.MultiReader = (*overlay)(nil)
)

// AtomicBatches reports true: a failed precondition buffers nothing.
func (o *overlay) AtomicBatches() bool { return true }

// baseRead reads the table as the transaction's snapshot holds it (the
// live table without a snapshot). A table missing from the snapshot was
// created after it: it reads as empty.
func (t *txnTable) baseRead(ctx context.Context, rs kv.RowSet, opts kv.ReadOptions) kv.RowIterator {
	if t.tx.snap == nil {
		return t.live.Read(ctx, rs, opts)
	}
	it := t.tx.snap.Read(ctx, t.name, rs, opts)
	if errors.Is(it.Err(), kv.ErrTableNotFound) {
		it.Close()
		return emptyIter{}
	}
	return it
}

type emptyIter struct{}

func (emptyIter) Next() bool          { return false }
func (emptyIter) Row() kv.Row         { return kv.Row{} }
func (emptyIter) Err() error          { return nil }
func (emptyIter) Stats() kv.ReadStats { return kv.ReadStats{} }
func (emptyIter) Close() error        { return nil }

// Read implements kv.Table: the snapshot's rows merged with the buffered
// ones, in key order (or reverse), projected and limited as opts say. The
// buffered rows are taken as they are now: later Applies do not change
// what the iterator returns.
func (o *overlay) Read(ctx context.Context, rs kv.RowSet, opts kv.ReadOptions) kv.RowIterator {
	t := o.t
	if t.tx.done {
		return &errIter{err: ErrDone}
	}
	if t.rows.Len() == 0 {
		return t.baseRead(ctx, rs, opts)
	}
	return t.merge(rs, opts, t.baseRead(ctx, rs, baseOptions(opts)))
}

// baseOptions are the options of the base read under buffered rows: rows
// the buffer deletes must not count against the limit, and base rows must
// be whole, as the merge returns them (it does not complete rows: see
// kv.ReadOptions.Essential). Without buffered rows the base iterator is
// returned itself, and completes its rows.
func baseOptions(opts kv.ReadOptions) kv.ReadOptions {
	opts.Limit = 0
	opts.Essential = nil
	return opts
}

// ReadMulti implements kv.MultiReader: one iterator per row set, all over
// the transaction's snapshot and its buffered writes as they are now.
// Without a store snapshot (read committed) the base reads share one
// snapshot only if the live table is a kv.MultiReader.
func (o *overlay) ReadMulti(ctx context.Context, sets []kv.RowSet, opts kv.ReadOptions) []kv.RowIterator {
	t := o.t
	out := make([]kv.RowIterator, len(sets))
	if t.tx.done {
		for i := range out {
			out[i] = &errIter{err: ErrDone}
		}
		return out
	}
	bopts := opts
	if t.rows.Len() > 0 {
		bopts = baseOptions(opts)
	}
	if mr, ok := t.live.(kv.MultiReader); ok && t.tx.snap == nil {
		copy(out, mr.ReadMulti(ctx, sets, bopts))
	} else {
		for i, rs := range sets {
			out[i] = t.baseRead(ctx, rs, bopts)
		}
	}
	if t.rows.Len() > 0 {
		for i, rs := range sets {
			out[i] = t.merge(rs, opts, out[i])
		}
	}
	return out
}

// merge returns an iterator over base merged with the buffered rows of rs.
func (t *txnTable) merge(rs kv.RowSet, opts kv.ReadOptions, base kv.RowIterator) kv.RowIterator {
	it := &overlayIter{opts: opts, base: base, fams: t.fams, now: kv.Now()}
	add := func(r *bufRow) { it.buf = append(it.buf, bufView{key: r.key, cells: r.cur}) }
	for _, sp := range rs.Spans(nil) {
		if sp.Point {
			if r, ok := t.rows.Get(&bufRow{key: sp.Start}); ok {
				add(r)
			}
			continue
		}
		visit := func(r *bufRow) bool {
			if sp.End != nil && bytes.Compare(r.key, sp.End) >= 0 {
				return false
			}
			add(r)
			return true
		}
		if sp.Start == nil {
			t.rows.Ascend(visit)
		} else {
			t.rows.AscendGreaterOrEqual(&bufRow{key: sp.Start}, visit)
		}
	}
	if opts.Reverse {
		slices.Reverse(it.buf)
	}
	return it
}

// bufView is a buffered row as a read took it: cur slices are immutable
// (a mutation builds a new one), so keeping the slice keeps the row.
type bufView struct {
	key   []byte
	cells []kv.Cell
}

// overlayIter merges a base iterator with buffered rows (already in
// iteration order); a buffered row replaces the base row of its key.
type overlayIter struct {
	opts     kv.ReadOptions
	base     kv.RowIterator
	baseRow  kv.Row
	baseOK   bool // baseRow is pending
	baseDone bool
	buf      []bufView
	bi       int
	fams     map[string]kv.Family // for TTL; nil: none
	now      kv.Timestamp
	cur      kv.Row
	cells    []kv.Cell
	returned int64
	bufRead  int64
	err      error
	closed   bool
}

func (it *overlayIter) Next() bool {
	it.cur = kv.Row{}
	for it.err == nil && !it.closed && (it.opts.Limit == 0 || it.returned < it.opts.Limit) {
		if !it.baseOK && !it.baseDone {
			if it.base.Next() {
				it.baseRow, it.baseOK = it.base.Row(), true
			} else {
				it.baseDone = true
				if err := it.base.Err(); err != nil {
					it.err = err
					return false
				}
			}
		}
		if it.bi < len(it.buf) {
			r := it.buf[it.bi]
			c := -1 // the base is exhausted
			if it.baseOK {
				c = bytes.Compare(r.key, it.baseRow.Key)
				if it.opts.Reverse {
					c = -c
				}
			}
			if c <= 0 {
				it.bi++
				it.bufRead++
				if c == 0 {
					it.baseOK = false
				}
				it.cells = project(it.cells[:0], r.cells, &it.opts, it.fams, it.now)
				if len(it.cells) > 0 {
					it.cur = kv.Row{Key: r.key, Cells: it.cells}
					it.returned++
					return true
				}
				continue
			}
		}
		if !it.baseOK {
			return false
		}
		it.cur, it.baseOK = it.baseRow, false
		it.returned++
		return true
	}
	return false
}

func (it *overlayIter) Row() kv.Row { return it.cur }
func (it *overlayIter) Err() error  { return it.err }
func (it *overlayIter) Stats() kv.ReadStats {
	s := it.base.Stats()
	s.RowsRead += it.bufRead
	return s
}
func (it *overlayIter) Close() error {
	it.closed, it.cur = true, kv.Row{}
	return it.base.Close()
}

type errIter struct{ err error }

func (e *errIter) Next() bool          { return false }
func (e *errIter) Row() kv.Row         { return kv.Row{} }
func (e *errIter) Err() error          { return e.err }
func (e *errIter) Stats() kv.ReadStats { return kv.ReadStats{} }
func (e *errIter) Close() error        { return nil }

// Apply implements kv.Table: it validates the batch, checks each
// precondition (of the row, or of RequireColumn's column; cells past
// their family's TTL do not count) against the transaction's view
// (snapshot plus buffered writes, including this batch's earlier rows) and
// buffers the mutations. Commit applies them with their preconditions,
// which the store checks again: a concurrent change that breaks one is a
// conflict.
// A failed precondition returns a *kv.ConditionError and buffers nothing;
// a buffer beyond Options.MaxWriteBytes returns ErrTooLarge, likewise.
func (o *overlay) Apply(ctx context.Context, batch []kv.RowMutation) error {
	t := o.t
	tx := t.tx
	if tx.done {
		return ErrDone
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for i := range batch {
		if err := batch[i].Validate(t.hasFamily); err != nil {
			return fmt.Errorf("txn: apply to %q: row mutation %d: %w", t.name, i, err)
		}
	}
	if err := t.fetchMissing(ctx, batch); err != nil {
		return err
	}
	type undo struct {
		r   *bufRow
		cur []kv.Cell
	}
	var undos []undo
	logLen, size := len(tx.log), tx.size
	rollback := func() {
		for i := len(undos) - 1; i >= 0; i-- {
			undos[i].r.cur = undos[i].cur
			undos[i].r.muts--
		}
		clear(tx.log[logLen:])
		tx.log, tx.size = tx.log[:logLen], size
	}
	probe := &bufRow{}
	now := kv.Now()
	for i := range batch {
		probe.key = batch[i].Key
		r, _ := t.rows.Get(probe)
		if req := batch[i].Require; req != kv.NoPrecondition {
			present := hasLiveCell(r.cur, batch[i].RequireColumn, t.fams, now)
			if (req == kv.RequireAbsent && present) || (req == kv.RequirePresent && !present) {
				rollback()
				return &kv.ConditionError{Index: i, Key: bytes.Clone(batch[i].Key)}
			}
		}
		rm, n := deepCopy(&batch[i])
		undos = append(undos, undo{r: r, cur: r.cur})
		r.cur = t.mutate(r.cur, &rm)
		r.muts++
		tx.log = append(tx.log, logEntry{t: t, rm: rm, size: n})
		tx.size += n
	}
	if tx.size > tx.m.opts.MaxWriteBytes {
		rollback()
		return fmt.Errorf("%w: more than %d bytes buffered", ErrTooLarge, tx.m.opts.MaxWriteBytes)
	}
	return nil
}

func (t *txnTable) hasFamily(f string) bool {
	if t.fams == nil {
		return true
	}
	_, ok := t.fams[f]
	return ok
}

// fetchMissing reads from the snapshot, with every version, the rows of
// batch not yet buffered, and buffers them unmodified (muts 0).
func (t *txnTable) fetchMissing(ctx context.Context, batch []kv.RowMutation) error {
	var keys [][]byte
	probe := &bufRow{}
	for i := range batch {
		probe.key = batch[i].Key
		if !t.rows.Has(probe) {
			keys = append(keys, batch[i].Key)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	it := t.baseRead(ctx, kv.RowSet{Keys: keys}, kv.ReadOptions{MaxVersions: math.MaxInt32})
	defer it.Close()
	for it.Next() {
		row := it.Row()
		base := copyCells(row.Cells)
		t.rows.ReplaceOrInsert(&bufRow{key: bytes.Clone(row.Key), base: base, cur: base})
		t.tx.size += cellsSize(base)
	}
	if err := it.Err(); err != nil {
		return err
	}
	for _, k := range keys {
		probe.key = k
		if !t.rows.Has(probe) {
			t.rows.ReplaceOrInsert(&bufRow{key: bytes.Clone(k)})
		}
	}
	return nil
}
