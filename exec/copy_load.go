package exec

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"time"
	"unsafe"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
)

// copyBatchBytes bounds the encoded rows a COPY FROM holds before it
// writes them. A COPY smaller than this (about 64 MiB of cells) is written
// at CopyDone as one atomic kv batch: all or nothing, even across a crash,
// and invisible to readers until then. A larger one is written in batches
// of this size as its data arrives, straight to the store: the kv
// contract has no atomic write of unbounded size short of holding it all
// in memory. If such a COPY then fails (bad data, a duplicate key,
// CopyFail, the client leaving), the rows its earlier batches wrote are
// deleted again; each was written with RequireAbsent, so it did not exist
// before and deleting it restores the table. Readers may see those rows
// meanwhile, and a crash between the batches keeps them. Inside a
// transaction block every batch goes to the transaction's write buffer
// (bounded by kv/txn's MaxWriteBytes) and the block's end decides.
//
// An autocommit COPY into a table whose store can bulk-ingest
// (kv.Ingester: kv/lsm) takes neither path: each row goes to the ingest
// builder as it is parsed, which writes sorted files on the side, and
// CopyDone installs them at once (all or nothing, also across a crash,
// invisible until then) with memory bounded by the builder's chunk, not
// the statement. Inside a block, for salted and wide tables (their
// wrappers do not pass the capability through) and on other stores,
// the batches above are used.
const copyBatchBytes = 64 << 20

// copyLoader turns COPY FROM input into rows and writes them: each value
// parsed with its column's text input function, the others given their
// defaults, NOT NULL and rowkey uniqueness checked, as INSERT does, with
// no SQL planning per row.
type copyLoader struct {
	x          *executor
	p          *planner.CopyFrom
	t          *planner.TableDesc
	f          *planner.CopyFormat
	kvt        kv.Table
	w          *rowWriter
	loc        *time.Location
	autocommit bool // outside a block: undo earlier batches on failure

	rd      lineReader
	bin     *binaryReader // binary format
	binLine int           // rows read in binary format
	header  bool          // the header line is still to come
	ended   bool          // the end-of-data marker \. was read
	fields  []copyField
	scratch []byte
	all     []int

	// Duplicate rowkeys within the COPY: while keys arrive in strictly
	// increasing order (the usual bulk load) none can repeat, and keys
	// just lists them; at the first key out of order seen indexes them
	// all and checks every later key.
	keys    keyList
	seen    map[string]int // key -> ordinal in the COPY
	slab    []types.Datum  // rows are carved from it
	batch   []kv.RowMutation
	rows    []Row // the rows of batch, for 23505 messages
	lines   []int // their line numbers
	size    int
	written [][]byte // rowkeys applied by earlier batches (autocommit)
	count   int64

	// Bulk ingest: the builder and the line of each row given to it (to
	// place a duplicate found at CopyDone).
	ing      kv.IngestBuilder
	ingLines chunked[int32]
	// The builder's columns (kv.IngestBuilder.SetColumns): the row
	// marker, then the non-key columns valCols, in the order cells()
	// writes them; each row goes to AddCells as its key and vals, encoded
	// into vbuf, with no kv.Mutation built. nil: rows go to Add.
	valCols []int
	vals    [][]byte
	voffs   []int
	vbuf    []byte
	row     Row // the row being loaded: the builder keeps no Row
	// borrowText: binary text fields alias the input (decodeBinary).
	borrowText bool
}

