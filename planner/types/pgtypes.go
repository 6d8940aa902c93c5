package types

// OWNER: helper "pgtypes" (the system-catalog types: text and binary I/O,
// casts, comparison). The declarations below are the contract the
// catalog code builds on.

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
