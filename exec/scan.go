package exec

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"slices"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
)

// scanOp reads a table through its access path. Rows have one slot per
// table column; key columns are decoded from the rowkey, needed non-key
// columns from their cells, and the filter runs before the row leaves the
// scan loop.
type scanOp struct {
	p   *planner.Scan
	it  kv.RowIterator
	env *evalEnv
	// spent is the iterator of the last execution, closed, which the
	// next execution of a reused scan hands back to the store for its
	// read (kv.ReadReuser); nil when there is none.
	spent kv.RowIterator
	// ref is where it keeps its current row (kv.RowReferrer), or nil:
	// then rowOf copies it's Row into cur.
	ref *kv.Row
	cur kv.Row
	row Row
	ids []idCol // scanSetup.ids: by column id, the needed non-key columns
	// wt maps a column index to its write-time slot (writetime(), see
	// planner/build_writetime.go), -1 if not needed; nil when the query
	// reads no write time. keyWT are the needed write-time slots of key
	// columns: the row marker's timestamp.
	wt    []int
	keyWT []int
	asOf  *asOfRead // AS OF TIMESTAMP (scan_asof.go); nil for the latest versions
	// late, when non-nil, lets the filter run before the row is fully
	// decoded (late materialisation): late.early[id] marks the column ids
	// whose cells the filter reads (id 0: the row marker, for write-time
	// slots of key columns), late.key whether it reads a key column. A
	// row the filter rejects never has its other columns decoded, so a
	// selective filter over a wide row skips most of the decoding and
	// every allocation of the columns it does not read.
	late *lateFilter
	// lazy reports that the read names the filter's families as
	// essential (scanSetup.essential): rows arrive with those families'
	// cells only, and a row that passes the filter is completed with the
	// others' (kv.CompleteRow) before the rest is decoded.
	lazy bool
	// noKey skips decoding the rowkey: no consumer reads a key column
	// (a parallel scan's partial aggregation, agg_partial.go).
	noKey bool
	// fast, when set, runs the filter without eval (scan_filter.go).
	fast *intCmpFilter
	// rawF, when set, judges a row on its raw cells with fast before the
	// row is decoded (scan_decode.go).
	rawF *rawFilterPlan
	// reset are the slots a row's cells may write (scanSetup.reset); nil:
	// every slot is reset per row.
	reset []int
	err   error // an error of newScanOp, returned by Next
	stats *nodeStats
	empty bool
	// keys, ranges and keyBuf hold this execution's encoded access path
	// (the RowSet's Keys and Ranges, and their bytes); a reused scan
	// (resetScan) encodes the next execution's into them once the
	// previous read is closed.
	keys   [][]byte
	ranges []kv.KeyRange
	keyBuf []byte
	// raw marks, by column index, the TEXT columns whose cell bytes the
	// portal writes out itself (row_raw.go): the slot holds rawText and
	// rawVal the cell's bytes, valid until the next Next. nil: none.
	raw    []bool
	rawVal [][]byte
}

func (x *executor) scan(p *planner.Scan) (operator, error) {
	if p.Table.Virtual != "" {
		return x.virtualScan(p)
	}
	t, err := x.kvTable(p.Table)
	if err != nil {
		return nil, err
	}
	if p.Access.Merge {
		t = newBucketMerge(p.Table, t) // layout.go
	}
	rs, empty, err := encodeAccess(p.Table, p.Access, nil, x.env)
	if err != nil {
		return nil, err
	}
	if empty {
		return &scanOp{p: p, env: x.env, empty: true}, nil
	}
	if ps := x.parallelScan(p, t); ps != nil {
		if x.stats != nil {
			ps.stats = &nodeStats{}
			x.stats[scanStatsKey{p}] = ps.stats
		}
		return ps, nil
	}
	o := newScanOp(p, t, rs, x.env)
	if x.stats != nil {
		o.stats = &nodeStats{}
		x.stats[scanStatsKey{p}] = o.stats
	}
	return o, nil
}

// newScanOp starts reading rs from t, projecting the columns p needs plus
// the row marker.
func newScanOp(p *planner.Scan, t kv.Table, rs kv.RowSet, env *evalEnv) *scanOp {
	o := &scanOp{p: p, env: env, row: make(Row, len(p.Table.Columns))}
	o.start(t, rs)
	return o
}

