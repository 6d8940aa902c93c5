package types

import (
	"math"
	"strconv"
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// Interval layout follows PostgreSQL: months, days and microseconds kept
// apart. Comparison and the key order use PostgreSQL's total with 30-day
// months and 24-hour days.

// intervalTotal returns an interval's position in PostgreSQL's order as
// (days, micros within the day): months*30 + days + whole days of micros.
func intervalTotal(d Datum) (days, rem int64) {
	months, dd, micros := d.Interval()
	q := floorDiv(micros, microsPerDay)
	return int64(months)*30 + int64(dd) + q, micros - q*microsPerDay
}

// IntervalTotal exposes intervalTotal for the key encoding: equal intervals
// ('1 mon' and '30 days') have equal totals.
func IntervalTotal(d Datum) (days, micros int64) { return intervalTotal(d) }

func compareInterval(a, b Datum) int {
	ad, ar := intervalTotal(a)
	bd, br := intervalTotal(b)
	if c := cmpInt(ad, bd); c != 0 {
		return c
	}
	return cmpInt(ar, br)
}

func intervalOverflow() error {
	return pgerror.New(pgerror.CodeDatetimeFieldOverflow, "interval out of range")
}

// IntervalAdd returns a + b field by field (22008 on overflow).
func IntervalAdd(a, b Datum) (Datum, error) {
	am, ad, au := a.Interval()
	bm, bd, bu := b.Interval()
	m, d := int64(am)+int64(bm), int64(ad)+int64(bd)
	u, of := addOverflow(au, bu)
	if of || m != int64(int32(m)) || d != int64(int32(d)) {
		return Null, intervalOverflow()
	}
	return NewInterval(int32(m), int32(d), u), nil
}

// IntervalNeg returns -a.
func IntervalNeg(a Datum) (Datum, error) {
	m, d, u := a.Interval()
	if m == math.MinInt32 || d == math.MinInt32 || u == math.MinInt64 {
		return Null, intervalOverflow()
	}
	return NewInterval(-m, -d, -u), nil
}

// IntervalMul returns a * f as PostgreSQL's interval_mul does: fractional
// months spill into days (30 per month) and fractional days into time.
func IntervalMul(a Datum, f float64) (Datum, error) {
	m, d, u := a.Interval()
	rm := float64(m) * f
	rd := float64(d) * f
	if math.IsNaN(rm) || math.IsNaN(rd) || math.Abs(rm) > math.MaxInt32 || math.Abs(rd) > math.MaxInt32 {
		return Null, intervalOverflow()
	}
	im := math.Trunc(rm)
	rd += (rm - im) * 30
	id := math.Trunc(rd)
	ru := float64(u)*f + (rd-id)*float64(microsPerDay)
	if math.IsNaN(ru) || math.Abs(ru) >= 9.2e18 || math.Abs(id) > math.MaxInt32 {
		return Null, intervalOverflow()
	}
	return NewInterval(int32(im), int32(id), int64(math.RoundToEven(ru))), nil
}

func addOverflow(a, b int64) (int64, bool) {
	s := a + b
	return s, (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0)
}

// appendInterval appends interval output in IntervalStyle postgres:
// "1 year 2 mons 3 days 04:05:06", "-1 days +02:00:00", "00:00:00".
func appendInterval(buf []byte, d Datum) []byte {
	months, days, micros := d.Interval()
	zero, before := true, false
	part := func(v int64, unit string) {
		if v == 0 {
			return
		}
		if !zero {
			buf = append(buf, ' ')
		}
		if before && v > 0 {
			buf = append(buf, '+')
		}
		buf = strconv.AppendInt(buf, v, 10)
		buf = append(buf, ' ')
		buf = append(buf, unit...)
		if v != 1 {
			buf = append(buf, 's')
		}
		before, zero = v < 0, false
	}
	part(int64(months)/12, "year")
	part(int64(months)%12, "mon")
	part(int64(days), "day")
	if zero || micros != 0 {
		if !zero {
			buf = append(buf, ' ')
		}
		if micros < 0 {
			buf = append(buf, '-')
		} else if before {
			buf = append(buf, '+')
		}
		u := uint64(micros)
		if micros < 0 {
			u = uint64(-micros)
		}
		secs := int64(u / microsPerSecond)
		buf = appendPadded(buf, secs/3600, 2)
		buf = append(buf, ':')
		buf = appendPadded(buf, secs/60%60, 2)
		buf = append(buf, ':')
		buf = appendPadded(buf, secs%60, 2)
		buf = appendFraction(buf, int64(u%microsPerSecond))
	}
	return buf
}

// intervalUnits maps unit words to (months, days, micros) per unit.
var intervalUnits = map[string][3]float64{}

func init() {
	add := func(v [3]float64, names ...string) {
		for _, n := range names {
			intervalUnits[n] = v
		}
	}
	add([3]float64{0, 0, 1}, "microsecond", "microseconds", "us", "usec", "usecs", "useconds")
	add([3]float64{0, 0, 1000}, "millisecond", "milliseconds", "ms", "msec", "msecs", "mseconds")
	add([3]float64{0, 0, 1e6}, "second", "seconds", "s", "sec", "secs")
	add([3]float64{0, 0, 60e6}, "minute", "minutes", "m", "min", "mins")
	add([3]float64{0, 0, 3600e6}, "hour", "hours", "h", "hr", "hrs")
	add([3]float64{0, 1, 0}, "day", "days", "d")
	add([3]float64{0, 7, 0}, "week", "weeks", "w")
	add([3]float64{1, 0, 0}, "month", "months", "mon", "mons")
	add([3]float64{12, 0, 0}, "year", "years", "y", "yr", "yrs")
	add([3]float64{120, 0, 0}, "decade", "decades")
	add([3]float64{1200, 0, 0}, "century", "centuries")
	add([3]float64{12000, 0, 0}, "millennium", "millennia")
}

// parseInterval parses interval input in PostgreSQL's postgres style
// ("1 year 2 mons 3 days 04:05:06", "-1 day +02:00", "1.5 hours", "@ 1 day
// ago", a bare number of seconds) and ISO 8601 ("P1Y2M3DT4H5M6S").
func parseInterval(s string) (Datum, error) {
	syntax := pgerror.New(pgerror.CodeInvalidDatetimeFormat, "invalid input syntax for type interval: %q", s)
	in := strings.ToLower(trimSpace(s))
	if strings.HasPrefix(in, "p") {
		return parseISOInterval(in, syntax)
	}
	in = strings.TrimPrefix(in, "@")
	f := strings.Fields(in)
	ago := false
	if len(f) > 0 && f[len(f)-1] == "ago" {
		ago, f = true, f[:len(f)-1]
	}
	if len(f) == 0 {
		return Null, syntax
	}
	var acc intervalAcc
	for i := 0; i < len(f); i++ {
		w := f[i]
		if strings.Contains(w, ":") {
			neg := strings.HasPrefix(w, "-")
			w = strings.TrimLeft(w, "+-")
			p := tsScanner{s: w}
			h, _, ok := p.digits(1, 10)
			if !ok {
				return Null, syntax
			}
			var m, sec, frac int64
			if !p.eat(':') {
				return Null, syntax
			}
			if m, _, ok = p.digits(1, 2); !ok {
				return Null, syntax
			}
			if p.eat(':') {
				if sec, _, ok = p.digits(1, 2); !ok {
					return Null, syntax
				}
				if p.eat('.') {
					start := p.i
					for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
						p.i++
					}
					frac = fracMicros(p.s[start:p.i])
				}
			}
			if p.i != len(w) || m > 59 || sec > 59 {
				return Null, syntax
			}
			v := ((h*60+m)*60+sec)*microsPerSecond + frac
			if neg {
				v = -v
			}
			acc.micros += float64(v)
			continue
		}
		// A number, possibly glued to its unit ("1day"), then a unit.
		j := 0
		for j < len(w) && (w[j] >= '0' && w[j] <= '9' || w[j] == '.' || w[j] == '-' || w[j] == '+') {
			j++
		}
		num, err := strconv.ParseFloat(w[:j], 64)
		if err != nil || j == 0 {
			return Null, syntax
		}
		unit := w[j:]
		if unit == "" {
			if i+1 < len(f) {
				if _, ok := intervalUnits[f[i+1]]; ok {
					unit = f[i+1]
					i++
				}
			}
		}
		if unit == "" {
			unit = "second"
		}
		u, ok := intervalUnits[unit]
		if !ok {
			return Null, syntax
		}
		acc.add(num, u)
	}
	d, err := acc.datum()
	if err != nil {
		return Null, err
	}
	if ago {
		return IntervalNeg(d)
	}
	return d, nil
}

