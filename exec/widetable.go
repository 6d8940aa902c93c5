package exec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
)

// wideTable adapts a wide-layout table (see layoutTable): the operators
// above read and write tall rows, the kv table below holds one row per
// value of the leading key columns (seed 000's follower row with one
// column per followed user):
//
//	tall rowkey   P ++ L      P: key columns 0..n-2, L: the last key column
//	kv rowkey     P
//	kv qualifier  L ++ q      q: the column's uvarint id; 0x00 for the row marker
//
// Key encodings are prefix-free, so a tall key splits into P and L at one
// place, P is monotone in the tall key, the qualifiers of one SQL row are
// contiguous within each family and sorted by L, and a qualifier belongs to
// the SQL row L exactly when it starts with L.
type wideTable struct {
	inner  kv.Table
	desc   *planner.TableDesc
	pre    []planner.KeyColumn // the key columns in P
	last   planner.KeyColumn   // the key column in L
	marker string
	// byFam lists, per family, the qualifiers of its non-key columns and,
	// for the marker family, the marker: what deleting a SQL row's family
	// or row must delete.
	byFam map[string][][]byte
}

// wideColumnBudget caps len(keys) x len(columns) for which a point read
// names the exact L-prefixed qualifiers; beyond it engines would test
// every cell against a long column list, so whole kv rows are read and the
// adapter filters.
const wideColumnBudget = 256

var _ kv.Table = (*wideTable)(nil)
var _ kv.MultiReader = (*wideMultiTable)(nil)

// wideMultiTable is a wideTable over an inner table that can read several
// row sets over one snapshot.
type wideMultiTable struct {
	*wideTable
	mr kv.MultiReader
}

// newWideTable wraps t. The planner gives wide tables at least two key
// columns (checkLayout); a descriptor with fewer is read tall.
func newWideTable(desc *planner.TableDesc, t kv.Table) kv.Table {
	n := len(desc.Key)
	if n < 2 {
		return t
	}
	w := &wideTable{inner: t, desc: desc, pre: desc.Key[:n-1], last: desc.Key[n-1],
		marker: desc.MarkerFamily, byFam: map[string][][]byte{}}
	w.byFam[desc.MarkerFamily] = append(w.byFam[desc.MarkerFamily], planner.MarkerQualifier)
	for i := range desc.Columns {
		if c := &desc.Columns[i]; !c.IsKey() {
			w.byFam[c.Family] = append(w.byFam[c.Family], c.Qualifier())
		}
	}
	if mr, ok := t.(kv.MultiReader); ok {
		return &wideMultiTable{wideTable: w, mr: mr}
	}
	return w
}

// prefixLen returns the length of the P part at the front of b; ok is
// false when b does not start with a complete P encoding.
func (w *wideTable) prefixLen(b []byte) (int, bool) {
	rest := b
	for _, kc := range w.pre {
		var err error
		if _, rest, err = keyenc.DecodeKey(rest, w.desc.Columns[kc.Col].Type, kc.Desc); err != nil {
			return 0, false
		}
	}
	return len(b) - len(rest), true
}

// lastLen returns the length of the L encoding at the front of b. It runs
// once per SQL row and family on reads, so strings are measured without
// being decoded.
func (w *wideTable) lastLen(b []byte) (int, error) {
	t := w.desc.Columns[w.last.Col].Type
	switch t.Kind {
	case types.Text, types.Bytea, types.Unknown, types.BPChar:
		// The escaped bytes end at 00 01; 00 FF is a data byte (inverted
		// when DESC). Anything else is left to DecodeKey's error.
		var mask byte
		if w.last.Desc {
			mask = 0xFF
		}
		for i := 0; i+1 < len(b); i++ {
			if b[i] != mask {
				continue
			}
			if b[i+1] == mask^0x01 {
				return i + 2, nil
			}
			if b[i+1] != mask^0xFF {
				break
			}
			i++
		}
	}
	_, rest, err := keyenc.DecodeKey(b, t, w.last.Desc)
	if err != nil {
		return 0, err
	}
	return len(b) - len(rest), nil
}

