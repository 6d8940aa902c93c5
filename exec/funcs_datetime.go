package exec

import (
	"math"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// Date and time functions. Timestamps are microseconds since 1970 (wall
// clock for timestamp, UTC for timestamptz, which is broken into fields
// in the session zone); the calendar is the proleptic Gregorian one of
// Go's time package, with year 0 shown as 1 BC as in PostgreSQL.

const (
	usPerSec = int64(1e6)
	usPerDay = 86400 * usPerSec
	// unixJulian is the Julian day number of 1970-01-01.
	unixJulian = 2440588
)

var datetimeFuncs = map[string]builtinFunc{
	"date_trunc":         dateTrunc,
	"date_part":          extract,
	"extract":            extract,
	"make_date":          makeDate,
	"make_timestamp":     makeTimestamp,
	"age":                age,
	"age_today":          age,
	"isfinite":           isFinite,
	"to_timestamp_epoch": toTimestampEpoch,
	"to_char":            toChar,       // funcs_tochar.go
	"to_date":            toDate,       // funcs_todate.go
	"to_timestamp":       toTimestamp,  // funcs_todate.go
	"current_date":       currentDate,  // reached through the catalog
	"clock_timestamp":    clockNowFunc, // idem
}

func currentDate(_ []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
	return types.NewDate(floorDiv(env.localNow(), usPerDay)), nil
}

func clockNowFunc([]types.Datum, *planner.Func, *evalEnv) (types.Datum, error) {
	return types.NewTimestampTZ(time.Now().UnixMicro()), nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// loc is the session zone (UTC when there is no session).
func (env *evalEnv) loc() *time.Location {
	if l := env.zone(); l != nil {
		return l
	}
	return time.UTC
}

// wallOf returns the wall-clock microseconds of a finite timestamp or
// timestamptz (in the session zone) and the zone offset in seconds.
func wallOf(d types.Datum, env *evalEnv) (wall int64, offset int) {
	if d.K != types.TimestampTZ {
		return d.I, 0
	}
	_, off := time.UnixMicro(d.I).In(env.loc()).Zone()
	return d.I + int64(off)*usPerSec, off
}

// wallToUTC reads wall-clock microseconds in loc.
func wallToUTC(wall int64, loc *time.Location) int64 {
	t := time.UnixMicro(wall).UTC()
	l := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc)
	return l.UnixMicro()
}

// civil breaks wall-clock microseconds into a UTC time.Time.
func civil(wall int64) time.Time { return time.UnixMicro(wall).UTC() }

func fromCivil(y int, m time.Month, d int) int64 {
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).UnixMicro()
}

// units maps PostgreSQL's unit spellings (datetktbl/deltatktbl) to one
// canonical name.
var units = func() map[string]string {
	m := map[string]string{}
	for canon, names := range map[string]string{
		"microseconds": "microseconds microsecond microsecon us usec usecs useconds",
		"milliseconds": "milliseconds millisecond millisecon ms msec msecs mseconds",
		"second":       "second seconds s sec secs",
		"minute":       "minute minutes m min mins",
		"hour":         "hour hours h hr hrs",
		"day":          "day days d",
		"week":         "week weeks w",
		"month":        "month months mon mons",
		"quarter":      "quarter qtr",
		"year":         "year years y yr yrs",
		"decade":       "decade decades dec decs",
		"century":      "century centuries c cent",
		"millennium":   "millennium millennia mil mils",
		"epoch":        "epoch",
		"dow":          "dow",
		"isodow":       "isodow",
		"doy":          "doy",
		"isoyear":      "isoyear",
		"julian":       "julian j",
		"timezone":     "timezone",
		"timezone_h":   "timezone_h timezone_hour",
		"timezone_m":   "timezone_m timezone_minute",
	} {
		for _, n := range strings.Fields(names) {
			m[n] = canon
		}
	}
	return m
}()

func typeName(k types.Kind) string { return types.T{Kind: k}.String() }

func unitNotRecognized(u string, k types.Kind) error {
	return pgerror.New(pgerror.CodeInvalidParameterValue, "unit %q not recognized for type %s", u, typeName(k))
}

func unitNotSupported(u string, k types.Kind) error {
	return pgerror.New(pgerror.CodeFeatureNotSupported, "unit %q not supported for type %s", u, typeName(k))
}