func newCopyLoader(x *executor, p *planner.CopyFrom, loc *time.Location, autocommit bool) (*copyLoader, error) {
	kvt, err := x.kvTable(p.Table) // exec/txn.go
	if err != nil {
		return nil, err
	}
	ts, err := x.writeTimestamp() // scan_asof.go
	if err != nil {
		return nil, err
	}
	l := &copyLoader{x: x, p: p, t: p.Table, f: &p.Format, kvt: kvt, w: &rowWriter{t: p.Table, ts: ts}, loc: loc,
		autocommit: autocommit, header: p.Format.Header, all: allColumns(p.Table)}
	l.rd = lineReader{f: l.f, table: p.Table.Name}
	if p.Format.Binary {
		l.bin = &binaryReader{}
	}
	if in, ok := kvt.(kv.Ingester); ok && autocommit {
		b, err := in.NewIngest(context.Background())
		switch {
		case err == nil:
			l.ing = b
			l.setColumns(ts)
		case !errors.Is(err, kv.ErrIngestUnsupported):
			return nil, storageError(txnError(err))
		}
	}
	return l, nil
}

// setColumns gives the ingest builder the cells every row sets (those
// cells() returns for a row without NULLs); if it refuses them, rows go
// to Add.
func (l *copyLoader) setColumns(ts kv.Timestamp) {
	t := l.t
	cols := []kv.IngestColumn{{Family: t.MarkerFamily, Qualifier: planner.MarkerQualifier, Timestamp: ts}}
	var valCols []int
	for ci := range t.Columns {
		c := &t.Columns[ci]
		if c.IsKey() {
			continue
		}
		cols = append(cols, kv.IngestColumn{Family: c.Family, Qualifier: c.Qualifier(), Timestamp: ts})
		valCols = append(valCols, ci)
	}
	if l.ing.SetColumns(cols) != nil {
		return
	}
	l.valCols, l.vals, l.voffs = valCols, make([][]byte, len(cols)), make([]int, len(valCols)+1)
	l.borrowText = true // see decodeBinary
	// Never nil, so an empty value is a non-nil empty slice of it.
	l.vbuf = make([]byte, 0, 256)
}

// cellValues encodes the non-key columns of row into l.vals (nil for
// NULL) as cells() does, with the same 23502 for a NULL in a NOT NULL
// column; l.vals[0] is the row marker.
func (l *copyLoader) cellValues(row Row) ([][]byte, error) {
	t, b := l.t, l.vbuf[:0]
	for k, ci := range l.valCols {
		c := &t.Columns[ci]
		d := &row[ci]
		if d.IsNull() {
			if c.NotNull {
				return nil, notNullError(t, c)
			}
			l.voffs[k] = -1
			continue
		}
		l.voffs[k] = len(b)
		b = keyenc.AppendValue(b, *d, c.Type)
	}
	l.voffs[len(l.valCols)] = len(b)
	l.vbuf = b
	l.vals[0] = markerValue
	end := len(b)
	for k := len(l.valCols) - 1; k >= 0; k-- {
		start := l.voffs[k]
		if start < 0 {
			l.vals[k+1] = nil
			continue
		}
		l.vals[k+1] = b[start:end:end]
		end = start
	}
	return l.vals, nil
}

// markerValue is the row marker's value: empty, but not NULL.
var markerValue = []byte{}

// data consumes one chunk of input.
func (l *copyLoader) data(ctx context.Context, chunk []byte) error {
	if l.ended {
		return nil
	}
	if l.bin != nil {
		l.bin.add(chunk)
		defer l.bin.keep() // chunk is valid only during the call
	} else {
		l.rd.add(chunk)
	}
	return l.loadLines(ctx, false)
}

// loadLines loads every complete line read so far (all of them at eof).
func (l *copyLoader) loadLines(ctx context.Context, eof bool) error {
	if l.bin != nil {
		return l.loadBinary(ctx, eof)
	}
	for !l.ended {
		line, ok, err := l.rd.next(eof)
		if err != nil || !ok {
			return err
		}
		if err := l.line(ctx, line); err != nil {
			return err
		}
	}
	return nil
}

// finish loads the rest of the input and writes what is held; it returns
// the number of rows loaded.
func (l *copyLoader) finish(ctx context.Context) (int64, error) {
	if err := l.loadLines(ctx, true); err != nil {
		return 0, err
	}
	if l.ing != nil {
		err := l.ing.Commit(ctx)
		l.ing = nil
		if err != nil {
			return 0, l.ingestError(err)
		}
		return l.count, nil
	}
	if err := l.flush(ctx); err != nil {
		return 0, err
	}
	return l.count, nil
}