// split cuts a tall rowkey into P and L; ok is false unless k is exactly
// one complete rowkey.
func (w *wideTable) split(k []byte) (p, l []byte, ok bool) {
	m, ok := w.prefixLen(k)
	if !ok {
		return nil, nil, false
	}
	n, err := w.lastLen(k[m:])
	if err != nil || m+n != len(k) {
		return nil, nil, false
	}
	return k[:m], k[m:], true
}

// kvRange returns the kv rows that can hold tall keys in [s, e). The P of
// a tall key K >= s is at least s cut to its complete P part, or s itself
// when s has none (a partial or bumped key: then no P is a prefix of s).
// Symmetrically the P of a K < e is at most e's P part, and below e when
// e has no P part or is exactly one.
func (w *wideTable) kvRange(s, e []byte) kv.KeyRange {
	var r kv.KeyRange
	if len(s) > 0 {
		r.Start = s
		if m, ok := w.prefixLen(s); ok {
			r.Start = s[:m]
		}
	}
	if e != nil {
		r.End = e
		if m, ok := w.prefixLen(e); ok && m < len(e) {
			r.End = append(e[:m:m], 0) // the successor of e's P
		}
	}
	return r
}

// wideRead is the kv read for some tall row sets.
type wideRead struct {
	sets  []kv.RowSet // kv row sets, one per tall set
	spans [][]kv.Span // tall spans per set; nil selects everything
	opts  kv.ReadOptions
	cols  map[string]map[string]bool // family -> q set to keep; nil keeps all
}

// plan translates tall row sets and options into one kv read.
func (w *wideTable) plan(sets []kv.RowSet, opts kv.ReadOptions) *wideRead {
	rd := &wideRead{sets: make([]kv.RowSet, len(sets)), spans: make([][]kv.Span, len(sets)), opts: opts}
	rd.opts.Limit, rd.opts.Columns = 0, nil
	var points [][]byte // the L of every point key, when all spans are points
	allPoints := true
	for i, rs := range sets {
		if rs.IsFull() {
			allPoints = false
			continue
		}
		rd.spans[i] = rs.Spans(make([]kv.Span, 0, 1)) // non-nil: keep only these
		for _, sp := range rd.spans[i] {
			switch {
			case sp.Point:
				p, l, ok := w.split(sp.Start)
				if !ok {
					continue // not a rowkey: matches no row
				}
				rd.sets[i].Keys = append(rd.sets[i].Keys, p)
				points = append(points, l)
			default:
				allPoints = false
				rd.sets[i].Ranges = append(rd.sets[i].Ranges, w.kvRange(sp.Start, sp.End))
			}
		}
		if rd.sets[i].IsFull() {
			rd.sets[i].Keys = [][]byte{{}} // no rowkey: the empty key selects nothing
		}
	}
	if len(opts.Columns) == 0 {
		return rd
	}
	if allPoints && len(points)*len(opts.Columns) <= wideColumnBudget {
		for _, l := range points {
			for _, c := range opts.Columns {
				q := append(append(make([]byte, 0, len(l)+len(c.Qualifier)), l...), c.Qualifier...)
				rd.opts.Columns = append(rd.opts.Columns, kv.Column{Family: c.Family, Qualifier: q})
			}
		}
		return rd
	}
	rd.cols = map[string]map[string]bool{}
	for _, c := range opts.Columns {
		if rd.cols[c.Family] == nil {
			rd.cols[c.Family] = map[string]bool{}
			if len(opts.Families) == 0 {
				rd.opts.Families = append(rd.opts.Families, c.Family)
			}
		}
		rd.cols[c.Family][string(c.Qualifier)] = true
	}
	return rd
}

func (w *wideTable) Read(ctx context.Context, rs kv.RowSet, opts kv.ReadOptions) kv.RowIterator {
	rd := w.plan([]kv.RowSet{rs}, opts)
	return w.iter(w.inner.Read(ctx, rd.sets[0], rd.opts), rd, 0, opts)
}

