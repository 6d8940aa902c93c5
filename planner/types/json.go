package types

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// JSONKind is the kind of a JSON value, ordered as PostgreSQL's jsonb btree
// orders values of different kinds: null < string < number < boolean <
// array < object.
type JSONKind uint8

// JSON value kinds.
const (
	JSONNull JSONKind = iota + 1
	JSONString
	JSONNumber
	JSONBool
	JSONArray
	JSONObject
)

// JSONValue is a parsed JSON document. Objects keep their pairs in Keys and
// Vals; after Normalize they are sorted as jsonb stores them (by key length,
// then bytes) without duplicates.
type JSONValue struct {
	Kind  JSONKind
	Str   string       // JSONString
	Num   *apd.Decimal // JSONNumber
	Bool  bool         // JSONBool
	Elems []JSONValue  // JSONArray
	Keys  []string     // JSONObject
	Vals  []JSONValue  // JSONObject, parallel to Keys
	Raw   string       // the value's source text as parsed (json operators return it)
}

func jsonSyntax(kind string, s string) error {
	return pgerror.New(pgerror.CodeInvalidTextRepresentation, "invalid input syntax for type %s", kind).
		WithDetail("Token in %s is invalid.", strconv.Quote(trimTo(s, 40)))
}

func trimTo(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// ParseJSON parses a JSON document (RFC 8259, as PostgreSQL's json input
// accepts it). kind names the type in errors ("json" or "jsonb"); jsonb
// also rejects \u0000 (22P05). Syntax errors are 22P02.
func ParseJSON(s, kind string) (JSONValue, error) {
	p := jsonParser{s: s, kind: kind}
	p.ws()
	v, err := p.value(0)
	if err != nil {
		return JSONValue{}, err
	}
	p.ws()
	if p.i != len(s) {
		return JSONValue{}, jsonSyntax(kind, s)
	}
	return v, nil
}

type jsonParser struct {
	s    string
	i    int
	kind string
}

const maxJSONDepth = 6400

func (p *jsonParser) ws() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *jsonParser) fail() error { return jsonSyntax(p.kind, p.s) }

func (p *jsonParser) value(depth int) (JSONValue, error) {
	if depth > maxJSONDepth {
		return JSONValue{}, pgerror.New("54001", "stack depth limit exceeded")
	}
	if p.i >= len(p.s) {
		return JSONValue{}, p.fail()
	}
	start := p.i
	var v JSONValue
	switch c := p.s[p.i]; {
	case c == '{':
		v.Kind = JSONObject
		p.i++
		p.ws()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			break
		}
		for {
			p.ws()
			if p.i >= len(p.s) || p.s[p.i] != '"' {
				return v, p.fail()
			}
			k, err := p.str()
			if err != nil {
				return v, err
			}
			p.ws()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return v, p.fail()
			}
			p.i++
			p.ws()
			e, err := p.value(depth + 1)
			if err != nil {
				return v, err
			}
			v.Keys, v.Vals = append(v.Keys, k), append(v.Vals, e)
			p.ws()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				break
			}
			return v, p.fail()
		}
	case c == '[':
		v.Kind = JSONArray
		v.Elems = []JSONValue{}
		p.i++
		p.ws()
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			break
		}
		for {
			p.ws()
			e, err := p.value(depth + 1)
			if err != nil {
				return v, err
			}
			v.Elems = append(v.Elems, e)
			p.ws()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				break
			}
			return v, p.fail()
		}
	case c == '"':
		v.Kind = JSONString
		str, err := p.str()
		if err != nil {
			return v, err
		}
		v.Str = str
	case c == '-' || c >= '0' && c <= '9':
		v.Kind = JSONNumber
		j := p.i
		if p.s[j] == '-' {
			j++
		}
		digits := func() int {
			n := 0
			for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
				j++
				n++
			}
			return n
		}
		ds := j
		if n := digits(); n == 0 || n > 1 && p.s[ds] == '0' {
			return v, p.fail()
		}
		if j < len(p.s) && p.s[j] == '.' {
			j++
			if digits() == 0 {
				return v, p.fail()
			}
		}
		if j < len(p.s) && (p.s[j] == 'e' || p.s[j] == 'E') {
			j++
			if j < len(p.s) && (p.s[j] == '+' || p.s[j] == '-') {
				j++
			}
			if digits() == 0 {
				return v, p.fail()
			}
		}
		d, _, err := apd.NewFromString(p.s[p.i:j])
		if err != nil {
			return v, p.fail()
		}
		if d.Exponent > 0 { // 1e2 is 100, as numeric input reads it
			if _, err := quantizeCtx.Quantize(d, d, 0); err != nil {
				return v, numericOverflow()
			}
		}
		d.Negative = d.Negative && !d.IsZero()
		v.Num = d
		p.i = j
	case strings.HasPrefix(p.s[p.i:], "true"):
		v.Kind, v.Bool = JSONBool, true
		p.i += 4
	case strings.HasPrefix(p.s[p.i:], "false"):
		v.Kind = JSONBool
		p.i += 5
	case strings.HasPrefix(p.s[p.i:], "null"):
		v.Kind = JSONNull
		p.i += 4
	default:
		return v, p.fail()
	}
	v.Raw = p.s[start:p.i]
	return v, nil
}