// resetScan readies o, a closed scanOp of p built by an earlier execution
// of the same prepared plan, for this execution (reusableTree): every
// field is set as x.scan sets a new one, while the row and the key
// buffers are kept. Only keyed reads come here (reusablePlan): no
// parallel or prefetching scan, no virtual table, no EXPLAIN ANALYZE.
func (x *executor) resetScan(o *scanOp, p *planner.Scan) error {
	row, keys, ranges, keyBuf, rawVal, spent := o.row, o.keys, o.ranges, o.keyBuf, o.rawVal, o.spent
	if cap(keyBuf) > 64<<10 {
		keys, ranges, keyBuf = nil, nil, nil // a long IN list's: not kept
	}
	if o.p != p {
		// Rows reset only the slots their plan's cells write
		// (scanSetup.reset): another plan's must not show through.
		clear(row)
	}
	// raw is off until the portal turns it on again (useRaw).
	*o = scanOp{p: p, env: x.env, row: row, keys: keys[:0], ranges: ranges[:0], keyBuf: keyBuf[:0], rawVal: rawVal, spent: spent}
	t, err := x.kvTable(p.Table)
	if err != nil {
		return err
	}
	if p.Access.Merge {
		t = newBucketMerge(p.Table, t) // layout.go
	}
	rs, empty, err := encodeAccessTo(p.Table, p.Access, nil, x.env, o.keys, o.ranges, &o.keyBuf)
	if err != nil {
		return err
	}
	if rs.Keys != nil {
		o.keys = rs.Keys
	}
	if rs.Ranges != nil {
		o.ranges = rs.Ranges
	}
	if empty {
		o.empty = true
		return nil
	}
	if len(o.row) != len(p.Table.Columns) {
		o.row = make(Row, len(p.Table.Columns))
	}
	o.start(t, rs)
	return nil
}

// start begins o's read of rs from t; an error is left in o.err.
func (o *scanOp) start(t kv.Table, rs kv.RowSet) {
	p, env := o.p, o.env
	opts := o.setUp(env)
	if o.err != nil {
		return
	}
	o.it, o.spent = kv.ReadReusing(context.Background(), t, rs, opts, o.spent), nil
	// A full scan without a limit reads on two cores. Not inside a
	// transaction block: its overlay merges the session's own writes,
	// which the statement may change while the scan runs. Not with lazy
	// families either: the producer would copy rows before the filter
	// decided which to complete.
	if p.Access.Kind == planner.FullScan && opts.Limit == 0 && !o.lazy && !inTxBlock(env) && runtime.GOMAXPROCS(0) > 1 {
		o.it = newPrefetchIter(o.it)
	}
	o.ref = kv.RowRefOf(o.it)
}

// setUp points o at p's scanSetup and returns the read options of this
// execution; an AS OF value that fails to evaluate is left in o.err.
func (o *scanOp) setUp(env *evalEnv) kv.ReadOptions {
	p := o.p
	su := scanSetupOf(p)
	o.ids, o.wt, o.keyWT = su.ids, su.wt, su.keyWT
	opts := kv.ReadOptions{Families: p.Families, Reverse: p.Reverse, Limit: scanLimit(p, env), Columns: su.cols}
	if p.AsOf != nil {
		if o.asOf, o.err = newAsOfRead(p, env, &opts); o.err != nil {
			return opts
		}
	}
	o.fast = su.fast.resolve(env)
	if o.asOf == nil {
		o.late, o.reset = su.late, su.reset
		if o.fast != nil && su.rawF != nil && !rawDecodeOff(false) {
			o.rawF = su.rawF
		}
		if su.essential != nil && !noLazyFamilies(env) {
			opts.Essential, o.lazy = su.essential, true
		}
	}
	return opts
}

func inTxBlock(env *evalEnv) bool {
	return env != nil && env.sess != nil && env.sess.tx.tx != nil
}

// scanSetup is what a scan derives from its plan node alone, once per
// node (planner.Scan.ExecCache) rather than once per execution: a
// prepared point Get would otherwise rebuild it on every call. It is
// shared by concurrent executions and never modified after it is built.
type scanSetup struct {
	byID  []int       // column id -> column index for needed non-key columns, -1 otherwise
	ids   []idCol     // by column id: byID with what scanOp.cell reads of the column
	wt    []int       // scanOp.wt
	keyWT []int       // scanOp.keyWT
	cols  []kv.Column // kv.ReadOptions.Columns: the marker, then the needed non-key columns
	late  *lateFilter // nil without a filter or when it cannot run early
	// essential, when set, are the families the late filter needs (its
	// columns' and the row marker's), a strict subset of those the scan
	// reads: see essentialFamilies.
	essential []string
	// parallel reports that the filter may run on worker goroutines
	// (parallel_safe.go); true without a filter.
	parallel bool
	fast     *intCmpPlan // the filter's fast form, or nil (scan_filter.go)
	// rawF is fast's raw form, or nil (scan_decode.go).
	rawF *rawFilterPlan
	// reset are the slots a row's cells may write: the needed non-key
	// columns' and the write-time slots. Every other slot is either a key
	// column's, written with every row's rowkey (or, for a scan that
	// decodes no key, never), or never written.
	reset []int
}

