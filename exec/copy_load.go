package exec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
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
	keys    [][]byte
	last    []byte
	seen    map[string]struct{}
	slab    []types.Datum // rows are carved from it
	batch   []kv.RowMutation
	rows    []Row // the rows of batch, for 23505 messages
	lines   []int // their line numbers
	size    int
	written [][]byte // rowkeys applied by earlier batches (autocommit)
	count   int64
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
	return l, nil
}

// data consumes one chunk of input.
func (l *copyLoader) data(ctx context.Context, chunk []byte) error {
	if l.ended {
		return nil
	}
	if l.bin != nil {
		l.bin.add(chunk)
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
	if err := l.flush(ctx); err != nil {
		return 0, err
	}
	return l.count, nil
}

// line loads one line.
func (l *copyLoader) line(ctx context.Context, line []byte) error {
	n, t, f := l.rd.line, l.t, l.f
	if !utf8.Valid(line) {
		bad := line
		for len(bad) > 0 {
			r, size := utf8.DecodeRune(bad)
			if r == utf8.RuneError && size <= 1 {
				break
			}
			bad = bad[size:]
		}
		return copyError(pgerror.New(codeBadEncoding, "invalid byte sequence for encoding \"UTF8\": 0x%02x", bad[0]), t.Name, n, "", line, true)
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
			typ := t.Columns[ci].Type
			d, err := types.DecodeBinary(typ, vals[j])
			if err == nil && !(d.K == typ.Kind && noTypmod(typ)) {
				// Binary input skips the text input function's typmod
				// checks (varchar(n), numeric(p,s)): apply them.
				d, err = types.AssignCastIn(d, typ, l.loc)
			}
			if err != nil {
				return copyError(err, t.Name, n, t.Columns[ci].Name, nil, false)
			}
			row[ci] = d
		}
		if err := l.store(ctx, row, n, nil); err != nil {
			return err
		}
	}
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
	muts, err := l.w.cells(row, l.all, nil)
	if err != nil {
		return copyError(err, t.Name, n, "", line, line != nil)
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

// newRow returns a new all-NULL row of the table, carved from a slab.
func (l *copyLoader) newRow() Row {
	n := len(l.t.Columns)
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
		if l.last == nil || bytes.Compare(l.last, key) < 0 {
			l.keys = append(l.keys, key)
			l.last = key
			return false
		}
		l.seen = make(map[string]struct{}, len(l.keys))
		for _, k := range l.keys {
			l.seen[string(k)] = struct{}{}
		}
		l.keys, l.last = nil, nil
	}
	if _, dup := l.seen[string(key)]; dup {
		return true
	}
	l.seen[string(key)] = struct{}{}
	return false
}

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
