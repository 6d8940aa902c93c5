package lsm

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
)

// A committed batch is one WAL record, so after a crash it is wholly there
// or wholly absent:
//
//	+--------+-----------+-----------+--------+-------------------------+
//	| ver=1  | tableID   | firstSeq  | nrows  | row ... (nrows times)   |
//	| byte   | uvarint   | uvarint   | uvarint|                         |
//	+--------+-----------+-----------+--------+-------------------------+
//	row: uvarint len, key, uvarint nmut, mutation ... (nmut times)
//	mutation: kind byte, then family, qualifier and value (each uvarint
//	          len + bytes), then ts, start, end (uvarints)
//
// The mutations get consecutive sequence numbers from firstSeq in record
// order. The WAL adds framing and checksums.
const batchVersion = 1

// errCorrupt is wrapped by every error reporting a malformed record,
// manifest or key.
var errCorrupt = errors.New("lsm: corruption")

type walRow struct {
	key  []byte
	muts []kv.Mutation
}

type walBatch struct {
	tableID, firstSeq uint64
	rows              []walRow
}

func (b *walBatch) count() int {
	n := 0
	for i := range b.rows {
		n += len(b.rows[i].muts)
	}
	return n
}

func appendBytes(dst, b []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}

// maxBatchHeader bounds the record's header: version, tableID, firstSeq
// and nrows.
const maxBatchHeader = 1 + 3*binary.MaxVarintLen64

// encodeBody appends maxBatchHeader bytes of room for the header and then
// the rows of b; finishBody completes it. The rows can so be encoded
// before firstSeq is known.
func (b *walBatch) encodeBody(dst []byte) []byte {
	var room [maxBatchHeader]byte
	return b.appendRows(append(dst, room[:]...))
}

// finishBody writes b's header in front of the rows of body (from
// encodeBody) and returns the record, which aliases body.
func (b *walBatch) finishBody(body []byte) []byte {
	var h [maxBatchHeader]byte
	hdr := b.appendHeader(h[:0])
	start := maxBatchHeader - len(hdr)
	copy(body[start:], hdr)
	return body[start:]
}

func (b *walBatch) appendHeader(dst []byte) []byte {
	dst = append(dst, batchVersion)
	dst = binary.AppendUvarint(dst, b.tableID)
	dst = binary.AppendUvarint(dst, b.firstSeq)
	return binary.AppendUvarint(dst, uint64(len(b.rows)))
}

func (b *walBatch) appendRows(dst []byte) []byte {
	for i := range b.rows {
		r := &b.rows[i]
		dst = appendBytes(dst, r.key)
		dst = binary.AppendUvarint(dst, uint64(len(r.muts)))
		for j := range r.muts {
			m := &r.muts[j]
			dst = append(dst, byte(m.Kind))
			dst = binary.AppendUvarint(dst, uint64(len(m.Family)))
			dst = append(dst, m.Family...)
			dst = appendBytes(dst, m.Qualifier)
			dst = appendBytes(dst, m.Value)
			dst = binary.AppendUvarint(dst, uint64(m.Timestamp))
			dst = binary.AppendUvarint(dst, uint64(m.Start))
			dst = binary.AppendUvarint(dst, uint64(m.End))
		}
	}
	return dst
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errors.New("bad varint")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.b)) {
		d.err = errors.New("length past end")
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) ts() kv.Timestamp {
	v := d.uvarint()
	if v > uint64(kv.MaxTimestamp) && d.err == nil {
		d.err = errors.New("timestamp out of range")
	}
	return kv.Timestamp(v)
}