// idCol is what scanOp.cell needs of a column, by column id, without
// reaching into the table's (large) Column descriptors per cell.
type idCol struct {
	ci   int // the column's slot; -1: not a needed non-key column
	kind types.Kind
	fam  string
	// fastInt marks an integer column whose cell decodeCells writes
	// itself: no write-time slot reads the cell's timestamp.
	fastInt bool
}

func scanSetupOf(p *planner.Scan) *scanSetup {
	return p.ExecCache(func() any { return newScanSetup(p) }).(*scanSetup)
}

func newScanSetup(p *planner.Scan) *scanSetup {
	su := &scanSetup{byID: make([]int, p.Table.NextColumnID)}
	su.cols = append(su.cols, kv.Column{Family: p.Table.MarkerFamily, Qualifier: planner.MarkerQualifier})
	for i := range su.byID {
		su.byID[i] = -1
	}
	for _, ci := range p.Needed {
		c := &p.Table.Columns[ci]
		if src, ok := planner.WriteTimeSource(p.Table, ci); ok {
			if su.wt == nil {
				su.wt = make([]int, len(p.Table.Columns))
				for i := range su.wt {
					su.wt[i] = -1
				}
			}
			su.wt[src] = ci
			if p.Table.Columns[src].IsKey() {
				su.keyWT = append(su.keyWT, ci)
			}
			continue
		}
		if !c.IsKey() {
			su.byID[c.ID] = ci
			su.cols = append(su.cols, kv.Column{Family: c.Family, Qualifier: c.Qualifier()})
		}
	}
	su.cols = su.cols[:len(su.cols):len(su.cols)] // an append by a reader copies
	su.ids = make([]idCol, len(su.byID))
	for id, ci := range su.byID {
		su.ids[id].ci = ci
		if ci >= 0 {
			c := &p.Table.Columns[ci]
			su.ids[id].kind, su.ids[id].fam = c.Type.Kind, c.Family
			su.ids[id].fastInt = c.Type.Kind.IsInt() && (su.wt == nil || su.wt[ci] < 0)
			su.reset = append(su.reset, ci)
		}
	}
	for _, s := range su.wt {
		if s >= 0 {
			su.reset = append(su.reset, s)
		}
	}
	su.reset = append(su.reset, su.keyWT...)
	if su.reset == nil {
		su.reset = []int{} // nil would mean every slot
	}
	if p.Filter != nil {
		su.late = newLateFilter(p)
		su.essential = essentialFamilies(p, su)
		su.fast = newIntCmpPlan(p.Table, p.Filter)
		su.rawF = newRawFilterPlan(p, su)
	}
	su.parallel = p.Filter == nil || parallelSafe(p.Filter)
	return su
}

// lateFilter is the plan of a scan's late materialisation (scanOp.late).
type lateFilter struct {
	early []bool // by column id
	key   bool
}

// newLateFilter returns the late-materialisation plan of p's filter, or
// nil when the filter may read a slot no walk can see (a subquery's outer
// references, an array expansion): then every row is decoded first.
func newLateFilter(p *planner.Scan) *lateFilter {
	t := p.Table
	cols := make([]bool, len(t.Columns))
	if !filterCols(p.Filter, cols) {
		return nil
	}
	l := &lateFilter{early: make([]bool, t.NextColumnID)}
	for ci, used := range cols {
		if !used {
			continue
		}
		src := ci
		if s, ok := planner.WriteTimeSource(t, ci); ok {
			src = s
		}
		c := &t.Columns[src]
		switch {
		case src != ci && c.IsKey():
			l.early[0] = true // the marker's timestamp
		case c.IsKey():
			l.key = true
		case int(c.ID) < len(l.early):
			l.early[c.ID] = true
		}
	}
	return l
}