// intervalAcc accumulates interval fields with PostgreSQL's spill rules.
type intervalAcc struct {
	months, days, micros float64
}

func (a *intervalAcc) add(n float64, u [3]float64) {
	if u[0] != 0 {
		m := n * u[0]
		whole := math.Trunc(m)
		a.months += whole
		// fractional months spill into days (30 per month), then time
		fd := (m - whole) * 30
		wd := math.Trunc(fd)
		a.days += wd
		a.micros += math.Round((fd - wd) * microsPerDay)
		return
	}
	if u[1] != 0 {
		dd := n * u[1]
		wd := math.Trunc(dd)
		a.days += wd
		a.micros += math.Round((dd - wd) * microsPerDay)
		return
	}
	a.micros += math.Round(n * u[2])
}

func (a *intervalAcc) datum() (Datum, error) {
	if math.Abs(a.months) > math.MaxInt32 || math.Abs(a.days) > math.MaxInt32 || math.Abs(a.micros) >= 9.2e18 {
		return Null, intervalOverflow()
	}
	return NewInterval(int32(a.months), int32(a.days), int64(a.micros)), nil
}

// parseISOInterval parses "P[nY][nM][nW][nD][T[nH][nM][nS]]".
func parseISOInterval(in string, syntax error) (Datum, error) {
	var acc intervalAcc
	timePart := false
	i := 1
	if i >= len(in) {
		return Null, syntax
	}
	for i < len(in) {
		if in[i] == 't' {
			timePart = true
			i++
			continue
		}
		j := i
		for j < len(in) && (in[j] >= '0' && in[j] <= '9' || in[j] == '.' || in[j] == '-' || in[j] == '+') {
			j++
		}
		if j == i || j >= len(in) {
			return Null, syntax
		}
		n, err := strconv.ParseFloat(in[i:j], 64)
		if err != nil {
			return Null, syntax
		}
		var unit string
		switch c := in[j]; {
		case c == 'y' && !timePart:
			unit = "year"
		case c == 'm' && !timePart:
			unit = "month"
		case c == 'w' && !timePart:
			unit = "week"
		case c == 'd' && !timePart:
			unit = "day"
		case c == 'h' && timePart:
			unit = "hour"
		case c == 'm' && timePart:
			unit = "minute"
		case c == 's' && timePart:
			unit = "second"
		default:
			return Null, syntax
		}
		acc.add(n, intervalUnits[unit])
		i = j + 1
	}
	return acc.datum()
}
