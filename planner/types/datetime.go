package types

import (
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// parseDate parses date input: ISO "YYYY-MM-DD" with an optional time part
// (ignored) and era, 'infinity', '-infinity', 'epoch'. Dates share the
// timestamp range (4714-11-24 BC to 294246-12-31), narrower than
// PostgreSQL's (to 5874897).
func parseDate(s string) (Datum, error) {
	v, _, err := parseDateTime(s, "date")
	if err != nil {
		if pe, ok := err.(*pgerror.Error); ok && pe.Code == pgerror.CodeDatetimeFieldOverflow && strings.Contains(pe.Message, "out of range:") {
			return Null, pgerror.New(pgerror.CodeDatetimeFieldOverflow, "date out of range: %q", s)
		}
		return Null, err
	}
	if v == PosInf || v == NegInf {
		return NewDate(v), nil
	}
	return NewDate(floorDiv(v, microsPerDay)), nil
}

// appendDate appends date output: "2026-11-21", " BC" before year 1.
func appendDate(buf []byte, days int64) []byte {
	switch days {
	case PosInf:
		return append(buf, "infinity"...)
	case NegInf:
		return append(buf, "-infinity"...)
	}
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
	if bc {
		buf = append(buf, " BC"...)
	}
	return buf
}

// DateToTimestamp returns the timestamp of midnight of date days (infinities
// are kept). It fails with 22008 past the timestamp range.
func DateToTimestamp(days int64) (int64, error) {
	if days == PosInf || days == NegInf {
		return days, nil
	}
	if days < MinTimestamp/microsPerDay || days >= EndTimestamp/microsPerDay {
		return 0, pgerror.New(pgerror.CodeDatetimeFieldOverflow, "date out of range for timestamp")
	}
	return days * microsPerDay, nil
}

// TimestampToDate returns the date of a timestamp (infinities are kept).
func TimestampToDate(micros int64) int64 {
	if micros == PosInf || micros == NegInf {
		return micros
	}
	return floorDiv(micros, microsPerDay)
}

// parseTime parses time input: "HH:MM[:SS[.frac]]", optionally after a
// date, 24:00:00 allowed; a zone is ignored.
func parseTime(s string) (Datum, error) {
	in := trimSpace(s)
	syntax := pgerror.New(pgerror.CodeInvalidDatetimeFormat, "invalid input syntax for type time: %q", s)
	if strings.EqualFold(in, "allballs") {
		return NewTime(0), nil
	}
	if i := strings.IndexAny(in, " T"); i >= 0 && strings.Count(in[:i], "-") == 2 {
		in = strings.TrimLeft(in[i+1:], " ")
	}
	p := tsScanner{s: in}
	hour, _, ok := p.digits(1, 2)
	if !ok {
		return Null, syntax
	}
	minute, sec, micros, err := parseClockRest(&p)
	if err != nil {
		return Null, syntax
	}
	var z zoneSpec
	if _, ok := parseTimestampTail(&p, &z); !ok {
		return Null, syntax
	}
	if minute > 59 || sec > 60 || hour > 24 || hour == 24 && (minute != 0 || sec != 0 || micros != 0) {
		return Null, pgerror.New(pgerror.CodeDatetimeFieldOverflow, "date/time field value out of range: %q", s)
	}
	v := ((hour*60+minute)*60+sec)*microsPerSecond + micros
	if v > microsPerDay {
		return Null, pgerror.New(pgerror.CodeDatetimeFieldOverflow, "date/time field value out of range: %q", s)
	}
	return NewTime(v), nil
}

// appendTime appends time output "HH:MM:SS[.ffffff]" (trailing zeros of
// the fraction trimmed).
func appendTime(buf []byte, micros int64) []byte {
	secs := micros / microsPerSecond
	buf = appendPadded(buf, secs/3600, 2)
	buf = append(buf, ':')
	buf = appendPadded(buf, secs/60%60, 2)
	buf = append(buf, ':')
	buf = appendPadded(buf, secs%60, 2)
	return appendFraction(buf, micros%microsPerSecond)
}

// appendFraction appends ".ffffff" without trailing zeros, nothing for 0.
func appendFraction(buf []byte, frac int64) []byte {
	if frac == 0 {
		return buf
	}
	buf = append(buf, '.')
	n := len(buf)
	buf = appendPadded(buf, frac, 6)
	for buf[len(buf)-1] == '0' && len(buf) > n {
		buf = buf[:len(buf)-1]
	}
	return buf
}