// essentialFamilies returns the families a scan's late filter needs when
// they are a strict subset of the families it reads, or nil: the scan then
// reads the others' cells only for rows that pass (on-demand family
// loading, kv.ReadOptions.Essential). The row marker's family is always
// essential: every row has a marker cell, so no row is lost by reading
// only the essential families first, unless the marker can expire (a TTL
// on its family) while other cells of the row live on. Only plain tall
// tables read in key order by range: the salted, wide and bucket-merge
// wrappers do not complete rows, a reverse read ignores the hint, and a
// point read has nothing to skip.
func essentialFamilies(p *planner.Scan, su *scanSetup) []string {
	t := p.Table
	if su.late == nil || p.AsOf != nil || p.Reverse || p.Access.Merge || t.SaltBuckets > 0 || t.Layout == planner.LayoutWide {
		return nil
	}
	if p.Access.Kind != planner.FullScan && p.Access.Kind != planner.RangeScan {
		return nil
	}
	for _, f := range t.Families {
		if f.Name == t.MarkerFamily && f.TTL > 0 {
			return nil
		}
	}
	ess := []string{t.MarkerFamily}
	for _, c := range t.Columns {
		if !c.IsKey() && int(c.ID) < len(su.late.early) && su.late.early[c.ID] && !slices.Contains(ess, c.Family) {
			ess = append(ess, c.Family)
		}
	}
	for _, c := range su.cols {
		if !slices.Contains(ess, c.Family) {
			return ess // c's family is read on demand
		}
	}
	return nil
}

// testHookNoLazyFamilies, when set by a test, turns on-demand family
// loading off for sessions for which it returns true (results must not
// change).
var testHookNoLazyFamilies func(env *evalEnv) bool

func noLazyFamilies(env *evalEnv) bool {
	return testHookNoLazyFamilies != nil && testHookNoLazyFamilies(env)
}

// filterCols marks in cols the column slots e reads. It reports false for
// an expression it cannot see through: only the node types below are
// known to read nothing but their operands and their ColRefs.
func filterCols(e planner.Expr, cols []bool) bool {
	switch e := e.(type) {
	case *planner.ColRef:
		if e.Idx < 0 || e.Idx >= len(cols) {
			return false
		}
		cols[e.Idx] = true
		return true
	case *planner.Const, *planner.Param:
		return true
	case *planner.BinOp:
		return filterCols(e.L, cols) && filterCols(e.R, cols)
	case *planner.UnaryOp:
		return filterCols(e.E, cols)
	case *planner.IsNull:
		return filterCols(e.E, cols)
	case *planner.Cast:
		return filterCols(e.E, cols)
	case *planner.Like:
		return filterCols(e.E, cols) && filterCols(e.Pattern, cols)
	case *planner.InList:
		for _, x := range e.List {
			if !filterCols(x, cols) {
				return false
			}
		}
		return filterCols(e.E, cols)
	case *planner.Case:
		if e.Operand != nil && !filterCols(e.Operand, cols) {
			return false
		}
		for _, w := range e.Whens {
			if !filterCols(w.Cond, cols) || !filterCols(w.Result, cols) {
				return false
			}
		}
		return e.Else == nil || filterCols(e.Else, cols)
	case *planner.Func:
		for _, a := range e.Args {
			if !filterCols(a, cols) {
				return false
			}
		}
		return true
	}
	return false
}

// scanStatsKey keys a scan's kv figures apart from its row count.
type scanStatsKey struct{ *planner.Scan }

