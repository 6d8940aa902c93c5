package lsm

import (
	"bytes"
	"context"
	"slices"
	"sort"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
)

// Bulk ingest (kv.Ingester): rows are written as sorted files on the side
// and installed by one manifest edit, never through the WAL or a memtable.
//
// Sequence numbers. A builder reserves one sequence number S0 when it
// starts, and every key it writes carries it. The install reserves
// another, G, records it in each file's manifest entry (installSeq) and
// publishes it: a read at seq X sees a file only if X >= G (snapRegionAt),
// so reads and snapshots that started before the install never see the
// rows, even though their keys carry S0 < G. The rows' keys must order
// correctly against every other entry of the same rows: entries older than
// S0 are older, entries written after the install are newer than G. The
// install refuses (kv.ErrIngestConflict) a row that got an entry between
// S0 and G; a live entry is a duplicate key (kv.ConditionError) either way.
// Compaction leaves a file alone while a snapshot below its installSeq is
// open (compact.go), and writes what it merges with installSeq 0.
//
// Input in increasing key order (the usual bulk load) streams straight
// into the family files, cut at region boundaries and at about fileBytes.
// At the first key out of order the files so far become a run, and later
// rows are buffered up to chunkBytes, sorted and written as further runs;
// Commit k-way merges runs that overlap into final files. Memory stays
// bounded by chunkBytes either way. Duplicate keys are found by the order
// check, the chunk sort and the merge.

// Ingest sizes.
const (
	ingestChunkBytes = 16 << 20 // unsorted rows buffered before a sort
	ingestFileBytes  = 64 << 20 // files are cut at about this size
)

var _ kv.Ingester = (*Table)(nil)

// NewIngest implements kv.Ingester.
func (h *Table) NewIngest(ctx context.Context) (kv.IngestBuilder, error) {
	s, t := h.s, h.t
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.commitMu.Lock()
	s.mu.Lock()
	err := s.writableLocked(t)
	var bounds [][]byte
	for _, r := range t.regions[1:] {
		bounds = append(bounds, r.lower)
	}
	s.mu.Unlock()
	if err != nil {
		s.commitMu.Unlock()
		return nil, err
	}
	seq := s.lastSeq.Add(1)
	s.commitMu.Unlock()
	return &ingestBuilder{s: s, t: t, fs: t.families(), seq: seq, bounds: bounds, sorted: true,
		chunkBytes: ingestChunkBytes, fileBytes: ingestFileBytes}, nil
}

// ingEnt is one entry of a row being ingested.
type ingEnt struct {
	key, val []byte
	fam      int // index in the builder's family set
}

// ingCol is a column of AddCells rows: the key of its cell after the row
// prefix (escaped family and qualifier, and the trailer).
type ingCol struct {
	suffix []byte
	fam    int // index in the builder's family set
	src    int // index in AddCells' vals
}

// ingFile is a finished file of an ingest and its family.
type ingFile struct {
	f   *fileMeta
	fam string
}

// chunkRow is a buffered row of unsorted input.
type chunkRow struct {
	key  []byte
	ord  int
	ents []ingEnt
}

type ingestBuilder struct {
	s      *Store
	t      *table
	fs     *famSet  // the families as of the start: ingEnt.fam indexes fs.fams
	seq    uint64   // S0: every key carries it
	bounds [][]byte // region start row prefixes at the start: files never cross one

	chunkBytes int
	fileBytes  int64

	n      int    // rows added
	sorted bool   // every row so far came in increasing key order
	last   []byte // the last row's key while sorted
	cur    *runWriter
	runs   [][]ingFile

	chunk     []chunkRow
	chunkSize int
	block     []byte // arena of the chunk's rows

	cols  []ingCol // SetColumns' columns in cell order
	ncols int

	rowBuf []byte   // the current row's keys (sorted mode)
	prefix []byte   // the current row's prefix
	ents   []ingEnt // scratch
	err    error    // sticky
	done   bool
}

