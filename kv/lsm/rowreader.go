package lsm

import (
	"bytes"
	"fmt"
	"slices"
	"unsafe"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
)

// rowReader assembles one row at a time from an internalIter positioned on
// the row's first entry, applying visibility and the read's projection,
// time range and version limit. Keys and values are copied into one arena
// reused by every row, so assembling a row allocates nothing once warm;
// the cells point into it directly (rebaseCells when it grows). A cell of
// a column the read's Columns list points at the column table's copy of
// its qualifier instead (buildCols), valid for the whole read.
type rowReader struct {
	vis      visibility
	opts     *kv.ReadOptions
	versions int    // per column; >= 1
	famMask  []bool // indexed like vis.fams; nil: every family

	// cols is the read's Columns in key order (buildCols), set up when
	// the read starts its row colsAfter+1; before, and for a read without
	// Columns, wanted loops over them; empty (or nil) when not built.
	// A pointer, not a slice: the rowIterator, one allocation per read,
	// stays within 760 bytes (the 768-byte size class with the 8-byte
	// header of objects over 512). A rowIterator points it at its
	// pooled readBufs' table (takeBufs), whose slices buildCols reuses.
	cols *colTable

	arena   []byte
	cells   []kv.Cell
	seekBuf []byte // the key collectOf seeks to past a finished column
	row     kv.Row
	stats   kv.ReadStats
}

// readRow consumes the entries of the row whose prefix is prefix (it is
// positioned on the first) and reports whether the row has projected
// cells, left in r.row. It leaves it on the first entry past the row.
//
// The loop keeps the arena and cells in locals, written back once per row:
// storing a slice header into *r per cell costs a write barrier while the
// collector runs.
func (r *rowReader) readRow(it internalIter, prefix []byte) (bool, error) {
	r.stats.RowsRead++
	if r.stats.RowsRead == colsAfter+1 {
		r.buildCols()
	}
	arena := ikey.Unescape(r.arena[:0], prefix)
	return r.collectIn(it, prefix, arena, len(arena), r.cells[:0], true)
}

// readRowOf is readRow from src (stepLone), for a row whose escaped
// prefix shares its first keep bytes (whole pairs) with the last row
// read so: the arena's first rawKeep bytes are their raw form already.
func (r *rowReader) readRowOf(src *cellSource, prefix []byte, keep, rawKeep int) (bool, error) {
	r.stats.RowsRead++
	if r.stats.RowsRead == colsAfter+1 {
		r.buildCols()
	}
	arena := ikey.Unescape(r.arena[:rawKeep], prefix[keep:])
	return r.collectOf(src, prefix, arena, len(arena), r.cells[:0], true)
}

// collect consumes the entries of the row whose prefix is prefix (it is
// positioned on the first), appending its projected cells to cells and
// their bytes to arena, whose first keyLen bytes are the rowkey and the
// rest the bytes of cells, back to back in cell order. It leaves r.row
// the row of all of cells, if any. A read's rows start with no cells; a
// row completed with its lazy families (read_lazy.go) starts with the
// essential ones.
func (r *rowReader) collect(it internalIter, prefix, arena []byte, keyLen int, cells []kv.Cell) (bool, error) {
	return r.collectIn(it, prefix, arena, keyLen, cells, false)
}

// collectIn is collect; inRow says it is known to be positioned on a key
// of the row (readRow's callers took prefix from that key or checked it),
// which then needs no prefix comparison.
func (r *rowReader) collectIn(it internalIter, prefix, arena []byte, keyLen int, cells []kv.Cell, inRow bool) (bool, error) {
	var src cellSource
	if m, ok := it.(*mergingIter); ok {
		// One input left (a single file or run, the memtables
		// exhausted): read it directly, without the merge's layer of
		// calls per entry.
		if child := m.single(); child != nil {
			src.init(child)
			ok, err := r.collectOf(&src, prefix, arena, keyLen, cells, inRow)
			m.resync()
			return ok, err
		}
	}
	src.init(it)
	return r.collectOf(&src, prefix, arena, keyLen, cells, inRow)
}