func (o *scanOp) Next(ctx context.Context) (Row, error) {
	if o.err != nil {
		return nil, o.err
	}
	if o.empty {
		return nil, io.EOF
	}
	for n := 0; o.it.Next(); n++ {
		if n&1023 == 1023 {
			if err := ctx.Err(); err != nil {
				return nil, pgerror.New(pgerror.CodeQueryCanceled, "canceling statement due to user request")
			}
		}
		if o.late != nil {
			ok, err := o.decodeLate(o.it)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			return o.row, nil
		}
		if ok, err := o.decode(o.rowOf(o.it)); err != nil || !ok {
			if err != nil {
				return nil, err
			}
			continue // the row did not exist at the AS OF time
		}
		if o.p.Filter != nil {
			ok, err := o.filter()
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		return o.row, nil
	}
	if err := o.it.Err(); err != nil {
		return nil, storageError(err)
	}
	if err := ctx.Err(); err != nil {
		return nil, pgerror.New(pgerror.CodeQueryCanceled, "canceling statement due to user request")
	}
	return nil, io.EOF
}

// rowOf returns it's current row: o.ref when it is it's RowRef, else a
// copy in o.cur. The pointer is valid until the next Next.
func (o *scanOp) rowOf(it kv.RowIterator) *kv.Row {
	if o.ref != nil {
		return o.ref
	}
	o.cur = it.Row()
	return &o.cur
}

// decode fills o.row from r. ok is false when, read AS OF a time, the
// row did not exist then.
func (o *scanOp) decode(r *kv.Row) (ok bool, err error) {
	t := o.p.Table
	o.resetRow()
	if !o.noKey {
		if err := decodeKeyInto(t, r.Key, o.row); err != nil {
			return false, err
		}
	}
	if o.asOf != nil {
		return o.asOf.pick(*r, o.row, func(c *kv.Cell) error { return o.cell(c) })
	}
	return true, o.decodeCells(r.Cells, false)
}

// decodeLate is decode and the filter with late materialisation on it's
// current row: it decodes the columns the filter reads, runs it, and
// decodes the rest only when the row passes (with lazy families, after
// completing the row). ok reports that it did.
func (o *scanOp) decodeLate(it kv.RowIterator) (ok bool, err error) {
	t := o.p.Table
	r := o.rowOf(it)
	if o.rawF != nil {
		if reject, sure := o.rawF.judge(o.fast, r.Cells); reject && sure {
			return false, nil
		}
	}
	o.resetRow()
	l := o.late
	if l.key {
		if err := decodeKeyInto(t, r.Key, o.row); err != nil {
			return false, err
		}
	}
	for i := range r.Cells {
		c := &r.Cells[i]
		if id := cellColumnID(c.Qualifier); id < uint64(len(l.early)) && l.early[id] {
			if err := o.cellID(c, id); err != nil {
				return false, err
			}
		}
	}
	if ok, err := o.filter(); err != nil || !ok {
		return false, err
	}
	if o.lazy {
		if err := kv.CompleteRow(it); err != nil {
			return false, storageError(err)
		}
		r = o.rowOf(it)
	}
	if !l.key && !o.noKey {
		if err := decodeKeyInto(t, r.Key, o.row); err != nil {
			return false, err
		}
	}
	return true, o.decodeCells(r.Cells, true)
}

// filter runs the scan's filter over o.row.
func (o *scanOp) filter() (bool, error) {
	if o.fast != nil {
		return o.fast.pass(o.row), nil
	}
	return evalBool(o.p.Filter, o.row, o.env)
}

// decodeKeyInto decodes rowkey into the key columns' slots of row.
func decodeKeyInto(t *planner.TableDesc, key []byte, row Row) error {
	for _, kc := range t.Key {
		// Ascending INT and BIGINT, the common key columns, in place:
		// keyenc.DecodeKey's encoding (big-endian, sign bit flipped).
		if k := t.Columns[kc.Col].Type.Kind; !kc.Desc {
			if k == types.Int4 && len(key) >= 4 {
				row[kc.Col], key = types.NewInt(k, int64(int32(binary.BigEndian.Uint32(key)^0x80000000))), key[4:]
				continue
			}
			if k == types.Int8 && len(key) >= 8 {
				row[kc.Col], key = types.NewInt(k, int64(binary.BigEndian.Uint64(key)^(1<<63))), key[8:]
				continue
			}
		}
		d, rest, err := keyenc.DecodeKey(key, t.Columns[kc.Col].Type, kc.Desc)
		if err != nil {
			return pgerror.Wrap(err, pgerror.CodeDataCorrupted, "table "+t.Name)
		}
		row[kc.Col], key = d, rest
	}
	return nil
}

// cell decodes one cell version read for the row into its slot, and its
// timestamp into the write-time slot.
func (o *scanOp) cell(c *kv.Cell) error {
	id, n := binary.Uvarint(c.Qualifier)
	if n <= 0 {
		return nil
	}
	return o.cellID(c, id)
}

// cellID is cell with c's column id, read from its qualifier.
func (o *scanOp) cellID(c *kv.Cell, id uint64) error {
	if id == 0 {
		if len(o.keyWT) > 0 && c.Family == o.p.Table.MarkerFamily {
			for _, s := range o.keyWT {
				o.row[s] = types.NewTimestampTZ(int64(c.Timestamp))
			}
		}
		return nil
	}
	if id >= uint64(len(o.ids)) {
		return nil
	}
	ic := &o.ids[id]
	ci := ic.ci
	if ci < 0 || c.Family != ic.fam {
		return nil
	}
	if o.raw != nil && o.raw[ci] {
		o.row[ci], o.rawVal[ci] = rawText, c.Value
	} else if !decodeIntInto(&o.row[ci], c.Value, ic.kind) {
		t := o.p.Table
		d, err := keyenc.DecodeValue(c.Value, t.Columns[ci].Type)
		if err != nil {
			return pgerror.Wrap(err, pgerror.CodeDataCorrupted, "table "+t.Name+" column "+t.Columns[ci].Name)
		}
		o.row[ci] = d
	}
	if o.wt != nil && o.wt[ci] >= 0 {
		o.row[o.wt[ci]] = types.NewTimestampTZ(int64(c.Timestamp))
	}
	return nil
}

// decodeIntInto is keyenc.DecodeValue for a well-formed integer cell,
// written in place: the common non-key column of a scan costs no Datum
// copies. It reports false for any other kind or a value DecodeValue
// must judge (and report as corrupt).
func decodeIntInto(dst *types.Datum, b []byte, k types.Kind) bool {
	if !k.IsInt() {
		return false
	}
	// binary.Varint, whose call is not inlined, spelled out.
	ux, n := binary.Uvarint(b)
	v := int64(ux >> 1)
	if ux&1 != 0 {
		v = ^v
	}
	if n <= 0 || n != len(b) || (k == types.Int2 && v != int64(int16(v))) || (k == types.Int4 && v != int64(int32(v))) {
		return false
	}
	*dst = types.NewInt(k, v)
	return true
}

func (o *scanOp) Close() {
	if o.it != nil {
		if o.stats != nil {
			st := o.it.Stats()
			o.stats.read = st
		}
		o.it.Close()
		// Nothing else holds the iterator: the next execution of a
		// reused scan may give it back to the store (resetScan).
		o.it, o.spent = nil, o.it
	}
	clear(o.rawVal) // the read's memory is not ours any more
}

func storageError(err error) error {
	var pe *pgerror.Error
	if errors.As(err, &pe) {
		return err
	}
	return pgerror.Wrap(err, pgerror.CodeIOError, "storage")
}

// encodeAccess evaluates an access path's key values and encodes them into
// a kv.RowSet. empty reports that no row can match (a NULL or out-of-range
// key value, or an empty range). The key values are evaluated over row:
// nil, or the left row of a lookup join.
func encodeAccess(t *planner.TableDesc, acc planner.Access, row Row, env *evalEnv) (kv.RowSet, bool, error) {
	return encodeAccessTo(t, acc, row, env, nil, nil, nil)
}

// encodeAccessTo is encodeAccess appending the keys to keys[:0], the
// ranges to ranges[:0] and, when buf is not nil, their bytes to *buf: a
// reused scan's buffers.
func encodeAccessTo(t *planner.TableDesc, acc planner.Access, row Row, env *evalEnv, keys [][]byte, ranges []kv.KeyRange, buf *[]byte) (kv.RowSet, bool, error) {
	var rs kv.RowSet
	var own []byte
	if buf == nil {
		// The keys' bytes share new arrays: fewer allocations than one per
		// key, and no bytes are shared with anything else. The slice
		// header stays on the stack.
		buf = &own
	}
	if acc.Kind == planner.FullScan {
		return rs, false, nil
	}
	if hasElems(acc) {
		var err error
		if acc, err = expandElems(acc, row, env); err != nil {
			return rs, false, err
		}
	}
	if acc.Kind != planner.RangeScan {
		if keys == nil || cap(keys) < len(acc.Spans) {
			keys = make([][]byte, 0, len(acc.Spans))
		}
		rs.Keys = keys[:0]
	} else if ranges != nil {
		rs.Ranges = ranges[:0]
	}
	for i := range acc.Spans {
		sp := &acc.Spans[i]
		dst := *buf
		key, ok, err := appendEq(dst, t, sp.Eq, row, env)
		if err != nil {
			return rs, false, err
		}
		if !ok {
			continue
		}
		prefix := key[len(dst):len(key):len(key)]
		*buf = key
		if acc.Kind != planner.RangeScan {
			rs.Keys = append(rs.Keys, prefix)
			continue
		}
		r, ok, err := encodeRange(t, sp, prefix, row, env, buf)
		if err != nil {
			return rs, false, err
		}
		if ok {
			rs.Ranges = append(rs.Ranges, r)
		}
	}
	if len(rs.Keys) > 1 {
		slices.SortFunc(rs.Keys, bytes.Compare)
	}
	return rs, rs.IsFull(), nil
}

// hasElems reports whether a span of acc holds a planner.ElemsOf
// (expandElems); most do not, and then need no copy of the access path.
func hasElems(acc planner.Access) bool {
	for i := range acc.Spans {
		for _, e := range acc.Spans[i].Eq {
			if _, ok := e.(*planner.ElemsOf); ok {
				return true
			}
		}
	}
	return false
}

// keyValue evaluates a key value and converts it to the column type.
// ok is false for NULL; outOfRange reports an integer beyond the column's
// range, with sign > 0 when it is above the maximum.
func keyValue(e planner.Expr, t types.T, row Row, env *evalEnv) (d types.Datum, ok bool, outOfRange, sign int, err error) {
	v, err := eval(e, row, env)
	if err != nil || v.IsNull() {
		return v, false, 0, 0, err
	}
	if v.K == t.Kind && t.Kind.IsInt() {
		return v, true, 0, 0, nil // an integer of the column's own type: the common parameter
	}
	d, err = types.CastIn(v, t, env.zone())
	if err != nil {
		if pgerror.CodeOf(err) == pgerror.CodeNumericValueOutOfRange {
			sign = 1
			if v.I < 0 {
				sign = -1
			}
			return v, false, 1, sign, nil
		}
		return v, false, 0, 0, err
	}
	return d, true, 0, 0, nil
}

// appendEq appends the encoded key prefix of the span's equalities eq to
// key; ok is false when a value cannot match (a NULL, or out of the
// column's range).
func appendEq(key []byte, t *planner.TableDesc, eq []planner.Expr, row Row, env *evalEnv) ([]byte, bool, error) {
	for i, e := range eq {
		kc := t.Key[i]
		d, ok, _, _, err := keyValue(e, t.Columns[kc.Col].Type, row, env)
		if err != nil || !ok {
			return nil, false, err
		}
		key = keyenc.AppendKey(key, d, t.Columns[kc.Col].Type, kc.Desc)
	}
	return key, true, nil
}

// encodeRange encodes span sp, whose equalities encoded to prefix, as a
// key range; ok is false when it is empty. The bounds' bytes are appended
// to *buf (and kept apart from later appends by their capacity).
func encodeRange(t *planner.TableDesc, sp *planner.Span, prefix []byte, row Row, env *evalEnv, buf *[]byte) (kv.KeyRange, bool, error) {
	kc := t.Key[len(sp.Eq)]
	ct := t.Columns[kc.Col].Type
	if sp.HasPrefix {
		p := appendKeyTo(buf, func(b []byte) []byte {
			return keyenc.AppendStringPrefix(append(b, prefix...), sp.Prefix, kc.Desc)
		})
		return kv.KeyRange{Start: p, End: appendPrefixEnd(buf, p)}, true, nil
	}
	// The span's prefix bounds the range unless a bound replaces them; the
	// end, PrefixEnd(prefix), is encoded only when no bound did.
	var r kv.KeyRange
	endSet := len(prefix) == 0
	if !endSet {
		r.Start = prefix
	}
	// SQL lower/upper bounds become byte lower/upper bounds, swapped for
	// a DESC column (its encoding is inverted).
	bound := func(e planner.Expr, incl, lower bool) (bool, error) {
		d, ok, oor, sign, err := keyValue(e, ct, row, env)
		if err != nil {
			return false, err
		}
		if oor != 0 {
			// Beyond the type's range: either no value qualifies, or all do.
			return (sign > 0) != lower, nil
		}
		if !ok {
			return false, nil // comparison with NULL
		}
		enc := appendKeyTo(buf, func(b []byte) []byte {
			return keyenc.AppendKey(append(b, prefix...), d, ct, kc.Desc)
		})
		byteLower := lower != kc.Desc
		switch {
		case byteLower && incl:
			r.Start = enc
		case byteLower:
			r.Start = appendPrefixEnd(buf, enc)
		case incl:
			r.End, endSet = appendPrefixEnd(buf, enc), true
		default:
			r.End, endSet = enc, true
		}
		return true, nil
	}
	if sp.Lo != nil {
		if ok, err := bound(sp.Lo, sp.LoIncl, true); !ok || err != nil {
			return r, false, err
		}
	}
	if sp.Hi != nil {
		if ok, err := bound(sp.Hi, sp.HiIncl, false); !ok || err != nil {
			return r, false, err
		}
	}
	if !endSet {
		r.End = appendPrefixEnd(buf, prefix)
	}
	if r.Start != nil && r.End != nil && bytes.Compare(r.Start, r.End) >= 0 {
		return r, false, nil
	}
	return r, true, nil
}

// appendKeyTo appends a key to *buf with enc, which appends it to the
// slice it is given, and returns the key with its capacity cut to its
// length, so that later appends to *buf never overwrite it.
func appendKeyTo(buf *[]byte, enc func([]byte) []byte) []byte {
	start := len(*buf)
	*buf = enc(*buf)
	return (*buf)[start:len(*buf):len(*buf)]
}

// appendPrefixEnd is keyenc.PrefixEnd(p) appended to *buf as appendKeyTo
// does: the first key after every key with prefix p, nil when there is
// none (p is empty or all 0xFF bytes).
func appendPrefixEnd(buf *[]byte, p []byte) []byte {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] != 0xFF {
			end := appendKeyTo(buf, func(b []byte) []byte { return append(b, p[:i+1]...) })
			end[i]++
			return end
		}
	}
	return nil
}

