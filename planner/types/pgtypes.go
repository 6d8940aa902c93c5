package types

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// The system-catalog types: oid, name, "char", the reg* types, int2vector
// and oidvector (kinds declared in types.go).

// OIDs of the system-catalog types.
const (
	OIDChar         uint32 = 18
	OIDName         uint32 = 19
	OIDInt2Vector   uint32 = 22
	OIDRegProc      uint32 = 24
	OIDOid          uint32 = 26
	OIDOidVector    uint32 = 30
	OIDRegClass     uint32 = 2205
	OIDRegType      uint32 = 2206
	OIDRegNamespace uint32 = 4089
	OIDRegRole      uint32 = 4096
)

// NewOid returns an oid datum.
func NewOid(oid uint32) Datum { return Datum{K: Oid, NotNull: true, I: int64(oid)} }

// NewName returns a name datum (PostgreSQL's 64-byte identifier type).
func NewName(s string) Datum { return Datum{K: Name, NotNull: true, S: s} }

// NewChar returns a "char" datum: the first byte of s, or the empty
// value for "".
func NewChar(s string) Datum {
	if len(s) > 1 {
		s = s[:1]
	}
	return Datum{K: Char, NotNull: true, S: s}
}

// NewReg returns a value of one of the reg* kinds (RegClass, RegType,
// RegProc, RegNamespace, RegRole): the object's OID and the name its text
// output shows ("-" for OID 0, the number itself for an unknown OID).
func NewReg(k Kind, oid uint32, name string) Datum {
	return Datum{K: k, NotNull: true, I: int64(oid), S: name}
}

// NewInt2Vector returns an int2vector datum (pg_index.indkey).
func NewInt2Vector(v []int16) Datum {
	elems := make([]Datum, len(v))
	for i, x := range v {
		elems[i] = NewInt(Int2, int64(x))
	}
	return Datum{K: Int2Vector, NotNull: true, x: &ArrayVal{Elem: TInt2, Elems: elems}}
}

// NewOidVector returns an oidvector datum (pg_index.indclass).
func NewOidVector(v []uint32) Datum {
	elems := make([]Datum, len(v))
	for i, x := range v {
		elems[i] = NewOid(x)
	}
	return Datum{K: OidVector, NotNull: true, x: &ArrayVal{Elem: TOid, Elems: elems}}
}

// MaxNameLen is the longest name value in bytes (PostgreSQL's
// NAMEDATALEN-1): name input truncates longer strings at a character
// boundary.
const MaxNameLen = 63

// IsReg reports whether k is one of the reg* kinds (RegClass, RegType,
// RegProc, RegNamespace, RegRole): an object's OID that prints as its name.
func (k Kind) IsReg() bool { return k >= RegClass && k <= RegRole }

// IsOidLike reports whether k is oid or a reg* kind: a 32-bit unsigned
// OID in I that compares, hashes and casts as an oid.
func (k Kind) IsOidLike() bool { return k == Oid || k.IsReg() }

// IsVector reports whether k is int2vector or oidvector: an array of int2
// or oid (ArrayValue) whose subscripts start at 0.
func (k Kind) IsVector() bool { return k == Int2Vector || k == OidVector }

// ArrayLowerBound returns the subscript of d's first element: 0 for an
// int2vector or oidvector (pg_index.indkey[0] is the first key column, as
// in PostgreSQL), 1 for every other array.
func ArrayLowerBound(d Datum) int {
	if d.K.IsVector() {
		return 0
	}
	return 1
}

// RegOID returns the OID a reg* or oid datum holds.
func (d Datum) RegOID() uint32 { return uint32(d.I) }

// RegTypeName returns the name regtype output shows for t: format_type
// without modifiers ("character varying", "character" for bpchar,
// "integer[]").
func RegTypeName(t T) string {
	t.Width, t.Scale = 0, 0
	switch {
	case t.Kind == BPChar:
		return "character"
	case t.Kind == Array && t.Elem == BPChar:
		return "character[]"
	}
	return t.String()
}