// ingestError maps an error of the ingest builder: a duplicate key (with
// the rows before, or within the COPY) is 23505 with the row's line, as
// the batches report it.
func (l *copyLoader) ingestError(err error) error {
	var ce *kv.ConditionError
	if errors.As(err, &ce) {
		row := make(Row, len(l.t.Columns))
		if derr := decodeKeyInto(l.t, ce.Key, row); derr != nil {
			return storageError(err)
		}
		e := uniqueError(l.t, row)
		if n, ok := l.lineOfKey(ce.Key); ok {
			return copyError(e, l.t.Name, n, "", nil, false)
		}
		return e
	}
	if errors.Is(err, kv.ErrIngestConflict) {
		return pgerror.Wrap(err, pgerror.CodeSerializationFailure, "could not serialize access due to concurrent update")
	}
	return storageError(txnError(err))
}

// lineOfKey returns the line of the row with this key given to the
// ingest builder.
func (l *copyLoader) lineOfKey(key []byte) (int, bool) {
	i := -1
	if l.seen != nil {
		if ord, ok := l.seen[string(key)]; ok {
			i = ord
		}
	} else if j := sort.Search(l.keys.len(), func(j int) bool { return bytes.Compare(l.keys.at(j), key) >= 0 }); j < l.keys.len() && bytes.Equal(l.keys.at(j), key) {
		i = j
	}
	if i < 0 || i >= l.ingLines.len() {
		return 0, false
	}
	return int(l.ingLines.at(i)), true
}

// line loads one line.
func (l *copyLoader) line(ctx context.Context, line []byte) error {
	n, t, f := l.rd.line, l.t, l.f
	if err := types.CheckUTF8(line); err != nil {
		return copyError(err, t.Name, n, "", line, true)
	}
	if string(line) == `\.` {
		l.ended = true
		return nil
	}
	if f.CSV {
		var ok bool
		if l.fields, l.scratch, ok = splitCSV(f, line, l.fields, l.scratch); !ok {
			return copyError(pgerror.New(codeBadCopyFormat, "unterminated CSV quoted field"), t.Name, n, "", line, true)
		}
	} else {
		l.fields, l.scratch = splitText(f, line, l.fields, l.scratch)
	}
	if l.header {
		l.header = false
		if f.HeaderMatch {
			return l.matchHeader(line)
		}
		return nil
	}
	if len(l.fields) > len(l.p.Targets) {
		return copyError(pgerror.New(codeBadCopyFormat, "extra data after last expected column"), t.Name, n, "", line, true)
	}
	row := l.newRow()
	// Columns are converted in order, and a missing one is found in turn,
	// so the first problem of the line is reported, as in PostgreSQL.
	for j, ci := range l.p.Targets {
		if j >= len(l.fields) {
			return copyError(pgerror.New(codeBadCopyFormat, "missing data for column %q", t.Columns[ci].Name), t.Name, n, "", line, true)
		}
		fld := l.fields[j]
		null := fld.null
		if f.ForceNotNull != nil && f.ForceNotNull[j] {
			null = false
		}
		if f.ForceNull != nil && f.ForceNull[j] && fld.quoted && fld.val == f.Null {
			null = true
		}
		if null {
			continue
		}
		d, err := types.ParseTextIn(t.Columns[ci].Type, fld.val, l.loc)
		if err != nil {
			return copyError(err, t.Name, n, t.Columns[ci].Name, []byte(fld.val), false)
		}
		row[ci] = d
	}
	return l.store(ctx, row, n, line)
}