// Add implements kv.IngestBuilder.
func (b *ingestBuilder) Add(rm kv.RowMutation) error {
	if b.done {
		return errorf("ingest into %q: builder already ended: %w", b.t.name, kv.ErrInvalidArgument)
	}
	if b.err != nil {
		return b.err
	}
	if err := validateRowMutation(b.t, &rm); err != nil {
		return errorf("ingest into %q: row %d: %w", b.t.name, b.n, err)
	}
	if rm.Require != kv.RequireAbsent || rm.RequireColumn != nil {
		return errorf("ingest into %q: row %d: rows must be RequireAbsent: %w", b.t.name, b.n, kv.ErrInvalidArgument)
	}
	for i := range rm.Mutations {
		if rm.Mutations[i].Kind != kv.SetCell {
			return errorf("ingest into %q: row %d: only SetCell mutations: %w", b.t.name, b.n, kv.ErrInvalidArgument)
		}
		if _, ok := b.fs.idx[rm.Mutations[i].Family]; !ok { // added after the start
			return errorf("ingest into %q: row %d: family %q: %w", b.t.name, b.n, rm.Mutations[i].Family, kv.ErrFamilyNotFound)
		}
	}
	return b.put(rm.Key, &rm, nil)
}

// SetColumns implements kv.IngestBuilder.
func (b *ingestBuilder) SetColumns(cols []kv.IngestColumn) error {
	if b.done {
		return errorf("ingest into %q: builder already ended: %w", b.t.name, kv.ErrInvalidArgument)
	}
	out := make([]ingCol, len(cols))
	for i, c := range cols {
		// Validate checks the family and the timestamp as Add would.
		rm := kv.RowMutation{Key: []byte{0}, Mutations: []kv.Mutation{{Kind: kv.SetCell, Family: c.Family,
			Qualifier: c.Qualifier, Timestamp: c.Timestamp}}}
		fi, ok := b.fs.idx[c.Family]
		if err := rm.Validate(func(string) bool { return ok }); err != nil {
			return errorf("ingest into %q: column %d: %w", b.t.name, i, err)
		}
		suffix := append([]byte(nil), b.fs.fams[fi].esc...)
		suffix = ikey.AppendEscaped(suffix, c.Qualifier)
		suffix = ikey.AppendTrailer(suffix, int64(c.Timestamp), b.seq, ikey.KindSet)
		out[i] = ingCol{suffix: suffix, fam: fi, src: i}
	}
	// Within a row the keys differ only after the prefix: this is their
	// order in every row.
	slices.SortFunc(out, func(x, y ingCol) int { return bytes.Compare(x.suffix, y.suffix) })
	for i := 1; i < len(out); i++ {
		if bytes.Equal(out[i-1].suffix, out[i].suffix) {
			return errorf("ingest into %q: columns %d and %d name the same cell: %w", b.t.name, out[i-1].src, out[i].src, kv.ErrInvalidArgument)
		}
	}
	b.cols, b.ncols = out, len(cols)
	return nil
}

// AddCells implements kv.IngestBuilder.
func (b *ingestBuilder) AddCells(key []byte, vals [][]byte) error {
	if b.done {
		return errorf("ingest into %q: builder already ended: %w", b.t.name, kv.ErrInvalidArgument)
	}
	if b.err != nil {
		return b.err
	}
	if b.cols == nil || len(vals) != b.ncols {
		return errorf("ingest into %q: row %d: %d values for %d columns: %w", b.t.name, b.n, len(vals), b.ncols, kv.ErrInvalidArgument)
	}
	if len(key) == 0 || len(key) > kv.MaxKeySize {
		return errorf("ingest into %q: row %d: key length %d not in [1, %d]: %w", b.t.name, b.n, len(key), kv.MaxKeySize, kv.ErrInvalidArgument)
	}
	return b.put(key, nil, vals)
}

