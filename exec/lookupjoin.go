package exec

import (
	"bytes"
	"context"
	"io"
	"sort"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// lookupBatch is how many left rows one read of the right table serves.
const lookupBatch = 256

// lookupJoinOp joins each batch of left rows with the right table's rows
// whose keys the left rows give: the batch's point keys or key ranges are
// merged into one read, the rows read are indexed by their fixed key
// prefix, and each left row meets the rows of its own prefix, checked
// against the join condition.
type lookupJoinOp struct {
	x     *executor
	p     *planner.LookupJoin
	left  operator
	t     kv.Table
	k     int // key columns fixed by every span (the index prefix)
	batch []Row
	out   []Row
	vals  Row    // key values being encoded
	lkey  []byte // a left row's prefix key
	done  bool
	stats *nodeStats
}

func (x *executor) lookupJoin(p *planner.LookupJoin) (operator, error) {
	t, err := x.kvTable(p.Right.Table)
	if err != nil {
		return nil, err
	}
	left, err := x.build(p.Left)
	if err != nil {
		return nil, err
	}
	k := len(p.Right.Table.Key)
	for _, sp := range p.Right.Access.Spans {
		k = min(k, len(sp.Eq))
	}
	for _, sp := range p.Right.Access.Spans {
		for _, e := range sp.Eq[:k] {
			if _, ok := e.(*planner.ElemsOf); ok {
				k = 0 // = ANY(array) spans: match through the condition
			}
		}
	}
	o := &lookupJoinOp{x: x, p: p, left: left, t: t, k: k}
	if x.stats != nil {
		o.stats = &nodeStats{}
		x.stats[scanStatsKey{p.Right}] = o.stats
	}
	return o, nil
}

func (o *lookupJoinOp) Next(ctx context.Context) (Row, error) {
	for len(o.out) == 0 {
		if o.done {
			return nil, io.EOF
		}
		if err := o.fill(ctx); err != nil {
			return nil, err
		}
	}
	r := o.out[0]
	o.out = o.out[1:]
	return r, nil
}

// fill reads the next batch of left rows and joins it.
func (o *lookupJoinOp) fill(ctx context.Context) error {
	o.batch = o.batch[:0]
	for len(o.batch) < lookupBatch {
		r, err := o.left.Next(ctx)
		if err == io.EOF {
			o.done = true
			break
		}
		if err != nil {
			return err
		}
		o.batch = append(o.batch, append(Row(nil), r...))
	}
	if len(o.batch) == 0 {
		return nil
	}
	env := o.x.env
	scan := o.p.Right
	// One read for the whole batch.
	var rs kv.RowSet
	seenKey := map[string]bool{}
	for _, l := range o.batch {
		one, empty, err := encodeAccess(scan.Table, scan.Access, l, env)
		if err != nil {
			return err
		}
		if empty {
			continue
		}
		for _, k := range one.Keys {
			if !seenKey[string(k)] {
				seenKey[string(k)] = true
				rs.Keys = append(rs.Keys, k)
			}
		}
		rs.Ranges = append(rs.Ranges, one.Ranges...)
	}
	sort.Slice(rs.Keys, func(i, j int) bool { return bytes.Compare(rs.Keys[i], rs.Keys[j]) < 0 })
	rs.Ranges = mergeRanges(rs.Ranges)
	index := map[string][]Row{}
	if !rs.IsFull() {
		so := newScanOp(scan, o.t, rs, env)
		var key []byte
		for {
			r, err := so.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				so.Close()
				return err
			}
			key = o.prefixOf(key[:0], r)
			index[string(key)] = append(index[string(key)], append(Row(nil), r...))
		}
		if o.stats != nil {
			st := so.it.Stats()
			o.stats.read.Add(st)
		}
		so.Close()
	}
	// Each left row meets the rows of its key prefixes.
	for _, l := range o.batch {
		matched := false
		var seen map[string]bool // several spans (IN lists) may share a prefix
		if len(scan.Access.Spans) > 1 {
			seen = map[string]bool{}
		}
		for _, sp := range scan.Access.Spans {
			key, ok, err := o.leftPrefix(sp.Eq[:o.k], l)
			if err != nil {
				return err
			}
			if !ok || seen[string(key)] {
				continue
			}
			if seen != nil {
				seen[string(key)] = true
			}
			for _, r := range index[string(key)] {
				row := append(append(make(Row, 0, len(l)+len(r)), l...), r...)
				if o.p.On != nil {
					ok, err := evalBool(o.p.On, row, env)
					if err != nil {
						return err
					}
					if !ok {
						continue
					}
				}
				matched = true
				switch o.p.Kind {
				case planner.SemiJoin, planner.AntiJoin:
				default:
					o.out = append(o.out, row)
				}
				if o.p.Kind == planner.SemiJoin {
					break
				}
			}
			if matched && (o.p.Kind == planner.SemiJoin || o.p.Kind == planner.AntiJoin) {
				break
			}
		}
		switch {
		case o.p.Kind == planner.SemiJoin && matched, o.p.Kind == planner.AntiJoin && !matched:
			o.out = append(o.out, l)
		case o.p.Kind == planner.LeftJoin && !matched:
			row := append(make(Row, 0, len(l)+len(scan.Table.Columns)), l...)
			for range scan.Table.Columns {
				row = append(row, types.Null)
			}
			o.out = append(o.out, row)
		}
	}
	return nil
}

// prefixOf encodes a right row's first k key columns.
func (o *lookupJoinOp) prefixOf(buf []byte, r Row) []byte {
	o.vals = o.vals[:0]
	for j := 0; j < o.k; j++ {
		o.vals = append(o.vals, r[o.p.Right.Table.Key[j].Col])
	}
	return rowKey(buf, o.vals)
}

// leftPrefix evaluates a span's key values over the left row, as the key
// columns' types; ok is false when one is NULL (no match).
func (o *lookupJoinOp) leftPrefix(eq []planner.Expr, l Row) ([]byte, bool, error) {
	t := o.p.Right.Table
	o.vals = o.vals[:0]
	for j, e := range eq {
		d, ok, oor, _, err := keyValue(e, t.Columns[t.Key[j].Col].Type, l, o.x.env)
		if err != nil || !ok || oor != 0 {
			return nil, false, err
		}
		o.vals = append(o.vals, d)
	}
	o.lkey = rowKey(o.lkey[:0], o.vals)
	return o.lkey, true, nil
}

func (o *lookupJoinOp) Close() { o.left.Close() }

// mergeRanges sorts key ranges and merges overlapping ones, so a batch
// read returns every row once.
func mergeRanges(rs []kv.KeyRange) []kv.KeyRange {
	if len(rs) < 2 {
		return rs
	}
	sort.Slice(rs, func(i, j int) bool { return bytes.Compare(rs[i].Start, rs[j].Start) < 0 })
	out := rs[:1]
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if last.End == nil || bytes.Compare(r.Start, last.End) <= 0 {
			if last.End != nil && (r.End == nil || bytes.Compare(r.End, last.End) > 0) {
				last.End = r.End
			}
			continue
		}
		out = append(out, r)
	}
	return out
}
