package types

import (
	"math"
	"time"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// Date and time arithmetic with PostgreSQL's semantics. Infinite dates and
// timestamps stay infinite under addition; subtracting them is 22008, as
// is any result outside the type's range. Timestamptz arithmetic with
// months and days steps the wall clock in a zone (nil is UTC), so adding
// '1 day' across a DST change keeps the local time.

func timestampOverflow() error {
	return pgerror.New(pgerror.CodeDatetimeFieldOverflow, "timestamp out of range")
}

func dateOverflow() error {
	return pgerror.New(pgerror.CodeDatetimeFieldOverflow, "date out of range")
}

// DateAddDays returns d + n days (date + integer, date - integer).
func DateAddDays(d Datum, n int64) (Datum, error) {
	if d.I == PosInf || d.I == NegInf {
		return d, nil
	}
	v := d.I + n
	if v < MinTimestamp/microsPerDay || v >= EndTimestamp/microsPerDay {
		return Null, dateOverflow()
	}
	return NewDate(v), nil
}

// DateDiff returns a - b in days (date - date is integer).
func DateDiff(a, b Datum) (Datum, error) {
	if a.I == PosInf || a.I == NegInf || b.I == PosInf || b.I == NegInf {
		return Null, pgerror.New(pgerror.CodeDatetimeFieldOverflow, "cannot subtract infinite dates")
	}
	return NewInt(Int4, a.I-b.I), nil
}

// DateAddTime returns date + time as a timestamp.
func DateAddTime(d, t Datum) (Datum, error) {
	v, err := DateToTimestamp(d.I)
	if err != nil || v == PosInf || v == NegInf {
		return NewTimestamp(v), err
	}
	v += t.I
	if !TimestampInRange(v) {
		return Null, timestampOverflow()
	}
	return NewTimestamp(v), nil
}

// TimestampAddInterval returns ts + iv for a timestamp or timestamptz
// (its kind is kept): months first, clamping the day to the month's end,
// then days on the wall clock (in loc for timestamptz), then the time
// part as elapsed microseconds.
func TimestampAddInterval(ts, iv Datum, loc *time.Location) (Datum, error) {
	if ts.I == PosInf || ts.I == NegInf {
		return ts, nil
	}
	months, days, micros := iv.Interval()
	v := ts.I
	if months != 0 || days != 0 {
		if ts.K != TimestampTZ {
			loc = nil
		}
		wall := v + zoneOffset(v, loc)*microsPerSecond
		day := floorDiv(wall, microsPerDay)
		tod := wall - day*microsPerDay
		if months != 0 {
			y, m, dd := civilFromDays(day)
			mm := (y*12 + m - 1) + int64(months)
			y, m = floorDiv(mm, 12), mm-floorDiv(mm, 12)*12+1
			if y < -4713 || y > 294247 {
				return Null, timestampOverflow()
			}
			if n := daysInMonth(y, m); dd > n {
				dd = n
			}
			day = daysFromCivil(y, m, dd)
		}
		day += int64(days)
		if day < MinTimestamp/microsPerDay-1 || day > EndTimestamp/microsPerDay {
			return Null, timestampOverflow()
		}
		v = wallToUTC(day*microsPerDay+tod, loc)
	}
	r, of := addOverflow(v, micros)
	if of || !TimestampInRange(r) {
		return Null, timestampOverflow()
	}
	return Datum{K: ts.K, NotNull: true, I: r}, nil
}

// TimestampDiff returns a - b as an interval of days and time, the days
// being whole 24-hour spans (PostgreSQL's justify_hours form).
func TimestampDiff(a, b Datum) (Datum, error) {
	if a.I == PosInf || a.I == NegInf || b.I == PosInf || b.I == NegInf {
		return Null, pgerror.New(pgerror.CodeDatetimeFieldOverflow, "cannot subtract infinite timestamps")
	}
	u, of := addOverflow(a.I, -b.I)
	if of {
		return Null, intervalOverflow()
	}
	days := u / microsPerDay
	u -= days * microsPerDay
	return NewInterval(0, int32(days), u), nil
}

// TimeAddInterval returns t + the time part of iv, wrapped to a day.
func TimeAddInterval(t, iv Datum) Datum {
	_, _, micros := iv.Interval()
	v := (t.I + micros%microsPerDay) % microsPerDay
	if v < 0 {
		v += microsPerDay
	}
	return NewTime(v)
}

// IntervalDiv returns iv / f as PostgreSQL's interval_div does: the
// fractional months and days spill into days and time (22012 for f = 0).
func IntervalDiv(iv Datum, f float64) (Datum, error) {
	if f == 0 {
		return Null, DivisionByZero()
	}
	m, d, u := iv.Interval()
	fm, fd := float64(m)/f, float64(d)/f
	if math.IsNaN(fm) || math.IsNaN(fd) || math.Abs(fm) > math.MaxInt32 || math.Abs(fd) > math.MaxInt32 {
		return Null, intervalOverflow()
	}
	rm, rd := int64(fm), int64(fd)
	monthRemDays := math.RoundToEven((fm-float64(rm))*30*1e6) / 1e6
	secRem := (fd - float64(rd) + monthRemDays - math.Trunc(monthRemDays)) * 86400
	secRem = math.RoundToEven(secRem*1e6) / 1e6
	if math.Abs(secRem) >= 86400 {
		rd += int64(secRem / 86400)
		secRem -= math.Trunc(secRem/86400) * 86400
	}
	rd += int64(monthRemDays)
	ru := math.RoundToEven(float64(u)/f + secRem*1e6)
	if math.IsNaN(ru) || math.Abs(ru) >= 9.2e18 || rd != int64(int32(rd)) {
		return Null, intervalOverflow()
	}
	return NewInterval(int32(rm), int32(rd), int64(ru)), nil
}