// loadBinary loads every complete row of binary input.
func (l *copyLoader) loadBinary(ctx context.Context, eof bool) error {
	t := l.t
	for {
		vals, ok, err := l.bin.next(eof)
		if err != nil {
			return copyError(err, t.Name, l.binLine+1, "", nil, false)
		}
		if !ok {
			return nil
		}
		l.binLine++
		n := l.binLine
		if len(vals) != len(l.p.Targets) {
			return copyError(pgerror.New(codeBadCopyFormat, "row field count is %d, expected %d", len(vals), len(l.p.Targets)), t.Name, n, "", nil, false)
		}
		row := l.newRow()
		for j, ci := range l.p.Targets {
			if vals[j] == nil {
				continue
			}
			if err := l.decodeBinary(&row[ci], &t.Columns[ci].Type, vals[j]); err != nil {
				return copyError(err, t.Name, n, t.Columns[ci].Name, nil, false)
			}
		}
		if err := l.store(ctx, row, n, nil); err != nil {
			return err
		}
	}
}

// decodeBinary decodes one binary COPY field of type typ into dst (left
// unspecified on error). Integers and unbounded text, the usual bulk-load
// columns, are decoded here, with no Datum copied back and forth; the
// rest by types.DecodeBinary, with the typmod checks binary input skips.
//
// With borrowText, text is not copied: the datum's string aliases b. This
// holds only while rows go to the ingest builder by AddCells, where store
// has encoded (copied) every value of the row into the key, vbuf or an
// error message before it returns, and loadBinary reads the next row only
// after that: no string of a row outlives b.
func (l *copyLoader) decodeBinary(dst *types.Datum, typ *types.T, b []byte) error {
	switch typ.Kind {
	case types.Int4:
		if len(b) == 4 {
			*dst = types.NewInt(types.Int4, int64(int32(binary.BigEndian.Uint32(b))))
			return nil
		}
	case types.Int8:
		if len(b) == 8 {
			*dst = types.NewInt(types.Int8, int64(binary.BigEndian.Uint64(b)))
			return nil
		}
	case types.Int2:
		if len(b) == 2 {
			*dst = types.NewInt(types.Int2, int64(int16(binary.BigEndian.Uint16(b))))
			return nil
		}
	case types.Text:
		if l.borrowText && typ.Width == 0 && len(b) > 0 && types.CheckUTF8(b) == nil {
			*dst = types.NewText(unsafe.String(&b[0], len(b)))
			return nil
		}
	}
	d, err := types.DecodeBinary(*typ, b)
	if err == nil && !(d.K == typ.Kind && noTypmod(*typ)) {
		// Binary input skips the text input function's typmod checks
		// (varchar(n), numeric(p,s)): apply them.
		d, err = types.AssignCastIn(d, *typ, l.loc)
	}
	*dst = d
	return err
}

// noTypmod reports whether t is a type whose binary input needs no
// assignment cast after decoding to its own kind: no length, precision or
// element checks apply.
func noTypmod(t types.T) bool {
	switch t.Kind {
	case types.Bool, types.Int2, types.Int4, types.Int8, types.Float4, types.Float8, types.Bytea, types.Date, types.UUID:
		return true
	case types.Text:
		return t.Width == 0
	}
	return false
}

