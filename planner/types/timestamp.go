package types

import (
	"strconv"
	"strings"
	"time"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// Timestamp range and epochs, in microseconds since the Unix epoch.
const (
	microsPerSecond = 1000000
	microsPerDay    = 86400 * microsPerSecond
	// PGEpochMicros is 2000-01-01 00:00:00, PostgreSQL's binary epoch.
	PGEpochMicros int64 = 946684800000000
	// MinTimestamp is 4714-11-24 00:00:00 BC, PostgreSQL's smallest timestamp.
	MinTimestamp int64 = -211813488000000000 + PGEpochMicros
	// EndTimestamp is 294247-01-01 00:00:00, one past widesql's largest
	// timestamp. PostgreSQL's range ends 30 years later, at 294277-01-01,
	// which microseconds since 1970 in an int64 cannot reach.
	EndTimestamp int64 = 9223371244800000000
)

// TimestampInRange reports whether micros (since the Unix epoch) is a
// representable timestamp: MinTimestamp <= micros < EndTimestamp.
func TimestampInRange(micros int64) bool { return micros >= MinTimestamp && micros < EndTimestamp }

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// daysFromCivil returns days since 1970-01-01 of a proleptic Gregorian date
// with astronomical year numbering (year 0 is 1 BC).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays is the inverse of daysFromCivil.
func civilFromDays(z int64) (y, m, d int64) {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	if mp < 10 {
		m = mp + 3
	} else {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

func daysInMonth(y, m int64) int64 {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// appendPadded appends v (>= 0) with at least width digits.
func appendPadded(buf []byte, v int64, width int) []byte {
	for w, x := 1, v; w < width; w++ {
		x /= 10
		if x == 0 {
			buf = append(buf, '0')
		}
	}
	return strconv.AppendInt(buf, v, 10)
}

// appendTimestamp appends PostgreSQL's ISO output of micros.
func appendTimestamp(buf []byte, micros int64) []byte {
	switch micros {
	case PosInf:
		return append(buf, "infinity"...)
	case NegInf:
		return append(buf, "-infinity"...)
	}
	days := floorDiv(micros, microsPerDay)
	rem := micros - days*microsPerDay
	y, m, d := civilFromDays(days)
	bc := y <= 0
	if bc {
		y = 1 - y
	}
	buf = appendPadded(buf, y, 4)
	buf = append(buf, '-')
	buf = appendPadded(buf, m, 2)
	buf = append(buf, '-')
	buf = appendPadded(buf, d, 2)
	buf = append(buf, ' ')
	secs := rem / microsPerSecond
	buf = appendPadded(buf, secs/3600, 2)
	buf = append(buf, ':')
	buf = appendPadded(buf, secs/60%60, 2)
	buf = append(buf, ':')
	buf = appendPadded(buf, secs%60, 2)
	if frac := rem % microsPerSecond; frac != 0 {
		buf = append(buf, '.')
		n := len(buf)
		buf = appendPadded(buf, frac, 6)
		for buf[len(buf)-1] == '0' && len(buf) > n {
			buf = buf[:len(buf)-1]
		}
	}
	if bc {
		buf = append(buf, " BC"...)
	}
	return buf
}

// tsScanner is a cursor over timestamp input.
type tsScanner struct {
	s string
	i int
}

func (p *tsScanner) digits(min, max int) (int64, int, bool) {
	start := p.i
	var v int64
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' && p.i-start < max {
		v = v*10 + int64(p.s[p.i]-'0')
		p.i++
	}
	n := p.i - start
	return v, n, n >= min
}

func (p *tsScanner) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *tsScanner) spaces() bool {
	start := p.i
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
	return p.i > start
}

func tsField(s string) error {
	return pgerror.New(pgerror.CodeDatetimeFieldOverflow, "date/time field value out of range: %q", s)
}

// zoneSpec is an explicit time zone in datetime input.
type zoneSpec struct {
	set    bool
	offset int64          // seconds east of UTC, when loc is nil
	loc    *time.Location // a named zone
}

// parseTimestamp parses timestamp without time zone input; a zone in the
// input is ignored, as in PostgreSQL.
func parseTimestamp(s string) (int64, error) {
	v, _, err := parseDateTime(s, "timestamp")
	return v, err
}

// parseTimestampTZ parses timestamptz input: a wall-clock time in the
// input's zone, or in loc when the input has none, converted to UTC.
func parseTimestampTZ(s string, loc *time.Location) (int64, error) {
	v, z, err := parseDateTime(s, "timestamp with time zone")
	if err != nil || v == PosInf || v == NegInf {
		return v, err
	}
	switch {
	case z.set && z.loc == nil:
		v -= z.offset * microsPerSecond
	default:
		if z.loc != nil {
			loc = z.loc
		}
		v = wallToUTC(v, loc)
	}
	if !TimestampInRange(v) {
		return 0, pgerror.New(pgerror.CodeDatetimeFieldOverflow, "timestamp out of range: %q", s)
	}
	return v, nil
}

// wallToUTC converts wall-clock micros in loc to UTC micros.
func wallToUTC(wall int64, loc *time.Location) int64 {
	if loc == nil || loc == time.UTC {
		return wall
	}
	days := floorDiv(wall, microsPerDay)
	rem := wall - days*microsPerDay
	y, m, d := civilFromDays(days)
	secs := rem / microsPerSecond
	t := time.Date(int(y), time.Month(m), int(d), int(secs/3600), int(secs/60%60), int(secs%60), 0, loc)
	return t.Unix()*microsPerSecond + rem%microsPerSecond
}

// zoneOffset returns loc's UTC offset in seconds at the instant utc
// (micros since 1970).
func zoneOffset(utc int64, loc *time.Location) int64 {
	if loc == nil || loc == time.UTC {
		return 0
	}
	_, off := time.Unix(floorDiv(utc, microsPerSecond), 0).In(loc).Zone()
	return int64(off)
}

// appendTimestampTZ appends timestamptz output: the wall time in loc and
// its offset, "+hh", "+hh:mm" or "+hh:mm:ss".
func appendTimestampTZ(buf []byte, utc int64, loc *time.Location) []byte {
	if utc == PosInf || utc == NegInf {
		return appendTimestamp(buf, utc)
	}
	off := zoneOffset(utc, loc)
	wall := utc + off*microsPerSecond
	days := floorDiv(wall, microsPerDay)
	y, _, _ := civilFromDays(days)
	bc := y <= 0
	buf = appendTimestamp(buf, wall)
	if bc {
		buf = buf[:len(buf)-3]
	}
	buf = appendOffset(buf, off)
	if bc {
		buf = append(buf, " BC"...)
	}
	return buf
}

func appendOffset(buf []byte, off int64) []byte {
	if off < 0 {
		buf, off = append(buf, '-'), -off
	} else {
		buf = append(buf, '+')
	}
	buf = appendPadded(buf, off/3600, 2)
	if off%3600 != 0 {
		buf = append(buf, ':')
		buf = appendPadded(buf, off/60%60, 2)
		if off%60 != 0 {
			buf = append(buf, ':')
			buf = appendPadded(buf, off%60, 2)
		}
	}
	return buf
}

// parseDateTime parses PostgreSQL ISO datetime input: "YYYY-MM-DD",
// optionally followed by ' ' or 'T' and "HH:MM[:SS[.frac]]", an optional
// zone ("Z", "UTC", "+hh[:mm]", an IANA name such as "Europe/Paris"), and
// an optional "BC"/"AD"; or 'infinity', '-infinity', 'epoch'. It returns
// wall-clock microseconds since 1970 (PosInf/NegInf for the infinities)
// and the zone. Fractions beyond microseconds are rounded.
func parseDateTime(s, typ string) (int64, zoneSpec, error) {
	var z zoneSpec
	in := strings.TrimSpace(s)
	switch strings.ToLower(in) {
	case "epoch":
		return 0, z, nil
	case "infinity", "+infinity":
		return PosInf, z, nil
	case "-infinity":
		return NegInf, z, nil
	case "now", "today", "tomorrow", "yesterday", "allballs":
		return 0, z, pgerror.Unimplemented("datetime input " + strconv.Quote(in))
	}
	syntax := func() error {
		return pgerror.New(pgerror.CodeInvalidDatetimeFormat, "invalid input syntax for type %s: %q", typ, s)
	}
	p := tsScanner{s: in}
	year, _, ok1 := p.digits(1, 7)
	ok2 := p.eat('-')
	month, _, ok3 := p.digits(1, 2)
	ok4 := p.eat('-')
	day, _, ok5 := p.digits(1, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5) {
		return 0, z, syntax()
	}
	var hour, minute, sec, micros int64
	if p.i < len(p.s) && (p.s[p.i] == 'T' || p.s[p.i] == 't' || p.s[p.i] == ' ') {
		save := p.i
		if !p.eat('T') && !p.eat('t') {
			p.spaces()
		}
		var okh bool
		hour, _, okh = p.digits(1, 2)
		if okh {
			var err error
			if minute, sec, micros, err = parseClockRest(&p); err != nil {
				return 0, z, syntax()
			}
		} else {
			p.i = save
		}
	}
	bc, ok := parseTimestampTail(&p, &z)
	if !ok {
		return 0, z, syntax()
	}
	if year == 0 || month < 1 || month > 12 || day < 1 || minute > 59 || sec > 60 ||
		hour > 24 || (hour == 24 && (minute != 0 || sec != 0 || micros != 0)) {
		return 0, z, tsField(s)
	}
	if bc {
		year = 1 - year
	}
	if day > daysInMonth(year, month) {
		return 0, z, tsField(s)
	}
	days := daysFromCivil(year, month, day)
	// Check days before multiplying, which could overflow for long years.
	inDays := days >= MinTimestamp/microsPerDay-1 && days <= EndTimestamp/microsPerDay
	v := days*microsPerDay + ((hour*60+minute)*60+sec)*microsPerSecond + micros
	if !inDays || !TimestampInRange(v) {
		return 0, z, pgerror.New(pgerror.CodeDatetimeFieldOverflow, "timestamp out of range: %q", s)
	}
	return v, z, nil
}

// parseClockRest parses ":MM[:SS[.frac]]" after the hour.
func parseClockRest(p *tsScanner) (minute, sec, micros int64, err error) {
	bad := pgerror.New(pgerror.CodeInvalidDatetimeFormat, "bad time")
	var ok bool
	if !p.eat(':') {
		return 0, 0, 0, bad
	}
	if minute, _, ok = p.digits(2, 2); !ok {
		return 0, 0, 0, bad
	}
	if p.eat(':') {
		if sec, _, ok = p.digits(2, 2); !ok {
			return 0, 0, 0, bad
		}
		if p.eat('.') {
			start := p.i
			for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
				p.i++
			}
			micros = fracMicros(p.s[start:p.i])
		}
	}
	return minute, sec, micros, nil
}

// fracMicros converts the digits after a decimal point to microseconds,
// rounding half up at the seventh digit.
func fracMicros(f string) int64 {
	var v int64
	for i := 0; i < 6; i++ {
		v *= 10
		if i < len(f) {
			v += int64(f[i] - '0')
		}
	}
	if len(f) > 6 && f[6] >= '5' {
		v++
	}
	return v
}

// parseTimestampTail consumes an optional zone and era and reports whether
// the input ended cleanly.
func parseTimestampTail(p *tsScanner, z *zoneSpec) (bc bool, ok bool) {
	p.spaces()
	rest := strings.ToUpper(p.s[p.i:])
	switch {
	case strings.HasPrefix(rest, "Z"):
		p.i++
		z.set = true
	case strings.HasPrefix(rest, "UTC"), strings.HasPrefix(rest, "GMT"):
		p.i += 3
		z.set = true
	case strings.HasPrefix(rest, "+"), strings.HasPrefix(rest, "-"):
		sign := int64(1)
		if rest[0] == '-' {
			sign = -1
		}
		p.i++
		h, n, ok := p.digits(1, 4)
		if !ok {
			return false, false
		}
		var m, sec int64
		if n > 2 { // +hhmm
			h, m = h/100, h%100
		} else if p.eat(':') {
			if m, _, ok = p.digits(2, 2); !ok {
				return false, false
			}
			if p.eat(':') {
				if sec, _, ok = p.digits(2, 2); !ok {
					return false, false
				}
			}
		}
		if h > 15 || m > 59 || sec > 59 {
			return false, false
		}
		z.set, z.offset = true, sign*(h*3600+m*60+sec)
	default:
		// A named zone: a word with a slash, up to a space.
		j := p.i
		for j < len(p.s) && p.s[j] != ' ' {
			j++
		}
		if name := p.s[p.i:j]; strings.Contains(name, "/") {
			loc, err := time.LoadLocation(name)
			if err != nil {
				return false, false
			}
			z.set, z.loc = true, loc
			p.i = j
		}
	}
	p.spaces()
	rest = strings.ToUpper(p.s[p.i:])
	switch rest {
	case "":
		return false, true
	case "BC":
		return true, true
	case "AD":
		return false, true
	}
	return false, false
}