// skipVersionsAfter is how many entries of a finished column (one that
// can yield no more cells: its versions emitted, or the rest shadowed or
// filtered out) collectOf steps over before it seeks past the column's
// remaining versions instead (LevelDB's and pebble's "skip to the next
// user key" after a few Next calls): a hot row's column keeps every
// version in the memtable and the files until a compaction, and a read of
// the newest one would otherwise walk them all. A few steps first keep
// the common case, a column with one or two versions, free of seeks.
//
// A variable only so that the differential test (read_skip_test.go) can
// compare reads with the shortcut and without (0: every entry goes through
// the plain path); nothing else sets it.
var skipVersionsAfter = 4

// cellFastPaths enables collectOf's shortcuts for the common cell: no
// prefix comparison for the row's first key (inRow), visibility's
// newColumn before stepIn, the column table's next column tried before
// wantedCol, and the cursor moved past a matched column for a read of
// one version. A variable only so that the differential test
// (rowreader_fast_test.go) can compare reads with them and without;
// nothing else sets it.
var cellFastPaths = true

// collectOf is collectIn over src itself. A read of one file's newest
// versions goes through collectFile (rowreader_file.go) until it meets an
// entry only this general path handles.
func (r *rowReader) collectOf(src *cellSource, prefix, arena []byte, keyLen int, cells []kv.Cell, inRow bool) (bool, error) {
	if src.sst != nil && r.fileFast() {
		return r.collectFile(src, prefix, arena, keyLen, cells, inRow)
	}
	return r.collectAll(src, prefix, arena, keyLen, cells, inRow)
}

