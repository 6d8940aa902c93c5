package exec

import (
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// formatNumber is to_char(number, template) for the patterns 9 0 . D , G
// S MI PL SG FM (formatting.c's NUM_processor, reduced to these): the
// value is rounded to the template's fraction digits; integer digit
// positions left of the number are blank, or zero from the first 0
// position on; a group separator prints only after a digit; without an
// explicit sign pattern a sign slot ('-' or ' ') sits just before the
// first printed character. Too many integer digits print every digit
// position as '#'. The decimal point and group separator are '.' and ','
// (lc_numeric C).
func formatNumber(d types.Datum, format string) (types.Datum, error) {
	type tok struct {
		kind byte // '9', '0', '.', ',', 'S', 'M' (MI), 'P' (PL), 'G' (SG), 'L' literal
		lit  string
	}
	var toks []tok
	fm := false
	pre, post, zeroStart := 0, 0, -1
	seenPoint := false
	explicitSign := false
	for i := 0; i < len(format); {
		rest := format[i:]
		up := strings.ToUpper(rest)
		switch {
		case strings.HasPrefix(up, "FM"):
			fm, i = true, i+2
		case rest[0] == '9' || rest[0] == '0':
			if seenPoint {
				post++
			} else {
				if rest[0] == '0' && zeroStart < 0 {
					zeroStart = pre
				}
				pre++
			}
			toks, i = append(toks, tok{kind: rest[0]}), i+1
		case rest[0] == '.' || up[0] == 'D':
			if seenPoint {
				return types.Null, pgerror.New(pgerror.CodeSyntaxError, "multiple decimal points")
			}
			seenPoint = true
			toks, i = append(toks, tok{kind: '.'}), i+1
		case rest[0] == ',' || up[0] == 'G':
			toks, i = append(toks, tok{kind: ','}), i+1
		case strings.HasPrefix(up, "MI"):
			explicitSign = true
			toks, i = append(toks, tok{kind: 'M'}), i+2
		case strings.HasPrefix(up, "PL"):
			toks, i = append(toks, tok{kind: 'P'}), i+2
		case strings.HasPrefix(up, "SG"):
			explicitSign = true
			toks, i = append(toks, tok{kind: 'G'}), i+2
		case up[0] == 'S':
			explicitSign = true
			toks, i = append(toks, tok{kind: 'S'}), i+1
		case strings.HasPrefix(up, "EEEE") || strings.HasPrefix(up, "PR") || up[0] == 'V' || up[0] == 'L' || strings.HasPrefix(up, "RN") || strings.HasPrefix(up, "TH"):
			return types.Null, pgerror.Unimplemented("to_char numeric pattern " + strings.TrimSpace(rest[:min(len(rest), 2)]))
		case rest[0] == '"':
			j := strings.IndexByte(rest[1:], '"')
			if j < 0 {
				j = len(rest) - 1
			}
			toks, i = append(toks, tok{kind: 'L', lit: rest[1 : j+1]}), i+j+2
		default:
			toks, i = append(toks, tok{kind: 'L', lit: rest[:1]}), i+1
		}
	}
	neg, intDigits, fracDigits, err := numberDigits(d, post)
	if err != nil {
		return types.Null, err
	}
	if intDigits == "0" && post > 0 {
		intDigits = ""
	}
	overflow := len(intDigits) > pre
	// FM drops trailing zeros at 9 positions of the fraction.
	keepFrac := post
	if fm {
		last0, k := 0, 0 // fraction positions up to the last 0 pattern stay
		for _, t := range toks {
			if t.kind == '0' || t.kind == '9' {
				k++
				if k > pre && t.kind == '0' {
					last0 = k - pre
				}
			}
		}
		keepFrac = len(strings.TrimRight(fracDigits, "0"))
		keepFrac = max(keepFrac, last0)
	}
	var b strings.Builder
	signSlot := -1 // byte offset in b where the implicit sign goes
	pos, frac := 0, 0
	printed := false // a digit has been printed (for group separators)
	signFirst := false
	signChar := func(plus, minus string) string {
		if neg {
			return minus
		}
		return plus
	}
	for _, t := range toks {
		switch t.kind {
		case '9', '0':
			if pos < pre { // integer position
				k := pos - (pre - len(intDigits)) // index into intDigits
				pos++
				switch {
				case overflow:
					b.WriteByte('#')
				case k >= 0:
					if !printed && signSlot < 0 {
						signSlot = b.Len()
					}
					b.WriteByte(intDigits[k])
					printed = true
				case zeroStart >= 0 && pos-1 >= zeroStart:
					if !printed && signSlot < 0 {
						signSlot = b.Len()
					}
					b.WriteByte('0')
					printed = true
				case !fm:
					b.WriteByte(' ')
				}
				continue
			}
			frac++
			switch {
			case overflow:
				b.WriteByte('#')
			case frac <= keepFrac:
				b.WriteByte(fracDigits[frac-1])
			}
		case '.':
			if !printed && signSlot < 0 {
				signSlot = b.Len()
			}
			b.WriteByte('.')
		case ',':
			switch {
			case printed || overflow:
				b.WriteByte(',')
			case !fm:
				b.WriteByte(' ')
			}
		case 'S':
			if b.Len() == 0 && pre > 0 {
				signFirst = true // S first: the sign goes before the number, '+' when positive
				continue
			}
			b.WriteString(signChar("+", "-"))
		case 'M':
			if fm && !neg {
				continue
			}
			b.WriteString(signChar(" ", "-"))
		case 'P':
			if fm && neg {
				continue
			}
			b.WriteString(signChar("+", " "))
		case 'G':
			b.WriteString(signChar("+", "-"))
		case 'L':
			b.WriteString(t.lit)
		}
	}
	out := b.String()
	plusChar, implicit := " ", !explicitSign
	if signFirst {
		plusChar, implicit = "+", true
	}
	if implicit {
		if signSlot < 0 {
			signSlot = len(out)
			if overflow {
				signSlot = 0
			}
		}
		sc := signChar(plusChar, "-")
		if fm && sc == " " {
			sc = ""
		}
		if overflow && !fm {
			signSlot = 0
		}
		out = out[:signSlot] + sc + out[signSlot:]
	}
	return types.NewText(out), nil
}

// numberDigits rounds d to post fraction digits and returns its sign and
// digits ("0" for a zero integer part).
func numberDigits(d types.Datum, post int) (neg bool, intDigits, fracDigits string, err error) {
	var s string
	switch {
	case d.K == types.Numeric:
		v := d.Numeric()
		if v.Form != apd.Finite {
			return false, "", "", pgerror.Unimplemented("to_char of NaN or Infinity")
		}
		r := new(apd.Decimal)
		if _, err := quantizeCtx.Quantize(r, v, int32(-post)); err != nil {
			return false, "", "", err
		}
		neg = r.Negative && !r.IsZero()
		r.Negative = false
		s = r.Text('f')
	case d.K.IsFloat():
		f := d.F
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return false, "", "", pgerror.Unimplemented("to_char of NaN or Infinity")
		}
		bits := 64
		if d.K == types.Float4 {
			bits = 32
		}
		s = strconv.FormatFloat(math.Abs(f), 'f', post, bits)
		neg = f < 0 && strings.Trim(s, "0.") != ""
	default:
		neg = d.I < 0
		s = strconv.FormatInt(abs64(d.I), 10)
		if post > 0 {
			s += "." + strings.Repeat("0", post)
		}
	}
	intDigits, fracDigits, _ = strings.Cut(s, ".")
	if intDigits == "" {
		intDigits = "0"
	}
	for len(fracDigits) < post {
		fracDigits += "0"
	}
	return neg, intDigits, fracDigits, nil
}