func dateTrunc(a []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
	raw := strings.ToLower(a[0].S)
	u, ok := units[raw]
	d := a[1]
	if d.K == types.Interval {
		return truncInterval(raw, u, ok, d)
	}
	switch u {
	case "microseconds", "milliseconds", "second", "minute", "hour", "day", "week", "month", "quarter", "year", "decade", "century", "millennium":
	default:
		if ok && u != "" && units[raw] != "" && (u == "epoch" || u == "dow" || u == "doy" || u == "isodow" || u == "isoyear" || u == "julian" || strings.HasPrefix(u, "timezone")) {
			return types.Null, unitNotSupported(raw, d.K)
		}
		return types.Null, unitNotRecognized(raw, d.K)
	}
	if d.I == types.PosInf || d.I == types.NegInf {
		return d, nil
	}
	loc := env.loc()
	if len(a) == 3 {
		l, _, err := loadTimeZone(a[2].S)
		if err != nil {
			return types.Null, pgerror.New(pgerror.CodeInvalidParameterValue, "time zone %q not recognized", a[2].S)
		}
		loc = l
	}
	wall := d.I
	if d.K == types.TimestampTZ {
		_, off := time.UnixMicro(d.I).In(loc).Zone()
		wall += int64(off) * usPerSec
	}
	t := civil(wall)
	var r int64
	switch u {
	case "microseconds":
		r = wall
	case "milliseconds":
		r = floorDiv(wall, 1000) * 1000
	case "second":
		r = floorDiv(wall, usPerSec) * usPerSec
	case "minute":
		r = floorDiv(wall, 60*usPerSec) * 60 * usPerSec
	case "hour":
		r = floorDiv(wall, 3600*usPerSec) * 3600 * usPerSec
	case "day":
		r = floorDiv(wall, usPerDay) * usPerDay
	case "week": // back to Monday
		days := floorDiv(wall, usPerDay)
		r = (days - floorMod(days+3, 7)) * usPerDay
	case "month":
		r = fromCivil(t.Year(), t.Month(), 1)
	case "quarter":
		r = fromCivil(t.Year(), time.Month((int(t.Month())-1)/3*3+1), 1)
	default:
		r = fromCivil(truncYear(t.Year(), u), 1, 1)
	}
	if d.K == types.TimestampTZ {
		if u == "microseconds" || u == "milliseconds" || u == "second" || u == "minute" {
			return types.NewTimestampTZ(d.I - (wall - r)), nil // keep the offset: no DST step inside a minute
		}
		return types.NewTimestampTZ(wallToUTC(r, loc)), nil
	}
	return types.NewTimestamp(r), nil
}

// truncYear truncates an astronomical year (0 = 1 BC) to its decade,
// century or millennium as PostgreSQL numbers them (centuries and
// millennia start at years ending in 1).
func truncYear(y int, u string) int {
	switch u {
	case "decade":
		if y > 0 {
			return y / 10 * 10
		}
		return -((8 - (y - 1)) / 10 * 10) + 2 // PostgreSQL: -((8 - (year - 1)) / 10) * 10 on BC years
	case "century":
		if y > 0 {
			return (y+99)/100*100 - 99
		}
		return -((99 - (y - 1)) / 100 * 100) + 1
	case "millennium":
		if y > 0 {
			return (y+999)/1000*1000 - 999
		}
		return -((999 - (y - 1)) / 1000 * 1000) + 1
	}
	return y
}

func truncInterval(raw, u string, ok bool, d types.Datum) (types.Datum, error) {
	months, days, us := d.Interval()
	switch u {
	case "microseconds":
	case "milliseconds":
		us = us / 1000 * 1000
	case "second":
		us = us / usPerSec * usPerSec
	case "minute":
		us = us / (60 * usPerSec) * 60 * usPerSec
	case "hour":
		us = us / (3600 * usPerSec) * 3600 * usPerSec
	case "day":
		us = 0
	case "month":
		days, us = 0, 0
	case "quarter":
		months, days, us = months/3*3, 0, 0
	case "year", "decade", "century", "millennium":
		div := map[string]int32{"year": 12, "decade": 120, "century": 1200, "millennium": 12000}[u]
		months, days, us = months/div*div, 0, 0
	case "week":
		return types.Null, pgerror.New(pgerror.CodeFeatureNotSupported, "unit %q not supported for type interval", raw).
			WithDetail("Months usually have fractional weeks.")
	default:
		if ok {
			return types.Null, unitNotSupported(raw, types.Interval)
		}
		return types.Null, unitNotRecognized(raw, types.Interval)
	}
	return types.NewInterval(months, days, us), nil
}