// collectAll is collectOf for every source and read: visibility entry by
// entry, any version limit, time ranges and tombstones.
func (r *rowReader) collectAll(src *cellSource, prefix, arena []byte, keyLen int, cells []kv.Cell, inRow bool) (bool, error) {
	r.vis.resetRow()
	var emitGen uint64 // vis.colGen of the column last emitted; 0 none
	emitN := 0         // versions emitted for it
	var doneGen uint64 // vis.colGen of the column known finished; 0 none
	doneN := 0         // its entries stepped over since
	o := r.opts
	// Every column of the read's families, at any time: wanted reduces
	// to the family mask.
	allTimes := o.MinTimestamp == 0 && o.MaxTimestamp == 0
	allCols := allTimes && len(o.Columns) == 0
	var cols []projCol
	if r.cols != nil && len(r.cols.cols) > 0 {
		cols = r.cols.cols
	}
	cur := 0 // the first of cols not below the last cell's column
	var err error
	var p ikey.Parsed
	for src.valid() {
		k := src.key()
		sh := src.shared()
		if inRow && cellFastPaths {
			inRow = false
		} else if sh < len(prefix) && !inRowAt(k, prefix, sh) {
			break
		}
		r.stats.CellsRead++
		// How much of the previous key's parts (p, parsed) this key
		// shares: the family, or the family and qualifier too, are
		// neither scanned nor compared again (visibility.stepIn).
		same, perr := 0, error(nil)
		if fl := len(prefix) + len(p.Family); p.Qualifier != nil && sh >= fl {
			if sh >= fl+len(p.Qualifier) {
				same, perr = sameCol, p.SetInColumn(k)
			} else {
				same, perr = sameFam, p.SetInRowFam(k, len(prefix), len(p.Family))
			}
		} else {
			perr = p.SetInRow(k, len(prefix))
		}
		if perr != nil {
			err = fmt.Errorf("lsm: bad internal key %q: %w", k, errCorrupt)
			break
		}
		val := src.value()
		verdict := live
		if !cellFastPaths || !r.vis.newColumn(&p, same) {
			var verr error
			if verdict, verr = r.vis.stepIn(&p, val, same); verr != nil {
				err = fmt.Errorf("lsm: bad tombstone at %q: %w", k, errCorrupt)
				break
			}
		}
		if r.vis.colGen == doneGen && skipVersionsAfter > 0 {
			if doneN++; doneN >= skipVersionsAfter {
				// The rest of the column sorts before col+FF..FF
				// (a real trailer ends in a kind <= 4), every
				// later column after it.
				col := k[:len(k)-ikey.TrailerLen]
				r.seekBuf = append(append(r.seekBuf[:0], col...), colEnd[:]...)
				src.seekForward(r.seekBuf)
				doneGen = 0
				continue
			}
			src.next()
			continue
		}
		if verdict != live {
			// Shadowed is for good: the family is unknown, its
			// MaxVersions are used up, or the cell expired and
			// every later one is older.
			if verdict == shadowed {
				doneGen, doneN = r.vis.colGen, 0
			}
			src.next()
			continue
		}
		var qual []byte // the cell's qualifier, when qKnown
		qKnown := false
		if allCols {
			if r.famMask != nil && !r.famMask[r.vis.fam.idx] {
				doneGen, doneN = r.vis.colGen, 0
				src.next()
				continue
			}
		} else if cols != nil {
			// wantedCol's answer when the column is cols[cur] (the
			// one after the last matched, mostly) and there is no
			// time range.
			i, ok := cur, false
			if fi := r.vis.fam.idx; cellFastPaths && allTimes && cur < len(cols) && cols[cur].fam == fi &&
				(r.famMask == nil || r.famMask[fi]) && eqShort(cols[cur].esc, p.Qualifier) {
				ok = true
			} else {
				i, ok = r.wantedCol(&p, cols, cur)
			}
			cur = i
			if ok && r.versions == 1 && cellFastPaths {
				// The column's later versions are not emitted
				// anyway (emitN): the next cell's match is
				// looked for from the next column on, mostly
				// found at once.
				cur = i + 1
			}
			if !ok {
				if o.MaxTimestamp == 0 || kv.Timestamp(p.TS) < o.MaxTimestamp {
					doneGen, doneN = r.vis.colGen, 0
				}
				src.next()
				continue
			}
			qual, qKnown = cols[i].raw, true
		} else if !r.wanted(&p) {
			// Filtered out by the projection or as older than
			// MinTimestamp, so are the column's later versions;
			// not so a version at or above MaxTimestamp.
			if o.MaxTimestamp == 0 || kv.Timestamp(p.TS) < o.MaxTimestamp {
				doneGen, doneN = r.vis.colGen, 0
			}
			src.next()
			continue
		}
		// Entries of one column are contiguous: the column is the one
		// last emitted iff visibility has not moved to another since.
		if r.vis.colGen == emitGen {
			if emitN >= r.versions {
				src.next()
				continue
			}
			emitN++
		} else {
			emitGen, emitN = r.vis.colGen, 1
		}
		if emitN >= r.versions {
			doneGen, doneN = emitGen, 0
		}
		// A projected column's qualifier is the table's copy (stable
		// for the read); any other is unescaped into the arena.
		prev, qOff := arena, len(arena)
		if !qKnown {
			arena = ikey.Unescape(arena, p.Qualifier)
		}
		vOff := len(arena)
		arena = append(arena, val...)
		if cap(arena) != cap(prev) {
			rebaseCells(cells, prev, arena)
		}
		cells = appendCell(cells, arena, qOff, vOff, r.vis.fam.name, qual, p.TS)
		src.next()
	}
	return r.finishRow(src, arena, keyLen, cells, err)
}

// finishRow ends collectAll's or collectFile's row: it keeps the arena
// and cells for the next row and reports err, src's error, or whether
// the row has cells, left in r.row.
func (r *rowReader) finishRow(src *cellSource, arena []byte, keyLen int, cells []kv.Cell, err error) (bool, error) {
	r.arena, r.cells = arena, cells
	if err != nil {
		return false, err
	}
	if err := src.it.Err(); err != nil {
		return false, err
	}
	if len(cells) == 0 {
		return false, nil
	}
	r.row.Key, r.row.Cells = arena[:keyLen:keyLen], cells // by field, as the cells
	return true, nil
}