// store completes a row (defaults, the hidden row id, key expressions),
// checks it and adds it to the batch.
func (l *copyLoader) store(ctx context.Context, row Row, n int, line []byte) error {
	t := l.t
	for i, e := range l.p.Fill {
		if e == nil {
			continue
		}
		v, err := eval(e, nil, l.x.env)
		if err != nil {
			return copyError(err, t.Name, n, "", line, line != nil)
		}
		row[i] = v
	}
	if t.ShardBits > 0 { // the hidden row id, as evalRows assigns it
		id, err := l.x.eng.seqs.next(ctx, sequenceKey(t.ID, 0), rowIDDesc(t))
		if err != nil {
			return err
		}
		row[t.Key[0].Col] = types.NewInt(types.Int8, t.RowID(id))
	}
	key, err := l.w.key(row)
	if err != nil {
		return copyError(err, t.Name, n, "", line, line != nil)
	}
	if l.duplicate(key) {
		return copyError(uniqueError(t, row), t.Name, n, "", nil, false)
	}
	if l.ing != nil && l.valCols != nil {
		vals, err := l.cellValues(row)
		if err != nil {
			return copyError(err, t.Name, n, "", line, line != nil)
		}
		return l.ingested(l.ing.AddCells(key, vals), row, n)
	}
	muts, err := l.w.cells(row, l.all, nil)
	if err != nil {
		return copyError(err, t.Name, n, "", line, line != nil)
	}
	if l.ing != nil {
		// A NULL column's delete changes nothing in a new row: the
		// builder takes Sets only.
		sets := muts[:0]
		for _, m := range muts {
			if m.Kind == kv.SetCell {
				sets = append(sets, m)
			}
		}
		return l.ingested(l.ing.Add(kv.RowMutation{Key: key, Mutations: sets, Require: kv.RequireAbsent}), row, n)
	}
	l.batch = append(l.batch, kv.RowMutation{Key: key, Mutations: muts, Require: kv.RequireAbsent})
	l.rows = append(l.rows, row)
	l.lines = append(l.lines, n)
	l.size += 64 + len(key)
	for k := range muts {
		l.size += 96 + len(muts[k].Value)
	}
	if l.size >= copyBatchBytes {
		return l.flush(ctx)
	}
	return nil
}

// newRow returns a new all-NULL row of the table, carved from a slab;
// when rows go to the ingest builder, which keeps none, the same row
// each time.
func (l *copyLoader) newRow() Row {
	n := len(l.t.Columns)
	if l.ing != nil {
		if l.row == nil {
			l.row = make(Row, n)
		}
		clear(l.row)
		return l.row
	}
	if len(l.slab) < n {
		l.slab = make([]types.Datum, 64*n)
	}
	row := Row(l.slab[:n:n])
	l.slab = l.slab[n:]
	return row
}

// duplicate reports whether key was loaded before by this COPY, and
// remembers it.
func (l *copyLoader) duplicate(key []byte) bool {
	if l.seen == nil {
		if n := l.keys.len(); n == 0 || bytes.Compare(l.keys.at(n-1), key) < 0 {
			l.keys.add(key)
			return false
		}
		l.seen = make(map[string]int, l.keys.len())
		for i := range l.keys.len() {
			l.seen[string(l.keys.at(i))] = i
		}
		l.keys = keyList{}
	}
	if _, dup := l.seen[string(key)]; dup {
		return true
	}
	l.seen[string(key)] = len(l.seen)
	return false
}

// keyList is the rowkeys of a COPY in arrival order, with no pointer per
// key (a million keys cost the collector nothing), in blocks that are
// filled once and never copied: a single growing buffer copies, and
// faults in again, all it holds at each doubling, which was 5% of the
// CPU of a large COPY.
type keyList struct {
	blocks [][]byte        // keys concatenated; a key never straddles two
	ends   chunked[uint64] // per key: its block << 32 | its end in the block
}

// keyBlockSize is the size of a keyList block (a longer key gets a block
// of its own size).
const keyBlockSize = 256 << 10

func (k *keyList) len() int { return k.ends.len() }

// add appends a copy of key.
func (k *keyList) add(key []byte) {
	nb := len(k.blocks)
	if nb == 0 || cap(k.blocks[nb-1])-len(k.blocks[nb-1]) < len(key) {
		k.blocks = append(k.blocks, make([]byte, 0, max(keyBlockSize, len(key))))
		nb++
	}
	b := append(k.blocks[nb-1], key...)
	k.blocks[nb-1] = b
	k.ends.add(uint64(nb-1)<<32 | uint64(len(b)))
}

// at returns key i, aliasing the list.
func (k *keyList) at(i int) []byte {
	e := k.ends.at(i)
	blk, start := e>>32, uint64(0)
	if i > 0 {
		if p := k.ends.at(i - 1); p>>32 == blk {
			start = uint64(uint32(p))
		}
	}
	return k.blocks[blk][start:uint32(e)]
}

