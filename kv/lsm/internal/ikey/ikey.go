// Package ikey is the internal key of the LSM engine: one key per cell
// version or tombstone, ordered by plain bytes.Compare as
// row ↑, family ↑, qualifier ↑, timestamp ↓, sequence ↓.
//
//	+-----------+-------+-----------+-------+-----------+-------+---------+----------+------+
//	| esc(row)  | 00 01 | esc(fam)  | 00 01 | esc(qual) | 00 01 | BE64 ^ts| BE64 ^seq| kind |
//	+-----------+-------+-----------+-------+-----------+-------+---------+----------+------+
//	                                                               8 bytes   8 bytes   1 byte
//
// esc replaces each 0x00 byte by 00 FF, so the terminator 00 01 sorts
// before any continuation of the component and byte order of the escaped
// form equals byte order of the raw form. The last 17 bytes are the fixed
// trailer.
//
// Tombstones carry timestamp TombstoneTS (math.MaxInt64, above every valid
// cell timestamp) so they sort before every version they may cover:
//
//	DeleteRow     family "" and qualifier ""  (family names are never empty,
//	              so it sorts first in the row)
//	DeleteFamily  the family, qualifier ""    (first in the family)
//	DeleteCells   the column; the value is uvarint(start) uvarint(end)
//	Set           the column at the cell's timestamp; the value is the cell's
package ikey

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"slices"
)

// Kind says what an entry is.
type Kind uint8

// The entry kinds. The numbering is part of the on-disk format.
const (
	KindSet          Kind = 1
	KindDeleteCells  Kind = 2
	KindDeleteFamily Kind = 3
	KindDeleteRow    Kind = 4
)

// TombstoneTS is the timestamp slot of every tombstone.
const TombstoneTS = math.MaxInt64

// TrailerLen is the size of the fixed trailer: ^ts, ^seq, kind.
const TrailerLen = 17

// ErrCorrupt is returned by Parse for a key that is not an internal key.
var ErrCorrupt = errors.New("ikey: malformed internal key")

// AppendEscaped appends esc(b) and the terminator 00 01 to dst.
func AppendEscaped(dst, b []byte) []byte {
	for {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			break
		}
		dst = append(dst, b[:i]...)
		dst = append(dst, 0, 0xff)
		b = b[i+1:]
	}
	dst = append(dst, b...)
	return append(dst, 0, 1)
}

// Append appends the internal key of (row, family, qualifier, ts, seq, kind)
// to dst and returns the extended slice.
func Append(dst, row []byte, family string, qualifier []byte, ts int64, seq uint64, kind Kind) []byte {
	dst = AppendEscaped(dst, row)
	dst = appendEscapedString(dst, family)
	dst = AppendEscaped(dst, qualifier)
	return AppendTrailer(dst, ts, seq, kind)
}

// AppendTrailer appends the 17-byte trailer.
func AppendTrailer(dst []byte, ts int64, seq uint64, kind Kind) []byte {
	dst = binary.BigEndian.AppendUint64(dst, ^uint64(ts))
	dst = binary.BigEndian.AppendUint64(dst, ^seq)
	return append(dst, byte(kind))
}

func appendEscapedString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			dst = append(dst, 0, 0xff)
		} else {
			dst = append(dst, s[i])
		}
	}
	return append(dst, 0, 1)
}

// RowPrefix returns esc(row) 00 01: every key of the row starts with it, and
// it sorts before all of them. It is also the bloom-filter key of the row.
func RowPrefix(dst, row []byte) []byte { return AppendEscaped(dst, row) }

// componentEnd returns the length of the escaped component at the start of
// k including its terminator, or -1.
func componentEnd(k []byte) int {
	// A plain loop: components are mostly a few bytes, too short for
	// bytes.IndexByte's setup to pay.
	for i := 0; i+1 < len(k); i++ {
		if k[i] != 0 {
			continue
		}
		switch k[i+1] {
		case 1:
			return i + 2
		case 0xff:
			i++
		default:
			return -1
		}
	}
	return -1
}