// put adds the row key, given as rm (Add) or as vals (AddCells).
func (b *ingestBuilder) put(key []byte, rm *kv.RowMutation, vals [][]byte) error {
	ord := b.n
	b.n++
	if b.sorted {
		if b.last == nil || bytes.Compare(key, b.last) > 0 {
			b.last = append(b.last[:0], key...)
			if rm == nil {
				return b.fail(b.writeCells(key, vals))
			}
			b.rowBuf = b.rowBuf[:0]
			// The writer copies the entries at once: the values need no
			// copy, the keys are built in rowBuf.
			return b.fail(b.writer().addRow(b.encode(key, rm, nil, true)))
		}
		if bytes.Equal(key, b.last) {
			return b.fail(&kv.ConditionError{Index: ord, Key: bytes.Clone(key)})
		}
		// The first key out of order: what was written is the first run.
		b.sorted, b.last = false, nil
		if err := b.fail(b.finishRun()); err != nil {
			return err
		}
	}
	row := chunkRow{key: b.alloc(len(key)), ord: ord}
	copy(row.key, key)
	row.ents = slices.Clone(b.encode(key, rm, vals, false))
	b.chunk = append(b.chunk, row)
	b.chunkSize += len(row.key) + 64
	for _, e := range row.ents {
		b.chunkSize += len(e.key) + len(e.val) + 64
	}
	if b.chunkSize >= b.chunkBytes {
		return b.fail(b.flushChunk())
	}
	return nil
}

// writeCells writes an AddCells row in key order straight to the current
// run: no entries are gathered, the row prefix is escaped once, and each
// cell's key is the prefix with its column's suffix swapped in behind it
// (the writer copies keys and values at once).
func (b *ingestBuilder) writeCells(key []byte, vals [][]byte) error {
	b.prefix = appendRowPrefix(b.prefix[:0], key)
	n := len(b.prefix)
	w := b.writer()
	started := false
	for i := range b.cols {
		c := &b.cols[i]
		v := vals[c.src]
		if v == nil {
			continue
		}
		if !started {
			if err := w.startRow(b.prefix[:n]); err != nil {
				return err
			}
			started = true
		}
		b.prefix = append(b.prefix[:n], c.suffix...)
		if err := w.add(c.fam, b.prefix, v); err != nil {
			return err
		}
	}
	return nil
}

// encode returns the entries of a row in key order (aliasing b.ents);
// transient entries are valid until the next row (their values may alias
// the caller's), else they are carved from the chunk's arena.
func (b *ingestBuilder) encode(key []byte, rm *kv.RowMutation, vals [][]byte, transient bool) []ingEnt {
	b.prefix = appendRowPrefix(b.prefix[:0], key)
	b.ents = b.ents[:0]
	if rm != nil {
		return b.encodeRow(rm, transient)
	}
	for i := range b.cols {
		c := &b.cols[i]
		v := vals[c.src]
		if v == nil {
			continue
		}
		b.ents = append(b.ents, b.entry(c.suffix, v, c.fam, transient))
	}
	return b.ents
}

// appendRowPrefix appends ikey.RowPrefix(row) to dst in one pass over
// row: rowkeys are short and full of zero bytes (keyenc's integers), where
// ikey.AppendEscaped's IndexByte per zero costs more than the bytes.
func appendRowPrefix(dst, row []byte) []byte {
	n := len(dst)
	dst = slices.Grow(dst, 2*len(row)+2)[:n+2*len(row)+2]
	for _, c := range row {
		dst[n] = c
		n++
		if c == 0 {
			dst[n] = 0xff
			n++
		}
	}
	dst[n], dst[n+1] = 0, 1
	return dst[:n+2]
}