// ReadMulti implements kv.MultiReader over the inner table's.
func (w *wideMultiTable) ReadMulti(ctx context.Context, sets []kv.RowSet, opts kv.ReadOptions) []kv.RowIterator {
	rd := w.plan(sets, opts)
	its := w.mr.ReadMulti(ctx, rd.sets, rd.opts)
	for i := range its {
		its[i] = w.iter(its[i], rd, i, opts)
	}
	return its
}

func (w *wideTable) iter(it kv.RowIterator, rd *wideRead, i int, opts kv.ReadOptions) *wideIter {
	return &wideIter{w: w, it: it, spans: rd.spans[i], cols: rd.cols, limit: opts.Limit, reverse: opts.Reverse}
}

func (w *wideTable) AtomicBatches() bool { return w.inner.AtomicBatches() }

// Apply turns each tall row mutation into one mutation of its kv row, in
// batch order, so that preconditions see the earlier rows of the batch and
// a *kv.ConditionError's Index is the tall batch index.
func (w *wideTable) Apply(ctx context.Context, batch []kv.RowMutation) error {
	out := make([]kv.RowMutation, len(batch))
	var buf []byte // backs the L-prefixed qualifiers
	qual := func(l, q []byte) []byte {
		start := len(buf)
		buf = append(append(buf, l...), q...)
		return buf[start:len(buf):len(buf)]
	}
	for i := range batch {
		rm := &batch[i]
		p, l, ok := w.split(rm.Key)
		if !ok {
			return fmt.Errorf("wide table %q: row mutation %d: key %x is not a rowkey: %w", w.desc.Name, i, rm.Key, kv.ErrInvalidArgument)
		}
		o := kv.RowMutation{Key: p, Require: rm.Require}
		switch {
		case rm.RequireColumn != nil:
			o.RequireColumn = &kv.Column{Family: rm.RequireColumn.Family, Qualifier: qual(l, rm.RequireColumn.Qualifier)}
		case rm.Require != kv.NoPrecondition:
			o.RequireColumn = &kv.Column{Family: w.marker, Qualifier: qual(l, planner.MarkerQualifier)}
		}
		for _, m := range rm.Mutations {
			switch m.Kind {
			case kv.SetCell, kv.DeleteCells:
				m.Qualifier = qual(l, m.Qualifier)
				o.Mutations = append(o.Mutations, m)
			case kv.DeleteFamily:
				for _, q := range w.byFam[m.Family] {
					o.Mutations = append(o.Mutations, kv.Mutation{Kind: kv.DeleteCells, Family: m.Family, Qualifier: qual(l, q)})
				}
			case kv.DeleteRow:
				for _, f := range w.desc.Families {
					for _, q := range w.byFam[f.Name] {
						o.Mutations = append(o.Mutations, kv.Mutation{Kind: kv.DeleteCells, Family: f.Name, Qualifier: qual(l, q)})
					}
				}
			default:
				o.Mutations = append(o.Mutations, m) // the engine rejects it
			}
		}
		out[i] = o
	}
	err := w.inner.Apply(ctx, out)
	var ce *kv.ConditionError
	if errors.As(err, &ce) && ce.Index >= 0 && ce.Index < len(batch) {
		return &kv.ConditionError{Index: ce.Index, Key: bytes.Clone(batch[ce.Index].Key)}
	}
	return err
}

// wideIter turns kv rows into tall rows: it holds one kv row and emits its
// SQL rows one at a time, merging the row's families by L.
type wideIter struct {
	w       *wideTable
	it      kv.RowIterator
	spans   []kv.Span                  // tall spans to keep; nil keeps all
	cols    map[string]map[string]bool // see wideRead
	limit   int64
	reverse bool

	n     int64     // tall rows returned
	row   kv.Row    // the kv row being split
	segs  []wideSeg // its families' cells not yet returned
	key   []byte    // the current tall row's key
	cells []kv.Cell // and cells
	err   error
	done  bool
}