// ComponentEnd returns the length of the escaped component at the start
// of k including its terminator, or -1 if k holds no whole component.
func ComponentEnd(k []byte) int { return componentEnd(k) }

// RowPrefixOf returns the row prefix (esc(row) 00 01) of the internal key k,
// aliasing k, or nil if k is malformed.
func RowPrefixOf(k []byte) []byte {
	n := componentEnd(k)
	if n < 0 {
		return nil
	}
	return k[:n]
}

// RowPrefixFrom is RowPrefixOf for a key whose first from bytes are
// known to hold no terminator (a scan's key sharing them with a key of
// the row before, whose prefix is longer): the scan for the terminator
// starts there, at the pair that holds byte from. It returns nil if k is
// malformed.
func RowPrefixFrom(k []byte, from int) []byte {
	from = PairStart(k, from)
	n := componentEnd(k[from:])
	if n < 0 {
		return nil
	}
	return k[:from+n]
}

// PairStart returns the largest i <= n that does not split an escape
// pair of the escaped component at the start of k (n <= len(k)): byte
// i-1 is not the 00 that starts one. A 00 always starts a pair (the
// second byte is FF or 01), so one byte decides it.
func PairStart(k []byte, n int) int {
	if n > 0 && k[n-1] == 0 {
		n--
	}
	return n
}

// UnescapedLen returns how many raw bytes the escaped bytes esc (whole
// pairs, no terminator) encode: one per byte, but one per 00 FF pair. A
// scan's row key shares its raw prefix of that length with the row
// before when the escaped keys share esc.
func UnescapedLen(esc []byte) int {
	n := len(esc)
	zeros := 0
	i := 0
	for ; i+8 <= len(esc); i += 8 {
		// Exactly the zero bytes of x get their high bit set in t.
		x := binary.LittleEndian.Uint64(esc[i:])
		const lo7 = 0x7f7f7f7f7f7f7f7f
		t := ^(((x & lo7) + lo7) | x | lo7)
		zeros += bits.OnesCount64(t)
	}
	for ; i < len(esc); i++ {
		if esc[i] == 0 {
			zeros++
		}
	}
	return n - zeros
}

// BloomKey is the sstable bloom-key function: the row prefix of an internal
// key, so a Get probes a file with RowPrefix(rowkey).
func BloomKey(k []byte) []byte { return RowPrefixOf(k) }

// Parsed is an internal key split into its parts. Row, Family and
// Qualifier are escaped and include their terminators; they alias the key.
type Parsed struct {
	Row, Family, Qualifier []byte
	TS                     int64
	Seq                    uint64
	Kind                   Kind
}

// Parse splits k. The parts alias k.
func Parse(k []byte) (Parsed, error) {
	if len(k) < TrailerLen+6 {
		return Parsed{}, ErrCorrupt
	}
	n := componentEnd(k[:len(k)-TrailerLen])
	if n < 0 {
		return Parsed{}, ErrCorrupt
	}
	return ParseInRow(k, n)
}

// ParseInRow is Parse for a key known to start with a row prefix of
// rowLen bytes (it does not scan the row again): a reader that checked
// bytes.HasPrefix(k, RowPrefix(row)) parses each key of the row in time
// independent of the rowkey's length. A k that does not start with a valid
// row prefix of that length gives garbage parts or ErrCorrupt, never a
// panic.
func ParseInRow(k []byte, rowLen int) (Parsed, error) {
	var p Parsed
	err := p.SetInRow(k, rowLen)
	return p, err
}

// SetInRow is ParseInRow into p, for a reader's per-cell loop: it fills
// p in place rather than returning (and copying) a Parsed per key.
func (p *Parsed) SetInRow(k []byte, rowLen int) error {
	if rowLen < 2 || len(k) < rowLen+TrailerLen+4 {
		return ErrCorrupt
	}
	end := len(k) - TrailerLen
	body := k[rowLen:end]
	p.Row = k[:rowLen]
	n := componentEnd(body)
	if n < 0 {
		return ErrCorrupt
	}
	p.Family, body = body[:n], body[n:]
	if n = componentEnd(body); n != len(body) {
		return ErrCorrupt
	}
	p.Qualifier = body
	return p.setTrailer(k[end:])
}

