package exec

import (
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// String functions. Positions and lengths count characters (runes), as
// PostgreSQL does in a UTF-8 database; bytea variants count bytes.

// maxStringBytes is PostgreSQL's limit on a constructed text value
// (MaxAllocSize); longer results are 54000.
const maxStringBytes = 1<<30 - 1

func tooLong() error {
	return pgerror.New(pgerror.CodeProgramLimitExceeded, "requested length too large")
}

var stringFuncs = map[string]builtinFunc{
	"lower": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		return text(strings.ToLower(a[0].S))
	},
	"upper": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		return text(strings.ToUpper(a[0].S))
	},
	"initcap": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) { return text(initcap(a[0].S)) },
	"length": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		return int4(utf8.RuneCountInString(a[0].S))
	},
	"bpchar_length": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		return int4(utf8.RuneCountInString(strings.TrimRight(a[0].S, " ")))
	},
	"octet_length": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) { return int4(len(a[0].S)) },
	"bit_length":   func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) { return int4(8 * len(a[0].S)) },
	"substring":    substring,
	"substring_regex": func(a []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
		re, err := env.regexp(a[1].S, false)
		if err != nil {
			return types.Null, err
		}
		m := re.FindStringSubmatchIndex(a[0].S)
		switch {
		case m == nil:
			return types.Null, nil
		case len(m) > 2: // the first parenthesized subexpression, if any
			if m[2] < 0 {
				return types.Null, nil
			}
			return text(a[0].S[m[2]:m[3]])
		}
		return text(a[0].S[m[0]:m[1]])
	},
	"strpos": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		i := strings.Index(a[0].S, a[1].S)
		if i < 0 {
			return int4(0)
		}
		return int4(utf8.RuneCountInString(a[0].S[:i]) + 1)
	},
	"replace": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		if a[1].S == "" {
			return a[0], nil
		}
		return text(strings.ReplaceAll(a[0].S, a[1].S, a[2].S))
	},
	"translate":  translate,
	"split_part": splitPart,
	"btrim":      func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) { return trim(a, true, true) },
	"ltrim":      func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) { return trim(a, true, false) },
	"rtrim":      func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) { return trim(a, false, true) },
	"left": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		r := []rune(a[0].S)
		n := clampLen(a[1].I, len(r))
		return text(string(r[:n]))
	},
	"right": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		r := []rune(a[0].S)
		n := clampLen(a[1].I, len(r))
		return text(string(r[len(r)-n:]))
	},
	"lpad": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) { return pad(a, true) },
	"rpad": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) { return pad(a, false) },
	"repeat": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		if a[1].I <= 0 || a[0].S == "" {
			return text("")
		}
		if a[1].I > int64(maxStringBytes/len(a[0].S)) {
			return types.Null, tooLong()
		}
		return text(strings.Repeat(a[0].S, int(a[1].I)))
	},
	"reverse": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		r := []rune(a[0].S)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return text(string(r))
	},
	"md5": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		sum := md5.Sum([]byte(a[0].S))
		return text(hex.EncodeToString(sum[:]))
	},
	"decode": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		var b []byte
		var err error
		switch strings.ToLower(a[1].S) {
		case "hex":
			b, err = hex.DecodeString(a[0].S)
		case "base64":
			b, err = base64.StdEncoding.DecodeString(strings.Join(strings.Fields(a[0].S), ""))
		default:
			return types.Null, pgerror.New(pgerror.CodeInvalidParameterValue, "unrecognized encoding: %q", a[1].S)
		}
		var bad hex.InvalidByteError
		switch {
		case errors.As(err, &bad):
			return types.Null, pgerror.New(pgerror.CodeInvalidParameterValue, "invalid hexadecimal digit: %q", string(rune(bad)))
		case errors.Is(err, hex.ErrLength):
			return types.Null, pgerror.New(pgerror.CodeInvalidParameterValue, "invalid hexadecimal data: odd number of digits")
		case err != nil:
			return types.Null, pgerror.New(pgerror.CodeInvalidParameterValue, "invalid base64 data")
		}
		return types.NewBytea(b), nil
	},
	"encode": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		switch strings.ToLower(a[1].S) {
		case "hex":
			return text(hex.EncodeToString([]byte(a[0].S)))
		case "base64":
			return text(base64.StdEncoding.EncodeToString([]byte(a[0].S)))
		}
		return types.Null, pgerror.New(pgerror.CodeInvalidParameterValue, "unrecognized encoding: %q", a[1].S)
	},
	"crc32": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		return types.NewInt(types.Int8, int64(crc32.ChecksumIEEE([]byte(a[0].S)))), nil
	},
	"starts_with": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		return types.NewBool(strings.HasPrefix(a[0].S, a[1].S)), nil
	},
	"ascii": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		if a[0].S == "" {
			return int4(0)
		}
		r, _ := utf8.DecodeRuneInString(a[0].S)
		return int4(int(r))
	},
	"chr": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		n := a[0].I
		switch {
		case n < 0:
			return types.Null, pgerror.New(pgerror.CodeInvalidParameterValue, "character number must be positive")
		case n == 0:
			return types.Null, pgerror.New(pgerror.CodeProgramLimitExceeded, "null character not permitted")
		case n > unicode.MaxRune || (n >= 0xD800 && n <= 0xDFFF):
			return types.Null, pgerror.New(pgerror.CodeProgramLimitExceeded, "requested character too large for encoding: %d", n)
		}
		return text(string(rune(n)))
	},
}

