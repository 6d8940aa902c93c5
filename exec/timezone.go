package exec

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // IANA zones without relying on the host's zoneinfo

	"github.com/widesql/widesql/pgwire/pgerror"
)

// The session TimeZone drives timestamptz text input and output and the
// casts and arithmetic that depend on a zone. Accepted values, as in
// PostgreSQL: an IANA name ('America/New_York', 'UTC'); a plain number of
// hours east of UTC (SET TIME ZONE -5, shown as "<-05>+05"); a POSIX-style
// fixed offset with an optional abbreviation ('UTC+3', '+05:30'), where a
// positive offset is west of Greenwich. POSIX daylight rules are not
// supported (22023).

// loadTimeZone resolves a TimeZone value; name is the value as SHOW
// prints it.
func loadTimeZone(v string) (loc *time.Location, name string, err error) {
	s := strings.TrimSpace(v)
	if s == "" {
		return nil, "", badTimeZone(v)
	}
	if h, err := strconv.ParseFloat(s, 64); err == nil {
		secs := int64(h * 3600)
		if h < -15*24 || h > 15*24 || secs%60 != 0 {
			return nil, "", badTimeZone(v)
		}
		name = "<" + fmtOffset(secs) + ">" + fmtOffset(-secs)
		return time.FixedZone(name, int(secs)), name, nil
	}
	switch strings.ToLower(s) {
	case "utc", "gmt", "z", "zulu", "etc/utc", "etc/gmt", "universal":
		if strings.ToLower(s) == "z" || strings.ToLower(s) == "zulu" {
			return time.UTC, s, nil
		}
		return time.UTC, canonicalUTC(s), nil
	}
	if !strings.Contains(s, "..") && s[0] != '/' {
		if l, err := time.LoadLocation(s); err == nil && s != "Local" {
			return l, s, nil
		}
	}
	if secs, ok := posixOffset(s); ok {
		return time.FixedZone(s, int(-secs)), s, nil
	}
	return nil, "", badTimeZone(v)
}

func canonicalUTC(s string) string {
	switch strings.ToLower(s) {
	case "utc":
		return "UTC"
	case "gmt":
		return "GMT"
	case "etc/utc":
		return "Etc/UTC"
	case "etc/gmt":
		return "Etc/GMT"
	}
	return "Universal"
}

func badTimeZone(v string) error {
	return pgerror.New(pgerror.CodeInvalidParameterValue, "invalid value for parameter \"TimeZone\": \"%s\"", v)
}

// fmtOffset formats seconds as +hh, +hh:mm.
func fmtOffset(secs int64) string {
	sign := byte('+')
	if secs < 0 {
		sign, secs = '-', -secs
	}
	s := fmt.Sprintf("%c%02d", sign, secs/3600)
	if m := secs / 60 % 60; m != 0 {
		s += fmt.Sprintf(":%02d", m)
	}
	return s
}

// posixOffset parses "[abbrev]±hh[:mm[:ss]]" and returns the POSIX offset
// in seconds (positive west of Greenwich).
func posixOffset(s string) (int64, bool) {
	i := 0
	if s[0] == '<' {
		j := strings.IndexByte(s, '>')
		if j < 0 {
			return 0, false
		}
		i = j + 1
	} else {
		for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
			i++
		}
		if i > 0 && i < 3 {
			return 0, false
		}
	}
	rest := s[i:]
	if rest == "" {
		return 0, false
	}
	neg := false
	if rest[0] == '+' || rest[0] == '-' {
		neg, rest = rest[0] == '-', rest[1:]
	}
	parts := strings.Split(rest, ":")
	if len(parts) > 3 {
		return 0, false
	}
	var secs int64
	for k, p := range parts {
		if p == "" || len(p) > 2 {
			return 0, false
		}
		n, err := strconv.Atoi(p)
		if err != nil || (k > 0 && n > 59) {
			return 0, false
		}
		secs += int64(n) * []int64{3600, 60, 1}[k]
	}
	if secs > 24*3600 {
		return 0, false
	}
	if neg {
		secs = -secs
	}
	return secs, true
}

// zone returns the session's TimeZone as a *time.Location, cached until
// the setting changes.
func (s *Session) zone() *time.Location {
	v := s.values["TimeZone"]
	if s.zoneLoc != nil && s.zoneName == v {
		return s.zoneLoc
	}
	loc, _, err := loadTimeZone(v)
	if err != nil {
		loc = time.UTC
	}
	s.zoneLoc, s.zoneName = loc, v
	return loc
}

// zone is the session zone expressions are evaluated in (nil is UTC).
func (env *evalEnv) zone() *time.Location {
	if env == nil || env.sess == nil {
		return nil
	}
	return env.sess.zone()
}
