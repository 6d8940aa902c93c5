package lsm

import (
	"bytes"
	"encoding/binary"
	"slices"
	"unsafe"

	"github.com/widesql/widesql/kv"
)

// rcSig is the projection of the read that made an entry: a hit needs the
// same Families and Columns, compared element by element (no allocation).
// Shards share one between consecutive inserts of the same projection.
type rcSig struct {
	families []string
	columns  []kv.Column
	bytes    int // what it costs, for the budget
}

func newSig(o *kv.ReadOptions) *rcSig {
	s := &rcSig{families: slices.Clone(o.Families), columns: make([]kv.Column, len(o.Columns))}
	s.bytes = 64 + 16*len(o.Families) + 48*len(o.Columns)
	for i, c := range o.Columns {
		s.columns[i] = kv.Column{Family: c.Family, Qualifier: bytes.Clone(c.Qualifier)}
		s.bytes += len(c.Qualifier)
	}
	for _, f := range o.Families {
		s.bytes += len(f)
	}
	return s
}

// matches reports whether o has s's projection.
func (s *rcSig) matches(o *kv.ReadOptions) bool {
	if len(s.families) != len(o.Families) || len(s.columns) != len(o.Columns) {
		return false
	}
	for i, f := range o.Families {
		if s.families[i] != f {
			return false
		}
	}
	for i := range o.Columns {
		c, d := &o.Columns[i], &s.columns[i]
		if c.Family != d.Family || !bytes.Equal(c.Qualifier, d.Qualifier) {
			return false
		}
	}
	return true
}

// cacheableRead reports whether a read with options o (normalised by
// readAt: MaxTimestamp 0 for no bound) of a table with families fams may
// use the row cache: one version, no time range, forward, no lazy
// families, and no family with a TTL.
func cacheableRead(o *kv.ReadOptions, fams []famInfo) bool {
	if o.MaxVersions > 1 || o.MinTimestamp != 0 || o.MaxTimestamp != 0 || o.Reverse || len(o.Essential) > 0 {
		return false
	}
	for i := range fams {
		if fams[i].ttl > 0 {
			return false
		}
	}
	return len(fams) > 0
}

// newEntry encodes row (read at seq with family set fams) as an entry of
// table tid; nil if a cell's family is not in fams. One buffer holds the
// key, then every cell's qualifier and value back to back (what a hit
// copies, in one move), then a fixed-size header per cell (rcCellHeader
// bytes, little endian, so a hit decodes without varint loops):
//
//	family index (4 bytes) | qualifier length (4) | timestamp (8) |
//	value length (4)
func newEntry(tid uint64, row *kv.Row, seq uint64, fams []famInfo) *rcEntry {
	data := 0
	for i := range row.Cells {
		data += len(row.Cells[i].Qualifier) + len(row.Cells[i].Value)
	}
	buf := make([]byte, 0, len(row.Key)+data+len(row.Cells)*rcCellHeader)
	buf = append(buf, row.Key...)
	for i := range row.Cells {
		buf = append(append(buf, row.Cells[i].Qualifier...), row.Cells[i].Value...)
	}
	fi := 0
	for i := range row.Cells {
		c := &row.Cells[i]
		if fi >= len(fams) || fams[fi].name != c.Family {
			if fi = slices.IndexFunc(fams, func(f famInfo) bool { return f.name == c.Family }); fi < 0 {
				return nil
			}
		}
		buf = binary.LittleEndian.AppendUint32(buf, uint32(fi))
		buf = binary.LittleEndian.AppendUint32(buf, uint32(len(c.Qualifier)))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(c.Timestamp))
		buf = binary.LittleEndian.AppendUint32(buf, uint32(len(c.Value)))
	}
	e := &rcEntry{tid: tid, validSeq: seq, fams: fams, buf: buf, keyLen: len(row.Key), ncells: len(row.Cells), dataLen: data}
	if len(row.Key) > 0 {
		e.key = unsafe.String(&buf[0], len(row.Key))
	}
	e.size = int64(cap(buf) + rcEntryOverhead)
	return e
}

// rcCellHeader is the size of a cell's header in an entry (newEntry).
const rcCellHeader = 20

// emit copies e's row into r's arena and cells and makes it r.row: the
// caller may keep or change it until the next row, never touching e.
func (e *rcEntry) emit(r *rowReader) {
	n := e.keyLen + e.dataLen
	arena := append(r.arena[:0], e.buf[:n]...)
	cells := r.cells[:0]
	if cap(cells) < e.ncells {
		cells = make([]kv.Cell, 0, e.ncells)
	}
	cells = cells[:e.ncells]
	h, off := e.buf[n:], e.keyLen
	for i := range cells {
		h = h[:rcCellHeader:len(h)]
		fi := binary.LittleEndian.Uint32(h)
		ql := int(binary.LittleEndian.Uint32(h[4:]))
		ts := binary.LittleEndian.Uint64(h[8:])
		vl := int(binary.LittleEndian.Uint32(h[16:]))
		h = h[rcCellHeader:cap(h)]
		var q, v []byte
		if ql > 0 {
			q = arena[off : off+ql : off+ql]
			off += ql
		}
		if vl > 0 {
			v = arena[off : off+vl : off+vl]
			off += vl
		}
		c := &cells[i]
		c.Family, c.Qualifier, c.Timestamp, c.Value = e.fams[fi].name, q, kv.Timestamp(ts), v
	}
	r.arena, r.cells = arena, cells
	r.row.Key, r.row.Cells = arena[:e.keyLen:e.keyLen], cells
	r.stats.RowsRead++
	r.stats.CacheHits++
}

// rowCache returns the store's row cache, making it on first use; nil
// when Options.RowCacheSize disables it. It is made under commitMu with
// floor at the last reserved seq: every write reserved later finds it and
// invalidates (see rowCache).
func (s *Store) rowCache() *rowCache {
	if c := s.rc.Load(); c != nil || s.opts.RowCacheSize < 0 {
		return c
	}
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	if c := s.rc.Load(); c != nil {
		return c
	}
	c := newRowCache(s.opts.RowCacheSize, s.lastSeq.Load())
	s.mu.Lock()
	if s.closed {
		c.closed.Store(true)
	}
	s.mu.Unlock()
	s.rc.Store(c)
	return c
}