// CatalogCommonType returns the type a comparison of operands of types a
// and b meets at when either is a system-catalog kind, following
// PostgreSQL's implicit casts: oid and the reg* kinds meet at oid, with
// integers too (int4 -> oid is implicit, so c.oid = 16385 works); the
// same reg* kind stays itself; name and "char" meet text (and varchar,
// char(n)) at text; int2vector and oidvector only meet themselves. ok is
// false when there is no such type (the caller reports 42883).
func CatalogCommonType(a, b T) (T, bool) {
	ak, bk := a.Kind, b.Kind
	switch {
	case ak == bk && ak != Array:
		return a, true
	case ak.IsOidLike() && (bk.IsOidLike() || bk.IsInt()),
		bk.IsOidLike() && ak.IsInt():
		return TOid, true
	case (ak == Name || ak == Char) && (bk.IsString() || bk == Name || bk == Char),
		(bk == Name || bk == Char) && ak.IsString():
		if ak == Unknown {
			return b, true
		}
		if bk == Unknown {
			return a, true
		}
		return TText, true
	}
	return T{}, false
}

// ImplicitCatalogCast reports whether PostgreSQL converts a value of type
// from to type to implicitly (in function and operator arguments and
// comparisons) when either is a system-catalog kind: integers to oid and
// the reg* kinds, the reg* kinds to oid, oid to the reg* kinds, name and
// "char" to text, text and varchar to name.
func ImplicitCatalogCast(from, to T) bool {
	f, t := from.Kind, to.Kind
	switch {
	case f == t:
		return f != Array || from.Elem == to.Elem
	case t.IsOidLike():
		return f.IsInt() || f == Oid || f.IsReg() && t == Oid
	case t == Text:
		return f == Name || f == Char
	case t == Name:
		return f == Text || f == BPChar
	}
	return false
}

// parseOid reads oid input as PostgreSQL's oidin does: a decimal integer
// with optional sign and surrounding whitespace that fits in 32 bits
// unsigned, or a negative value down to -2147483648 that wraps
// ('-1'::oid is 4294967295). Bad syntax is 22P02, out of range 22003.
func parseOid(s string) (uint32, error) {
	if strings.IndexByte(s, '_') >= 0 { // PostgreSQL 15 has no digit separators
		return 0, syntaxError(TOid, s)
	}
	d, err := parseInt(TInt8, s)
	switch {
	case pgerror.CodeOf(err) == pgerror.CodeNumericValueOutOfRange:
		return 0, oidOutOfRange(s)
	case err != nil:
		return 0, syntaxError(TOid, s)
	case d.I < math.MinInt32 || d.I > math.MaxUint32:
		return 0, oidOutOfRange(s)
	}
	return uint32(d.I), nil
}

func oidOutOfRange(s string) error {
	return pgerror.New(pgerror.CodeNumericValueOutOfRange, "value %q is out of range for type oid", s)
}

