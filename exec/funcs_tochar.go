package exec

import (
	"strconv"
	"strings"
	"time"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// to_char: PostgreSQL's formatting.c template patterns, for timestamps,
// timestamptz (in the session zone), intervals and numbers. Text in
// double quotes is copied; FM suppresses padding; TH/th appends an
// ordinal suffix. Patterns widesql lacks (RM, Roman numerals, EEEE, V, L,
// PR) are 0A000 rather than silently wrong.

// dtPatterns are the date/time patterns, longest first where one is a
// prefix of another; matching is case-sensitive except where both cases
// are listed.
var dtPatterns = []string{
	"HH24", "HH12", "HH", "MI", "SSSSS", "SSSS", "SS", "MS", "US", "FF1", "FF2", "FF3", "FF4", "FF5", "FF6",
	"AM", "PM", "A.M.", "P.M.", "am", "pm", "a.m.", "p.m.",
	"Y,YYY", "YYYY", "YYY", "YY", "Y", "IYYY", "IYY", "IY", "I",
	"BC", "AD", "B.C.", "A.D.", "bc", "ad", "b.c.", "a.d.",
	"MONTH", "Month", "month", "MON", "Mon", "mon", "MM",
	"DAY", "Day", "day", "DY", "Dy", "dy", "DDD", "DD", "D", "IDDD", "ID",
	"WW", "IW", "W", "CC", "J", "Q", "TZH", "TZM", "TZ", "tz", "OF",
}

// dtCaseless are the patterns also accepted in lower case.
var dtCaseless = map[string]bool{}

func init() {
	for _, p := range dtPatterns {
		if l := strings.ToLower(p); l != p && !containsStr(dtPatterns, l) {
			dtCaseless[l] = true
		}
	}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// matchPattern returns the date/time pattern at the start of f, or "":
// the longest exact match, else the longest case-insensitive one.
func matchPattern(f string) string {
	best := ""
	for _, p := range dtPatterns {
		if len(p) > len(best) && strings.HasPrefix(f, p) {
			best = p
		}
	}
	if best != "" {
		return best
	}
	lf := strings.ToLower(f)
	for p := range dtCaseless {
		if len(p) > len(best) && strings.HasPrefix(lf, p) {
			best = f[:len(p)]
		}
	}
	return best
}

func toChar(a []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
	switch d := a[0]; d.K {
	case types.Timestamp, types.TimestampTZ:
		if d.I == types.PosInf || d.I == types.NegInf {
			return types.Null, nil
		}
		wall, off := wallOf(d, env)
		f := dtFields{t: civil(wall), wall: wall, tz: d.K == types.TimestampTZ, off: off}
		if f.tz {
			f.zone, _ = time.UnixMicro(d.I).In(env.loc()).Zone()
		}
		return formatDateTime(a[1].S, f)
	case types.Interval:
		months, days, us := d.Interval()
		f := dtFields{interval: true, months: months, days: days, us: us}
		return formatDateTime(a[1].S, f)
	}
	return formatNumber(a[0], a[1].S)
}

// dtFields is what a date/time template reads.
type dtFields struct {
	t        time.Time
	wall     int64
	tz       bool
	zone     string
	off      int
	interval bool
	months   int32
	days     int32
	us       int64
}

func formatDateTime(format string, f dtFields) (types.Datum, error) {
	var b strings.Builder
	for i := 0; i < len(format); {
		c := format[i]
		if c == '"' {
			j := i + 1
			for j < len(format) && format[j] != '"' {
				if format[j] == '\\' && j+1 < len(format) {
					j++
				}
				b.WriteByte(format[j])
				j++
			}
			i = j + 1
			continue
		}
		if c == '\\' && i+1 < len(format) && format[i+1] == '"' {
			b.WriteByte('"')
			i += 2
			continue
		}
		fm := false
		rest := format[i:]
		for {
			switch {
			case strings.HasPrefix(rest, "FM") || strings.HasPrefix(rest, "fm"):
				fm, rest, i = true, rest[2:], i+2
				continue
			case strings.HasPrefix(rest, "TM") || strings.HasPrefix(rest, "tm"):
				rest, i = rest[2:], i+2
				continue
			case strings.HasPrefix(rest, "FX") || strings.HasPrefix(rest, "fx"):
				rest, i = rest[2:], i+2
				continue
			}
			break
		}
		p := matchPattern(rest)
		if p == "" {
			if strings.HasPrefix(rest, "RM") || strings.HasPrefix(rest, "rm") {
				return types.Null, pgerror.Unimplemented("to_char pattern RM")
			}
			if rest == "" {
				break
			}
			b.WriteByte(rest[0])
			i++
			continue
		}
		i += len(p)
		s, n := f.field(p, fm)
		b.WriteString(s)
		if n >= 0 {
			if strings.HasPrefix(format[i:], "TH") {
				b.WriteString(strings.ToUpper(ordinal(n)))
				i += 2
			} else if strings.HasPrefix(format[i:], "th") {
				b.WriteString(ordinal(n))
				i += 2
			}
		}
	}
	return types.NewText(b.String()), nil
}

func ordinal(n int64) string {
	if n < 0 {
		n = -n
	}
	if n%100 >= 11 && n%100 <= 13 {
		return "th"
	}
	switch n % 10 {
	case 1:
		return "st"
	case 2:
		return "nd"
	case 3:
		return "rd"
	}
	return "th"
}

// padNum formats n zero-padded to width (no padding in fill mode).
func padNum(n int64, width int, fm bool) string {
	s := strconv.FormatInt(abs64(n), 10)
	if !fm && len(s) < width {
		s = strings.Repeat("0", width-len(s)) + s
	}
	if n < 0 {
		s = "-" + s
	}
	return s
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// name formats a month or day name in the pattern's case, padded to 9
// characters unless in fill mode (or abbreviated).
func name(s, p string, fm bool, width int) string {
	switch {
	case p == strings.ToUpper(p):
		s = strings.ToUpper(s)
	case p == strings.ToLower(p):
		s = strings.ToLower(s)
	}
	if width > 0 {
		s = s[:width]
	} else if !fm && len(s) < 9 {
		s += strings.Repeat(" ", 9-len(s))
	}
	return s
}

// field renders one pattern; n is its numeric value for TH (-1: none).
func (f dtFields) field(p string, fm bool) (string, int64) {
	t := f.t
	year := int64(t.Year())
	hour, minute, sec, usec := int64(t.Hour()), int64(t.Minute()), int64(t.Second()), int64(t.Nanosecond()/1000)
	month, day := int64(t.Month()), int64(t.Day())
	if f.interval {
		year, month, day = int64(f.months/12), int64(f.months%12), int64(f.days)
		hour = f.us / (3600 * usPerSec)
		minute, sec, usec = f.us/(60*usPerSec)%60, f.us/usPerSec%60, f.us%usPerSec
	}
	bc := year <= 0 && !f.interval
	yearOut := year
	if bc {
		yearOut = 1 - year
	}
	switch strings.ToUpper(p) {
	case "HH24":
		return padNum(hour, 2, fm), hour
	case "HH12", "HH":
		h := hour % 12
		if h == 0 {
			h = 12
		}
		return padNum(h, 2, fm), h
	case "MI":
		return padNum(minute, 2, fm), minute
	case "SS":
		return padNum(sec, 2, fm), sec
	case "SSSS", "SSSSS":
		v := hour*3600 + minute*60 + sec
		return padNum(v, 1, fm), v
	case "MS", "FF3":
		return padNum(usec/1000, 3, fm), usec / 1000
	case "US", "FF6":
		return padNum(usec, 6, fm), usec
	case "FF1", "FF2", "FF4", "FF5":
		n := int(p[2] - '0')
		v := usec
		for k := n; k < 6; k++ {
			v /= 10
		}
		return padNum(v, n, fm), v
	case "AM", "PM", "A.M.", "P.M.":
		s := "AM"
		if hour%24 >= 12 {
			s = "PM"
		}
		if strings.Contains(p, ".") {
			s = s[:1] + "." + s[1:] + "."
		}
		if p[0] >= 'a' {
			s = strings.ToLower(s)
		}
		return s, -1
	case "BC", "AD", "B.C.", "A.D.":
		s := "AD"
		if bc {
			s = "BC"
		}
		if strings.Contains(p, ".") {
			s = s[:1] + "." + s[1:] + "."
		}
		if p[0] >= 'a' {
			s = strings.ToLower(s)
		}
		return s, -1
	case "Y,YYY":
		return strconv.FormatInt(yearOut/1000, 10) + "," + padNum(yearOut%1000, 3, false), yearOut
	case "YYYY", "IYYY":
		y := yearOut
		if strings.ToUpper(p) == "IYYY" {
			iy, _ := t.ISOWeek()
			y = int64(iy)
		}
		return padNum(y, 4, fm), y
	case "YYY", "IYY":
		return padNum(yearOut%1000, 3, fm), yearOut % 1000
	case "YY", "IY":
		return padNum(yearOut%100, 2, fm), yearOut % 100
	case "Y", "I":
		return padNum(yearOut%10, 1, fm), yearOut % 10
	case "MONTH", "MON":
		if month < 1 {
			return "", -1
		}
		w := 0
		if len(p) == 3 {
			w = 3
		}
		return name(time.Month(month).String(), p, fm, w), -1
	case "MM":
		return padNum(month, 2, fm), month
	case "DAY", "DY":
		w := 0
		if len(p) == 2 {
			w = 3
		}
		return name(t.Weekday().String(), p, fm, w), -1
	case "DDD":
		return padNum(int64(t.YearDay()), 3, fm), int64(t.YearDay())
	case "IDDD":
		_, w := t.ISOWeek()
		v := int64((w-1)*7) + isoDow(t)
		return padNum(v, 3, fm), v
	case "DD":
		return padNum(day, 2, fm), day
	case "D":
		v := int64(t.Weekday()) + 1
		return padNum(v, 1, fm), v
	case "ID":
		return padNum(isoDow(t), 1, fm), isoDow(t)
	case "WW":
		v := int64((t.YearDay()-1)/7 + 1)
		return padNum(v, 2, fm), v
	case "IW":
		_, w := t.ISOWeek()
		return padNum(int64(w), 2, fm), int64(w)
	case "W":
		v := (day-1)/7 + 1
		return padNum(v, 1, fm), v
	case "CC":
		var c int64
		if year > 0 {
			c = (year + 99) / 100
		} else {
			c = -((99 - (year - 1)) / 100)
		}
		if f.interval {
			c = year / 100
		}
		return padNum(c, 2, fm), c
	case "J":
		v := floorDiv(f.wall, usPerDay) + unixJulian
		return padNum(v, 1, fm), v
	case "Q":
		v := (month-1)/3 + 1
		if month < 1 {
			return "", -1
		}
		return padNum(v, 1, fm), v
	case "TZ":
		if !f.tz {
			return "", -1
		}
		if p == "tz" {
			return strings.ToLower(f.zone), -1
		}
		return f.zone, -1
	case "TZH":
		if !f.tz {
			return "", -1
		}
		s := "+"
		if f.off < 0 {
			s = "-"
		}
		return s + padNum(abs64(int64(f.off))/3600, 2, false), -1
	case "TZM":
		if !f.tz {
			return "", -1
		}
		return padNum(abs64(int64(f.off))/60%60, 2, false), -1
	case "OF":
		if !f.tz {
			return "", -1
		}
		s := "+"
		if f.off < 0 {
			s = "-"
		}
		o := abs64(int64(f.off))
		s += padNum(o/3600, 2, false)
		if m := o / 60 % 60; m != 0 {
			s += ":" + padNum(m, 2, false)
		}
		return s, -1
	}
	return p, -1
}

func isoDow(t time.Time) int64 {
	w := int64(t.Weekday())
	if w == 0 {
		w = 7
	}
	return w
}