// wideSeg is the cells of one family of the kv row not yet returned:
// cells[lo:hi]. l caches the L of the next cell (cells[lo], or cells[hi-1]
// in reverse); nil when unknown.
type wideSeg struct {
	cells  []kv.Cell
	lo, hi int
	l      []byte
}

func (x *wideIter) Next() bool {
	if x.done || x.err != nil {
		return false
	}
	if x.limit > 0 && x.n >= x.limit {
		x.done = true
		return false
	}
	for {
		ok, err := x.nextGroup()
		if err != nil {
			x.err = err
			return false
		}
		if !ok {
			if !x.it.Next() {
				x.done = true
				return false
			}
			x.load(x.it.Row())
			continue
		}
		if len(x.cells) > 0 && x.selected(x.key) {
			x.n++
			return true
		}
	}
}

// load splits a kv row into its families' runs of cells.
func (x *wideIter) load(r kv.Row) {
	x.row = r
	x.segs = x.segs[:0]
	for i := 0; i < len(r.Cells); {
		j := i + 1
		for j < len(r.Cells) && r.Cells[j].Family == r.Cells[i].Family {
			j++
		}
		x.segs = append(x.segs, wideSeg{cells: r.Cells[i:j], lo: 0, hi: j - i})
		i = j
	}
}

// nextGroup gathers the cells of the next SQL row of the kv row (lowest L
// forward, highest in reverse) into x.key and x.cells; false when the kv
// row is used up.
func (x *wideIter) nextGroup() (bool, error) {
	var l []byte
	for i := range x.segs {
		s := &x.segs[i]
		if s.lo == s.hi {
			continue
		}
		if s.l == nil {
			c := &s.cells[s.lo]
			if x.reverse {
				c = &s.cells[s.hi-1]
			}
			n, err := x.w.lastLen(c.Qualifier)
			if err != nil {
				return false, fmt.Errorf("wide table %q row %x: %w", x.w.desc.Name, x.row.Key, err)
			}
			s.l = c.Qualifier[:n]
		}
		if c := bytes.Compare(s.l, l); l == nil || (c < 0 && !x.reverse) || (c > 0 && x.reverse) {
			l = s.l
		}
	}
	if l == nil {
		return false, nil
	}
	x.cells = x.cells[:0]
	for i := range x.segs {
		s := &x.segs[i]
		if s.lo == s.hi || !bytes.Equal(s.l, l) {
			continue
		}
		lo, hi := s.lo, s.hi
		if x.reverse {
			for lo = hi; lo > s.lo && bytes.HasPrefix(s.cells[lo-1].Qualifier, l); lo-- {
			}
			s.hi = lo
		} else {
			for hi = lo; hi < s.hi && bytes.HasPrefix(s.cells[hi].Qualifier, l); hi++ {
			}
			s.lo = hi
		}
		for _, c := range s.cells[lo:hi] {
			c.Qualifier = c.Qualifier[len(l):]
			if x.cols == nil || x.cols[c.Family][string(c.Qualifier)] {
				x.cells = append(x.cells, c)
			}
		}
		s.l = nil
	}
	x.key = append(append(x.key[:0], x.row.Key...), l...)
	return true, nil
}

// selected reports whether the tall key k is in the read's spans.
func (x *wideIter) selected(k []byte) bool {
	if x.spans == nil {
		return true
	}
	i := sort.Search(len(x.spans), func(i int) bool { return bytes.Compare(x.spans[i].Start, k) > 0 }) - 1
	if i < 0 {
		return false
	}
	sp := &x.spans[i]
	if sp.Point {
		return bytes.Equal(sp.Start, k)
	}
	return sp.End == nil || bytes.Compare(k, sp.End) < 0
}

func (x *wideIter) Row() kv.Row { return kv.Row{Key: x.key, Cells: x.cells} }

func (x *wideIter) Err() error {
	if x.err != nil {
		return x.err
	}
	return x.it.Err()
}

func (x *wideIter) Stats() kv.ReadStats { return x.it.Stats() }

func (x *wideIter) Close() error {
	x.row, x.segs, x.cells = kv.Row{}, nil, nil
	return x.it.Close()
}
