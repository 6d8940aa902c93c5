package spill

import (
	"container/heap"
	"io"
	"slices"

	"github.com/widesql/widesql/planner/types"
)

// MaxFanIn is the most runs merged at once; more runs merge in passes.
const MaxFanIn = 64

// Sorter sorts rows, in memory while the budget allows and by an external
// merge sort beyond it. Usage: Add every row, then Sort once, then read the
// iterator to io.EOF, then Close.
type Sorter struct {
	types  []types.T
	cmp    func(a, b []types.Datum) int
	budget *Budget
	dir    string

	rows     [][]types.Datum // the current in-memory run
	reserved int64           // bytes of rows reserved in budget
	runs     []*rowFile
	stats    Stats
}

// Stats describe what a container did, for EXPLAIN ANALYZE.
type Stats struct {
	Spilled      bool
	Runs         int   // sorted runs written (Sorter)
	Partitions   int   // partitions written (Partitions)
	RowsWritten  int64 // rows written to disk
	BytesWritten int64 // bytes written to disk
}

// NewSorter returns a sorter of rows of column types ts ordered by cmp.
// The sort is stable: rows cmp calls equal come out in the order added,
// in memory and across spilled runs alike. Spill files go to dir ("" is
// the system temporary directory).
func NewSorter(ts []types.T, cmp func(a, b []types.Datum) int, b *Budget, dir string) *Sorter {
	if b == nil {
		b = NewBudget(0)
	}
	return &Sorter{types: ts, cmp: cmp, budget: b, dir: dir}
}

// Add adds a row; the sorter keeps row (the caller must not modify it).
func (s *Sorter) Add(row []types.Datum) error {
	n := RowSize(row)
	if err := s.budget.Grow(n); err != nil {
		if len(s.rows) == 0 || !s.budget.CanSpill() {
			return err // a single row larger than the budget, or no spilling
		}
		if err := s.spillRun(); err != nil {
			return err
		}
		if err := s.budget.Grow(n); err != nil {
			return err
		}
	}
	s.reserved += n
	s.rows = append(s.rows, row)
	return nil
}

// spillRun sorts the in-memory rows and writes them as a run.
func (s *Sorter) spillRun() error {
	slices.SortStableFunc(s.rows, s.cmp)
	rf, err := newRowFile(s.dir, s.types)
	if err != nil {
		return err
	}
	s.runs = append(s.runs, rf)
	for _, r := range s.rows {
		if err := rf.add(r); err != nil {
			return err
		}
	}
	s.stats.Spilled = true
	s.stats.Runs++
	s.stats.RowsWritten += rf.rows
	s.stats.BytesWritten += rf.bytes
	clear(s.rows)
	s.rows = s.rows[:0]
	s.budget.Shrink(s.reserved)
	s.reserved = 0
	return nil
}

// Sort finishes input and returns the rows in order.
func (s *Sorter) Sort() (Iterator, error) {
	if len(s.runs) == 0 {
		slices.SortStableFunc(s.rows, s.cmp)
		return &sliceIter{rows: s.rows}, nil
	}
	if len(s.rows) > 0 {
		if err := s.spillRun(); err != nil {
			return nil, err
		}
	}
	// Merge in passes until at most MaxFanIn runs remain.
	for len(s.runs) > MaxFanIn {
		var next []*rowFile
		for i := 0; i < len(s.runs); i += MaxFanIn {
			group := s.runs[i:min(i+MaxFanIn, len(s.runs))]
			out, err := s.mergeInto(group)
			if err != nil {
				return nil, err
			}
			next = append(next, out)
		}
		s.runs = next
	}
	return s.merger(s.runs)
}

// mergeInto merges runs into one new run and removes them.
func (s *Sorter) mergeInto(runs []*rowFile) (*rowFile, error) {
	m, err := s.merger(runs)
	if err != nil {
		return nil, err
	}
	out, err := newRowFile(s.dir, s.types)
	if err != nil {
		return nil, err
	}
	for {
		row, err := m.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			out.close()
			return nil, err
		}
		if err := out.add(row); err != nil {
			out.close()
			return nil, err
		}
	}
	for _, r := range runs {
		r.close()
	}
	s.stats.RowsWritten += out.rows
	s.stats.BytesWritten += out.bytes
	return out, nil
}

func (s *Sorter) merger(runs []*rowFile) (*mergeIter, error) {
	m := &mergeIter{cmp: s.cmp, h: mergeHeap{cmp: s.cmp}}
	for i, rf := range runs {
		rr, err := rf.reader()
		if err != nil {
			return nil, err
		}
		row, err := rr.next()
		if err == io.EOF {
			continue
		}
		if err != nil {
			return nil, err
		}
		m.h.items = append(m.h.items, mergeItem{row: row, src: rr, run: i})
	}
	heap.Init(&m.h)
	return m, nil
}

// Stats returns what the sorter did so far.
func (s *Sorter) Stats() Stats { return s.stats }

// Close removes the sorter's files and releases its budget.
func (s *Sorter) Close() {
	for _, r := range s.runs {
		r.close()
	}
	s.runs = nil
	s.rows = nil
	s.budget.Shrink(s.reserved)
	s.reserved = 0
}

// Iterator returns rows until io.EOF.
type Iterator interface {
	Next() ([]types.Datum, error)
}

type sliceIter struct {
	rows [][]types.Datum
	i    int
}

func (it *sliceIter) Next() ([]types.Datum, error) {
	if it.i >= len(it.rows) {
		return nil, io.EOF
	}
	it.i++
	return it.rows[it.i-1], nil
}

// mergeIter merges sorted runs with a heap.
type mergeIter struct {
	cmp func(a, b []types.Datum) int
	h   mergeHeap
}

type mergeItem struct {
	row []types.Datum
	src *rowReader
	run int // the run's position; on ties the earlier run's row comes first
}

type mergeHeap struct {
	items []mergeItem
	cmp   func(a, b []types.Datum) int
}

func (m *mergeIter) Next() ([]types.Datum, error) {
	if len(m.h.items) == 0 {
		return nil, io.EOF
	}
	top := &m.h.items[0]
	out := top.row
	next, err := top.src.next()
	switch {
	case err == io.EOF:
		heap.Pop(&m.h)
	case err != nil:
		return nil, err
	default:
		top.row = next
		heap.Fix(&m.h, 0)
	}
	return out, nil
}

func (h mergeHeap) Len() int { return len(h.items) }
func (h mergeHeap) Less(i, j int) bool {
	if c := h.cmp(h.items[i].row, h.items[j].row); c != 0 {
		return c < 0
	}
	return h.items[i].run < h.items[j].run
}
func (h mergeHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *mergeHeap) Push(x any)   { h.items = append(h.items, x.(mergeItem)) }
func (h *mergeHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}