func isFinite(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
	d := a[0]
	return types.NewBool(d.K == types.Interval || (d.I != types.PosInf && d.I != types.NegInf)), nil
}

func makeDate(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
	y, m, d := a[0].I, a[1].I, a[2].I
	if err := checkCivil(y, m, d, "date"); err != nil {
		return types.Null, err
	}
	if y < 0 {
		y++ // 1 BC is year 0
	}
	days := floorDiv(fromCivil(int(y), time.Month(m), int(d)), usPerDay)
	return types.NewDate(days), nil
}

func checkCivil(y, m, d int64, what string) error {
	bad := y == 0 || m < 1 || m > 12 || d < 1 || d > 31
	if !bad {
		yy := y
		if yy < 0 {
			yy++
		}
		bad = time.Date(int(yy), time.Month(m), int(d), 0, 0, 0, 0, time.UTC).Day() != int(d)
	}
	if bad {
		return pgerror.New(pgerror.CodeDatetimeFieldOverflow, "date field value out of range: %d-%02d-%02d", y, m, d)
	}
	_ = what
	return nil
}

func makeTimestamp(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
	y, mo, d, h, mi, sec := a[0].I, a[1].I, a[2].I, a[3].I, a[4].I, a[5].F
	if err := checkCivil(y, mo, d, "timestamp"); err != nil {
		return types.Null, err
	}
	if h < 0 || h > 24 || mi < 0 || mi > 59 || sec < 0 || sec > 60 || math.IsNaN(sec) || (h == 24 && (mi > 0 || sec > 0)) {
		return types.Null, pgerror.New(pgerror.CodeDatetimeFieldOverflow, "time field value out of range: %d:%02d:%02g", h, mi, sec)
	}
	if y < 0 {
		y++
	}
	us := fromCivil(int(y), time.Month(mo), int(d)) + (h*3600+mi*60)*usPerSec + int64(math.Round(sec*1e6))
	return types.NewTimestamp(us), nil
}

// toTimestampEpoch is to_timestamp(float8): seconds since 1970 UTC.
func toTimestampEpoch(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
	f := a[0].F
	switch {
	case math.IsNaN(f):
		return types.Null, pgerror.New(pgerror.CodeInvalidParameterValue, "timestamp cannot be NaN")
	case math.IsInf(f, 1):
		return types.NewTimestampTZ(types.PosInf), nil
	case math.IsInf(f, -1):
		return types.NewTimestampTZ(types.NegInf), nil
	}
	us := math.Round(f * 1e6)
	if us < -210866803200e6 || us >= 9224318016000e6 {
		return types.Null, pgerror.New(pgerror.CodeDatetimeFieldOverflow, "timestamp out of range: \"%g\"", f)
	}
	return types.NewTimestampTZ(int64(us)), nil
}