// str parses a string literal at p.i (which is '"').
func (p *jsonParser) str() (string, error) {
	p.i++
	start := p.i
	for p.i < len(p.s) && p.s[p.i] != '"' && p.s[p.i] != '\\' && p.s[p.i] >= 0x20 {
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == '"' {
		p.i++
		return p.s[start : p.i-1], nil
	}
	var b strings.Builder
	b.WriteString(p.s[start:p.i])
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c < 0x20:
			return "", p.fail()
		case c != '\\':
			b.WriteByte(c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.s) {
			return "", p.fail()
		}
		e := p.s[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
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
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.fail()
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if p.i+1 < len(p.s) && p.s[p.i] == '\\' && p.s[p.i+1] == 'u' {
					p.i += 2
					r2, ok = p.hex4()
					if !ok {
						return "", p.fail()
					}
				}
				r = utf16.DecodeRune(r, r2)
				if r == utf8.RuneError {
					return "", pgerror.New(pgerror.CodeInvalidTextRepresentation, "invalid input syntax for type %s", p.kind).
						WithDetail("Unicode low surrogate must follow a high surrogate.")
				}
			}
			if r == 0 && p.kind == "jsonb" {
				return "", pgerror.New("22P05", "unsupported Unicode escape sequence").
					WithDetail("\\u0000 cannot be converted to text.")
			}
			b.WriteRune(r)
		default:
			return "", p.fail()
		}
	}
	return "", p.fail()
}

func (p *jsonParser) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(p.s[p.i : p.i+4]) {
		h, ok := unhex(c)
		if !ok {
			return 0, false
		}
		r = r<<4 | rune(h)
	}
	p.i += 4
	return r, true
}

// Normalize sorts object keys as jsonb stores them (shorter keys first,
// then bytewise), keeping the last of duplicate keys, recursively.
func (v *JSONValue) Normalize() {
	switch v.Kind {
	case JSONArray:
		for i := range v.Elems {
			v.Elems[i].Normalize()
		}
	case JSONObject:
		idx := make([]int, len(v.Keys))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return jsonKeyLess(v.Keys[idx[a]], v.Keys[idx[b]]) })
		keys, vals := make([]string, 0, len(idx)), make([]JSONValue, 0, len(idx))
		for n, i := range idx {
			if n+1 < len(idx) && v.Keys[idx[n+1]] == v.Keys[i] {
				continue // a later duplicate wins
			}
			val := v.Vals[i]
			val.Normalize()
			keys, vals = append(keys, v.Keys[i]), append(vals, val)
		}
		v.Keys, v.Vals = keys, vals
	}
}

func jsonKeyLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// AppendJSONB appends v's text as PostgreSQL's jsonb output prints it:
// `{"a": 1, "b": [1, 2]}`, numbers in numeric's output form.
func (v *JSONValue) AppendJSONB(buf []byte) []byte {
	switch v.Kind {
	case JSONNull:
		return append(buf, "null"...)
	case JSONBool:
		if v.Bool {
			return append(buf, "true"...)
		}
		return append(buf, "false"...)
	case JSONNumber:
		return appendNumeric(buf, v.Num)
	case JSONString:
		return AppendJSONString(buf, v.Str)
	case JSONArray:
		buf = append(buf, '[')
		for i := range v.Elems {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = v.Elems[i].AppendJSONB(buf)
		}
		return append(buf, ']')
	case JSONObject:
		buf = append(buf, '{')
		for i := range v.Keys {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = AppendJSONString(buf, v.Keys[i])
			buf = append(buf, ": "...)
			buf = v.Vals[i].AppendJSONB(buf)
		}
		return append(buf, '}')
	}
	return buf
}

// AppendJSONString appends s as a JSON string literal, escaped as
// PostgreSQL's escape_json does.
func AppendJSONString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			buf = append(buf, '\\', '"')
		case '\\':
			buf = append(buf, '\\', '\\')
		case '\b':
			buf = append(buf, '\\', 'b')
		case '\f':
			buf = append(buf, '\\', 'f')
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\r':
			buf = append(buf, '\\', 'r')
		case '\t':
			buf = append(buf, '\\', 't')
		default:
			if c < 0x20 {
				buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			} else {
				buf = append(buf, c)
			}
		}
	}
	return append(buf, '"')
}

// NormalizeJSONB parses s as jsonb input and returns its normalized text.
func NormalizeJSONB(s string) (string, error) {
	v, err := ParseJSON(s, "jsonb")
	if err != nil {
		return "", err
	}
	v.Normalize()
	return string(v.AppendJSONB(nil)), nil
}

