package types

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// ParseText is ParseTextIn with the UTC time zone.
func ParseText(t T, s string) (Datum, error) { return ParseTextIn(t, s, time.UTC) }

// ParseTextIn parses s in PostgreSQL's text input syntax for t, as the
// type's input function would: integers may be surrounded by whitespace and
// are range-checked for t's width (22003); floats accept "NaN", "Infinity"
// and "-Infinity"; numeric keeps the input's scale, or rounds half away
// from zero to numeric(p,s)'s scale and fails with 22003 past p digits;
// booleans accept t/f/true/false/yes/no/on/off/1/0 and unique prefixes,
// case-insensitively; bytea accepts the hex ("\x0a0b") and escape formats;
// varchar(n) and char(n) reject values longer than n characters (22001)
// unless the excess is spaces, which are trimmed, and char(n) pads to n;
// timestamptz input without a zone is in loc (nil is UTC); uuid accepts
// PostgreSQL's forms (braces, upper case, hyphens after any 4 digits); json
// is validated and kept as given, jsonb normalized; arrays take "{a,b}".
// Syntax errors are 22P02 (22007 for datetimes). An Unknown t yields a Text
// datum.
func ParseTextIn(t T, s string, loc *time.Location) (Datum, error) {
	switch t.Kind {
	case Bool:
		b, ok := parseBool(s)
		if !ok {
			return Null, syntaxError(t, s)
		}
		return NewBool(b), nil
	case Int2, Int4, Int8:
		return parseInt(t, s)
	case Float8:
		return parseFloat(t, s, 64)
	case Float4:
		return parseFloat(t, s, 32)
	case Numeric:
		return parseNumeric(t, s)
	case Text, Unknown:
		return applyWidth(NewText(s), t, false)
	case BPChar:
		return applyWidth(NewBPChar(s), t, false)
	case Bytea:
		b, err := parseBytea(s)
		if err != nil {
			return Null, err
		}
		return Datum{K: Bytea, NotNull: true, S: b}, nil
	case Timestamp:
		v, err := parseTimestamp(s)
		if err != nil {
			return Null, err
		}
		return NewTimestamp(v), nil
	case TimestampTZ:
		v, err := parseTimestampTZ(s, loc)
		if err != nil {
			return Null, err
		}
		return NewTimestampTZ(v), nil
	case Date:
		return parseDate(s)
	case Time:
		return parseTime(s)
	case Interval:
		return parseInterval(s)
	case UUID:
		return parseUUID(s)
	case JSON:
		if _, err := ParseJSON(s, "json"); err != nil {
			return Null, err
		}
		return NewJSON(s), nil
	case JSONB:
		n, err := NormalizeJSONB(s)
		if err != nil {
			return Null, err
		}
		return NewJSONB(n), nil
	case Array:
		return parseArray(t, s, loc)
	case Oid:
		v, err := parseOid(s)
		if err != nil {
			return Null, err
		}
		return NewOid(v), nil
	case Name:
		return NewName(truncateName(s)), nil
	case Char:
		return NewChar(parseChar(s)), nil
	case RegClass, RegType, RegProc, RegNamespace, RegRole:
		return parseRegOID(t.Kind, s)
	case Int2Vector, OidVector:
		return parseVector(t.Kind, s)
	}
	return Null, pgerror.New(pgerror.CodeInternalError, "types: no input function for %s", t)
}

