package keyenc

import (
	"encoding/binary"
	"math"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/widesql/widesql/planner/types"
)

// maxKeyExp bounds decimal exponents in keys; PostgreSQL's numeric has at
// most 131072 digits before the point and 16383 after.
const maxKeyExp = 200000

// Numeric key tags, in value order.
const (
	numNegInf byte = 0x01
	numNeg    byte = 0x02
	numZero   byte = 0x03
	numPos    byte = 0x04
	numPosInf byte = 0x05
	numNaN    byte = 0x06
)

// appendNumericKey appends the order-preserving numeric encoding: a tag;
// for finite nonzero values the decimal exponent of the leading digit (4
// bytes, sign bit flipped) and the significant digits without trailing
// zeros, two per byte as 1+10*d1+d2 (an odd last digit is paired with 0),
// then a 00 terminator; negative values invert those bytes. Equal values
// (1.5 and 1.50) encode equally.
func appendNumericKey(buf []byte, v *apd.Decimal) []byte {
	switch v.Form {
	case apd.NaN, apd.NaNSignaling:
		return append(buf, numNaN)
	case apd.Infinite:
		if v.Negative {
			return append(buf, numNegInf)
		}
		return append(buf, numPosInf)
	}
	if v.IsZero() {
		return append(buf, numZero)
	}
	digits := strings.TrimRight(v.Coeff.String(), "0")
	exp := int64(v.NumDigits()) - 1 + int64(v.Exponent)
	tag := numPos
	if v.Negative {
		tag = numNeg
	}
	buf = append(buf, tag)
	start := len(buf)
	buf = binary.BigEndian.AppendUint32(buf, uint32(int32(exp))^0x80000000)
	for i := 0; i < len(digits); i += 2 {
		d2 := byte(0)
		if i+1 < len(digits) {
			d2 = digits[i+1] - '0'
		}
		buf = append(buf, 1+10*(digits[i]-'0')+d2)
	}
	buf = append(buf, 0)
	if v.Negative {
		invert(buf[start:])
	}
	return buf
}

// decodeNumericKey decodes appendNumericKey's bytes (already un-inverted
// for DESC) and returns the normalized value and the rest.
func decodeNumericKey(b []byte, t types.T) (*apd.Decimal, []byte, error) {
	if len(b) == 0 {
		return nil, nil, corrupt(t, "empty numeric")
	}
	switch b[0] {
	case numNaN:
		return &apd.Decimal{Form: apd.NaN}, b[1:], nil
	case numNegInf:
		return &apd.Decimal{Form: apd.Infinite, Negative: true}, b[1:], nil
	case numPosInf:
		return &apd.Decimal{Form: apd.Infinite}, b[1:], nil
	case numZero:
		return &apd.Decimal{}, b[1:], nil
	case numPos, numNeg:
	default:
		return nil, nil, corrupt(t, "numeric tag %#x", b[0])
	}
	neg := b[0] == numNeg
	var mask byte
	if neg {
		mask = 0xFF
	}
	b = b[1:]
	if len(b) < 5 {
		return nil, nil, corrupt(t, "short numeric")
	}
	var e uint32
	for _, c := range b[:4] {
		e = e<<8 | uint32(c^mask)
	}
	exp := int64(int32(e ^ 0x80000000))
	b = b[4:]
	var digits []byte
	for i := 0; ; i++ {
		if i >= len(b) {
			return nil, nil, corrupt(t, "unterminated numeric")
		}
		c := b[i] ^ mask
		if c == 0 {
			b = b[i+1:]
			break
		}
		if c > 100 {
			return nil, nil, corrupt(t, "numeric digit byte %#x", c)
		}
		c--
		digits = append(digits, '0'+c/10, '0'+c%10)
	}
	ds := strings.TrimRight(string(digits), "0")
	if ds == "" || ds[0] == '0' || len(ds) < len(digits)-1 || exp > maxKeyExp || exp < -maxKeyExp {
		return nil, nil, corrupt(t, "non-canonical numeric")
	}
	d := new(apd.Decimal)
	if _, ok := d.Coeff.SetString(ds, 10); !ok {
		return nil, nil, corrupt(t, "numeric digits")
	}
	d.Exponent = int32(exp - int64(len(ds)) + 1)
	d.Negative = neg
	return d, b, nil
}

// numericFromKey restores a decoded key value's scale: numeric(p,s)
// columns get scale s back; unconstrained numeric keys come back with
// trailing fractional zeros removed (1.50 reads as 1.5) and no negative
// scale (1E+2 reads as 100).
func numericFromKey(d *apd.Decimal, t types.T) types.Datum {
	if d.Form == apd.Finite {
		exp := d.Exponent
		if t.Width > 0 {
			exp = -t.Scale
		} else if exp > 0 {
			exp = 0
		}
		if exp != d.Exponent {
			c := apd.BaseContext
			c.Precision = 150000
			_, _ = c.Quantize(d, d, exp)
		}
	}
	return types.NewNumeric(d)
}

