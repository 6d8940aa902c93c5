package exec

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/widesql/widesql/pgwire"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
	"github.com/widesql/widesql/sqlparse"
)

// prepared is a planned statement; it implements pgwire.Prepared.
type prepared struct {
	sess       *Session
	stmt       *sqlparse.Statement
	plan       planner.Plan // nil for utility statements
	cursorPlan planner.Plan // DECLARE's query (cursor.go)
	paramTypes []types.T
	cols       []pgwire.Column
	declared   []types.T      // the client's parameter types, for re-planning
	gen        uint64         // catalog generation the plan was built at
	zone       *time.Location // the session time zone the plan was built in
	// colTypes are plan's result column types and textFormats all-text
	// result formats, computed once for the portals (which only read them).
	colTypes    []types.T
	textFormats []int16
	// tree is a closed operator tree of treePlan (reusablePlan) that the
	// last portal to finish with it left for the next execution; nil while
	// a portal runs it, so two open portals of the statement (a named one
	// suspended while the unnamed one runs) never share one. A prepared
	// statement belongs to one session.
	tree     operator
	treePlan planner.Plan
	// raw is the raw TEXT output plan (row_raw.go) of rawFor, the plan it
	// was computed for; nil when no column of it qualifies.
	raw    *rawPlan
	rawFor planner.Plan
	// direct is the direct output plan (directColumns) of the projection
	// expressions directFor, which the top projectOp of plan's trees
	// shares: a re-plan after DDL has new expressions and gets a new map.
	direct    []int
	directFor []planner.Expr
	// bigTag is the command tag of a query that returned bigTagN rows,
	// more than smallSelectTags holds: a prepared range that returns the
	// same number of rows each time builds its tag once.
	bigTag  string
	bigTagN int64
	// spare is a portal of the statement that pgwire released (Release):
	// the next Bind reuses it, so that a prepared point Get allocates no
	// portal per execution.
	spare *portal
}

// newPortal returns an empty portal of p, its spare one when it has one.
func (p *prepared) newPortal() *portal {
	pt := p.spare
	if pt == nil {
		return &portal{prep: p, loc: p.sess.zone()}
	}
	p.spare = nil
	pt.prep, pt.loc = p, p.sess.zone() // Release left the rest zero
	return pt
}

// resultTypes returns the plan's column types, shared by every portal.
func (p *prepared) resultTypes() []types.T {
	if p.colTypes == nil {
		cols := p.plan.Columns()
		p.colTypes = make([]types.T, len(cols))
		for i, c := range cols {
			p.colTypes[i] = c.T
		}
	}
	return p.colTypes
}

// replan plans the statement again when DDL changed the catalog since it
// was prepared (PostgreSQL invalidates cached plans the same way). The
// client already has the parameter and result types: if they would
// change, the statement fails with PostgreSQL's 0A000.
func (p *prepared) replan() error {
	s := p.sess
	gen := s.eng.cat.gen.Load()
	if p.plan == nil || gen == p.gen {
		return nil
	}
	zone := s.zone()
	plan, pt, err := planner.BuildIn(s.eng.cat, p.stmt, p.declared, zone)
	if err != nil {
		return err
	}
	cols := wireColumns(plan.Columns())
	if !slices.Equal(pt, p.paramTypes) || !slices.EqualFunc(cols, p.cols, func(a, b pgwire.Column) bool {
		return a.Name == b.Name && a.TypeOID == b.TypeOID
	}) {
		return pgerror.New(pgerror.CodeFeatureNotSupported, "cached plan must not change result type")
	}
	p.plan, p.gen, p.zone, p.colTypes = plan, gen, zone, nil
	return nil
}

func (p *prepared) ParamOIDs() []uint32 {
	out := make([]uint32, len(p.paramTypes))
	for i, t := range p.paramTypes {
		out[i] = t.OID()
		if t.Kind == types.Unknown {
			out[i] = types.OIDText
		}
	}
	return out
}