// prefetchIter runs a kv.RowIterator on its own goroutine, copying its
// rows into batches that the consumer reads in order: a long scan then
// uses two cores, one assembling rows in the store and one decoding,
// filtering and aggregating them above. Rows, order, snapshot and errors
// are those of the wrapped iterator (its snapshot was taken by Read,
// before the goroutine starts). A batch is recycled only after the
// consumer has moved past its last row, so a Row stays valid until the
// next Next, as kv.RowIterator requires.
type prefetchIter struct {
	full  chan *rowBatch
	free  chan *rowBatch
	stop  chan struct{}
	done  chan struct{}
	cur   *rowBatch
	i     int
	row   kv.Row
	err   error
	stats kv.ReadStats
	end   bool
}

// rowBatch is a run of copied rows. Keys, qualifiers and values live in
// arena, whose capacity is fixed while the batch fills, so the slices
// into it stay valid.
type rowBatch struct {
	rows  []kv.Row
	cells []kv.Cell
	arena []byte
	last  bool // the iterator ended after these rows
	err   error
	stats kv.ReadStats
}

const (
	prefetchRows  = 256
	prefetchArena = 64 << 10
	prefetchDepth = 3 // batches in flight
)

func newPrefetchIter(it kv.RowIterator) *prefetchIter {
	p := &prefetchIter{
		full: make(chan *rowBatch, prefetchDepth),
		free: make(chan *rowBatch, prefetchDepth),
		stop: make(chan struct{}),
		done: make(chan struct{}),
	}
	for range prefetchDepth {
		p.free <- &rowBatch{arena: make([]byte, 0, prefetchArena)}
	}
	go p.run(it)
	return p
}

