package sqlparse

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// charPos converts a byte offset in src to PostgreSQL's 1-based character
// position.
func charPos(src string, off int) int {
	if off > len(src) {
		off = len(src)
	}
	if off < 0 {
		off = 0
	}
	return utf8.RuneCountInString(src[:off]) + 1
}

var errBadUnicode = errors.New("invalid Unicode escape value")

// decodeEscape decodes one backslash escape of an E” string at the start of
// s (s[0] == '\\'), writes the result to b and returns the bytes consumed.
func decodeEscape(s string, b *strings.Builder) (int, error) {
	if len(s) < 2 {
		return 1, nil // the closing-quote check reports the missing quote
	}
	c := s[1]
	switch c {
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'x':
		n := hexRun(s[2:], 2)
		if n == 0 {
			b.WriteByte('x')
			return 2, nil
		}
		v, _ := strconv.ParseUint(s[2:2+n], 16, 8)
		b.WriteByte(byte(v))
		return 2 + n, nil
	case 'u', 'U':
		width := 4
		if c == 'U' {
			width = 8
		}
		if hexRun(s[2:], width) != width {
			return 0, errBadUnicode
		}
		v, _ := strconv.ParseUint(s[2:2+width], 16, 32)
		if !utf8.ValidRune(rune(v)) || v == 0 {
			return 0, errBadUnicode
		}
		b.WriteRune(rune(v))
		return 2 + width, nil
	default:
		if c >= '0' && c <= '7' {
			n := 1
			for n < 3 && 1+n < len(s) && s[1+n] >= '0' && s[1+n] <= '7' {
				n++
			}
			v, _ := strconv.ParseUint(s[1:1+n], 8, 16)
			b.WriteByte(byte(v))
			return 1 + n, nil
		}
		b.WriteByte(c) // \\, \', and any other character stand for themselves
	}
	return 2, nil
}

func hexRun(s string, max int) int {
	n := 0
	for n < max && n < len(s) && strings.IndexByte("0123456789abcdefABCDEF", s[n]) >= 0 {
		n++
	}
	return n
}

// decodeUnicode decodes the \XXXX and \+XXXXXX escapes of a U&” body
// (UESCAPE is not supported).
func decodeUnicode(s string) (string, error) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			i++
			continue
		}
		switch {
		case strings.HasPrefix(s[i:], `\\`):
			b.WriteByte('\\')
			i += 2
			continue
		case hexRun(s[i+1:], 4) == 4:
			v, _ := strconv.ParseUint(s[i+1:i+5], 16, 32)
			if v == 0 || !utf8.ValidRune(rune(v)) {
				return "", errBadUnicode
			}
			b.WriteRune(rune(v))
			i += 5
			continue
		case strings.HasPrefix(s[i:], `\+`) && hexRun(s[i+2:], 6) == 6:
			v, _ := strconv.ParseUint(s[i+2:i+8], 16, 32)
			if v == 0 || !utf8.ValidRune(rune(v)) {
				return "", errBadUnicode
			}
			b.WriteRune(rune(v))
			i += 8
			continue
		}
		return "", errors.New("invalid Unicode escape")
	}
	return b.String(), nil
}

// unsupported returns a 0A000 error naming a PostgreSQL feature widesql
// does not support.
func unsupported(feature string) *pgerror.Error {
	return pgerror.New(pgerror.CodeFeatureNotSupported, "%s is not supported", feature)
}