func syntaxError(t T, s string) error {
	return pgerror.New(pgerror.CodeInvalidTextRepresentation, "invalid input syntax for type %s: %q", t, s)
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func trimSpace(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// intRange returns the bounds of an integer kind.
func intRange(k Kind) (lo, hi int64) {
	switch k {
	case Int2:
		return math.MinInt16, math.MaxInt16
	case Int4:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

func parseInt(t T, s string) (Datum, error) {
	v := trimSpace(s)
	neg := false
	if len(v) > 0 && (v[0] == '+' || v[0] == '-') {
		neg = v[0] == '-'
		v = v[1:]
	}
	if len(v) == 0 {
		return Null, syntaxError(t, s)
	}
	// Accumulate negatively so that the minimum value parses.
	var n int64
	overflow := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '_' && i > 0 && i < len(v)-1 && v[i-1] != '_' {
			continue
		}
		if c < '0' || c > '9' {
			return Null, syntaxError(t, s)
		}
		d := int64(c - '0')
		if n < (math.MinInt64+d)/10 {
			overflow = true
			continue
		}
		n = n*10 - d
	}
	if !overflow && !neg {
		if n == math.MinInt64 {
			overflow = true
		}
		n = -n
	}
	lo, hi := intRange(t.Kind)
	if overflow || n < lo || n > hi {
		return Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "value %q is out of range for type %s", s, t)
	}
	return NewInt(t.Kind, n), nil
}

// parseFloat reads float8 (bits 64) or real (bits 32) text input.
func parseFloat(t T, s string, bits int) (Datum, error) {
	v := trimSpace(s)
	if v == "" || strings.ContainsRune(v, '_') {
		return Null, syntaxError(t, s)
	}
	f, err := strconv.ParseFloat(v, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return Null, floatRange(s, t)
		}
		return Null, syntaxError(t, s)
	}
	if f == 0 && hasNonZeroMantissa(v) {
		// Underflow: PostgreSQL rejects a nonzero input that rounds to 0.
		return Null, floatRange(s, t)
	}
	if bits == 32 {
		return NewFloat4(float32(f)), nil
	}
	return NewFloat(f), nil
}

func floatRange(s string, t T) error {
	return pgerror.New(pgerror.CodeNumericValueOutOfRange, "%q is out of range for type %s", s, t)
}

func hasNonZeroMantissa(v string) bool {
	hex := len(v) > 2 && (v[1] == 'x' || v[1] == 'X' || (len(v) > 3 && (v[2] == 'x' || v[2] == 'X')))
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !hex && (c == 'e' || c == 'E') || hex && (c == 'p' || c == 'P') {
			return false
		}
		if c >= '1' && c <= '9' || hex && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') && c != 'x' && c != 'X' {
			return true
		}
	}
	return false
}

func parseBool(s string) (bool, bool) {
	v := strings.ToLower(trimSpace(s))
	if v == "" {
		return false, false
	}
	switch {
	case strings.HasPrefix("true", v), strings.HasPrefix("yes", v), v == "1":
		return true, true
	case strings.HasPrefix("false", v), strings.HasPrefix("no", v), v == "0":
		return false, true
	case len(v) >= 2 && strings.HasPrefix("on", v):
		return true, true
	case len(v) >= 2 && strings.HasPrefix("off", v):
		return false, true
	}
	return false, false
}

