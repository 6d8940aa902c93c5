package exec

import (
	"context"
	"io"

	"github.com/widesql/widesql/exec/spill"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

func (x *executor) distinct(p *planner.Distinct, in operator) (operator, error) {
	return newDistinct(in, colTypes(p.Input.Columns()), p.On, x), nil
}

func colTypes(cols []planner.ResultColumn) []types.T {
	ts := make([]types.T, len(cols))
	for i, c := range cols {
		ts[i] = c.T
	}
	return ts
}

// partitionFanOut is how many files a hash table over its budget splits
// the rows it cannot hold into.
const partitionFanOut = 16

// keyEntryOverhead approximates a hash table entry's memory besides its key.
const keyEntryOverhead = 64

// distinctOp keeps the first row of each set of duplicates: rows equal in
// every column, or, with on (DISTINCT ON), in the on expressions.
//
// It streams: a row is returned as soon as its key is new. The keys seen
// are held in memory within work_mem; past it, rows whose key has not been
// seen are written to hash partitions instead (a key is then either in
// memory or, with all its rows, in one partition), and each partition is
// deduplicated in turn once the input ends, recursively. The first row of
// a key in a partition is its first in input order, since partitions keep
// the order rows were added. With on, the rows kept from partitions are
// also put back in input order (by a sequence number and a sort), so that
// DISTINCT ON over sorted input stays sorted.
type distinctOp struct {
	in      operator
	on      []planner.Expr
	env     *evalEnv
	types   []types.T // of input rows
	ordered bool      // restore input order after spilling (DISTINCT ON)
	budget  *spill.Budget
	dir     string

	src       rowSource // where rows come from now: the input or a partition
	fromInput bool      // src is the input
	seq       int64     // input position of the next input row
	table     *keySet
	pending   []*spill.Partitions // spilled partitions still to deduplicate
	pendIdx   int                 // next partition of pending[0]
	kept      *spill.Partitions   // with ordered: rows kept from partitions
	sorter    *spill.Sorter       // with ordered: sorts kept by sequence
	out       spill.Iterator      // the sorter's output
	stats     spill.Stats
	vals, row Row
	key       []byte
}

func newDistinct(in operator, ts []types.T, on []planner.Expr, x *executor) *distinctOp {
	o := &distinctOp{in: in, on: on, env: x.env, types: ts, ordered: on != nil,
		budget: x.newBudget(), dir: x.tempDir()}
	o.src, o.fromInput = operatorSource{in}, true
	o.table = newKeySet(o.budget)
	return o
}

// rowSource is a stream of rows ending with io.EOF.
type rowSource interface {
	next(ctx context.Context) (Row, error)
}

type operatorSource struct{ op operator }

func (s operatorSource) next(ctx context.Context) (Row, error) { return s.op.Next(ctx) }

type iterSource struct{ it spill.Iterator }

func (s iterSource) next(context.Context) (Row, error) { return s.it.Next() }

// partTypes are the column types of spilled rows: the input row and, when
// ordered, its sequence number.
func (o *distinctOp) partTypes() []types.T {
	if o.ordered {
		return append(append([]types.T(nil), o.types...), types.TInt8)
	}
	return o.types
}

func (o *distinctOp) Next(ctx context.Context) (Row, error) {
	for o.out == nil {
		if o.src == nil {
			return nil, io.EOF
		}
		r, err := o.src.next(ctx)
		if err == io.EOF {
			if !o.nextSource() {
				o.src = nil
				if err := o.finish(); err != nil {
					return nil, err
				}
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		if o.fromInput && o.ordered {
			// Spilled rows carry their input position.
			o.row = append(append(o.row[:0], r...), types.NewInt(types.Int8, o.seq))
			o.seq++
			r = o.row
		}
		keep, err := o.offer(r)
		switch {
		case err != nil:
			return nil, err
		case !keep:
		case o.fromInput || !o.ordered:
			return r[:len(o.types)], nil
		default:
			if o.kept == nil {
				o.kept = spill.NewPartitions(1, o.partTypes(), o.dir)
			}
			if err := o.kept.Add(0, r); err != nil {
				return nil, err
			}
		}
	}
	r, err := o.out.Next()
	if err != nil {
		return nil, err
	}
	return r[:len(o.types)], nil
}

// offer records r's key and reports whether r is the first of its key. A
// row whose new key does not fit goes to a partition and is not kept (yet).
func (o *distinctOp) offer(r Row) (bool, error) {
	k := r[:len(o.types)]
	if o.on != nil {
		o.vals = o.vals[:0]
		for _, e := range o.on {
			v, err := eval(e, k, o.env)
			if err != nil {
				return false, err
			}
			o.vals = append(o.vals, v)
		}
		k = o.vals
	}
	o.key = rowKey(o.key[:0], k)
	return o.table.offer(o.key, r, o.partTypes, o.dir)
}

// nextSource moves to the next spilled partition, if any, with an empty
// key set. It reports false when none is left.
func (o *distinctOp) nextSource() bool {
	if p := o.table.release(); p != nil {
		o.pending = append(o.pending, p)
		o.addStats(p.Stats())
	}
	o.fromInput = false
	for len(o.pending) > 0 {
		p := o.pending[0]
		if o.pendIdx >= p.Len() {
			p.Close()
			o.pending, o.pendIdx = o.pending[1:], 0
			continue
		}
		i := o.pendIdx
		o.pendIdx++
		if p.Rows(i) == 0 {
			continue
		}
		it, err := p.Read(i)
		if err != nil {
			o.src = errSource{err}
		} else {
			o.src = iterSource{it}
		}
		return true
	}
	return false
}

// finish ends the input: with ordered, it sorts the rows kept from
// partitions back into input order and sets out.
func (o *distinctOp) finish() error {
	if o.kept == nil {
		return nil
	}
	o.addStats(o.kept.Stats())
	seqCol := len(o.types)
	o.sorter = spill.NewSorter(o.partTypes(), func(a, b []types.Datum) int {
		return types.Compare(a[seqCol], b[seqCol])
	}, o.budget, o.dir)
	it, err := o.kept.Read(0)
	if err != nil {
		return err
	}
	for {
		r, err := it.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := o.sorter.Add(r); err != nil {
			return err
		}
	}
	o.kept.Close()
	o.kept = nil
	o.out, err = o.sorter.Sort()
	return err
}

func (o *distinctOp) addStats(st spill.Stats) {
	o.stats.Spilled = o.stats.Spilled || st.Spilled
	o.stats.Runs += st.Runs
	o.stats.Partitions += st.Partitions
	o.stats.RowsWritten += st.RowsWritten
	o.stats.BytesWritten += st.BytesWritten
}

func (o *distinctOp) spillStats() (spill.Stats, int64) {
	st := o.stats
	if o.sorter != nil {
		s := o.sorter.Stats()
		st.Spilled = st.Spilled || s.Spilled
		st.Runs += s.Runs
		st.RowsWritten += s.RowsWritten
		st.BytesWritten += s.BytesWritten
	}
	return st, o.budget.Peak()
}

func (o *distinctOp) Close() {
	if p := o.table.release(); p != nil {
		p.Close()
	}
	for _, p := range o.pending {
		p.Close()
	}
	o.pending = nil
	if o.kept != nil {
		o.kept.Close()
	}
	if o.sorter != nil {
		o.sorter.Close()
	}
	o.in.Close()
}

type errSource struct{ err error }

func (s errSource) next(context.Context) (Row, error) { return nil, s.err }

// keySet is the in-memory set of keys of a hash operator, reserved in a
// budget, with the partitions that take the rows it has no room for.
type keySet struct {
	budget *spill.Budget
	keys   map[string]struct{}
	used   int64
	full   bool // over the budget: no key is added any more
	parts  *spill.Partitions
	hasher spill.Hasher
}

func newKeySet(b *spill.Budget) *keySet {
	return &keySet{budget: b, keys: map[string]struct{}{}}
}

func (s *keySet) has(key []byte) bool {
	_, ok := s.keys[string(key)]
	return ok
}

// add adds key if it is new and fits: it reports whether it was added.
// Once a key does not fit, the set is full; a key that does not fit an
// empty set, or any key with spilling off, is the budget's 53200 error.
func (s *keySet) add(key []byte) (bool, error) {
	if s.has(key) || s.full {
		return false, nil
	}
	n := int64(len(key)) + keyEntryOverhead
	if err := s.budget.Grow(n); err != nil {
		if len(s.keys) == 0 || !s.budget.CanSpill() {
			return false, err
		}
		s.full = true
		return false, nil
	}
	s.used += n
	s.keys[string(key)] = struct{}{}
	return true, nil
}

// offer adds key, reporting true, or when the set is full and key is not
// in it, writes row to key's partition (created with partTypes in dir),
// reporting false. A key already in the set reports false.
func (s *keySet) offer(key []byte, row Row, partTypes func() []types.T, dir string) (bool, error) {
	added, err := s.add(key)
	if err != nil || added || !s.full || s.has(key) {
		return added, err
	}
	if s.parts == nil {
		s.parts = spill.NewPartitions(partitionFanOut, partTypes(), dir)
		s.hasher = spill.NewHasher()
	}
	return false, s.parts.Add(s.hasher.Partition(key, partitionFanOut), row)
}

// release empties the set, returning its budget, and hands over its
// partitions (nil if it never spilled).
func (s *keySet) release() *spill.Partitions {
	s.budget.Shrink(s.used)
	s.used, s.full = 0, false
	clear(s.keys)
	p := s.parts
	s.parts = nil
	return p
}

var _ spiller = (*distinctOp)(nil)

// rowKey encodes values for hashing: equal values (by SQL equality within
// a column, NULLs equal) give equal keys. See spill.AppendKey.
func rowKey(buf []byte, r Row) []byte { return spill.AppendKey(buf, r) }
