package exec

import (
	"strings"
	"time"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// to_date(text, template) and to_timestamp(text, template): the input is
// read field by field with the to_char patterns. Numeric fields take up
// to their width in digits (fewer when a non-digit follows); month and
// day names match case-insensitively; any other template character skips
// one input character, and blanks in the template skip any run of
// blanks, as PostgreSQL does when FX is not given. The result is read in
// the session zone (to_timestamp) and checked as a calendar date (22008).

type parsedDT struct {
	year, month, day, hour, minute, sec, usec int64
	hasYear                                   bool
	pm, hasAMPM, hour12                       bool
}

func toDate(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
	p, err := parseTemplate(a[0].S, a[1].S)
	if err != nil {
		return types.Null, err
	}
	us, err := p.wall(a[0].S)
	if err != nil {
		return types.Null, err
	}
	return types.NewDate(floorDiv(us, usPerDay)), nil
}

func toTimestamp(a []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
	p, err := parseTemplate(a[0].S, a[1].S)
	if err != nil {
		return types.Null, err
	}
	us, err := p.wall(a[0].S)
	if err != nil {
		return types.Null, err
	}
	return types.NewTimestampTZ(wallToUTC(us, env.loc())), nil
}

func (p *parsedDT) wall(in string) (int64, error) {
	if !p.hasYear {
		p.year = 1
	}
	if p.month == 0 {
		p.month = 1
	}
	if p.day == 0 {
		p.day = 1
	}
	if p.hasAMPM || p.hour12 {
		if p.hour < 1 || p.hour > 12 {
			return 0, pgerror.New(pgerror.CodeInvalidDatetimeFormat, "hour \"%d\" is invalid for the 12-hour clock", p.hour).
				WithHint("Use the 24-hour clock, or give an hour between 1 and 12.")
		}
		p.hour %= 12
		if p.pm {
			p.hour += 12
		}
	}
	outOfRange := pgerror.New(pgerror.CodeDatetimeFieldOverflow, "date/time field value out of range: %q", in)
	if err := checkCivil(p.year, p.month, p.day, "date"); err != nil {
		return 0, outOfRange
	}
	if p.hour > 24 || p.minute > 59 || p.sec > 60 || (p.hour == 24 && (p.minute > 0 || p.sec > 0 || p.usec > 0)) {
		return 0, outOfRange
	}
	y := p.year
	if y < 0 {
		y++
	}
	return fromCivil(int(y), time.Month(p.month), int(p.day)) + (p.hour*3600+p.minute*60+p.sec)*usPerSec + p.usec, nil
}

var monthNames = []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}
var dayNames = []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