// appendCell appends the cell of family fam at ts whose qualifier is
// arena[qOff:vOff] (qual when that is empty: the column table's copy, or
// nil) and whose value is the rest of arena. Empty qualifiers and values
// stay nil. The cell is written field by field into its slot: a
// composite literal is built on the stack and copied, and that copy's
// 16-byte loads of the literal's 8-byte stores stalled on store
// forwarding (a sixth of a family scan's time).
func appendCell(cells []kv.Cell, arena []byte, qOff, vOff int, fam string, qual []byte, ts int64) []kv.Cell {
	var v []byte
	if vOff > qOff {
		qual = arena[qOff:vOff:vOff]
	}
	if end := len(arena); end > vOff {
		v = arena[vOff:end:end]
	}
	n := len(cells)
	if n < cap(cells) {
		cells = cells[:n+1]
	} else {
		cells = append(cells, kv.Cell{})
	}
	c := &cells[n]
	c.Family, c.Qualifier, c.Timestamp, c.Value = fam, qual, kv.Timestamp(ts), v
	return cells
}

// inRowAt reports whether k starts with prefix, given that it shares its
// first sh bytes (sh < len(prefix); -1 unknown) with the key before it,
// one of the row. The key that ends a row mostly differs from the row's
// keys at byte sh (the block's shared length is the longest common
// prefix but at a restart point): one byte decides it then, without the
// call into the runtime's compare. Nothing assumes that sh is maximal:
// equal at byte sh, the whole prefix is compared.
func inRowAt(k, prefix []byte, sh int) bool {
	if len(k) < len(prefix) {
		return false
	}
	if sh >= 0 && k[sh] != prefix[sh] {
		return false
	}
	return bytes.Equal(k[:len(prefix)], prefix)
}

// colEnd follows a column's key part (row, family, qualifier) to make a
// key above every entry of the column and below every later key.
var colEnd = [ikey.TrailerLen]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}

// seekForward moves it to the first entry >= k, which is above its
// current key.
func seekForward(it internalIter, k []byte) {
	if m, ok := it.(*mergingIter); ok {
		m.seekForward(k)
		return
	}
	it.SeekGE(k)
}

// rebaseCells points the cells' qualifiers and values that lay in old into
// arena, old's bytes moved (grown): at the same offsets. Qualifiers from
// the column table (cols) stay where they are.
func rebaseCells(cells []kv.Cell, old, arena []byte) {
	base, n := uintptr(unsafe.Pointer(unsafe.SliceData(old))), uintptr(cap(old))
	move := func(b []byte) []byte {
		if off := uintptr(unsafe.Pointer(unsafe.SliceData(b))) - base; len(b) > 0 && off < n {
			return arena[off : off+uintptr(len(b)) : off+uintptr(len(b))]
		}
		return b
	}
	for i := range cells {
		c := &cells[i]
		c.Qualifier, c.Value = move(c.Qualifier), move(c.Value)
	}
}

// colsAfter is how many rows a read with Columns reads before it builds
// its column table: a point Get or a short multi-get would spend more on
// building it than the table saves.
//
// A variable only so that the differential test (rowreader_cols_test.go)
// can compare reads with the table and without; nothing else sets it.
var colsAfter int64 = 2

// colTable is a read's column table (buildCols) and the bytes its
// columns point into.
type colTable struct {
	cols []projCol
	buf  []byte
}

// projCol is a column of the read's projection as collectOf matches it.
type projCol struct {
	fam int    // its family's index in vis.fams
	esc []byte // the escaped qualifier with its terminator, as in keys
	raw []byte // the qualifier (nil if empty), what cells point to
}