// entry makes the entry prefix+suffix -> v.
func (b *ingestBuilder) entry(suffix, v []byte, fam int, transient bool) ingEnt {
	n := len(b.prefix) + len(suffix)
	var buf []byte
	if transient {
		start := len(b.rowBuf)
		b.rowBuf = slices.Grow(b.rowBuf, n)[:start+n]
		buf = b.rowBuf[start : start+n : start+n]
	} else {
		buf = b.alloc(n + len(v))
		v = buf[n : n+copy(buf[n:], v)]
	}
	k := append(append(buf[:0], b.prefix...), suffix...)
	return ingEnt{key: k[:n:n], val: v, fam: fam}
}

// encodeRow returns the entries of rm in key order (a later Set of the
// same cell replaces an earlier one), with b.prefix set to its row's.
func (b *ingestBuilder) encodeRow(rm *kv.RowMutation, transient bool) []ingEnt {
	var suffix []byte
	for i := range rm.Mutations {
		m := &rm.Mutations[i]
		fi := b.fs.idx[m.Family] // Add checked it
		suffix = append(suffix[:0], b.fs.fams[fi].esc...)
		suffix = ikey.AppendEscaped(suffix, m.Qualifier)
		suffix = ikey.AppendTrailer(suffix, int64(m.Timestamp), b.seq, ikey.KindSet)
		b.ents = append(b.ents, b.entry(suffix, m.Value, fi, transient))
	}
	if !slices.IsSortedFunc(b.ents, func(x, y ingEnt) int { return bytes.Compare(x.key, y.key) }) {
		slices.SortStableFunc(b.ents, func(x, y ingEnt) int { return bytes.Compare(x.key, y.key) })
	}
	// Keep the last of equal keys (Apply: a Set replaces the cell).
	out := b.ents[:0]
	for i, e := range b.ents {
		if i+1 < len(b.ents) && bytes.Equal(e.key, b.ents[i+1].key) {
			continue
		}
		out = append(out, e)
	}
	b.ents = out
	return out
}

// alloc carves n bytes out of the chunk's arena.
func (b *ingestBuilder) alloc(n int) []byte {
	if n > cap(b.block)-len(b.block) {
		b.block = make([]byte, 0, max(n, 1<<20))
	}
	start := len(b.block)
	b.block = b.block[:start+n]
	return b.block[start : start+n : start+n]
}

func (b *ingestBuilder) fail(err error) error {
	if err != nil && b.err == nil {
		b.err = err
	}
	return err
}

func (b *ingestBuilder) writer() *runWriter {
	if b.cur == nil {
		b.cur = &runWriter{b: b}
	}
	return b.cur
}

// finishRun closes the current run's files and records the run.
func (b *ingestBuilder) finishRun() error {
	if b.cur == nil {
		return nil
	}
	w := b.cur
	b.cur = nil
	err := w.finish()
	if len(w.files) > 0 {
		b.runs = append(b.runs, w.files)
	}
	return err
}

// flushChunk sorts the buffered rows and writes them as a run.
func (b *ingestBuilder) flushChunk() error {
	if len(b.chunk) == 0 {
		return nil
	}
	slices.SortStableFunc(b.chunk, func(x, y chunkRow) int { return bytes.Compare(x.key, y.key) })
	for i := 1; i < len(b.chunk); i++ {
		if bytes.Equal(b.chunk[i-1].key, b.chunk[i].key) {
			return &kv.ConditionError{Index: b.chunk[i].ord, Key: bytes.Clone(b.chunk[i].key)}
		}
	}
	w := b.writer()
	for i := range b.chunk {
		if err := w.addRow(b.chunk[i].ents); err != nil {
			return err
		}
	}
	clear(b.chunk)
	b.chunk, b.chunkSize, b.block = b.chunk[:0], 0, nil
	return b.finishRun()
}