func (p *prepared) Columns() []pgwire.Column { return p.cols }

// Bind implements pgwire.Prepared: it decodes the parameters by their
// types and returns a portal that runs on the first Next.
func (p *prepared) Bind(ctx context.Context, params [][]byte, paramFormats, resultFormats []int16) (pgwire.Portal, error) {
	s := p.sess
	if s.txn == 'E' && !endsTxn(p.stmt) {
		return nil, errAborted()
	}
	if err := p.replan(); err != nil {
		return nil, s.fail(err)
	}
	if len(params) != len(p.paramTypes) {
		return nil, s.fail(pgerror.New(pgerror.CodeProtocolViolation,
			"bind message supplies %d parameters, but prepared statement requires %d", len(params), len(p.paramTypes)))
	}
	if len(paramFormats) > 1 && len(paramFormats) != len(params) {
		return nil, s.fail(pgerror.New(pgerror.CodeProtocolViolation, "bind message has %d parameter formats but %d parameters", len(paramFormats), len(params)))
	}
	// The portal is taken first, so that a few parameters are decoded
	// into its own array: one allocation fewer per execution.
	pt := p.newPortal()
	var vals []types.Datum
	switch {
	case len(params) <= len(pt.paramArr):
		vals = pt.paramArr[:len(params):len(params)]
	default:
		vals = make([]types.Datum, len(params))
	}
	for i, raw := range params {
		if raw == nil {
			continue
		}
		t := p.paramTypes[i]
		var err error
		if formatAt(paramFormats, i) == 1 {
			vals[i], err = types.DecodeBinary(t, raw)
		} else if d, ok := parseIntParam(t.Kind, raw); ok {
			vals[i] = d // no string of raw: one allocation fewer
		} else {
			vals[i], err = types.ParseTextIn(t, string(raw), pt.loc)
		}
		if err != nil {
			e := pgerror.Flatten(err)
			return nil, s.fail(&pgerror.Error{Code: e.Code, Message: fmt.Sprintf("%s (parameter $%d)", e.Message, i+1)})
		}
	}
	return p.bindDatums(pt, vals, resultFormats)
}

// bindDatums finishes Bind once the parameters are decoded: pt, when not
// nil, is the portal they were decoded into.
func (p *prepared) bindDatums(pt *portal, vals []types.Datum, resultFormats []int16) (pgwire.Portal, error) {
	s := p.sess
	if pt == nil {
		pt = p.newPortal()
	}
	pt.params = vals
	if len(resultFormats) > 1 && len(resultFormats) != len(p.cols) {
		return nil, s.fail(pgerror.New(pgerror.CodeProtocolViolation, "bind message has %d result formats but query has %d columns", len(resultFormats), len(p.cols)))
	}
	if len(resultFormats) == 0 || len(resultFormats) == 1 && resultFormats[0] == 0 {
		if p.textFormats == nil {
			p.textFormats = make([]int16, len(p.cols))
		}
		pt.formats = p.textFormats
		return pt, nil
	}
	formats := make([]int16, len(p.cols))
	for i := range formats {
		formats[i] = formatAt(resultFormats, i)
		if formats[i] != 0 && formats[i] != 1 {
			return nil, s.fail(pgerror.New(pgerror.CodeProtocolViolation, "unsupported format code: %d", formats[i]))
		}
	}
	pt.formats = formats
	return pt, nil
}

func formatAt(f []int16, i int) int16 {
	switch len(f) {
	case 0:
		return 0
	case 1:
		return f[0]
	}
	return f[i]
}