// setTrailer fills p's timestamp, sequence number and kind from the
// trailer tr and checks them.
func (p *Parsed) setTrailer(tr []byte) error {
	ts := int64(^binary.BigEndian.Uint64(tr))
	kind := Kind(tr[16])
	p.TS, p.Seq, p.Kind = ts, ^binary.BigEndian.Uint64(tr[8:]), kind
	if kind < KindSet || kind > KindDeleteRow || ts < 0 {
		return ErrCorrupt
	}
	return nil
}

// SetInRowFam is SetInRow for a key whose family component (with its
// terminator) is known to be the famLen bytes after the row prefix: a
// scan's key that shares them with the key before it, whose family had
// that length (components are self-delimiting). It does not scan the
// family again. famLen < 2 means unknown: it is SetInRow.
func (p *Parsed) SetInRowFam(k []byte, rowLen, famLen int) error {
	if famLen < 2 || rowLen < 2 || len(k) < rowLen+famLen+2+TrailerLen {
		return p.SetInRow(k, rowLen)
	}
	end := len(k) - TrailerLen
	n := rowLen + famLen
	p.Row, p.Family = k[:rowLen], k[rowLen:n]
	body := k[n:end]
	if componentEnd(body) != len(body) {
		return ErrCorrupt
	}
	p.Qualifier = body
	return p.setTrailer(k[end:])
}

// SetInColumn is SetInRow for a key known to share its row, family and
// qualifier components with the key p was last set from (a scan's key
// sharing at least that many bytes with the key before it: components are
// self-delimiting). It re-slices them from k and parses the trailer only.
// A k of another length than those components and a trailer is malformed.
func (p *Parsed) SetInColumn(k []byte) error {
	r, f := len(p.Row), len(p.Row)+len(p.Family)
	n := f + len(p.Qualifier)
	if r < 2 || len(p.Family) < 2 || len(p.Qualifier) < 2 || len(k) != n+TrailerLen {
		return ErrCorrupt
	}
	p.Row, p.Family, p.Qualifier = k[:r:r], k[r:f:f], k[f:n:n]
	return p.setTrailer(k[n:])
}

// Unescape appends the raw bytes of the escaped component esc (with or
// without its terminator) to dst. It grows dst once and copies byte by
// byte: encoded integer keys are full of escaped zeros, and a copy per
// run between escapes cost more than the bytes themselves.
func Unescape(dst, esc []byte) []byte {
	if n := len(esc); n >= 2 && esc[n-2] == 0 && esc[n-1] == 1 {
		esc = esc[:n-2]
	}
	n := len(dst)
	dst = slices.Grow(dst, len(esc))[:n+len(esc)]
	out := dst[n:]
	j := 0
	for i := 0; i < len(esc); i++ {
		out[j] = esc[i]
		j++
		if esc[i] == 0 {
			i++ // the FF of the escape
		}
	}
	return dst[:n+j]
}

// AppendRange encodes a DeleteCells value.
func AppendRange(dst []byte, start, end int64) []byte {
	dst = binary.AppendUvarint(dst, uint64(start))
	return binary.AppendUvarint(dst, uint64(end))
}

// DecodeRange decodes a DeleteCells value.
func DecodeRange(v []byte) (start, end int64, err error) {
	s, n := binary.Uvarint(v)
	if n <= 0 {
		return 0, 0, ErrCorrupt
	}
	e, m := binary.Uvarint(v[n:])
	if m <= 0 || n+m != len(v) || s > math.MaxInt64 || e > math.MaxInt64 {
		return 0, 0, ErrCorrupt
	}
	return int64(s), int64(e), nil
}