// Commit implements kv.IngestBuilder.
func (b *ingestBuilder) Commit(ctx context.Context) error {
	if b.done {
		return errorf("ingest into %q: builder already ended: %w", b.t.name, kv.ErrInvalidArgument)
	}
	b.done = true
	files, err := b.final(ctx)
	if err == nil && len(files) > 0 {
		var installed bool
		installed, err = b.s.installIngest(ctx, b.t, b.seq, files)
		if installed {
			files = nil // the regions own them now
		}
	}
	for _, f := range files {
		b.s.unref(f.f)
	}
	return err
}

// final finishes the input and returns the files to install: the runs as
// they are if they do not overlap, else their merge.
func (b *ingestBuilder) final(ctx context.Context) ([]ingFile, error) {
	err := b.err
	if err == nil {
		err = b.finishRun()
	}
	if err == nil {
		err = b.flushChunk()
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		b.discard()
		return nil, err
	}
	runs := b.runs
	b.runs = nil
	var all []ingFile
	for _, r := range runs {
		all = append(all, r...)
	}
	if !runsOverlap(runs) {
		return all, nil
	}
	out, err := b.merge(ctx, runs)
	for _, f := range all {
		b.s.unref(f.f)
	}
	return out, err
}

// runRange is the row-prefix range of a run's files.
func runRange(files []ingFile) (lo, hi []byte) {
	for _, f := range files {
		l, h := ikey.RowPrefixOf(f.f.smallest), ikey.RowPrefixOf(f.f.largest)
		if lo == nil || bytes.Compare(l, lo) < 0 {
			lo = l
		}
		if hi == nil || bytes.Compare(h, hi) > 0 {
			hi = h
		}
	}
	return lo, hi
}

// runsOverlap reports whether two runs share a row range.
func runsOverlap(runs [][]ingFile) bool {
	type rng struct{ lo, hi []byte }
	var rs []rng
	for _, r := range runs {
		lo, hi := runRange(r)
		rs = append(rs, rng{lo, hi})
	}
	slices.SortFunc(rs, func(x, y rng) int { return bytes.Compare(x.lo, y.lo) })
	for i := 1; i < len(rs); i++ {
		if bytes.Compare(rs[i-1].hi, rs[i].lo) >= 0 {
			return true
		}
	}
	return false
}

// taggedIter is a run's file in a merge: the run tells duplicates apart.
type taggedIter struct {
	sstIter
	run int
}

