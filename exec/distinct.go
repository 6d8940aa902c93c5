package exec

import (
	"context"
	"encoding/binary"

	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

func (x *executor) distinct(p *planner.Distinct, in operator) (operator, error) {
	return &distinctOp{in: in, on: p.On, env: x.env, seen: map[string]bool{}}, nil
}

// distinctOp keeps the first row of each set of duplicates: rows equal in
// every column, or, with on (DISTINCT ON), in the on expressions.
type distinctOp struct {
	in   operator
	on   []planner.Expr
	env  *evalEnv
	vals Row
	seen map[string]bool
	key  []byte
}

// rowKey encodes values for hashing: equal values (by SQL equality within
// a type) give equal keys.
func rowKey(buf []byte, r Row) []byte {
	for _, d := range r {
		if d.IsNull() {
			buf = append(buf, 0)
			continue
		}
		buf = append(buf, 1, byte(d.K))
		if d.K.IsInt() {
			d.K = types.Int8 // 1::int2 and 1::int8 group together
			buf[len(buf)-1] = byte(types.Int8)
		}
		n := len(buf)
		buf = types.AppendText(append(buf, 0, 0, 0, 0), d)
		binary.BigEndian.PutUint32(buf[n:], uint32(len(buf)-n-4))
	}
	return buf
}

func (o *distinctOp) Next(ctx context.Context) (Row, error) {
	for {
		r, err := o.in.Next(ctx)
		if err != nil {
			return nil, err
		}
		k := r
		if o.on != nil {
			o.vals = o.vals[:0]
			for _, e := range o.on {
				v, err := eval(e, r, o.env)
				if err != nil {
					return nil, err
				}
				o.vals = append(o.vals, v)
			}
			k = o.vals
		}
		o.key = rowKey(o.key[:0], k)
		if !o.seen[string(o.key)] {
			o.seen[string(o.key)] = true
			return r, nil
		}
	}
}

func (o *distinctOp) Close() { o.in.Close() }