func text(s string) (types.Datum, error) { return types.NewText(s), nil }

func int4(n int) (types.Datum, error) { return types.NewInt(types.Int4, int64(n)), nil }

// clampLen turns left/right's count into a number of characters to keep:
// n from the start, or all but -n when negative.
func clampLen(n int64, l int) int {
	if n < 0 {
		n += int64(l)
		if n < 0 {
			n = 0
		}
	}
	if n > int64(l) {
		n = int64(l)
	}
	return int(n)
}

// substring is substring(s, from[, count]) on text (characters) and bytea
// (bytes): the characters at positions from .. from+count-1, positions
// below 1 counting but not existing.
func substring(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
	s, from := a[0].S, a[1].I
	bytea := a[0].K == types.Bytea
	var n int
	var r []rune
	if bytea {
		n = len(s)
	} else {
		r = []rune(s)
		n = len(r)
	}
	end := int64(n) + 1 // one past the last position
	if len(a) == 3 {
		if a[2].I < 0 {
			return types.Null, pgerror.New("22011", "negative substring length not allowed")
		}
		if e := from + a[2].I; e < end && e >= from { // e < from: overflow
			end = e
		}
	}
	from = max(from, 1)
	end = max(end, from)
	i, j := int(from-1), int(end-1)
	if bytea {
		return types.NewBytea([]byte(s[i:j])), nil
	}
	return text(string(r[i:j]))
}

func splitPart(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
	s, delim, n := a[0].S, a[1].S, a[2].I
	if n == 0 {
		return types.Null, pgerror.New(pgerror.CodeInvalidParameterValue, "field position must not be zero")
	}
	var parts []string
	if delim == "" {
		parts = []string{s}
	} else {
		parts = strings.Split(s, delim)
	}
	if s == "" {
		parts = nil
	}
	if n < 0 {
		n += int64(len(parts)) + 1
	}
	if n < 1 || n > int64(len(parts)) {
		return text("")
	}
	return text(parts[n-1])
}

func trim(a []types.Datum, left, right bool) (types.Datum, error) {
	set := " "
	if len(a) > 1 {
		set = a[1].S
	}
	s := a[0].S
	if left {
		s = strings.TrimLeft(s, set)
	}
	if right {
		s = strings.TrimRight(s, set)
	}
	return text(s)
}

// pad is lpad/rpad: s cut or filled (with the fill repeated) to n
// characters.
func pad(a []types.Datum, left bool) (types.Datum, error) {
	s, n := []rune(a[0].S), a[1].I
	fill := []rune(" ")
	if len(a) > 2 {
		fill = []rune(a[2].S)
	}
	if n <= 0 {
		return text("")
	}
	if n > maxStringBytes/4 {
		return types.Null, tooLong()
	}
	if int64(len(s)) >= n || len(fill) == 0 {
		if int64(len(s)) > n {
			s = s[:n]
		}
		return text(string(s))
	}
	fillTo := make([]rune, int(n)-len(s))
	for k := range fillTo {
		fillTo[k] = fill[k%len(fill)]
	}
	if left {
		return text(string(fillTo) + string(s))
	}
	return text(string(s) + string(fillTo))
}

// initcap upper-cases the first letter of each run of letters and digits
// and lower-cases the rest.
func initcap(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	inWord := false
	for _, r := range s {
		if inWord {
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteRune(unicode.ToUpper(r))
		}
		inWord = unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	return b.String()
}

// translate replaces each character of s found in from by the character
// at the same position of to, deleting it when to is shorter.
func translate(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
	from, to := []rune(a[1].S), []rune(a[2].S)
	var b strings.Builder
	for _, r := range a[0].S {
		i := -1
		for k, f := range from {
			if f == r {
				i = k
				break
			}
		}
		switch {
		case i < 0:
			b.WriteRune(r)
		case i < len(to):
			b.WriteRune(to[i])
		}
	}
	return text(b.String())
}

// concat is concat(VARIADIC "any") and concat_ws(sep, VARIADIC "any"):
// each non-NULL argument's text output, NULLs skipped; a NULL separator
// gives NULL.
func concat(e *planner.Func, args []types.Datum, env *evalEnv) (types.Datum, error) {
	sep, withSep := "", e.Name == "concat_ws"
	if withSep {
		if args[0].IsNull() {
			return types.Null, nil
		}
		sep, args = args[0].S, args[1:]
	}
	var buf []byte
	first := true
	for _, a := range args {
		if a.IsNull() {
			continue
		}
		if !first {
			buf = append(buf, sep...)
		}
		first = false
		buf = types.AppendTextIn(buf, a, env.zone())
	}
	return types.NewText(string(buf)), nil
}