// run is the producer: it owns it until it returns.
func (p *prefetchIter) run(it kv.RowIterator) {
	defer close(p.done)
	defer it.Close()
	for {
		var b *rowBatch
		select {
		case b = <-p.free:
		case <-p.stop:
			return
		}
		b.rows, b.cells, b.arena = b.rows[:0], b.cells[:0], b.arena[:0]
		b.last, b.err = false, nil
		for len(b.rows) < prefetchRows {
			if !it.Next() {
				b.last, b.err = true, it.Err()
				break
			}
			b.add(it.Row())
			if len(b.arena) > cap(b.arena)/2 {
				break // keep batches about the arena's size
			}
		}
		b.stats = it.Stats()
		select {
		case p.full <- b:
		case <-p.stop:
			return
		}
		if b.last {
			return
		}
	}
}

// add copies r into b. A row that does not fit gets a new arena: the
// rows already in the batch keep the old one alive.
func (b *rowBatch) add(r kv.Row) {
	n := len(r.Key)
	for i := range r.Cells {
		n += len(r.Cells[i].Qualifier) + len(r.Cells[i].Value)
	}
	if len(b.arena)+n > cap(b.arena) {
		b.arena = make([]byte, 0, max(prefetchArena, n))
	}
	copyBytes := func(s []byte) []byte {
		if s == nil {
			return nil
		}
		off := len(b.arena)
		b.arena = append(b.arena, s...)
		return b.arena[off:len(b.arena):len(b.arena)]
	}
	start := len(b.cells)
	key := copyBytes(r.Key)
	for i := range r.Cells {
		c := r.Cells[i]
		c.Qualifier, c.Value = copyBytes(c.Qualifier), copyBytes(c.Value)
		b.cells = append(b.cells, c)
	}
	b.rows = append(b.rows, kv.Row{Key: key, Cells: b.cells[start:len(b.cells):len(b.cells)]})
}

func (p *prefetchIter) Next() bool {
	for {
		if p.cur != nil && p.i < len(p.cur.rows) {
			p.row = p.cur.rows[p.i]
			p.i++
			return true
		}
		p.row = kv.Row{}
		if p.end {
			return false
		}
		if p.cur != nil {
			p.free <- p.cur // never blocks: at most prefetchDepth batches exist
			p.cur = nil
		}
		b := <-p.full
		p.cur, p.i, p.stats = b, 0, b.stats
		if b.last {
			p.end, p.err = true, b.err
		}
	}
}

func (p *prefetchIter) Row() kv.Row         { return p.row }
func (p *prefetchIter) RowRef() *kv.Row     { return &p.row }
func (p *prefetchIter) Err() error          { return p.err }
func (p *prefetchIter) Stats() kv.ReadStats { return p.stats }

// Close stops the producer, waits for it (it closes the wrapped
// iterator) and is safe to call more than once.
func (p *prefetchIter) Close() error {
	select {
	case <-p.stop:
	default:
		close(p.stop)
	}
	<-p.done
	p.row, p.cur = kv.Row{}, nil
	return nil
}