func parseTemplate(in, format string) (*parsedDT, error) {
	p := &parsedDT{}
	j := 0 // position in in
	for i := 0; i < len(format); {
		rest := format[i:]
		if strings.HasPrefix(rest, "FM") || strings.HasPrefix(rest, "fm") || strings.HasPrefix(rest, "FX") || strings.HasPrefix(rest, "fx") {
			i += 2
			continue
		}
		if rest[0] == '"' {
			k := strings.IndexByte(rest[1:], '"')
			if k < 0 {
				k = len(rest) - 1
			}
			j = min(j+len([]rune(rest[1:k+1])), len(in))
			i += k + 2
			continue
		}
		pat := matchPattern(rest)
		if pat == "" {
			if rest[0] == ' ' {
				for j < len(in) && in[j] == ' ' {
					j++
				}
			} else if j < len(in) {
				j++
			}
			i++
			continue
		}
		i += len(pat)
		for j < len(in) && in[j] == ' ' { // leading blanks before a field
			j++
		}
		up := strings.ToUpper(pat)
		switch up {
		case "MONTH", "MON", "DAY", "DY":
			names, field := monthNames, &p.month
			if up == "DAY" || up == "DY" {
				names, field = dayNames, nil
			}
			k, n := matchName(in[j:], names, len(up) <= 3)
			if k < 0 {
				return nil, pgerror.New(pgerror.CodeInvalidDatetimeFormat, "invalid value %q for %q", firstWord(in[j:]), pat).
					WithDetail("The given value did not match any of the allowed values for this field.")
			}
			if field != nil {
				*field = int64(k + 1)
			}
			j += n
			continue
		case "AM", "PM", "A.M.", "P.M.":
			w := len(up)
			if j+w > len(in) {
				return nil, pgerror.New(pgerror.CodeInvalidDatetimeFormat, "invalid value %q for %q", in[j:], pat)
			}
			v := strings.ToUpper(in[j : j+w])
			if v != "AM" && v != "PM" && v != "A.M." && v != "P.M." {
				return nil, pgerror.New(pgerror.CodeInvalidDatetimeFormat, "invalid value %q for %q", v, pat).
					WithDetail("The given value did not match any of the allowed values for this field.")
			}
			p.hasAMPM, p.pm = true, v[0] == 'P'
			j += w
			continue
		case "TZ", "TZH", "TZM", "OF", "BC", "AD", "B.C.", "A.D.", "J", "IYYY", "IYY", "IY", "I", "ID", "IDDD", "IW", "WW", "W", "DDD", "CC", "Y,YYY", "SSSS", "SSSSS":
			return nil, pgerror.Unimplemented("pattern " + pat + " in to_date/to_timestamp")
		}
		width := map[string]int{"YYYY": 4, "YYY": 3, "YY": 2, "Y": 1, "MM": 2, "DD": 2, "D": 1, "Q": 1,
			"HH24": 2, "HH12": 2, "HH": 2, "MI": 2, "SS": 2, "MS": 3, "US": 6,
			"FF1": 1, "FF2": 2, "FF3": 3, "FF4": 4, "FF5": 5, "FF6": 6}[up]
		if width == 0 {
			return nil, pgerror.Unimplemented("pattern " + pat + " in to_date/to_timestamp")
		}
		if up == "YYYY" {
			width = 9 // a year takes every digit there is, unless the next field needs them
			if i < len(format) && matchPattern(format[i:]) != "" {
				width = 4
			}
		}
		start := j
		neg := false
		if j < len(in) && in[j] == '-' && up == "YYYY" {
			neg, j = true, j+1
		}
		for j < len(in) && j-start < width && in[j] >= '0' && in[j] <= '9' {
			j++
		}
		digits := in[start:j]
		if neg {
			digits = digits[1:]
		}
		if digits == "" {
			bad := firstWord(in[start:])
			return nil, pgerror.New(pgerror.CodeInvalidDatetimeFormat, "invalid value %q for %q", bad, pat).
				WithDetail("Value must be an integer.")
		}
		var v int64
		for _, c := range digits {
			v = v*10 + int64(c-'0')
		}
		switch up {
		case "MS", "US", "FF1", "FF2", "FF3", "FF4", "FF5", "FF6":
			for k := len(digits); k < 6; k++ { // a fraction: "5" is .5 second
				v *= 10
			}
			p.usec += v
		case "YYYY", "YYY":
			p.year, p.hasYear = v, true
			if neg {
				p.year = -v
			}
		case "YY":
			p.year, p.hasYear = v+2000, true
			if v >= 70 {
				p.year -= 100
			}
		case "Y":
			p.year, p.hasYear = v+2000, true
		case "MM":
			p.month = v
		case "DD":
			p.day = v
		case "HH24":
			p.hour = v
		case "HH12", "HH":
			p.hour, p.hour12 = v, true
		case "MI":
			p.minute = v
		case "SS":
			p.sec = v
		}
	}
	return p, nil
}

// matchName matches a month or day name (or its 3-letter abbreviation)
// at the start of s; it returns the index and the bytes consumed.
func matchName(s string, names []string, abbrev bool) (int, int) {
	ls := strings.ToLower(s)
	for k, n := range names {
		if !abbrev && strings.HasPrefix(ls, n) {
			return k, len(n)
		}
		if strings.HasPrefix(ls, n[:3]) {
			if abbrev {
				return k, 3
			}
		}
	}
	return -1, 0
}

func firstWord(s string) string {
	if i := strings.IndexAny(s, " -/:.,"); i > 0 {
		return s[:i]
	}
	return s
}