// float4KeyBits is floatKeyBits for float32.
func float4KeyBits(f float32) uint32 {
	switch {
	case f == 0:
		return 1 << 31
	case f != f:
		return 0x7fc00000 ^ (1 << 31)
	}
	b := math.Float32bits(f)
	if b&(1<<31) != 0 {
		return ^b
	}
	return b ^ (1 << 31)
}

func float4FromKeyBits(b uint32) float32 {
	if b&(1<<31) != 0 {
		return math.Float32frombits(b ^ (1 << 31))
	}
	return math.Float32frombits(^b)
}

// dateKey maps a date's days to 4 key bytes' int32 (infinities to the
// int32 extremes).
func dateKey(days int64) uint32 {
	switch days {
	case types.PosInf:
		return math.MaxInt32 ^ 0x80000000
	case types.NegInf:
		return 0
	}
	return uint32(int32(days)) ^ 0x80000000
}

func dateFromKey(v uint32) int64 {
	switch i := int32(v ^ 0x80000000); i {
	case math.MaxInt32:
		return types.PosInf
	case math.MinInt32:
		return types.NegInf
	default:
		return int64(i)
	}
}

// JSON key tags, in PostgreSQL's jsonb order.
const (
	jsonNull   byte = 0x01
	jsonString byte = 0x02
	jsonNumber byte = 0x03
	jsonFalse  byte = 0x04
	jsonTrue   byte = 0x05
	jsonArray  byte = 0x06
	jsonObject byte = 0x07
)

// appendJSONKey appends the order-preserving encoding of a normalized jsonb
// value: a tag; strings escaped and terminated; numbers as numeric keys;
// arrays and objects a 4-byte count, then their elements (objects: key
// string, value) in storage order. Counts first give PostgreSQL's "more
// elements sort later" rule.
func appendJSONKey(buf []byte, v *types.JSONValue) []byte {
	switch v.Kind {
	case types.JSONNull:
		return append(buf, jsonNull)
	case types.JSONString:
		buf = append(buf, jsonString)
		buf = appendEscaped(buf, v.Str)
		return append(buf, escape, terminator)
	case types.JSONNumber:
		return appendNumericKey(append(buf, jsonNumber), v.Num)
	case types.JSONBool:
		if v.Bool {
			return append(buf, jsonTrue)
		}
		return append(buf, jsonFalse)
	case types.JSONArray:
		buf = append(buf, jsonArray)
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(v.Elems)))
		for i := range v.Elems {
			buf = appendJSONKey(buf, &v.Elems[i])
		}
		return buf
	}
	buf = append(buf, jsonObject)
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(v.Keys)))
	for i := range v.Keys {
		buf = appendEscaped(buf, v.Keys[i])
		buf = append(buf, escape, terminator)
		buf = appendJSONKey(buf, &v.Vals[i])
	}
	return buf
}

// decodeJSONKey decodes appendJSONKey's bytes (un-inverted).
func decodeJSONKey(b []byte, t types.T, depth int) (types.JSONValue, []byte, error) {
	var v types.JSONValue
	if len(b) == 0 || depth > 10000 {
		return v, nil, corrupt(t, "truncated jsonb")
	}
	tag := b[0]
	b = b[1:]
	switch tag {
	case jsonNull:
		v.Kind = types.JSONNull
	case jsonFalse, jsonTrue:
		v.Kind, v.Bool = types.JSONBool, tag == jsonTrue
	case jsonString:
		s, rest, err := decodeString(b, 0, t)
		if err != nil {
			return v, nil, err
		}
		v.Kind, v.Str, b = types.JSONString, s, rest
	case jsonNumber:
		d, rest, err := decodeNumericKey(b, t)
		if err != nil {
			return v, nil, err
		}
		if d.Form != apd.Finite {
			return v, nil, corrupt(t, "jsonb number %s", d)
		}
		if d.Exponent > 0 {
			c := apd.BaseContext
			c.Precision = 150000
			_, _ = c.Quantize(d, d, 0)
		}
		v.Kind, v.Num, b = types.JSONNumber, d, rest
	case jsonArray, jsonObject:
		if len(b) < 4 {
			return v, nil, corrupt(t, "truncated jsonb count")
		}
		n := binary.BigEndian.Uint32(b)
		b = b[4:]
		if n > uint32(len(b)) {
			return v, nil, corrupt(t, "jsonb count %d", n)
		}
		if tag == jsonArray {
			v.Kind, v.Elems = types.JSONArray, make([]types.JSONValue, 0, n)
		} else {
			v.Kind = types.JSONObject
		}
		for i := uint32(0); i < n; i++ {
			if tag == jsonObject {
				k, rest, err := decodeString(b, 0, t)
				if err != nil {
					return v, nil, err
				}
				v.Keys, b = append(v.Keys, k), rest
			}
			e, rest, err := decodeJSONKey(b, t, depth+1)
			if err != nil {
				return v, nil, err
			}
			b = rest
			if tag == jsonArray {
				v.Elems = append(v.Elems, e)
			} else {
				v.Vals = append(v.Vals, e)
			}
		}
	default:
		return v, nil, corrupt(t, "jsonb tag %#x", tag)
	}
	return v, b, nil
}