func parseBytea(s string) (string, error) {
	if len(s) >= 2 && s[0] == '\\' && s[1] == 'x' {
		return parseByteaHex(s[2:])
	}
	if strings.IndexByte(s, '\\') < 0 {
		return s, nil
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		switch {
		case i+1 < len(s) && s[i+1] == '\\':
			out = append(out, '\\')
			i += 2
		case i+3 < len(s) && s[i+1] >= '0' && s[i+1] <= '3' && isOctal(s[i+2]) && isOctal(s[i+3]):
			out = append(out, (s[i+1]-'0')<<6|(s[i+2]-'0')<<3|(s[i+3]-'0'))
			i += 4
		default:
			return "", pgerror.New(pgerror.CodeInvalidTextRepresentation, "invalid input syntax for type bytea")
		}
	}
	return string(out), nil
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func parseByteaHex(h string) (string, error) {
	out := make([]byte, 0, len(h)/2)
	for i := 0; i < len(h); {
		if isSpace(h[i]) {
			i++
			continue
		}
		hi, ok := unhex(h[i])
		if !ok {
			return "", pgerror.New(pgerror.CodeInvalidParameterValue, "invalid hexadecimal digit: %q", badRune(h[i:]))
		}
		if i+1 >= len(h) {
			return "", pgerror.New(pgerror.CodeInvalidParameterValue, "invalid hexadecimal data: odd number of digits")
		}
		lo, ok := unhex(h[i+1])
		if !ok {
			return "", pgerror.New(pgerror.CodeInvalidParameterValue, "invalid hexadecimal digit: %q", badRune(h[i+1:]))
		}
		out = append(out, hi<<4|lo)
		i += 2
	}
	return string(out), nil
}

func badRune(s string) string {
	_, n := utf8.DecodeRuneInString(s)
	return s[:n]
}

// applyWidth enforces a varchar(n) width on a text datum. An assignment
// (explicit false) rejects excess characters other than spaces with 22001;
// an explicit cast truncates silently.
func applyWidth(d Datum, t T, explicit bool) (Datum, error) {
	if t.Kind == BPChar {
		return applyBPChar(d, t, explicit)
	}
	if !t.VarChar || t.Width <= 0 || len(d.S) <= int(t.Width) {
		return d, nil
	}
	n, cut := 0, -1
	for i := range d.S {
		if n == int(t.Width) {
			cut = i
			break
		}
		n++
	}
	if cut < 0 {
		return d, nil
	}
	if !explicit && strings.TrimRight(d.S[cut:], " ") != "" {
		return Null, pgerror.New(pgerror.CodeStringDataRightTruncation, "value too long for type %s", t)
	}
	d.S = d.S[:cut]
	return d, nil
}

// applyBPChar makes d a char(n) value: too long is 22001 for an assignment
// unless the excess is spaces (an explicit cast truncates), too short is
// blank-padded to n characters. A bpchar without width keeps d's text.
func applyBPChar(d Datum, t T, explicit bool) (Datum, error) {
	d.K = BPChar
	if t.Width <= 0 {
		return d, nil
	}
	n := utf8.RuneCountInString(d.S)
	if n > int(t.Width) {
		cut := 0
		for i := 0; i < int(t.Width); i++ {
			_, sz := utf8.DecodeRuneInString(d.S[cut:])
			cut += sz
		}
		if !explicit && strings.TrimRight(d.S[cut:], " ") != "" {
			return Null, pgerror.New(pgerror.CodeStringDataRightTruncation, "value too long for type %s", t)
		}
		d.S = d.S[:cut]
		return d, nil
	}
	if n < int(t.Width) {
		d.S += strings.Repeat(" ", int(t.Width)-n)
	}
	return d, nil
}

// parseUUID accepts 32 hex digits, upper or lower case, optionally in
// braces, with a hyphen allowed after any group of four digits.
func parseUUID(s string) (Datum, error) {
	in := s
	if len(in) >= 2 && in[0] == '{' && in[len(in)-1] == '}' {
		in = in[1 : len(in)-1]
	}
	var u [16]byte
	n := 0
	for i := 0; i < len(in); i++ {
		c := in[i]
		if c == '-' && n > 0 && n%4 == 0 && n < 32 && i+1 < len(in) && in[i+1] != '-' {
			continue
		}
		h, ok := unhex(c)
		if !ok || n >= 32 {
			return Null, syntaxError(TUUID, s)
		}
		u[n/2] |= h << (4 * (1 - n%2))
		n++
	}
	if n != 32 {
		return Null, syntaxError(TUUID, s)
	}
	return NewUUID(u), nil
}

// appendUUID appends the canonical 8-4-4-4-12 lower-case form.
func appendUUID(buf []byte, b string) []byte {
	for i := 0; i < len(b); i++ {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			buf = append(buf, '-')
		}
		buf = append(buf, hexDigits[b[i]>>4], hexDigits[b[i]&0xf])
	}
	return buf
}