// buildCols sets up r.cols: the read's Columns of the table's families,
// without duplicates, in key order (family, then escaped qualifier, which
// sorts as the qualifier does). The table owns its bytes: a cell's
// qualifier may point at them for the whole read.
func (r *rowReader) buildCols() {
	o := r.opts
	if len(o.Columns) == 0 {
		return
	}
	size := 0
	for i := range o.Columns {
		size += 2*len(o.Columns[i].Qualifier) + 2
	}
	t := r.cols
	if t == nil {
		t = new(colTable)
	}
	// buf must not grow: the columns point into it.
	buf, cols := t.buf[:0], t.cols[:0]
	if cap(buf) < size {
		buf = make([]byte, 0, size)
	}
	for i := range o.Columns {
		c := &o.Columns[i]
		f := slices.IndexFunc(r.vis.fams, func(f famInfo) bool { return f.name == c.Family })
		if f < 0 {
			continue // no such family: no cell to match
		}
		var raw []byte
		if len(c.Qualifier) > 0 {
			buf = append(buf, c.Qualifier...)
			raw = buf[len(buf)-len(c.Qualifier) : len(buf) : len(buf)]
		}
		n := len(buf)
		buf = ikey.AppendEscaped(buf, c.Qualifier)
		cols = append(cols, projCol{fam: f, esc: buf[n:len(buf):len(buf)], raw: raw})
	}
	slices.SortFunc(cols, func(a, b projCol) int {
		if a.fam != b.fam {
			return a.fam - b.fam
		}
		return bytes.Compare(a.esc, b.esc)
	})
	cols = slices.CompactFunc(cols, func(a, b projCol) bool { return a.fam == b.fam && bytes.Equal(a.esc, b.esc) })
	t.cols, t.buf = cols, buf
	r.cols = t
}

// wantedCol is wanted with the column table: cols[cur:] holds every
// column at or above the last one matched in the row (above it, for a
// read of one version: collectOf), so cells, which come in key order,
// only move the cursor forward. It returns the new
// cursor, the matched column's index when ok.
func (r *rowReader) wantedCol(p *ikey.Parsed, cols []projCol, cur int) (int, bool) {
	o := r.opts
	ts := kv.Timestamp(p.TS)
	if ts < o.MinTimestamp || (o.MaxTimestamp != 0 && ts >= o.MaxTimestamp) {
		return cur, false
	}
	fi := r.vis.fam.idx
	if r.famMask != nil && !r.famMask[fi] {
		return cur, false
	}
	for ; cur < len(cols); cur++ {
		c := &cols[cur]
		if c.fam < fi {
			continue
		}
		if c.fam > fi {
			break
		}
		if d := cmpEsc(c.esc, p.Qualifier); d >= 0 {
			return cur, d == 0
		}
	}
	return cur, false
}

// wanted applies the read's family and column projection and time range to
// a live cell of family r.vis.fam.
func (r *rowReader) wanted(p *ikey.Parsed) bool {
	o := r.opts
	ts := kv.Timestamp(p.TS)
	if ts < o.MinTimestamp || (o.MaxTimestamp != 0 && ts >= o.MaxTimestamp) {
		return false
	}
	if r.famMask != nil && !r.famMask[r.vis.fam.idx] {
		return false
	}
	if len(o.Columns) == 0 {
		return true
	}
	for i := range o.Columns {
		c := &o.Columns[i]
		if c.Family == r.vis.fam.name && escapedEqual(p.Qualifier, c.Qualifier) {
			return true
		}
	}
	return false
}

// escapedEqual reports whether esc (an escaped component with terminator)
// encodes raw.
func escapedEqual(esc, raw []byte) bool {
	j := 0
	for i := 0; i < len(esc)-2; i++ {
		if j >= len(raw) || esc[i] != raw[j] {
			return false
		}
		if esc[i] == 0 {
			i++ // skip the FF of the escape
		}
		j++
	}
	return j == len(raw)
}

// cmpEsc is bytes.Compare for escaped qualifiers, mostly a few bytes
// long: a loop here beats the call into the runtime's compare.
func cmpEsc(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return int(a[i]) - int(b[i])
		}
	}
	return len(a) - len(b)
}