// truncateName cuts s to MaxNameLen bytes at a character boundary, as
// namein does.
func truncateName(s string) string {
	if len(s) <= MaxNameLen {
		return s
	}
	n := MaxNameLen
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// parseChar reads "char" input as charin does: a backslash and three
// octal digits is that byte (the form charout prints for bytes with the
// high bit set), anything else its first byte, "" the empty value.
func parseChar(s string) string {
	if len(s) == 4 && s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && isOctal(s[2]) && isOctal(s[3]) {
		return string([]byte{(s[1]-'0')<<6 | (s[2]-'0')<<3 | (s[3] - '0')})
	}
	return s
}

// ErrRegNeedsCatalog is the error ParseText returns for a reg* value
// written as a name: resolving it needs the catalog, which the executor
// has (exec/regcast.go); only numeric OIDs and "-" parse here.
var ErrRegNeedsCatalog = pgerror.New(pgerror.CodeFeatureNotSupported, "reg* name input needs the catalog")

// parseRegOID parses the catalog-free forms of reg* input: a numeric OID
// (kept without a name; its output is the number until the executor
// resolves it) and "-" for OID 0. Names are ErrRegNeedsCatalog.
func parseRegOID(k Kind, s string) (Datum, error) {
	if s == "-" {
		return NewReg(k, 0, ""), nil
	}
	if v, ok := RegNumericInput(s); ok {
		return NewReg(k, v, ""), nil
	}
	return Null, ErrRegNeedsCatalog
}

// RegNumericInput reports whether s is a numeric OID as the reg* input
// functions accept it (all decimal digits, at most 10, fitting in 32
// bits), and returns it.
func RegNumericInput(s string) (uint32, bool) {
	if s == "" || len(s) > 10 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseUint(s, 10, 32)
	return uint32(v), err == nil
}

// parseVector reads int2vector and oidvector input: elements separated by
// whitespace, each in its element type's input syntax.
func parseVector(k Kind, s string) (Datum, error) {
	f := strings.FieldsFunc(s, func(r rune) bool { return r < utf8.RuneSelf && isSpace(byte(r)) })
	if k == Int2Vector {
		v := make([]int16, len(f))
		for i, x := range f {
			d, err := parseInt(TInt2, x)
			if err != nil {
				return Null, err
			}
			v[i] = int16(d.I)
		}
		return NewInt2Vector(v), nil
	}
	v := make([]uint32, len(f))
	for i, x := range f {
		o, err := parseOid(x)
		if err != nil {
			return Null, err
		}
		v[i] = o
	}
	return NewOidVector(v), nil
}

// codeNameTooLong is 42622, PostgreSQL's code for a name longer than
// MaxNameLen bytes in binary input.
const codeNameTooLong = "42622"

// appendVectorBinary appends an int2vector or oidvector in array_send's
// format: one dimension (even when empty), no NULLs, the element type's
// OID, the length and lower bound 0, then each element as a length and its
// binary form.
func appendVectorBinary(buf []byte, d Datum) []byte {
	a := d.ArrayValue()
	buf = binary.BigEndian.AppendUint32(buf, 1)
	buf = binary.BigEndian.AppendUint32(buf, 0)
	buf = binary.BigEndian.AppendUint32(buf, a.Elem.OID())
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(a.Elems)))
	buf = binary.BigEndian.AppendUint32(buf, 0)
	for _, e := range a.Elems {
		at := len(buf)
		buf = append(buf, 0, 0, 0, 0)
		buf = AppendBinary(buf, e, a.Elem)
		binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
	}
	return buf
}

// decodeVectorBinary decodes int2vector or oidvector binary input, which
// int2vectorrecv and oidvectorrecv accept only as a one-dimensional array
// of the element type with lower bound 0 and no NULLs (22023 otherwise).
func decodeVectorBinary(t T, b []byte) (Datum, error) {
	elem := TInt2
	if t.Kind == OidVector {
		elem = TOid
	}
	invalid := pgerror.New(pgerror.CodeInvalidParameterValue, "invalid %s data", t)
	if len(b) < 12 {
		return Null, badBinary(t, len(b))
	}
	ndim, hasNull, et := binary.BigEndian.Uint32(b), binary.BigEndian.Uint32(b[4:]), binary.BigEndian.Uint32(b[8:])
	b = b[12:]
	if et != elem.OID() {
		return Null, pgerror.New(pgerror.CodeDatatypeMismatch, "binary data has array element type %d instead of expected %d", et, elem.OID())
	}
	n := uint32(0)
	switch {
	case hasNull != 0 || ndim > 1:
		return Null, invalid
	case ndim == 1:
		if len(b) < 8 {
			return Null, badBinary(t, len(b))
		}
		n = binary.BigEndian.Uint32(b)
		if binary.BigEndian.Uint32(b[4:]) != 0 {
			return Null, invalid
		}
		b = b[8:]
	}
	if n > uint32(len(b))/4 {
		return Null, badBinary(t, len(b))
	}
	elems := make([]Datum, 0, n)
	for i := uint32(0); i < n; i++ {
		if len(b) < 4 {
			return Null, badBinary(t, len(b))
		}
		l := int32(binary.BigEndian.Uint32(b))
		b = b[4:]
		if l < 0 {
			return Null, invalid
		}
		if int(l) > len(b) {
			return Null, badBinary(t, len(b))
		}
		e, err := DecodeBinary(elem, b[:l])
		if err != nil {
			return Null, err
		}
		elems = append(elems, e)
		b = b[l:]
	}
	if len(b) != 0 {
		return Null, badBinary(t, len(b))
	}
	return Datum{K: t.Kind, NotNull: true, x: &ArrayVal{Elem: elem, Elems: elems}}, nil
}

