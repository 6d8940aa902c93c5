package exec

import (
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// The window functions over one partition, as PostgreSQL's
// windowfuncs.c and nodeWindowAgg.c compute them. Aggregates over a frame
// that starts at the partition's first row (the default frame, or the
// whole partition) run incrementally as the frame end advances; frames
// that end at the partition's last row run incrementally from the end;
// only frames bounded on both sides are recomputed per row, over their
// (offset-bounded) width.

// compute fills the slots of g's calls in every row of a partition; its
// rows carry g's keys after the output width.
func (g *winGroup) compute(rows []Row) error {
	g.peers(rows)
	for i := range g.calls {
		if err := g.computeCall(&g.calls[i], rows); err != nil {
			return err
		}
	}
	return nil
}

// peers fills peerStart and peerEnd: rows equal in every ORDER BY key are
// peers (with no ORDER BY, the whole partition).
func (g *winGroup) peers(rows []Row) {
	n := len(rows)
	g.peerStart, g.peerEnd = grow(g.peerStart, n), grow(g.peerEnd, n)
	from := g.op.width + len(g.partition)
	start := 0
	for i := 1; i <= n; i++ {
		if i < n && sameKeys(rows[start], rows[i], from, len(g.order)) {
			continue
		}
		for j := start; j < i; j++ {
			g.peerStart[j], g.peerEnd[j] = start, i
		}
		start = i
	}
}

func grow(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

func (g *winGroup) computeCall(c *winCall, rows []Row) error {
	n, f, env := len(rows), c.f, g.op.env
	switch f.Func {
	case planner.WinRowNumber:
		for i, r := range rows {
			r[c.slot] = types.NewInt(types.Int8, int64(i+1))
		}
	case planner.WinRank:
		for i, r := range rows {
			r[c.slot] = types.NewInt(types.Int8, int64(g.peerStart[i]+1))
		}
	case planner.WinDenseRank:
		rank := int64(0)
		for i, r := range rows {
			if g.peerStart[i] == i {
				rank++
			}
			r[c.slot] = types.NewInt(types.Int8, rank)
		}
	case planner.WinPercentRank:
		for i, r := range rows {
			v := 0.0
			if n > 1 {
				v = float64(g.peerStart[i]) / float64(n-1)
			}
			r[c.slot] = types.NewFloat(v)
		}
	case planner.WinCumeDist:
		for i, r := range rows {
			r[c.slot] = types.NewFloat(float64(g.peerEnd[i]) / float64(n))
		}
	case planner.WinNtile:
		return ntile(c, rows, env)
	case planner.WinLag, planner.WinLead:
		return lagLead(c, rows, env)
	case planner.WinFirstValue, planner.WinLastValue, planner.WinNthValue:
		return g.frameValue(c, rows)
	default:
		return g.frameAggregate(c, rows)
	}
	return nil
}

// ntile follows PostgreSQL's window_ntile: the bucket count is read on
// the first row where it is not NULL (NULL until then); the first
// total % buckets buckets get one row more.
func ntile(c *winCall, rows []Row, env *evalEnv) error {
	var tile, perBucket, boundary, remainder int64
	total := int64(len(rows))
	for _, r := range rows {
		if tile == 0 {
			v, err := eval(c.f.Args[0], r, env)
			if err != nil {
				return err
			}
			if v.IsNull() {
				r[c.slot] = types.Null
				continue
			}
			if v.I <= 0 {
				return pgerror.New("22014", "argument of ntile must be greater than zero")
			}
			tile, perBucket, boundary = 1, 0, total/v.I
			if boundary <= 0 {
				boundary = 1
			} else if remainder = total % v.I; remainder != 0 {
				boundary++
			}
		}
		perBucket++
		if boundary < perBucket {
			if remainder != 0 && tile == remainder {
				remainder = 0
				boundary--
			}
			tile++
			perBucket = 1
		}
		r[c.slot] = types.NewInt(types.Int4, tile)
	}
	return nil
}

// lagLead reads the value offset rows before (lag) or after (lead) each
// row; outside the partition it is the default, evaluated on the row. A
// NULL offset gives NULL; a negative one looks the other way.
func lagLead(c *winCall, rows []Row, env *evalEnv) error {
	f := c.f
	for i, r := range rows {
		off, err := eval(f.Args[1], r, env)
		if err != nil {
			return err
		}
		if off.IsNull() {
			r[c.slot] = types.Null
			continue
		}
		j := int64(i) - off.I
		if f.Func == planner.WinLead {
			j = int64(i) + off.I
		}
		var v types.Datum
		if j >= 0 && j < int64(len(rows)) {
			v, err = eval(f.Args[0], rows[j], env)
		} else {
			v, err = eval(f.Args[2], r, env)
		}
		if err != nil {
			return err
		}
		r[c.slot] = v
	}
	return nil
}

// frame returns row i's frame [start, end) in a partition of n rows.
func (g *winGroup) frame(c *winCall, i, n int) (start, end int) {
	fr := c.f.Spec.Frame
	rowsMode := fr.Mode == planner.FrameRows
	k0, k1 := min(c.off[0], int64(n)+1), min(c.off[1], int64(n)+1) // no overflow below
	switch fr.Start.Kind {
	case planner.UnboundedPreceding:
		start = 0
	case planner.OffsetPreceding:
		start = int(max(int64(i)-k0, 0))
	case planner.CurrentRow:
		start = i
		if !rowsMode {
			start = g.peerStart[i]
		}
	case planner.OffsetFollowing:
		start = int(min(int64(i)+k0, int64(n)))
	}
	switch fr.End.Kind {
	case planner.UnboundedFollowing:
		end = n
	case planner.OffsetPreceding:
		end = int(max(int64(i)-k1+1, 0))
	case planner.CurrentRow:
		end = i + 1
		if !rowsMode {
			end = g.peerEnd[i]
		}
	case planner.OffsetFollowing:
		end = int(min(int64(i)+k1+1, int64(n)))
	}
	return start, max(start, end)
}

// argValues evaluates expression e over every row into g.vals.
func (g *winGroup) argValues(e planner.Expr, rows []Row) ([]types.Datum, error) {
	if cap(g.vals) < len(rows) {
		g.vals = make([]types.Datum, len(rows))
	}
	vals := g.vals[:len(rows)]
	for i, r := range rows {
		v, err := eval(e, r, g.op.env)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	return vals, nil
}

// frameValue computes first_value, last_value and nth_value: the value
// at a position of each row's frame, NULL when the frame has none.
func (g *winGroup) frameValue(c *winCall, rows []Row) error {
	vals, err := g.argValues(c.f.Args[0], rows)
	if err != nil {
		return err
	}
	for i, r := range rows {
		start, end := g.frame(c, i, len(rows))
		pos := -1
		switch c.f.Func {
		case planner.WinFirstValue:
			pos = start
		case planner.WinLastValue:
			pos = end - 1
		default:
			nth, err := eval(c.f.Args[1], r, g.op.env)
			if err != nil {
				return err
			}
			if nth.IsNull() {
				break
			}
			if nth.I <= 0 {
				return pgerror.New("22016", "argument of nth_value must be greater than zero")
			}
			if int64(end-start) >= nth.I {
				pos = start + int(nth.I) - 1
			}
		}
		if pos >= start && pos < end {
			r[c.slot] = vals[pos]
		} else {
			r[c.slot] = types.Null
		}
	}
	return nil
}

// frameAggregate computes an aggregate over each row's frame.
func (g *winGroup) frameAggregate(c *winCall, rows []Row) error {
	a := c.f.Agg
	var vals []types.Datum
	if a.Arg != nil {
		var err error
		if vals, err = g.argValues(a.Arg, rows); err != nil {
			return err
		}
	}
	add := func(st *aggState, j int) error {
		if vals == nil {
			st.count++
			return nil
		}
		return accumulateWindow(a, st, vals[j])
	}
	n := len(rows)
	fr := c.f.Spec.Frame
	switch {
	case fr.Start.Kind == planner.UnboundedPreceding:
		// Frame ends never move back: add rows as they enter.
		var st aggState
		next := 0
		for i, r := range rows {
			_, end := g.frame(c, i, n)
			for ; next < end; next++ {
				if err := add(&st, next); err != nil {
					return err
				}
			}
			r[c.slot] = result(a, &st)
		}
	case fr.End.Kind == planner.UnboundedFollowing:
		// Frame starts never move back: from the last row, add rows as
		// the start moves toward the partition's first row.
		var st aggState
		next := n
		for i := n - 1; i >= 0; i-- {
			start, _ := g.frame(c, i, n)
			for next > start {
				next--
				if err := add(&st, next); err != nil {
					return err
				}
			}
			rows[i][c.slot] = result(a, &st)
		}
	default:
		for i, r := range rows {
			var st aggState
			start, end := g.frame(c, i, n)
			for j := start; j < end; j++ {
				if err := add(&st, j); err != nil {
					return err
				}
			}
			r[c.slot] = result(a, &st)
		}
	}
	return nil
}

// accumulateWindow adds one value to an aggregate (count, sum, avg, min,
// max; DISTINCT is not allowed in windows); NULLs are skipped.
func accumulateWindow(a planner.AggCall, st *aggState, v types.Datum) error {
	if v.IsNull() {
		return nil
	}
	st.count++
	switch a.Func {
	case planner.AggSum, planner.AggAvg:
		return accumulateSum(a, st, v) // exec/aggsum.go
	case planner.AggMin:
		if st.val.IsNull() || types.Compare(v, st.val) < 0 {
			st.val = v
		}
	case planner.AggMax:
		if st.val.IsNull() || types.Compare(v, st.val) > 0 {
			st.val = v
		}
	}
	return nil
}
