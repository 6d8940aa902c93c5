package types

import (
	"encoding/binary"
	"strings"
	"time"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// Arrays are one-dimensional with lower bound 1. Multi-dimensional input
// is 0A000.

func arraySyntax(s string, detail string) error {
	return pgerror.New(pgerror.CodeInvalidTextRepresentation, "malformed array literal: %q", s).WithDetail("%s", detail)
}

// parseArray parses "{elem,elem,...}": elements separated by commas,
// double-quoted with backslash escapes when needed, unquoted NULL is NULL,
// whitespace around elements ignored.
func parseArray(t T, s string, loc *time.Location) (Datum, error) {
	et := t.ElemType()
	in := trimSpace(s)
	if len(in) < 2 || in[0] != '{' || in[len(in)-1] != '}' {
		return Null, arraySyntax(s, `Array value must start with "{" or dimension information.`)
	}
	body := in[1 : len(in)-1]
	elems := []Datum{}
	if trimSpace(body) == "" {
		return NewArray(et, elems), nil
	}
	i := 0
	for {
		for i < len(body) && isSpace(body[i]) {
			i++
		}
		if i < len(body) && body[i] == '{' {
			return Null, pgerror.Unimplemented("multidimensional arrays")
		}
		var sb strings.Builder
		quoted, any := false, false
		for i < len(body) {
			c := body[i]
			if c == '"' {
				quoted, any = true, true
				i++
				for i < len(body) && body[i] != '"' {
					if body[i] == '\\' && i+1 < len(body) {
						i++
					}
					sb.WriteByte(body[i])
					i++
				}
				if i >= len(body) {
					return Null, arraySyntax(s, "Unexpected end of input.")
				}
				i++
				continue
			}
			if c == ',' {
				break
			}
			if c == '{' || c == '}' {
				return Null, arraySyntax(s, "Unexpected \""+string(c)+"\" character.")
			}
			if c == '\\' && i+1 < len(body) {
				i++
				c = body[i]
			}
			sb.WriteByte(c)
			any = true
			i++
		}
		raw := sb.String()
		if !quoted {
			raw = trimSpace(raw)
		}
		if !any || (!quoted && raw == "") {
			return Null, arraySyntax(s, "Unexpected \",\" character.")
		}
		if !quoted && strings.EqualFold(raw, "null") {
			elems = append(elems, Null)
		} else {
			d, err := ParseTextIn(et, raw, loc)
			if err != nil {
				return Null, err
			}
			elems = append(elems, d)
		}
		if i >= len(body) {
			break
		}
		i++ // the comma
	}
	return NewArray(et, elems), nil
}

// appendArrayText appends "{a,b,NULL}", quoting elements that are empty,
// NULL-like, or contain braces, commas, quotes, backslashes or spaces.
func appendArrayText(buf []byte, d Datum, loc *time.Location) []byte {
	a := d.ArrayValue()
	buf = append(buf, '{')
	var scratch []byte
	for i, e := range a.Elems {
		if i > 0 {
			buf = append(buf, ',')
		}
		if e.IsNull() {
			buf = append(buf, "NULL"...)
			continue
		}
		scratch = AppendTextIn(scratch[:0], e, loc)
		if !needsArrayQuote(scratch) {
			buf = append(buf, scratch...)
			continue
		}
		buf = append(buf, '"')
		for _, c := range scratch {
			if c == '"' || c == '\\' {
				buf = append(buf, '\\')
			}
			buf = append(buf, c)
		}
		buf = append(buf, '"')
	}
	return append(buf, '}')
}

func needsArrayQuote(b []byte) bool {
	if len(b) == 0 || strings.EqualFold(string(b), "null") {
		return true
	}
	for _, c := range b {
		switch c {
		case '{', '}', ',', '"', '\\', ' ', '\t', '\n', '\r', '\v', '\f':
			return true
		}
	}
	return false
}

// appendArrayBinary appends array_send's format: ndim, has-null flag,
// element OID, then per dimension its length and lower bound (1), then
// each element as a length (-1 for NULL) and its binary form.
func appendArrayBinary(buf []byte, d Datum, t T) []byte {
	a := d.ArrayValue()
	et := t.ElemType()
	if et.Kind == Unknown {
		et = a.Elem
	}
	ndim, hasNull := uint32(1), uint32(0)
	if len(a.Elems) == 0 {
		ndim = 0
	}
	for _, e := range a.Elems {
		if e.IsNull() {
			hasNull = 1
		}
	}
	buf = binary.BigEndian.AppendUint32(buf, ndim)
	buf = binary.BigEndian.AppendUint32(buf, hasNull)
	buf = binary.BigEndian.AppendUint32(buf, et.OID())
	if ndim == 0 {
		return buf
	}
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(a.Elems)))
	buf = binary.BigEndian.AppendUint32(buf, 1)
	for _, e := range a.Elems {
		if e.IsNull() {
			buf = binary.BigEndian.AppendUint32(buf, 0xFFFFFFFF)
			continue
		}
		at := len(buf)
		buf = append(buf, 0, 0, 0, 0)
		buf = AppendBinary(buf, e, et)
		binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
	}
	return buf
}

// decodeArrayBinary decodes array_recv's format for array type t.
func decodeArrayBinary(t T, b []byte) (Datum, error) {
	et := t.ElemType()
	bad := func() (Datum, error) { return Null, badBinary(t, len(b)) }
	if len(b) < 12 {
		return bad()
	}
	ndim := binary.BigEndian.Uint32(b)
	elemOID := binary.BigEndian.Uint32(b[8:])
	if got, ok := TypeFromOID(elemOID); !ok || got.Kind != et.Kind {
		return Null, pgerror.New(pgerror.CodeDatatypeMismatch, "binary data has array element type %d instead of expected %d", elemOID, et.OID())
	}
	b = b[12:]
	switch ndim {
	case 0:
		return NewArray(et, []Datum{}), nil
	case 1:
	default:
		return Null, pgerror.Unimplemented("multidimensional arrays")
	}
	if len(b) < 8 {
		return bad()
	}
	n := binary.BigEndian.Uint32(b)
	b = b[8:]
	if n > uint32(len(b))/4 {
		return bad()
	}
	elems := make([]Datum, 0, n)
	for i := uint32(0); i < n; i++ {
		if len(b) < 4 {
			return bad()
		}
		l := int32(binary.BigEndian.Uint32(b))
		b = b[4:]
		if l == -1 {
			elems = append(elems, Null)
			continue
		}
		if l < 0 || int(l) > len(b) {
			return bad()
		}
		e, err := DecodeBinary(et, b[:l])
		if err != nil {
			return Null, err
		}
		elems = append(elems, e)
		b = b[l:]
	}
	if len(b) != 0 {
		return bad()
	}
	return NewArray(et, elems), nil
}

// compareArray orders arrays as PostgreSQL's btree does: element by
// element (NULL elements after non-NULL ones), then the shorter first.
func compareArray(a, b Datum) int {
	x, y := a.ArrayValue().Elems, b.ArrayValue().Elems
	for i := 0; i < len(x) && i < len(y); i++ {
		if c := Compare(x[i], y[i]); c != 0 {
			return c
		}
	}
	return cmpInt(int64(len(x)), int64(len(y)))
}