// portal runs a bound statement; it implements pgwire.Portal.
type portal struct {
	prep    *prepared
	params  []types.Datum
	formats []int16

	started bool
	op      operator       // row source of a query
	rows    [][]string     // precomputed text rows (SHOW, EXPLAIN)
	types   []types.T      // column types of op's rows
	loc     *time.Location // the session zone for text output
	tag     string
	// fixedTag, when set, is the tag once op is drained (a write's
	// RETURNING rows end with INSERT 0 n, not SELECT n).
	fixedTag string
	count    int64
	textOut  [][]byte // the current row of rows
	envx     struct { // start's evaluation environment and executor
		env evalEnv
		x   executor
	}
	enc     *encodeScratch // taken from the session at the first row, given back by Close
	closeFn func()
	// treePlan is set when op is a reusable tree of that plan: Close
	// hands it back to prep (prepared.tree).
	treePlan planner.Plan
	// paramArr holds the parameters of a statement with few of them.
	paramArr [3]types.Datum
	// raw, when set, lists the output columns whose bytes rawScan keeps
	// (row_raw.go): encode and AppendRow copy them from there.
	raw     []int
	rawScan *scanOp
	// src and cols, when set, are the direct output of a tree whose top
	// is a projection of bare input columns (directColumns): rows are
	// pulled from src, the projection's input, and output column i is
	// slot cols[i] of its row, so the projection's copy of every value
	// is skipped. op stays the tree's root for Close and reuse.
	src  operator
	cols []int
}

// directColumns returns, for a projection whose every expression is a
// bare column of its input, the input slot of each output column; nil
// otherwise.
func directColumns(exprs []planner.Expr) []int {
	if len(exprs) == 0 {
		return nil
	}
	cols := make([]int, len(exprs))
	for i, e := range exprs {
		c, ok := e.(*planner.ColRef)
		if !ok || c.Idx < 0 {
			return nil
		}
		cols[i] = c.Idx
	}
	return cols
}

// useDirect turns direct output on for the portal's new operator tree
// when its root is a projection of bare columns; the analysis runs once
// per plan of the prepared statement (per projection expressions, which
// the plan owns and every tree built or reused for it shares).
func (pt *portal) useDirect() {
	po, ok := pt.op.(*projectOp)
	if !ok || len(po.exprs) == 0 {
		return
	}
	p := pt.prep
	if len(p.directFor) != len(po.exprs) || &p.directFor[0] != &po.exprs[0] {
		p.direct, p.directFor = directColumns(po.exprs), po.exprs
	}
	if p.direct == nil {
		return
	}
	pt.src, pt.cols = po.in, p.direct
}

