package lsm

import (
	"encoding/binary"
	"fmt"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
)

// fileRows enables collectFile. A variable only so that the differential
// test (rowreader_file_test.go) can compare reads with it and without;
// nothing else sets it.
var fileRows = true

// fileFast reports whether collectFile can read this read's rows: the
// newest visible version of each column, at any time, of the read's
// families or of its column table once built (a read with Columns uses the
// general path for its first colsAfter rows).
func (r *rowReader) fileFast() bool {
	o := r.opts
	return fileRows && r.versions == 1 && o.MinTimestamp == 0 && o.MaxTimestamp == 0 &&
		(len(o.Columns) == 0 || (r.cols != nil && len(r.cols.cols) > 0))
}

// collectFile is collectOf for a read of one version per column from one
// file (src.sst: a scan's lone input, mostly a compacted region's file),
// the shape of nearly every SQL scan. A row's entries are Sets, each column's newest
// first, so the row is decided column by column on the key bytes alone:
//
//   - an entry sharing its column's bytes with the one before it (the
//     block's prefix compression: src's shared length reaches the end of
//     the column) is an older version, stepped over once the column is
//     decided, its key never parsed;
//   - a new column's family is found only when the shared length stops
//     short of the family's end, and looked up only when it differs from
//     the last one;
//   - the first version at or below the snapshot decides the column: it
//     is the live cell unless its family is unknown, masked or expired,
//     or the projection does not want it.
//
// visibility's state (family and qualifier) is the scratch for those
// comparisons, so a row handed to collectAll part way starts from a
// consistent state. Tombstones are what it does not decide: at the first
// one (always the first entry of its row, family or column, which sort
// before what they cover) the rest of the row goes to collectAll, with the
// cells read so far. So does a malformed key, which collectAll reports.
func (r *rowReader) collectFile(src *cellSource, prefix, arena []byte, keyLen int, cells []kv.Cell, inRow bool) (bool, error) {
	v := &r.vis
	var cols []projCol
	if len(r.opts.Columns) > 0 {
		cols = r.cols.cols
	}
	plen := len(prefix)
	// famTo and colTo: where the current family's and column's bytes end
	// in the current key; -1 before the row's first entry.
	famTo, colTo := -1, -1
	decided := false // the current column has given its cell or none
	skipped := 0     // entries of the decided column stepped over
	cur := 0         // the first of cols not below the last column matched
	read := 0
	handOver := false // stopped at an entry of the row collectAll decides
	var err error
	sst := src.sst
	for sst != nil && sst.Valid() {
		k := sst.Key()
		sh := -1
		if src.stepped {
			sh = sst.SharedAfterNext()
		}
		if inRow {
			inRow = false
		} else if sh < plen && !inRowAt(k, prefix, sh) {
			break
		}
		handOver = true // until the entry is decided here
		end := len(k) - ikey.TrailerLen
		if end < plen+4 {
			break // malformed: collectAll reports it
		}
		if colTo < 0 || sh < colTo {
			if famTo < 0 || sh < famTo {
				fe := ikey.ComponentEnd(k[plen:end])
				if fe < 0 {
					break
				}
				if fam := k[plen : plen+fe]; !eqShort(fam, v.famBuf) {
					v.famBuf = append(v.famBuf[:0], fam...)
					v.fam = v.findFamily(fam)
					colTo = -1 // no column of this family seen
				}
				famTo = plen + fe
			}
			q := k[famTo:end]
			if ikey.ComponentEnd(q) != len(q) {
				break
			}
			// A restart point (shared 0) within a column's versions
			// is the same column, told by its qualifier.
			if colTo < 0 || !eqShort(q, v.colBuf) {
				v.colBuf = copyShort(v.colBuf, q)
				decided, skipped = false, 0
			}
			colTo = end
		} else if end != colTo {
			break
		}
		tr := k[end:]
		if kind := ikey.Kind(tr[16]); kind != ikey.KindSet {
			if decided {
				// A tombstone after a Set of its column is out of
				// key order.
				err = fmt.Errorf("lsm: bad internal key %q: %w", k, errCorrupt)
			}
			break
		}
		ts := int64(^binary.BigEndian.Uint64(tr))
		if ts < 0 {
			break
		}
		handOver = false
		read++
		if decided {
			if skipped++; skipped >= skipVersionsAfter && skipVersionsAfter > 0 {
				// As collectAll: past the rest of a column with many
				// versions in one seek.
				r.seekBuf = append(append(r.seekBuf[:0], k[:end]...), colEnd[:]...)
				src.seekForward(r.seekBuf)
				sst = src.sst
				famTo = -1 // the next key shares nothing known
				continue
			}
		} else if seq := ^binary.BigEndian.Uint64(tr[8:]); seq <= v.snap {
			decided = true
			var qual []byte
			ok := v.fam != nil && (r.famMask == nil || r.famMask[v.fam.idx]) &&
				(v.fam.ttl == 0 || ts >= v.nowUS-v.fam.ttl.Microseconds())
			if ok && cols != nil {
				var i int
				i, ok = r.fileCol(cols, cur, k[famTo:end])
				cur = i
				if ok {
					qual, cur = cols[i].raw, i+1
				}
			}
			if ok {
				// A projected column's qualifier is the table's copy;
				// any other is unescaped into the arena (collectAll).
				prev, qOff := arena, len(arena)
				if cols == nil {
					arena = ikey.Unescape(arena, k[famTo:end])
				}
				vOff := len(arena)
				arena = append(arena, sst.Value()...)
				if cap(arena) != cap(prev) {
					rebaseCells(cells, prev, arena)
				}
				cells = appendCell(cells, arena, qOff, vOff, v.fam.name, qual, ts)
			}
		}
		src.stepped = true
		if !sst.Next() && src.run != nil {
			src.nextFile()
			sst = src.sst
		}
	}
	r.stats.CellsRead += int64(read)
	if handOver && err == nil {
		return r.collectAll(src, prefix, arena, keyLen, cells, true)
	}
	return r.finishRow(src, arena, keyLen, cells, err)
}

// fileCol is wantedCol for collectFile: the column of family vis.fam
// with escaped qualifier q among cols[cur:], tried at cur first (the
// column after the last matched, mostly).
func (r *rowReader) fileCol(cols []projCol, cur int, q []byte) (int, bool) {
	fi := r.vis.fam.idx
	if cur < len(cols) && cols[cur].fam == fi && eqShort(cols[cur].esc, q) {
		return cur, true
	}
	for ; cur < len(cols); cur++ {
		c := &cols[cur]
		if c.fam < fi {
			continue
		}
		if c.fam > fi {
			break
		}
		if d := cmpEsc(c.esc, q); d >= 0 {
			return cur, d == 0
		}
	}
	return cur, false
}