// merge k-way merges runs into new files; a row found in two runs is a
// duplicate key.
func (b *ingestBuilder) merge(ctx context.Context, runs [][]ingFile) (_ []ingFile, err error) {
	var children []internalIter
	for ri, r := range runs {
		for _, f := range r {
			children = append(children, &taggedIter{sstIter{f.f.reader.NewIter()}, ri})
		}
	}
	it := newMergingIter(children)
	defer it.Close()
	w := &runWriter{b: b}
	defer func() {
		if err != nil {
			w.abort()
		}
	}()
	var row []byte
	rowRun := -1
	type span struct {
		ko, vo, end int
		fam         int
	}
	var spans []span
	var arena []byte
	var ents []ingEnt
	flush := func() error {
		if len(spans) == 0 {
			return nil
		}
		ents = ents[:0]
		for _, sp := range spans {
			ents = append(ents, ingEnt{key: arena[sp.ko:sp.vo], val: arena[sp.vo:sp.end], fam: sp.fam})
		}
		err := w.addRow(ents)
		spans, arena = spans[:0], arena[:0]
		return err
	}
	n := 0
	for it.First(); it.Valid(); it.Next() {
		if n++; n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		k := it.Key()
		parsed, perr := ikey.Parse(k)
		if perr != nil {
			return nil, errorf("ingest: bad internal key %q: %w", k, errCorrupt)
		}
		run := it.h[0].it.(*taggedIter).run
		if !bytes.Equal(parsed.Row, row) {
			if err := flush(); err != nil {
				return nil, err
			}
			row, rowRun = append(row[:0], parsed.Row...), run
		} else if run != rowRun {
			return nil, &kv.ConditionError{Index: -1, Key: ikey.Unescape(nil, parsed.Row)}
		}
		fi, ok := b.fs.idx[string(ikey.Unescape(nil, parsed.Family))]
		if !ok {
			return nil, errorf("ingest: bad family in key %q: %w", k, errCorrupt)
		}
		sp := span{ko: len(arena), fam: fi}
		arena = append(arena, k...)
		sp.vo = len(arena)
		arena = append(arena, it.Value()...)
		sp.end = len(arena)
		spans = append(spans, sp)
	}
	if err := it.Err(); err != nil {
		return nil, err
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if err := w.finish(); err != nil {
		return nil, err
	}
	return w.files, nil
}

// Abort implements kv.IngestBuilder.
func (b *ingestBuilder) Abort() {
	b.done = true
	b.discard()
}

// discard removes every file written and drops the buffered rows.
func (b *ingestBuilder) discard() {
	if b.cur != nil {
		b.cur.abort()
		b.cur = nil
	}
	for _, r := range b.runs {
		for _, f := range r {
			b.s.unref(f.f)
		}
	}
	b.runs = nil
	clear(b.chunk)
	b.chunk, b.block = nil, nil
}

// runWriter writes rows in increasing key order into one file per family,
// cutting all of them at region boundaries and when one reaches the
// builder's fileBytes, so a file never spans two regions (as of the
// start) and rows never span two files of one family.
type runWriter struct {
	b     *ingestBuilder
	ws    []*fileWriter // by family index; nil: none open
	order []int         // families of the open writers in creation order
	cut   []byte        // the open files must end before this row prefix; nil: no bound
	files []ingFile
}

// addRow writes one row's entries (sorted, all of one row).
func (w *runWriter) addRow(ents []ingEnt) error {
	if len(ents) == 0 {
		return nil
	}
	if err := w.startRow(ikey.RowPrefixOf(ents[0].key)); err != nil {
		return err
	}
	for i := range ents {
		if err := w.add(ents[i].fam, ents[i].key, ents[i].val); err != nil {
			return err
		}
	}
	return nil
}

// startRow readies the files for a row with this row prefix: the open
// ones are finished if the row starts past their region or one of them
// is full. The row's entries follow by add.
func (w *runWriter) startRow(prefix []byte) error {
	if len(w.order) > 0 {
		full := w.cut != nil && bytes.Compare(prefix, w.cut) >= 0
		for _, fi := range w.order {
			full = full || w.ws[fi].w.EstimatedSize() >= w.b.fileBytes
		}
		if full {
			if err := w.finish(); err != nil {
				return err
			}
		}
	}
	if len(w.order) == 0 {
		bs := w.b.bounds
		i := sort.Search(len(bs), func(i int) bool { return bytes.Compare(bs[i], prefix) > 0 })
		w.cut = nil
		if i < len(bs) {
			w.cut = bs[i]
		}
	}
	return nil
}

// add writes an entry of the current row (entries in key order) to its
// family's file, opening the file if needed. The writer copies key and
// val.
func (w *runWriter) add(fam int, key, val []byte) error {
	if w.ws == nil {
		w.ws = make([]*fileWriter, len(w.b.fs.fams))
	}
	fw := w.ws[fam]
	if fw == nil {
		var err error
		if fw, err = w.b.s.newFileWriter(&w.b.fs.fams[fam]); err != nil {
			return err
		}
		w.ws[fam] = fw
		w.order = append(w.order, fam)
	}
	return fw.add(key, val)
}

// finish completes the open files.
func (w *runWriter) finish() error {
	var err error
	for _, fi := range w.order {
		fw := w.ws[fi]
		w.ws[fi] = nil
		if err != nil {
			fw.abort()
			continue
		}
		var f *fileMeta
		if f, err = fw.finish(); err == nil {
			w.files = append(w.files, ingFile{f: f, fam: w.b.fs.fams[fi].name})
		}
	}
	w.order = w.order[:0]
	return err
}

// abort removes the run's files, finished or not.
func (w *runWriter) abort() {
	for _, fi := range w.order {
		w.ws[fi].abort()
		w.ws[fi] = nil
	}
	w.order = w.order[:0]
	for _, f := range w.files {
		w.b.s.unref(f.f)
	}
	w.files = nil
}

// installIngest makes files (with one reference each) part of t's regions
// in one manifest edit: it checks that their rows are new, takes the
// install sequence number G, attaches each file to every region it
// overlaps, saves the manifest, and publishes G once every earlier commit
// is synced. installed reports whether the regions took the files (then
// even an error leaves them there: the store failed).
func (s *Store) installIngest(ctx context.Context, t *table, seq uint64, files []ingFile) (installed bool, _ error) {
	// The files must be durable before the manifest names them (each
	// file was synced when finished).
	if err := s.fs.SyncDir(s.dir); err != nil {
		return false, errorf("ingest: sync %s: %w", s.dir, err)
	}
	s.manifestMu.Lock()
	defer s.manifestMu.Unlock()
	s.commitMu.Lock()
	locked := true
	defer func() {
		if locked {
			s.commitMu.Unlock()
		}
	}()
	if err := ctx.Err(); err != nil {
		return false, err
	}
	s.mu.Lock()
	err := s.writableLocked(t)
	regions := t.regions // stable: splits hold manifestMu
	s.mu.Unlock()
	if err != nil {
		return false, err
	}
	if err := s.ingestCheck(t, regions, seq, files); err != nil {
		return false, err
	}

	g := s.lastSeq.Add(1)
	if rc := s.rc.Load(); rc != nil {
		// Before G is published (rowcache.go).
		rc.raiseFloor(g)
		rc.clearTable(t.id)
	}
	s.mu.Lock()
	fs := t.families()
	states := map[*region]*regionState{}
	for _, f := range files {
		fi, ok := fs.idx[f.fam]
		if !ok {
			s.mu.Unlock()
			return false, errorf("ingest into %q: family %q: %w", t.name, f.fam, kv.ErrFamilyNotFound)
		}
		f.f.installSeq = g
		lo, hi := ikey.RowPrefixOf(f.f.smallest), ikey.RowPrefixOf(f.f.largest)
		first := true
		for _, r := range regions {
			if (r.upper != nil && bytes.Compare(lo, r.upper) >= 0) || (r.lower != nil && bytes.Compare(hi, r.lower) < 0) {
				continue
			}
			st := states[r]
			if st == nil {
				c := *r.state
				c.files = slices.Clone(c.files)
				st = &c
				states[r] = st
			}
			st.files[fi] = append(slices.Clone(st.files[fi]), f.f)
			if !first {
				f.f.refs.Add(1)
			}
			first = false
			if (r.lower != nil && bytes.Compare(lo, r.lower) < 0) || (r.upper != nil && bytes.Compare(hi, r.upper) >= 0) {
				r.rewrite = true // the file extends past the region: compaction clamps it
			}
			if fi == 0 {
				r.rows.Add(f.f.entries)
			}
		}
		if first { // cannot happen: the regions cover the key space
			s.mu.Unlock()
			panic("lsm: ingest file outside every region")
		}
	}
	for r, st := range states {
		r.state = st
	}
	s.mu.Unlock()
	if err := s.saveManifest(); err != nil {
		return true, err // the store failed; G is never published
	}
	// Publishing G makes every entry below it visible: wait until every
	// earlier commit is synced. An empty batch record is the barrier (on
	// replay it only raises the last sequence number to G).
	wb := walBatch{tableID: t.id, firstSeq: g + 1}
	wait := s.wal.AppendAsync(wb.finishBody(wb.encodeBody(nil)))
	s.commitMu.Unlock()
	locked = false
	if err := wait(); err != nil {
		err = errorf("ingest into %q: WAL: %w", t.name, err)
		s.fail(err)
		return true, err
	}
	for {
		v := s.visibleSeq.Load()
		if v >= g || s.visibleSeq.CompareAndSwap(v, g) {
			break
		}
	}
	s.kick()
	return true, nil
}

// ingestCheck checks that no row of files has a live cell in t, and that
// none got an entry after the ingest started (seq S0), with commitMu held.
// Files whose row range no memtable or file of the region overlaps (a
// fresh key range: the usual case) are clean at the cost of a few
// compares; otherwise each row is checked as prepare does.
func (s *Store) ingestCheck(t *table, regions []*region, seq uint64, files []ingFile) error {
	snap := s.lastSeq.Load()
	for _, f := range files {
		lo, hi := ikey.RowPrefixOf(f.f.smallest), ikey.RowPrefixOf(f.f.largest)
		for _, r := range regions {
			if (r.upper != nil && bytes.Compare(lo, r.upper) >= 0) || (r.lower != nil && bytes.Compare(hi, r.lower) < 0) {
				continue
			}
			s.mu.Lock()
			st := r.state
			s.mu.Unlock()
			if !st.overlaps(lo, hi) {
				continue
			}
			if err := s.ingestCheckRows(t, r, st, f.f, seq, snap); err != nil {
				return err
			}
		}
	}
	return nil
}

// ingestCheckRows checks each row of f in r's range against r.
func (s *Store) ingestCheckRows(t *table, r *region, st *regionState, f *fileMeta, seq, snap uint64) error {
	it := f.reader.NewIter()
	defer it.Close()
	if r.lower != nil {
		it.SeekGE(r.lower)
	} else {
		it.First()
	}
	var last []byte
	for ; it.Valid(); it.Next() {
		k := it.Key()
		if r.upper != nil && bytes.Compare(k, r.upper) >= 0 {
			break
		}
		p := ikey.RowPrefixOf(k)
		if p == nil {
			return errorf("ingest: bad internal key %q: %w", k, errCorrupt)
		}
		if bytes.Equal(p, last) {
			continue
		}
		last = append(last[:0], p...)
		if !st.mayHoldRow(last) {
			continue
		}
		if err := s.ingestCheckRow(t, r, last, seq, snap); err != nil {
			return err
		}
	}
	return it.Err()
}

// ingestCheckRow reads the row with prefix prefix in r at snap: a live
// cell is a duplicate key, an entry newer than seq a conflict.
func (s *Store) ingestCheckRow(t *table, r *region, prefix []byte, seq, snap uint64) error {
	s.mu.Lock()
	s.snapshots[snap]++
	rs := &readSnap{seq: snap, regions: []regionSnap{s.snapRegion(r, nil)}}
	s.mu.Unlock()
	defer s.release(rs)
	iter := rs.regions[0].newIter(prefix)
	defer iter.Close()
	vis := visibility{snap: snap, fams: t.families().fams, nowUS: int64(kv.Now()), noLimit: true}
	vis.resetRow()
	conflict := false
	for iter.SeekGE(prefix); iter.Valid() && bytes.HasPrefix(iter.Key(), prefix); iter.Next() {
		p, err := ikey.Parse(iter.Key())
		if err != nil {
			return errorf("ingest: bad internal key %q: %w", iter.Key(), errCorrupt)
		}
		conflict = conflict || p.Seq > seq
		v, err := vis.step(&p, iter.Value())
		if err != nil {
			return errorf("ingest: bad tombstone: %w", errCorrupt)
		}
		if v == live {
			return &kv.ConditionError{Index: -1, Key: ikey.Unescape(nil, prefix)}
		}
	}
	if err := iter.Err(); err != nil {
		return errorf("ingest: %w", err)
	}
	if conflict {
		return errorf("ingest into %q: row %q: %w", t.name, ikey.Unescape(nil, prefix), kv.ErrIngestConflict)
	}
	return nil
}
