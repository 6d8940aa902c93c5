package exec

import (
	"context"
	"io"
	"sort"

	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

func (x *executor) sort(p *planner.Sort, in operator) (operator, error) {
	return &sortOp{in: in, keys: p.Keys, env: x.env}, nil
}

// sortOp materializes its input and sorts it. NULLs sort last ascending
// and first descending, as in PostgreSQL.
type sortOp struct {
	in   operator
	keys []planner.SortKey
	env  *evalEnv
	rows []Row
	vals [][]types.Datum
	i    int
	done bool
}

// compareNullable orders NULLs first or last.
func compareNullable(a, b types.Datum, nullsFirst bool) int {
	switch {
	case a.IsNull() && b.IsNull():
		return 0
	case a.IsNull():
		if nullsFirst {
			return -1
		}
		return 1
	case b.IsNull():
		if nullsFirst {
			return 1
		}
		return -1
	}
	return types.Compare(a, b)
}

func (o *sortOp) Next(ctx context.Context) (Row, error) {
	if !o.done {
		o.done = true
		for {
			r, err := o.in.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			kv := make([]types.Datum, len(o.keys))
			for i, k := range o.keys {
				if kv[i], err = eval(k.Expr, r, o.env); err != nil {
					return nil, err
				}
			}
			o.rows = append(o.rows, append(Row(nil), r...))
			o.vals = append(o.vals, kv)
		}
		idx := make([]int, len(o.rows))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return o.less(o.vals[idx[a]], o.vals[idx[b]]) })
		sorted := make([]Row, len(idx))
		for i, j := range idx {
			sorted[i] = o.rows[j]
		}
		o.rows, o.vals = sorted, nil
	}
	if o.i >= len(o.rows) {
		return nil, io.EOF
	}
	o.i++
	return o.rows[o.i-1], nil
}

func (o *sortOp) less(a, b []types.Datum) bool {
	for i, k := range o.keys {
		c := compareNullable(a[i], b[i], k.NullsFirst)
		if k.Desc {
			c = -c
			if a[i].IsNull() != b[i].IsNull() {
				c = -c // NULL placement does not flip with direction
			}
		}
		if c != 0 {
			return c < 0
		}
	}
	return false
}

func (o *sortOp) Close() { o.in.Close() }
