package lsm

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"

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

// rcEntry is a cached row: bytes of a shard's slab (rowcache_slab.go),
// immutable once inserted, laid out as
//
//	validSeq (8 bytes, little endian) | size (4): the entry's length |
//	ctx (2): its context's index in the shard | hdrLen (2) |
//	headers (hdrLen bytes) | key | every cell's qualifier and value, back
//	to back (what a hit copies, in one move)
//
// The headers are uvarints: key length, length of the cells' bytes, cell
// count, the first cell's
// timestamp (the base), then per cell its family's index in the
// context's family set, qualifier length, value length and timestamp
// minus the base (zigzag; 0 takes one byte, and most rows' cells share a
// timestamp). A table slot holds the entry's locator (slab and offset);
// its length is read from size, so a slab is walked entry by entry.
type rcEntry []byte

const rcFixed = 16 // validSeq, size, ctx, hdrLen

// rcEnc is a row's entry, planned (planEntry) before it is written
// (appendTo): its size is known first, to find it room.
type rcEnc struct {
	row  *kv.Row
	fams []famInfo
	hb   [4 * binary.MaxVarintLen64]byte
	hbn  int
	base kv.Timestamp
	size int
}

// planEntry plans the entry of row, read with family set fams; false if
// a cell's family is not in fams or the key or headers are too long for
// the fixed header's fields.
func planEntry(p *rcEnc, row *kv.Row, fams []famInfo) bool {
	p.row, p.fams = row, fams
	p.base = 0
	if len(row.Cells) > 0 {
		p.base = row.Cells[0].Timestamp
	}
	data := 0
	for i := range row.Cells {
		data += len(row.Cells[i].Qualifier) + len(row.Cells[i].Value)
	}
	hb := binary.AppendUvarint(p.hb[:0], uint64(len(row.Key)))
	hb = binary.AppendUvarint(hb, uint64(data))
	hb = binary.AppendUvarint(hb, uint64(len(row.Cells)))
	hb = binary.AppendUvarint(hb, uint64(p.base))
	p.hbn = len(hb)
	hdr := len(hb)
	fi := 0
	for i := range row.Cells {
		c := &row.Cells[i]
		if fi >= len(fams) || fams[fi].name != c.Family {
			if fi = slices.IndexFunc(fams, func(f famInfo) bool { return f.name == c.Family }); fi < 0 {
				return false
			}
		}
		hdr += uvarintLen(uint64(fi)) + uvarintLen(uint64(len(c.Qualifier))) + uvarintLen(uint64(len(c.Value))) + uvarintLen(zigzag(int64(c.Timestamp-p.base)))
	}
	p.size = rcFixed + hdr + len(row.Key) + data
	return hdr <= 0xffff && p.size <= 0x7fffffff
}

// appendTo appends the entry, read at seq and naming context ctx, to dst,
// which has room for it (p.size bytes).
func (p *rcEnc) appendTo(dst []byte, seq uint64, ctx int) []byte {
	row, fams := p.row, p.fams
	start := len(dst)
	buf := binary.LittleEndian.AppendUint64(dst, seq)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(p.size))
	buf = binary.LittleEndian.AppendUint16(buf, uint16(ctx))
	buf = binary.LittleEndian.AppendUint16(buf, 0) // hdrLen, below
	buf = append(buf, p.hb[:p.hbn]...)
	fi := 0
	for i := range row.Cells {
		c := &row.Cells[i]
		if fi >= len(fams) || fams[fi].name != c.Family {
			fi = slices.IndexFunc(fams, func(f famInfo) bool { return f.name == c.Family }) // found by planEntry
		}
		buf = binary.AppendUvarint(buf, uint64(fi))
		buf = binary.AppendUvarint(buf, uint64(len(c.Qualifier)))
		buf = binary.AppendUvarint(buf, uint64(len(c.Value)))
		buf = binary.AppendUvarint(buf, zigzag(int64(c.Timestamp-p.base)))
	}
	binary.LittleEndian.PutUint16(buf[start+14:], uint16(len(buf)-start-rcFixed))
	buf = append(buf, row.Key...)
	for i := range row.Cells {
		buf = append(append(buf, row.Cells[i].Qualifier...), row.Cells[i].Value...)
	}
	return buf
}

// encodeEntry returns row's entry in a buffer of its own (for tests);
// false as planEntry.
func encodeEntry(row *kv.Row, seq uint64, fams []famInfo, ctx int) (rcEntry, bool) {
	var p rcEnc
	if !planEntry(&p, row, fams) {
		return nil, false
	}
	return p.appendTo(make([]byte, 0, p.size), seq, ctx), true
}

// uvSlow decodes the uvarint at b[p:] and returns it and the position
// after it.
func uvSlow(b []byte, p int) (uint64, int) {
	x, w := binary.Uvarint(b[p:])
	return x, p + w
}

func uvarintLen(x uint64) int { return (bits.Len64(x|1) + 6) / 7 }

func zigzag(x int64) uint64 { return uint64(x<<1) ^ uint64(x>>63) }

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

func (e rcEntry) validSeq() uint64   { return binary.LittleEndian.Uint64(e) }
func (e rcEntry) size() int          { return int(binary.LittleEndian.Uint32(e[8:])) }
func (e rcEntry) ctx() int           { return int(binary.LittleEndian.Uint16(e[12:])) }
func (e rcEntry) dataStart() int     { return rcFixed + int(binary.LittleEndian.Uint16(e[14:])) }
func (e rcEntry) keyLen() (int, int) { k, n := binary.Uvarint(e[rcFixed:]); return int(k), n }

// key returns the entry's rowkey (a view).
func (e rcEntry) key() []byte {
	k, _ := e.keyLen()
	d := e.dataStart()
	return e[d : d+k]
}

// emit copies the hit's row into r's arena and cells and makes it r.row:
// the caller may keep or change it until the next row, never touching
// the entry.
func (h *rcHit) emit(r *rowReader) {
	e := h.e
	d := e.dataStart()
	hd := e[rcFixed:d]
	kl, p := uvSlow(hd, 0)
	dl, p := uvSlow(hd, p)
	nc, p := uvSlow(hd, p)
	base, p := uvSlow(hd, p)
	arena := append(r.arena[:0], e[d:d+int(kl)+int(dl)]...)
	cells := r.cells[:0]
	if cap(cells) < int(nc) {
		cells = make([]kv.Cell, 0, nc)
	}
	cells = cells[:nc]
	off := int(kl)
	for i := range cells {
		var fi, ql, vl, dt uint64
		if p+4 <= len(hd) && binary.LittleEndian.Uint32(hd[p:])&0x80808080 == 0 {
			// Four one-byte fields, the usual case.
			fi, ql, vl, dt = uint64(hd[p]), uint64(hd[p+1]), uint64(hd[p+2]), uint64(hd[p+3])
			p += 4
		} else {
			fi, p = uvSlow(hd, p)
			ql, p = uvSlow(hd, p)
			vl, p = uvSlow(hd, p)
			dt, p = uvSlow(hd, p)
		}
		c := &cells[i]
		c.Family, c.Timestamp = h.fams[fi].name, kv.Timestamp(int64(base)+unzigzag(dt))
		c.Qualifier, c.Value = nil, nil
		if ql > 0 {
			c.Qualifier = arena[off : off+int(ql) : off+int(ql)]
			off += int(ql)
		}
		if vl > 0 {
			c.Value = arena[off : off+int(vl) : off+int(vl)]
			off += int(vl)
		}
	}
	r.arena, r.cells = arena, cells
	r.row.Key, r.row.Cells = arena[:kl:kl], cells
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