// isCatalogKind reports the system-catalog kinds.
func isCatalogKind(k Kind) bool { return k >= Oid && k <= OidVector }

// castCatalog casts between the system-catalog kinds and the others where
// the conversion is not an I/O conversion through text (which the caller
// does); ok is false for other pairs.
func castCatalog(d Datum, to T) (r Datum, ok bool, err error) {
	from := d.K
	switch {
	case from == to.Kind && from != Array:
		return d, true, nil
	case to.Kind == Name && from.IsString():
		return NewName(truncateName(bpcharTrim(d))), true, nil
	case to.Kind == Char && from == Unknown:
		return NewChar(parseChar(d.S)), true, nil
	case to.Kind == Char && (from == Text || from == BPChar || from == Name):
		return NewChar(d.S), true, nil // text_char: the first byte
	case to.Kind == Char && from == Int4:
		if d.I < math.MinInt8 || d.I > math.MaxInt8 {
			return Null, true, pgerror.New(pgerror.CodeNumericValueOutOfRange, `"char" out of range`)
		}
		if d.I == 0 {
			return NewChar(""), true, nil
		}
		return NewChar(string([]byte{byte(d.I)})), true, nil
	case from == Char && to.Kind == Int4:
		if d.S == "" {
			return NewInt(Int4, 0), true, nil
		}
		return NewInt(Int4, int64(int8(d.S[0]))), true, nil
	case to.Kind.IsOidLike() && from.IsInt():
		v := uint32(int32(d.I)) // int2 and int4 are binary-coercible: -1 is 4294967295
		if from == Int8 {
			if d.I < 0 || d.I > math.MaxUint32 {
				return Null, true, pgerror.New(pgerror.CodeNumericValueOutOfRange, "OID out of range")
			}
			v = uint32(d.I)
		}
		return oidAs(to.Kind, v), true, nil
	case to.Kind.IsOidLike() && from.IsOidLike():
		if from == to.Kind || from == Oid || to.Kind == Oid {
			if from == to.Kind {
				return d, true, nil
			}
			return oidAs(to.Kind, uint32(d.I)), true, nil
		}
	case from.IsOidLike() && to.Kind == Int4:
		return NewInt(Int4, int64(int32(uint32(d.I)))), true, nil
	case from.IsOidLike() && to.Kind == Int8:
		return NewInt(Int8, int64(uint32(d.I))), true, nil
	case from.IsVector() && to.Kind == Array:
		a := d.ArrayValue()
		if to.Elem == a.Elem.Kind {
			return NewArray(a.Elem, a.Elems), true, nil
		}
	case from.IsVector() && from == to.Kind:
		return d, true, nil
	case from.IsString() || from == Name || to.Kind.IsString() || to.Kind == Name:
		return Null, false, nil // I/O conversions
	}
	return Null, true, CannotCast(T{Kind: from}, to)
}

// oidAs returns oid v as a value of kind k (Oid or a reg* kind, whose
// name is left for exec/regcast.go to resolve).
func oidAs(k Kind, v uint32) Datum {
	if k == Oid {
		return NewOid(v)
	}
	return NewReg(k, v, "")
}