// decodeBatch parses a record; the result aliases rec.
func decodeBatch(rec []byte) (walBatch, error) {
	var b walBatch
	if len(rec) == 0 || rec[0] != batchVersion {
		return b, fmt.Errorf("lsm: batch record: unknown version: %w", errCorrupt)
	}
	d := decoder{b: rec[1:]}
	b.tableID, b.firstSeq = d.uvarint(), d.uvarint()
	nrows := d.uvarint()
	if nrows > uint64(len(d.b)) {
		d.err = errors.New("row count past end")
	}
	for i := uint64(0); i < nrows && d.err == nil; i++ {
		r := walRow{key: d.bytes()}
		nmut := d.uvarint()
		if nmut > uint64(len(d.b)) {
			d.err = errors.New("mutation count past end")
		}
		for j := uint64(0); j < nmut && d.err == nil; j++ {
			if len(d.b) == 0 {
				d.err = errors.New("truncated mutation")
				break
			}
			m := kv.Mutation{Kind: kv.MutationKind(d.b[0])}
			d.b = d.b[1:]
			if m.Kind > kv.DeleteRow {
				d.err = errors.New("bad mutation kind")
			}
			m.Family = string(d.bytes())
			m.Qualifier, m.Value = d.bytes(), d.bytes()
			m.Timestamp, m.Start, m.End = d.ts(), d.ts(), d.ts()
			r.muts = append(r.muts, m)
		}
		b.rows = append(b.rows, r)
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = errors.New("trailing bytes")
	}
	if d.err != nil {
		return walBatch{}, fmt.Errorf("lsm: batch record: %v: %w", d.err, errCorrupt)
	}
	return b, nil
}

// entrySize bounds the size of the internal key and value of m in row
// key, as appendEntries writes them: the memtable's arena is allocated at
// the sum, so what the memtable counts is what it holds.
func entrySize(key []byte, m *kv.Mutation) int {
	n := escLen(key) + ikey.TrailerLen
	switch m.Kind {
	case kv.SetCell:
		n += escLen(m.Family) + escLen(m.Qualifier) + len(m.Value)
	case kv.DeleteCells:
		n += escLen(m.Family) + escLen(m.Qualifier) + 2*binary.MaxVarintLen64
	case kv.DeleteFamily:
		n += escLen(m.Family) + 2
	default:
		n += 4
	}
	return n
}

// escLen is the length of ikey.AppendEscaped(nil, b).
func escLen[T []byte | string](b T) int {
	n := len(b) + 2
	for i := 0; i < len(b); i++ {
		if b[i] == 0 {
			n++
		}
	}
	return n
}

// setSeq overwrites the sequence number in the trailer of internal key k
// (ikey: ... BE64 ^ts, BE64 ^seq, kind), for entries built before their
// batch's sequence numbers were reserved.
func setSeq(k []byte, seq uint64) {
	binary.BigEndian.PutUint64(k[len(k)-1-8:], ^seq)
}

// appendEntries appends the memtable entries of row r with sequence numbers
// from seq, carving keys and values out of *arena, and returns the next
// sequence number.
func appendEntries(es []entry, arena *[]byte, r *walRow, seq uint64) ([]entry, uint64) {
	// Every key of the row starts with its escaped rowkey: escape it once
	// into the arena and copy it for the others.
	var row []byte
	for i := range r.muts {
		m := &r.muts[i]
		a := *arena
		start := len(a)
		var kind ikey.Kind
		fam, qual, ts := m.Family, m.Qualifier, int64(ikey.TombstoneTS)
		switch m.Kind {
		case kv.SetCell:
			kind, ts = ikey.KindSet, int64(m.Timestamp)
		case kv.DeleteCells:
			kind = ikey.KindDeleteCells
		case kv.DeleteFamily:
			kind, qual = ikey.KindDeleteFamily, nil
		case kv.DeleteRow:
			kind, fam, qual = ikey.KindDeleteRow, "", nil
		}
		if row == nil {
			a = ikey.RowPrefix(a, r.key)
			row = a[start:len(a):len(a)]
		} else {
			a = append(a, row...)
		}
		a = ikey.AppendEscaped(a, []byte(fam))
		a = ikey.AppendEscaped(a, qual)
		a = ikey.AppendTrailer(a, ts, seq, kind)
		keyEnd := len(a)
		switch m.Kind {
		case kv.SetCell:
			a = append(a, m.Value...)
		case kv.DeleteCells:
			a = ikey.AppendRange(a, int64(m.Start), int64(m.End))
		}
		e := entry{key: a[start:keyEnd:keyEnd]}
		if len(a) > keyEnd {
			e.value = a[keyEnd:len(a):len(a)]
		}
		es = append(es, e)
		*arena = a
		seq++
	}
	return es, seq
}