// jsonOf parses a json or jsonb datum (already validated).
func jsonOf(d Datum) JSONValue {
	v, err := ParseJSON(d.S, "json")
	if err != nil {
		return JSONValue{Kind: JSONNull}
	}
	return v
}

// JSONDoc returns the parsed document of a json or jsonb datum. For jsonb
// it is normalized.
func JSONDoc(d Datum) JSONValue { return jsonOf(d) }

// fromJSON wraps a sub-value as a datum of kind k (JSON keeps the source
// text; JSONB prints the normalized form).
func fromJSON(v JSONValue, k Kind) Datum {
	if k == JSON {
		return NewJSON(v.Raw)
	}
	return NewJSONB(string(v.AppendJSONB(nil)))
}

// JSONField implements json -> 'key' and jsonb -> 'key': the value of key
// in object d (the last one for json's duplicate keys), of d's kind. ok is
// false (SQL NULL) when d is not an object or has no such key.
func JSONField(d Datum, key string) (Datum, bool) {
	v := jsonOf(d)
	if v.Kind != JSONObject {
		return Null, false
	}
	for i := len(v.Keys) - 1; i >= 0; i-- {
		if v.Keys[i] == key {
			return fromJSON(v.Vals[i], d.K), true
		}
	}
	return Null, false
}

// JSONIndex implements json -> n and jsonb -> n: element n (0-based;
// negative counts from the end) of array d, of d's kind. ok is false (SQL
// NULL) when d is not an array or n is out of range.
func JSONIndex(d Datum, n int64) (Datum, bool) {
	v := jsonOf(d)
	if v.Kind != JSONArray {
		return Null, false
	}
	if n < 0 {
		n += int64(len(v.Elems))
	}
	if n < 0 || n >= int64(len(v.Elems)) {
		return Null, false
	}
	return fromJSON(v.Elems[n], d.K), true
}

// JSONText implements the text result of ->>: a JSON string's contents
// unescaped, null as SQL NULL (ok false), anything else its JSON text.
// d is a json or jsonb datum, typically from JSONField or JSONIndex.
func JSONText(d Datum) (string, bool) {
	v := jsonOf(d)
	switch v.Kind {
	case JSONNull:
		return "", false
	case JSONString:
		return v.Str, true
	}
	return d.S, true
}

// JSONContains implements jsonb @> jsonb: whether a contains b, by
// PostgreSQL's containment rules (objects contain sub-objects, arrays
// contain arrays whose every element some element contains, a top-level
// array contains a scalar element, scalars contain equal scalars).
func JSONContains(a, b Datum) bool {
	va, vb := jsonOf(a), jsonOf(b)
	if va.Kind == JSONArray && vb.Kind != JSONArray && vb.Kind != JSONObject {
		vb = JSONValue{Kind: JSONArray, Elems: []JSONValue{vb}}
	}
	return jsonContains(&va, &vb)
}

func jsonContains(a, b *JSONValue) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case JSONObject:
		for i, k := range b.Keys {
			found := false
			for j := len(a.Keys) - 1; j >= 0; j-- {
				if a.Keys[j] == k {
					found = jsonContains(&a.Vals[j], &b.Vals[i])
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	case JSONArray:
		for i := range b.Elems {
			found := false
			for j := range a.Elems {
				if jsonContains(&a.Elems[j], &b.Elems[i]) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	return CompareJSON(a, b) == 0
}

// CompareJSON orders two documents as PostgreSQL's jsonb btree does: by
// kind (null < string < number < boolean < array < object; a top-level
// scalar sorts before any array), arrays by element count then elements,
// objects by pair count then key, value, key, value... in storage order.
// Both must be normalized.
func CompareJSON(a, b *JSONValue) int {
	if a.Kind != b.Kind {
		return cmpInt(int64(a.Kind), int64(b.Kind))
	}
	switch a.Kind {
	case JSONString:
		return strings.Compare(a.Str, b.Str)
	case JSONNumber:
		return a.Num.Cmp(b.Num)
	case JSONBool:
		return cmpBool(a.Bool, b.Bool)
	case JSONArray:
		if c := cmpInt(int64(len(a.Elems)), int64(len(b.Elems))); c != 0 {
			return c
		}
		for i := range a.Elems {
			if c := CompareJSON(&a.Elems[i], &b.Elems[i]); c != 0 {
				return c
			}
		}
	case JSONObject:
		if c := cmpInt(int64(len(a.Keys)), int64(len(b.Keys))); c != 0 {
			return c
		}
		for i := range a.Keys {
			if c := strings.Compare(a.Keys[i], b.Keys[i]); c != 0 {
				return c
			}
			if c := CompareJSON(&a.Vals[i], &b.Vals[i]); c != 0 {
				return c
			}
		}
	}
	return 0
}
