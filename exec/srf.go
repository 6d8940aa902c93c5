package exec

import (
	"context"
	"strconv"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// projectSetOp runs planner.ProjectSet: for each input row it starts one
// generator per call and emits rows while any still produces one (the
// others giving NULLs), then moves to the next input row.
type projectSetOp struct {
	in   operator
	p    *planner.ProjectSet
	env  *evalEnv
	cur  Row // the input row, copied: the input may reuse its row
	gens []srfGen
	done []bool
	ord  int64
	out  Row
}

// srfGen produces the rows of one call: next fills dst (one Datum per
// column of the call) and reports false when the set is exhausted.
type srfGen interface {
	next(dst []types.Datum) (bool, error)
}

func (x *executor) projectSet(p *planner.ProjectSet) (operator, error) {
	in, err := x.build(p.Input)
	if err != nil {
		return nil, err
	}
	return &projectSetOp{in: in, p: p, env: x.env, out: make(Row, len(p.Cols))}, nil
}

func (o *projectSetOp) Next(ctx context.Context) (Row, error) {
	for {
		if o.gens == nil {
			row, err := o.in.Next(ctx)
			if err != nil {
				return nil, err
			}
			o.cur = append(o.cur[:0], row...)
			o.gens, o.done, o.ord = make([]srfGen, len(o.p.SRFs)), make([]bool, len(o.p.SRFs)), 0
			for i := range o.p.SRFs {
				if o.gens[i], err = o.start(&o.p.SRFs[i]); err != nil {
					return nil, err
				}
			}
		}
		copy(o.out, o.cur)
		pos, live := len(o.cur), false
		for i, g := range o.gens {
			dst := o.out[pos : pos+len(o.p.SRFs[i].Cols)]
			pos += len(dst)
			if !o.done[i] {
				ok, err := g.next(dst)
				if err != nil {
					return nil, err
				}
				o.done[i] = !ok
				live = live || ok
			}
			if o.done[i] {
				clear(dst)
			}
		}
		if !live {
			o.gens = nil
			continue
		}
		o.ord++
		if o.p.Ordinality {
			o.out[pos] = types.NewInt(types.Int8, o.ord)
		}
		return o.out, nil
	}
}

func (o *projectSetOp) Close() { o.in.Close() }

// start evaluates a call's arguments over the current input row and
// returns its generator. Set-returning functions are strict: a NULL
// argument gives no rows.
func (o *projectSetOp) start(c *planner.SRFCall) (srfGen, error) {
	f := c.Func
	if c.Scalar() {
		var d types.Datum
		var err error
		if f.Name == "pg_identity" {
			d, err = eval(f.Args[0], o.cur, o.env)
		} else {
			d, err = eval(f, o.cur, o.env)
		}
		return &rowsGen{rows: [][]types.Datum{{d}}}, err
	}
	args := make([]types.Datum, len(f.Args))
	for i, a := range f.Args {
		d, err := eval(a, o.cur, o.env)
		if err != nil {
			return nil, err
		}
		if d.IsNull() {
			return &rowsGen{}, nil
		}
		args[i] = d
	}
	switch f.Name {
	case planner.SRFPrefix + "generate_series":
		return newSeries(f.T, args, o.env)
	case planner.SRFPrefix + "unnest":
		return &elemsGen{d: args[0]}, nil
	case planner.SRFPrefix + "_pg_expandarray":
		return &elemsGen{d: args[0], index: true, record: len(c.Cols) == 3, env: o.env}, nil
	case planner.SRFPrefix + "generate_subscripts":
		n := len(args[0].ArrayValue().Elems)
		if args[1].I != 1 || n == 0 {
			return &rowsGen{}, nil
		}
		lb := int64(types.ArrayLowerBound(args[0]))
		g := &intSeries{kind: types.Int4, cur: lb, stop: lb + int64(n) - 1, step: 1}
		if len(args) > 2 && args[2].Bool() {
			g.cur, g.stop, g.step = g.stop, g.cur, -1
		}
		return g, nil
	case planner.SRFPrefix + "pg_partition_ancestors":
		return &rowsGen{}, nil // widesql has no partitions: no relation is a partition
	}
	return nil, pgerror.New(pgerror.CodeInternalError, "unknown set-returning function %s", f.Name)
}

// rowsGen returns fixed rows.
type rowsGen struct {
	rows [][]types.Datum
	i    int
}

func (g *rowsGen) next(dst []types.Datum) (bool, error) {
	if g.i >= len(g.rows) {
		return false, nil
	}
	copy(dst, g.rows[g.i])
	g.i++
	return true, nil
}

// elemsGen returns an array's elements (unnest), with their 1-based
// position for _pg_expandarray's (x, n), and the record "(x,n)" before
// them when the call is in a select list.
type elemsGen struct {
	d             types.Datum
	i             int
	index, record bool
	env           *evalEnv
}

func (g *elemsGen) next(dst []types.Datum) (bool, error) {
	elems := g.d.ArrayValue().Elems
	if g.i >= len(elems) {
		return false, nil
	}
	x, n := elems[g.i], int64(g.i+1)
	g.i++
	switch {
	case g.record:
		b := []byte{'('}
		if !x.IsNull() {
			b = types.AppendTextIn(b, x, g.env.loc())
		}
		b = append(strconv.AppendInt(append(b, ','), n, 10), ')')
		dst[0], dst[1], dst[2] = types.NewText(string(b)), x, types.NewInt(types.Int4, n)
	case g.index:
		dst[0], dst[1] = x, types.NewInt(types.Int4, n)
	default:
		dst[0] = x
	}
	return true, nil
}

func stepZero() error {
	return pgerror.New(pgerror.CodeInvalidParameterValue, "step size cannot equal zero")
}

// newSeries returns generate_series's generator for result type t.
func newSeries(t types.T, args []types.Datum, env *evalEnv) (srfGen, error) {
	switch t.Kind {
	case types.Int4, types.Int8:
		g := &intSeries{kind: t.Kind, cur: args[0].I, stop: args[1].I, step: 1}
		if len(args) > 2 {
			g.step = args[2].I
		}
		if g.step == 0 {
			return nil, stepZero()
		}
		return g, nil
	case types.Numeric:
		step := types.NewNumericInt(1)
		if len(args) > 2 {
			step = args[2]
		}
		sign := types.Compare(step, types.NewNumericInt(0))
		if sign == 0 {
			return nil, stepZero()
		}
		return &numSeries{cur: args[0], stop: args[1], step: step, sign: sign}, nil
	}
	months, days, micros := args[2].Interval()
	sign := 0
	switch span := (int64(months)*30+int64(days))*86400e6 + micros; {
	case span > 0:
		sign = 1
	case span < 0:
		sign = -1
	default:
		return nil, stepZero()
	}
	return &timeSeries{cur: args[0], stop: args[1], step: args[2], sign: sign, env: env}, nil
}

// intSeries counts from cur to stop by step; it stops rather than
// overflow past the type's range.
type intSeries struct {
	kind            types.Kind
	cur, stop, step int64
	over            bool
}

func (g *intSeries) next(dst []types.Datum) (bool, error) {
	if g.over || g.step > 0 && g.cur > g.stop || g.step < 0 && g.cur < g.stop {
		return false, nil
	}
	dst[0] = types.NewInt(g.kind, g.cur)
	n := g.cur + g.step
	g.over = (g.step > 0) != (n > g.cur) || g.kind == types.Int4 && (n > 1<<31-1 || n < -1<<31)
	g.cur = n
	return true, nil
}

type numSeries struct {
	cur, stop, step types.Datum
	sign            int
}

func (g *numSeries) next(dst []types.Datum) (bool, error) {
	if c := types.Compare(g.cur, g.stop); c*g.sign > 0 {
		return false, nil
	}
	dst[0] = g.cur
	var err error
	g.cur, err = types.NumericAdd(g.cur, g.step)
	return true, err
}

type timeSeries struct {
	cur, stop, step types.Datum
	sign            int
	env             *evalEnv
}

func (g *timeSeries) next(dst []types.Datum) (bool, error) {
	if c := types.Compare(g.cur, g.stop); c*g.sign > 0 {
		return false, nil
	}
	dst[0] = g.cur
	var err error
	g.cur, err = types.TimestampAddInterval(g.cur, g.step, g.env.loc())
	return true, err
}