// chunked is an append-only list kept in fixed-size chunks, so appending
// never copies what it holds.
type chunked[T any] struct {
	chunks [][]T
	n      int
}

const chunkedLen = 1 << 14

func (c *chunked[T]) add(v T) {
	if c.n%chunkedLen == 0 {
		c.chunks = append(c.chunks, make([]T, chunkedLen))
	}
	c.chunks[c.n/chunkedLen][c.n%chunkedLen] = v
	c.n++
}

func (c *chunked[T]) at(i int) T { return c.chunks[i/chunkedLen][i%chunkedLen] }

func (c *chunked[T]) len() int { return c.n }

// matchHeader checks a HEADER MATCH line against the column names.
func (l *copyLoader) matchHeader(line []byte) error {
	t, n := l.t, l.rd.line
	if len(l.fields) != len(l.p.Targets) {
		return copyError(pgerror.New(codeBadCopyFormat, "wrong number of fields in header line: got %d, expected %d",
			len(l.fields), len(l.p.Targets)), t.Name, n, "", line, true)
	}
	for j, fld := range l.fields {
		want := t.Columns[l.p.Targets[j]].Name
		switch {
		case fld.null:
			return copyError(pgerror.New(codeBadCopyFormat, "column name mismatch in header line field %d: got null value (\"%s\"), expected \"%s\"",
				j+1, l.f.Null, want), t.Name, n, "", line, true)
		case fld.val != want:
			return copyError(pgerror.New(codeBadCopyFormat, "column name mismatch in header line field %d: got \"%s\", expected \"%s\"",
				j+1, fld.val, want), t.Name, n, "", line, true)
		}
	}
	return nil
}

// flush writes the rows held as one kv batch.
func (l *copyLoader) flush(ctx context.Context) error {
	if len(l.batch) == 0 {
		return nil
	}
	err := l.kvt.Apply(ctx, l.batch)
	var ce *kv.ConditionError
	if errors.As(err, &ce) {
		return copyError(uniqueError(l.t, l.rows[ce.Index]), l.t.Name, l.lines[ce.Index], "", nil, false)
	}
	if err != nil {
		return storageError(txnError(err))
	}
	if l.autocommit {
		for i := range l.batch {
			l.written = append(l.written, l.batch[i].Key)
		}
	}
	l.count += int64(len(l.batch))
	clear(l.batch)
	clear(l.rows)
	l.batch, l.rows, l.lines, l.size = l.batch[:0], l.rows[:0], l.lines[:0], 0
	return nil
}

// abort undoes a failed COPY: the rows held are dropped, and the rows
// earlier batches wrote outside a transaction block are deleted again.
func (l *copyLoader) abort() {
	l.batch, l.rows, l.lines = nil, nil, nil
	if l.ing != nil {
		l.ing.Abort()
		l.ing = nil
	}
	ctx := context.Background()
	for len(l.written) > 0 {
		n := min(len(l.written), 10000)
		del := make([]kv.RowMutation, n)
		for i, key := range l.written[:n] {
			del[i] = kv.RowMutation{Key: key, Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}}
		}
		if err := l.kvt.Apply(ctx, del); err != nil {
			l.x.eng.log.Error("COPY: cannot remove the rows of a failed COPY", "table", l.t.Name,
				"rows", len(l.written), "err", fmt.Sprint(err))
			return
		}
		l.written = l.written[n:]
	}
}

// ingested finishes a row handed to the ingest builder as line n: err is
// what Add or AddCells returned.
func (l *copyLoader) ingested(err error, row Row, n int) error {
	if err != nil {
		var ce *kv.ConditionError
		if errors.As(err, &ce) { // a key of the COPY again (duplicate finds it first)
			return copyError(uniqueError(l.t, row), l.t.Name, n, "", nil, false)
		}
		return storageError(txnError(err))
	}
	l.ingLines.add(int32(n))
	l.count++
	return nil
}