// parseIntParam parses the text of an integer parameter of kind k when it
// is plain decimal digits, with an optional minus sign, within the kind's
// range: ok is false for anything else, which types.ParseTextIn then
// parses (or rejects) as PostgreSQL does. Unlike ParseTextIn it needs no
// string of raw, which would be an allocation per parameter and request.
func parseIntParam(k types.Kind, raw []byte) (d types.Datum, ok bool) {
	var lo, hi int64
	switch k {
	case types.Int2:
		lo, hi = -1<<15, 1<<15-1
	case types.Int4:
		lo, hi = -1<<31, 1<<31-1
	case types.Int8:
		lo, hi = -1<<63, 1<<63-1
	default:
		return d, false
	}
	v, neg := raw, false
	if len(v) > 0 && v[0] == '-' {
		v, neg = v[1:], true
	}
	if len(v) == 0 || len(v) > 18 { // 18 digits cannot overflow an int64
		return d, false
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return d, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	if n < lo || n > hi {
		return d, false
	}
	return types.NewInt(k, n), true
}

// encodeScratch is the buffers portal.encode renders rows into. A session
// keeps one between statements, so that a short query allocates none.
type encodeScratch struct {
	out  [][]byte
	buf  []byte
	ends []int // where each value ends in buf, -1 for NULL
}

func (pt *portal) Columns() []pgwire.Column { return pt.prep.cols }
func (pt *portal) ResultFormats() []int16   { return pt.formats }
func (pt *portal) Tag() string              { return pt.tag }

func (pt *portal) Close() {
	if pt.op != nil {
		pt.op.Close()
		if p := pt.prep; pt.treePlan != nil && pt.treePlan == p.plan {
			p.tree, p.treePlan = pt.op, pt.treePlan
		}
		pt.op, pt.treePlan, pt.src, pt.cols = nil, nil, nil, nil
	}
	if pt.enc != nil {
		// The rows encode returned were sent before Close (pgwire copies
		// any it keeps), so the buffers are free again; a session does not
		// keep the buffer of a very wide row.
		if cap(pt.enc.buf) <= 64<<10 {
			pt.prep.sess.encScratch = pt.enc
		}
		pt.enc = nil
	}
}

var _ pgwire.PortalReleaser = (*portal)(nil)

// Release implements pgwire.PortalReleaser: pgwire will not call the
// portal again, so it becomes its statement's spare for the next Bind.
// A cursor statement's portal is not reused: the cursor it declared
// keeps its parameters, which may be the portal's own array.
func (pt *portal) Release() {
	pt.Close()
	p := pt.prep
	if p == nil || p.spare != nil || p.stmt.Cursor != nil {
		return
	}
	*pt = portal{} // nothing it held (parameters, rows) stays reachable
	p.spare = pt
}

// Next implements pgwire.Portal.
func (pt *portal) Next(ctx context.Context) ([][]byte, error) {
	if text, err := pt.nextText(ctx); text != nil || err != nil {
		return text, err
	}
	row, err := pt.nextRow(ctx)
	if err != nil {
		return nil, err
	}
	return pt.encode(row), nil
}

var _ pgwire.RowAppender = (*portal)(nil)

// AppendRow implements pgwire.RowAppender: the row's values are encoded
// straight into the connection's output buffer.
func (pt *portal) AppendRow(ctx context.Context, dst []byte) ([]byte, error) {
	if text, err := pt.nextText(ctx); err != nil {
		return dst, err
	} else if text != nil {
		dst = binary.BigEndian.AppendUint16(dst, uint16(len(text)))
		for _, v := range text {
			dst = binary.BigEndian.AppendUint32(dst, uint32(len(v)))
			dst = append(dst, v...)
		}
		return dst, nil
	}
	row, err := pt.nextRow(ctx)
	if err != nil {
		return dst, err
	}
	n, cols := len(row), pt.cols
	if cols != nil {
		n = len(cols)
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(n))
	// The loop runs per column and row: the portal's fields are read once,
	// and each value is read in place rather than copied out of the row.
	raw, formats := pt.raw, pt.formats[:n]
	var rawVal [][]byte
	if raw != nil {
		raw, rawVal = raw[:n], pt.rawScan.rawVal
	}
	for i := range n {
		j := i
		if cols != nil {
			j = cols[i]
		}
		d := &row[j]
		if !d.NotNull {
			dst = append(dst, 0xff, 0xff, 0xff, 0xff)
			continue
		}
		if raw != nil && raw[i] >= 0 {
			v := rawVal[raw[i]]
			dst = binary.BigEndian.AppendUint32(dst, uint32(len(v)))
			dst = append(dst, v...)
			continue
		}
		at := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		switch {
		case formats[i] == 1:
			dst = types.AppendBinary(dst, *d, pt.types[i])
		case d.K.IsInt():
			dst = strconv.AppendInt(dst, d.I, 10) // AppendTextIn's text of an integer
		default:
			dst = types.AppendTextIn(dst, *d, pt.loc)
		}
		binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	}
	return dst, nil
}

// nextText starts the portal on its first call and returns the next of
// its precomputed text rows (SHOW, EXPLAIN); it returns nil, nil when the
// portal's rows come from an operator (nextRow).
func (pt *portal) nextText(ctx context.Context) ([][]byte, error) {
	if !pt.started {
		pt.started = true
		if err := pt.start(ctx); err != nil {
			pt.Close()
			return nil, pt.prep.sess.fail(err)
		}
	}
	if pt.rows == nil {
		return nil, nil
	}
	if len(pt.rows) == 0 {
		return nil, io.EOF
	}
	r := pt.rows[0]
	pt.rows = pt.rows[1:]
	pt.textOut = pt.textOut[:0]
	for _, v := range r {
		pt.textOut = append(pt.textOut, []byte(v))
	}
	return pt.textOut, nil
}

// smallSelectTags are the tags of queries with few rows, which keyed reads
// return: no allocation for them.
var smallSelectTags = func() (tags [16]string) {
	for i := range tags {
		tags[i] = "SELECT " + strconv.Itoa(i)
	}
	return tags
}()

// selectTag is the command tag of a query that returned n rows.
func selectTag(n int64) string {
	if n >= 0 && n < int64(len(smallSelectTags)) {
		return smallSelectTags[n]
	}
	return "SELECT " + strconv.FormatInt(n, 10)
}

// selectTag is the package's selectTag, with the tag of a large count
// kept for the statement's next execution.
func (p *prepared) selectTag(n int64) string {
	if n < int64(len(smallSelectTags)) {
		return selectTag(n)
	}
	if p.bigTag == "" || p.bigTagN != n {
		p.bigTag, p.bigTagN = selectTag(n), n
	}
	return p.bigTag
}

// nextRow returns the operator's next row, or io.EOF once the statement
// is complete (setting its tag and closing the portal).
func (pt *portal) nextRow(ctx context.Context) (Row, error) {
	if pt.op == nil {
		return nil, io.EOF
	}
	src := pt.op
	if pt.src != nil {
		src = pt.src
	}
	row, err := src.Next(ctx)
	if err == io.EOF {
		pt.tag = pt.prep.selectTag(pt.count)
		if pt.fixedTag != "" {
			pt.tag = pt.fixedTag
		}
		pt.Close()
		return nil, io.EOF
	}
	if err != nil {
		pt.Close()
		return nil, pt.prep.sess.fail(err)
	}
	pt.count++
	return row, nil
}

// encode renders a row in the portal's result formats into one reused
// buffer.
func (pt *portal) encode(row Row) [][]byte {
	e := pt.enc
	if e == nil {
		s := pt.prep.sess
		if e = s.encScratch; e != nil {
			s.encScratch = nil
		} else {
			// A nil buf would read as NULL: an empty string is not NULL.
			e = &encodeScratch{buf: make([]byte, 0, 256), ends: make([]int, 0, len(row)), out: make([][]byte, 0, len(row))}
		}
		pt.enc = e
	}
	e.buf = e.buf[:0]
	ends := e.ends[:0]
	n := len(row)
	if pt.cols != nil {
		n = len(pt.cols)
	}
	for i := range n {
		j := i
		if pt.cols != nil {
			j = pt.cols[i]
		}
		d := &row[j] // not a copy per column and row
		if !d.NotNull {
			ends = append(ends, -1)
			continue
		}
		if pt.raw != nil && pt.raw[i] >= 0 {
			e.buf = append(e.buf, pt.rawScan.rawVal[pt.raw[i]]...)
		} else if pt.formats[i] == 1 {
			e.buf = types.AppendBinary(e.buf, *d, pt.types[i])
		} else {
			e.buf = types.AppendTextIn(e.buf, *d, pt.loc)
		}
		ends = append(ends, len(e.buf))
	}
	e.ends = ends
	e.out = e.out[:0]
	start := 0
	for _, end := range ends {
		if end < 0 {
			e.out = append(e.out, nil)
			continue
		}
		e.out = append(e.out, e.buf[start:end:end])
		start = end
	}
	return e.out
}

// start runs a statement without rows to completion, or opens a query.
func (pt *portal) start(ctx context.Context) error {
	p, s := pt.prep, pt.prep.sess
	if p.stmt.Cursor != nil {
		return pt.startCursor(ctx, p.stmt.Cursor) // cursor.go
	}
	if p.plan == nil {
		if p.stmt.Utility == nil {
			pt.tag = "" // empty query
			return nil
		}
		rows, tag, err := s.runUtility(ctx, p.stmt.Utility)
		if err != nil {
			return err
		}
		pt.tag = tag
		if p.cols != nil {
			pt.rows = rows
			if pt.rows == nil {
				pt.rows = [][]string{}
			}
		}
		return nil
	}
	if err := s.startStatement(ctx); err != nil { // exec/txn.go
		return err
	}
	// The environment and executor live in the portal: one allocation
	// fewer each for a short statement.
	pt.envx.env = evalEnv{params: pt.params, sess: s, now: int64(s.eng.clock.now())}
	env, x := &pt.envx.env, &pt.envx.x
	*x = executor{eng: s.eng, env: env}
	env.x = x
	if err := x.checkFullScans(p.plan, p.stmt.AllowFullScan); err != nil { // guardrail.go
		return err
	}
	switch plan := p.plan.(type) {
	case *planner.RoleDDL:
		tag, err := x.roleDDL(ctx, plan) // roles_ddl.go
		pt.tag = tag
		return err
	case *planner.Explain:
		lines, err := x.explain(ctx, plan)
		if err != nil {
			return err
		}
		pt.tag = "EXPLAIN"
		for _, l := range lines {
			pt.rows = append(pt.rows, []string{l})
		}
		return nil
	case *planner.Insert, *planner.Update, *planner.Delete, *planner.CreateTable, *planner.DropTable,
		*planner.CreateIndex, *planner.DropIndex, *planner.AlterTable, *planner.SplitTable, *planner.CommentOn:
		if err := s.checkWrite(plan); err != nil { // exec/txn.go
			return err
		}
		s.ddlNotice(plan)
		tag, rows, err := x.write(ctx, plan)
		if err != nil {
			return err
		}
		if cols := plan.Columns(); cols != nil {
			// RETURNING: the rows, then the write's own tag.
			pt.op, pt.fixedTag = &rowsOp{rows: rows}, tag
			for _, c := range cols {
				pt.types = append(pt.types, c.T)
			}
		}
		pt.tag = tag
		return nil
	}
	op, err := pt.buildOp(x)
	if err != nil {
		return err
	}
	pt.op = op
	pt.types = p.resultTypes()
	pt.useRaw()
	pt.useDirect()
	return nil
}

// useRaw turns raw TEXT output (row_raw.go) on for the portal's new
// operator tree when its plan has raw columns; the analysis runs once per
// plan of the prepared statement.
func (pt *portal) useRaw() {
	p := pt.prep
	if p.rawFor != p.plan {
		p.raw, p.rawFor = newRawPlan(pt.op, pt.types), p.plan
	}
	if p.raw == nil {
		return
	}
	o := rawScanOf(pt.op)
	if o == nil || len(o.row) != len(p.raw.scan) || o.err != nil {
		return
	}
	o.useRaw(p.raw)
	pt.raw, pt.rawScan = p.raw.out, o
}

// buildOp returns the operator tree of the portal's query: for a
// reusable plan (a keyed read, reusablePlan) the tree an earlier
// execution left in the prepared statement, readied for this one, when
// there is one; otherwise a new tree, which Close leaves for the next
// execution if its plan is reusable. A prepared point Get then builds
// no operators per execution.
func (pt *portal) buildOp(x *executor) (operator, error) {
	p := pt.prep
	if !reusablePlan(p.plan) {
		return x.build(p.plan)
	}
	if op := p.tree; op != nil && p.treePlan == p.plan {
		p.tree, p.treePlan = nil, nil
		err := x.reuseTree(p.plan, op)
		if err == nil {
			pt.treePlan = p.plan
			return op, nil
		}
		op.Close() // a scan whose read started before a limit failed
		if !errors.Is(err, errTreeShape) {
			return nil, err
		}
	}
	op, err := x.build(p.plan)
	if err == nil {
		pt.treePlan = p.plan
	}
	return op, err
}
