package planner

import (
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// Date and time operators resolve to PostgreSQL's result types:
//
//	date ± int                  date      date - date        integer
//	date ± interval             timestamp date + time        timestamp
//	timestamp[tz] ± interval    same      timestamp[tz] - same  interval
//	interval ± interval         interval  interval * / number   interval
//	time ± interval             time      time - time        interval
//
// Mixed date, timestamp and timestamptz operands are promoted to the later
// of the three (through the session zone) before comparing or subtracting.
// An unknown literal takes the other operand's type when that operator
// exists, else the one type that makes sense (interval, or float8 for a
// factor); date + unknown is ambiguous (42725), as in PostgreSQL.

func isDateTimeKind(k types.Kind) bool {
	switch k {
	case types.Date, types.Time, types.Timestamp, types.TimestampTZ, types.Interval:
		return true
	}
	return false
}

func isTimelineKind(k types.Kind) bool {
	return k == types.Date || k == types.Timestamp || k == types.TimestampTZ
}

// promoteTimeline casts the earlier of two timeline operands (date <
// timestamp < timestamptz) to the other's type.
func promoteTimeline(l, r Expr) (Expr, Expr) {
	lk, rk := l.Type().Kind, r.Type().Kind
	switch {
	case lk == rk:
	case timelineRank(lk) < timelineRank(rk):
		l = &Cast{E: l, T: r.Type()}
	default:
		r = &Cast{E: r, T: l.Type()}
	}
	return l, r
}

func timelineRank(k types.Kind) int {
	switch k {
	case types.Date:
		return 0
	case types.Timestamp:
		return 1
	}
	return 2
}

// datetimeOp types an arithmetic operator with a date/time operand; ok is
// false when neither operand is a date/time type.
func (b *builder) datetimeOp(op Op, l, r Expr) (e Expr, ok bool, err error) {
	lk, rk := l.Type().Kind, r.Type().Kind
	if !isDateTimeKind(lk) && !isDateTimeKind(rk) {
		return nil, false, nil
	}
	if lk == types.Unknown || rk == types.Unknown {
		if l, r, err = b.datetimeUnknown(op, l, r); err != nil {
			return nil, true, err
		}
		lk, rk = l.Type().Kind, r.Type().Kind
	}
	if op == OpAdd && lk == types.Time && rk == types.Time {
		return nil, true, pgerror.New("42725", "operator is not unique: %s + %s", l.Type(), r.Type())
	}
	fail := func() (Expr, bool, error) {
		return nil, true, pgerror.New(pgerror.CodeUndefinedFunction, "operator does not exist: %s %s %s", l.Type(), op, r.Type()).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	mk := func(l, r Expr, t types.T) (Expr, bool, error) {
		return &BinOp{Op: op, L: l, R: r, T: t}, true, nil
	}
	intArg := func(e Expr) Expr {
		if e.Type().Kind == types.Int2 {
			return &Cast{E: e, T: types.TInt4}
		}
		return e
	}
	floatArg := func(e Expr) Expr {
		if e.Type().Kind != types.Float8 {
			return &Cast{E: e, T: types.TFloat8}
		}
		return e
	}
	isInt := func(k types.Kind) bool { return k == types.Int2 || k == types.Int4 }
	switch op {
	case OpAdd, OpSub:
		switch {
		case lk == types.Date && isInt(rk):
			return mk(l, intArg(r), types.TDate)
		case op == OpAdd && isInt(lk) && rk == types.Date:
			return mk(r, intArg(l), types.TDate) // commuted: date + int
		case lk == types.Date && rk == types.Date && op == OpSub:
			return mk(l, r, types.TInt4)
		case op == OpAdd && (lk == types.Date && rk == types.Time || lk == types.Time && rk == types.Date):
			if lk == types.Time {
				l, r = r, l
			}
			return mk(l, r, types.TTimestamp)
		case isTimelineKind(lk) && rk == types.Interval:
			if lk == types.Date {
				l = &Cast{E: l, T: types.TTimestamp}
			}
			return mk(l, r, l.Type())
		case op == OpAdd && lk == types.Interval && isTimelineKind(rk):
			if rk == types.Date {
				r = &Cast{E: r, T: types.TTimestamp}
			}
			return mk(r, l, r.Type()) // commuted
		case op == OpSub && isTimelineKind(lk) && isTimelineKind(rk):
			l, r = promoteTimeline(l, r)
			if l.Type().Kind == types.Date {
				return mk(l, r, types.TInt4)
			}
			return mk(l, r, types.TInterval)
		case lk == types.Interval && rk == types.Interval:
			return mk(l, r, types.TInterval)
		case lk == types.Time && rk == types.Interval:
			return mk(l, r, types.TTime)
		case op == OpAdd && lk == types.Interval && rk == types.Time:
			return mk(r, l, types.TTime)
		case op == OpSub && lk == types.Time && rk == types.Time:
			return mk(l, r, types.TInterval)
		}
	case OpMul:
		switch {
		case lk == types.Interval && rk.IsNumeric():
			return mk(l, floatArg(r), types.TInterval)
		case lk.IsNumeric() && rk == types.Interval:
			return mk(r, floatArg(l), types.TInterval) // commuted
		}
	case OpDiv:
		if lk == types.Interval && rk.IsNumeric() {
			return mk(l, floatArg(r), types.TInterval)
		}
	}
	return fail()
}

// datetimeUnknown types an unknown operand next to a date/time one.
func (b *builder) datetimeUnknown(op Op, l, r Expr) (Expr, Expr, error) {
	known, unk := l.Type(), &r
	if known.Kind == types.Unknown {
		known, unk = r.Type(), &l
	}
	want := known
	switch {
	case known.Kind == types.Unknown:
		return l, r, nil
	case op == OpMul || op == OpDiv:
		want = types.TFloat8
	case known.Kind == types.Date && op == OpAdd:
		return nil, nil, pgerror.New("42725", "operator is not unique: %s %s %s", l.Type(), op, r.Type()).
			WithHint("Could not choose a best candidate operator. You might need to add explicit type casts.")
	case op == OpAdd && known.Kind != types.Interval:
		want = types.TInterval // timestamp + '1 day', time + '1 hour'
	case op == OpSub && known.Kind == types.Time && unk == &r:
		want = types.TTime
	case op == OpSub && known.Kind == types.Interval && unk == &r:
		want = types.TInterval
	}
	e, err := b.coerce(*unk, want, "")
	if err != nil {
		return nil, nil, err
	}
	*unk = e
	return l, r, nil
}
