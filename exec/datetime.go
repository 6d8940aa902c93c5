package exec

import (
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// isDateTimeArith reports whether an arithmetic operator has a date/time
// left operand; the planner (build_datetime.go) puts the date/time operand
// on the left of every commuted form.
func isDateTimeArith(l types.Datum) bool {
	switch l.K {
	case types.Date, types.Time, types.Timestamp, types.TimestampTZ, types.Interval:
		return true
	}
	return false
}

// dateTimeArith evaluates the date/time operators typed by the planner's
// datetimeOp, with timestamptz steps in the session zone.
func dateTimeArith(e *planner.BinOp, l, r types.Datum, env *evalEnv) (types.Datum, error) {
	switch {
	case l.K == types.Date && r.K.IsInt():
		n := r.I
		if e.Op == planner.OpSub {
			n = -n
		}
		return types.DateAddDays(l, n)
	case l.K == types.Date && r.K == types.Date:
		return types.DateDiff(l, r)
	case l.K == types.Date && r.K == types.Time:
		return types.DateAddTime(l, r)
	case (l.K == types.Timestamp || l.K == types.TimestampTZ) && r.K == types.Interval:
		if e.Op == planner.OpSub {
			var err error
			if r, err = types.IntervalNeg(r); err != nil {
				return r, err
			}
		}
		return types.TimestampAddInterval(l, r, env.zone())
	case (l.K == types.Timestamp || l.K == types.TimestampTZ) && r.K == l.K:
		return types.TimestampDiff(l, r)
	case l.K == types.Interval && r.K == types.Interval:
		if e.Op == planner.OpSub {
			var err error
			if r, err = types.IntervalNeg(r); err != nil {
				return r, err
			}
		}
		return types.IntervalAdd(l, r)
	case l.K == types.Interval && r.K == types.Float8:
		if e.Op == planner.OpDiv {
			return types.IntervalDiv(l, r.F)
		}
		return types.IntervalMul(l, r.F)
	case l.K == types.Time && r.K == types.Interval:
		if e.Op == planner.OpSub {
			var err error
			if r, err = types.IntervalNeg(r); err != nil {
				return r, err
			}
		}
		return types.TimeAddInterval(l, r), nil
	case l.K == types.Time && r.K == types.Time:
		return types.NewInterval(0, 0, l.I-r.I), nil
	}
	return types.Null, pgerror.New(pgerror.CodeUndefinedFunction, "operator does not exist: %s %s %s", types.T{Kind: l.K}, e.Op, types.T{Kind: r.K})
}