// age is age(a, b) (and age(a) = age(current_date midnight, a)): the
// symbolic difference in years, months and days, then time, with the
// borrow rules of PostgreSQL's timestamp_age.
func age(a []types.Datum, e *planner.Func, env *evalEnv) (types.Datum, error) {
	x, y := types.Null, a[0]
	if len(a) == 2 {
		x, y = a[0], a[1]
	} else {
		today := floorDiv(env.localNow(), usPerDay) * usPerDay
		x = types.NewTimestamp(today)
		if y.K == types.TimestampTZ {
			x = types.NewTimestampTZ(wallToUTC(today, env.loc()))
		}
	}
	for _, d := range []types.Datum{x, y} {
		if d.I == types.PosInf || d.I == types.NegInf {
			return types.Null, pgerror.New(pgerror.CodeDatetimeFieldOverflow, "interval out of range")
		}
	}
	wx, _ := wallOf(x, env)
	wy, _ := wallOf(y, env)
	t1, t2 := civil(wx), civil(wy)
	neg := wx < wy
	if neg {
		t1, t2 = t2, t1
	}
	us := int64(t1.Hour()-t2.Hour())*3600*usPerSec + int64(t1.Minute()-t2.Minute())*60*usPerSec +
		int64(t1.Second()-t2.Second())*usPerSec + int64(t1.Nanosecond()-t2.Nanosecond())/1000
	days := t1.Day() - t2.Day()
	months := int(t1.Month()) - int(t2.Month())
	years := t1.Year() - t2.Year()
	if us < 0 {
		us += usPerDay
		days--
	}
	if days < 0 { // borrow the length of the earlier date's month
		days += time.Date(t2.Year(), t2.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day()
		months--
	}
	if months < 0 {
		months += 12
		years--
	}
	m := int32(years*12 + months)
	if neg {
		return types.NewInterval(-m, int32(-days), -us), nil
	}
	return types.NewInterval(m, int32(days), us), nil
}

// extract is extract(field FROM x) (numeric) and date_part (float8).
func extract(a []types.Datum, e *planner.Func, env *evalEnv) (types.Datum, error) {
	raw := strings.ToLower(a[0].S)
	u, ok := units[raw]
	d := a[1]
	if !ok {
		return types.Null, unitNotRecognized(raw, d.K)
	}
	var v fieldValue
	var err error
	switch d.K {
	case types.Interval:
		v, err = intervalField(raw, u, d)
	case types.Time:
		v, err = timeField(raw, u, d.I)
	case types.Date:
		if e.Name == "date_part" { // date_part(text, date) is date_part(text, date::timestamp)
			d = types.NewTimestamp(dateMicros(d))
			v, err = timestampField(raw, u, d, env)
			break
		}
		v, err = dateField(raw, u, d)
	default:
		v, err = timestampField(raw, u, d, env)
	}
	if err != nil || v.null {
		return types.Null, err
	}
	if e.Name == "date_part" {
		return types.NewFloat(v.float()), nil
	}
	return v.numeric()
}

func dateMicros(d types.Datum) int64 {
	if d.I == types.PosInf || d.I == types.NegInf {
		return d.I
	}
	return d.I * usPerDay
}

// fieldValue is an extracted field: n / 10^scale, or ±Infinity, or
// NULL; julian keeps an exact fraction of a day.
type fieldValue struct {
	n     int64
	scale int32
	inf   int // ±1
	null  bool
	frac  int64 // julian: microseconds into the day, added as frac/usPerDay
}

func (v fieldValue) float() float64 {
	if v.inf != 0 {
		return math.Inf(v.inf)
	}
	f := float64(v.n) / math.Pow10(int(v.scale))
	if v.frac != 0 {
		f += float64(v.frac) / float64(usPerDay)
	}
	return f
}

func (v fieldValue) numeric() (types.Datum, error) {
	if v.inf != 0 {
		return types.Cast(types.NewFloat(math.Inf(v.inf)), types.TNumeric)
	}
	d := types.NewNumeric(apd.New(v.n, -v.scale))
	if v.frac == 0 {
		return d, nil
	}
	f, err := types.NumericDiv(types.NewNumericInt(v.frac), types.NewNumericInt(usPerDay))
	if err != nil {
		return types.Null, err
	}
	return types.NumericAdd(d, f)
}

func ival(n int64) fieldValue { return fieldValue{n: n} }

func timeField(raw, u string, us int64) (fieldValue, error) {
	switch u {
	case "microseconds":
		return ival(us % (60 * usPerSec)), nil
	case "milliseconds":
		return fieldValue{n: us % (60 * usPerSec), scale: 3}, nil
	case "second":
		return fieldValue{n: us % (60 * usPerSec), scale: 6}, nil
	case "minute":
		return ival(us / (60 * usPerSec) % 60), nil
	case "hour":
		return ival(us / (3600 * usPerSec)), nil
	case "epoch":
		return fieldValue{n: us, scale: 6}, nil
	}
	return fieldValue{}, unitNotSupported(raw, types.Time)
}

// infiniteField is PostgreSQL 14's answer for ±infinity: ±Infinity for
// the fields that grow with time, NULL for the others.
func infiniteField(u string, sign int) fieldValue {
	switch u {
	case "epoch", "julian", "year", "isoyear", "decade", "century", "millennium":
		return fieldValue{inf: sign}
	}
	return fieldValue{null: true}
}

func dateField(raw, u string, d types.Datum) (fieldValue, error) {
	switch u {
	case "microseconds", "milliseconds", "second", "minute", "hour", "timezone", "timezone_h", "timezone_m":
		return fieldValue{}, unitNotSupported(raw, types.Date)
	}
	if d.I == types.PosInf || d.I == types.NegInf {
		return infiniteField(u, sign(d.I)), nil
	}
	if u == "epoch" {
		return ival(d.I * 86400), nil
	}
	if u == "julian" {
		return ival(d.I + unixJulian), nil
	}
	return calendarField(raw, u, d.I*usPerDay, types.Date)
}

func sign(i int64) int {
	if i < 0 {
		return -1
	}
	return 1
}

func timestampField(raw, u string, d types.Datum, env *evalEnv) (fieldValue, error) {
	if d.I == types.PosInf || d.I == types.NegInf {
		if u == "timezone" || u == "timezone_h" || u == "timezone_m" {
			if d.K != types.TimestampTZ {
				return fieldValue{}, unitNotSupported(raw, d.K)
			}
		}
		return infiniteField(u, sign(d.I)), nil
	}
	wall, off := wallOf(d, env)
	switch u {
	case "epoch":
		return fieldValue{n: d.I, scale: 6}, nil // timestamp: its wall clock read as UTC
	case "timezone", "timezone_h", "timezone_m":
		if d.K != types.TimestampTZ {
			return fieldValue{}, unitNotSupported(raw, d.K)
		}
		switch u {
		case "timezone":
			return ival(int64(off)), nil
		case "timezone_h":
			return ival(int64(off / 3600)), nil
		}
		return ival(int64(off / 60 % 60)), nil
	case "julian":
		days := floorDiv(wall, usPerDay)
		return fieldValue{n: days + unixJulian, frac: wall - days*usPerDay}, nil
	}
	return calendarField(raw, u, wall, d.K)
}

// calendarField extracts a field from wall-clock microseconds.
func calendarField(raw, u string, wall int64, k types.Kind) (fieldValue, error) {
	t := civil(wall)
	y := int64(t.Year())
	if y <= 0 {
		y-- // 1 BC is year 0 in Go
	}
	inMinute := floorMod(wall, 60*usPerSec)
	switch u {
	case "microseconds":
		return ival(inMinute), nil
	case "milliseconds":
		return fieldValue{n: inMinute, scale: 3}, nil
	case "second":
		return fieldValue{n: inMinute, scale: 6}, nil
	case "minute":
		return ival(int64(t.Minute())), nil
	case "hour":
		return ival(int64(t.Hour())), nil
	case "day":
		return ival(int64(t.Day())), nil
	case "month":
		return ival(int64(t.Month())), nil
	case "quarter":
		return ival(int64((t.Month()-1)/3 + 1)), nil
	case "year":
		return ival(y), nil
	case "week":
		_, w := t.ISOWeek()
		return ival(int64(w)), nil
	case "isoyear":
		iy, _ := t.ISOWeek()
		if iy <= 0 {
			iy--
		}
		return ival(int64(iy)), nil
	case "dow":
		return ival(int64(t.Weekday())), nil
	case "isodow":
		w := int64(t.Weekday())
		if w == 0 {
			w = 7
		}
		return ival(w), nil
	case "doy":
		return ival(int64(t.YearDay())), nil
	case "decade":
		if y > 0 {
			return ival(y / 10), nil
		}
		return ival(-((8 - (y + 1)) / 10)), nil
	case "century":
		if y > 0 {
			return ival((y + 99) / 100), nil
		}
		return ival(-((99 - (y + 1)) / 100)), nil
	case "millennium":
		if y > 0 {
			return ival((y + 999) / 1000), nil
		}
		return ival(-((999 - (y + 1)) / 1000)), nil
	}
	return fieldValue{}, unitNotSupported(raw, k)
}

func intervalField(raw, u string, d types.Datum) (fieldValue, error) {
	months, days, us := d.Interval()
	switch u {
	case "microseconds":
		return ival(us % (60 * usPerSec)), nil
	case "milliseconds":
		return fieldValue{n: us % (60 * usPerSec), scale: 3}, nil
	case "second":
		return fieldValue{n: us % (60 * usPerSec), scale: 6}, nil
	case "minute":
		return ival(us / (60 * usPerSec) % 60), nil
	case "hour":
		return ival(us / (3600 * usPerSec)), nil
	case "day":
		return ival(int64(days)), nil
	case "month":
		return ival(int64(months % 12)), nil
	case "quarter":
		return ival(int64(months%12/3 + 1)), nil
	case "year":
		return ival(int64(months / 12)), nil
	case "decade":
		return ival(int64(months / 120)), nil
	case "century":
		return ival(int64(months / 1200)), nil
	case "millennium":
		return ival(int64(months / 12000)), nil
	case "epoch":
		// years of 365.25 days, months of 30 days, as PostgreSQL.
		secs := int64(months/12)*31557600 + int64(months%12)*30*86400 + int64(days)*86400
		return fieldValue{n: secs*usPerSec + us, scale: 6}, nil
	}
	return fieldValue{}, unitNotSupported(raw, types.Interval)
}
