package pgwire

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// fixture is a tiny Engine answering a few fixed statements, enough to drive
// every protocol path:
//
//	select 1            one int4 column "?column?", one row
//	select n from three one int4 column "n", rows 1, 2, 3
//	select $1           one text column echoing the parameter
//	insert              no rows, tag INSERT 0 1
//	begin / commit      open and close a transaction block
//	set app             changes the reported parameter application_name
//	notice              raises a NOTICE
//	select error        42P01 at Prepare, with a position
//	select sleep        blocks until its context is canceled
//	select panic        panics in Next
type fixture struct {
	sleeping chan struct{} // receives when "select sleep" starts
}

var (
	_ Engine    = (*fixture)(nil)
	_ Session   = (*fixtureSession)(nil)
	_ Prepared  = (*fixturePrepared)(nil)
	_ Portal    = (*fixturePortal)(nil)
	_ Statement = fixtureStmt("")
)

func newFixture() *fixture { return &fixture{sleeping: make(chan struct{}, 1)} }

func (f *fixture) NewSession(ctx context.Context, params map[string]string) (Session, error) {
	if params["database"] == "nosuchdb" {
		return nil, pgerror.New("3D000", "database \"nosuchdb\" does not exist")
	}
	return &fixtureSession{f: f, status: 'I'}, nil
}

type fixtureSession struct {
	f       *fixture
	status  byte
	changes []Param
	notices []Notice
}

type fixtureStmt string

func (s fixtureStmt) SQL() string { return string(s) }

func (s *fixtureSession) Parse(ctx context.Context, sql string) ([]Statement, error) {
	var out []Statement
	for _, part := range strings.Split(sql, ";") {
		part = strings.TrimSpace(part)
		if part == "" || strings.HasPrefix(part, "--") {
			continue
		}
		if part == "syntax error" {
			return nil, pgerror.New(pgerror.CodeSyntaxError, "syntax error at or near \"syntax\"").WithPosition(1)
		}
		out = append(out, fixtureStmt(part))
	}
	return out, nil
}

var (
	colInt4 = Column{Name: "?column?", TypeOID: 23, TypeSize: 4, TypeModifier: -1}
	colN    = Column{Name: "n", TypeOID: 23, TypeSize: 4, TypeModifier: -1}
	colText = Column{Name: "?column?", TypeOID: 25, TypeSize: -1, TypeModifier: -1}
)

func (s *fixtureSession) Prepare(ctx context.Context, stmt Statement, paramOIDs []uint32) (Prepared, error) {
	p := &fixturePrepared{s: s, sql: stmt.SQL()}
	switch p.sql {
	case "select 1", "select sleep", "select panic":
		p.cols = []Column{colInt4}
	case "select n from three":
		p.cols = []Column{colN}
	case "select $1":
		p.params, p.cols = []uint32{25}, []Column{colText}
	case "insert", "begin", "commit", "set app", "notice":
	case "select error":
		return nil, pgerror.New(pgerror.CodeUndefinedTable, "relation \"error\" does not exist").WithPosition(8)
	default:
		return nil, pgerror.New(pgerror.CodeSyntaxError, "fixture does not know %q", p.sql)
	}
	return p, nil
}

func (s *fixtureSession) TxnStatus() byte               { return s.status }
func (s *fixtureSession) ParameterStatus() []Param      { return startupParams }
func (s *fixtureSession) TakeParameterChanges() []Param { c := s.changes; s.changes = nil; return c }
func (s *fixtureSession) TakeNotices() []Notice         { n := s.notices; s.notices = nil; return n }
func (s *fixtureSession) StatementFailed() {
	if s.status == 'T' {
		s.status = 'E'
	}
}
func (s *fixtureSession) SetPreparedStatements(PreparedStatements) {}
func (s *fixtureSession) StartQuery(int)                           {}
func (s *fixtureSession) EndQuery(context.Context, bool) error     { return nil }
func (s *fixtureSession) StatementTimeout() time.Duration          { return 0 }

func (s *fixtureSession) Close() {}

var startupParams = []Param{
	{"client_encoding", "UTF8"},
	{"server_version", "15.0"},
	{"standard_conforming_strings", "on"},
}

type fixturePrepared struct {
	s      *fixtureSession
	sql    string
	params []uint32
	cols   []Column
}

func (p *fixturePrepared) ParamOIDs() []uint32 { return p.params }
func (p *fixturePrepared) Columns() []Column   { return p.cols }

func (p *fixturePrepared) Bind(ctx context.Context, params [][]byte, paramFormats, resultFormats []int16) (Portal, error) {
	if len(params) != len(p.params) {
		return nil, pgerror.New(pgerror.CodeProtocolViolation,
			"bind message supplies %d parameters, but prepared statement requires %d", len(params), len(p.params))
	}
	fmts := make([]int16, len(p.cols))
	for i := range fmts {
		fmts[i] = formatAt(resultFormats, i)
	}
	pt := &fixturePortal{p: p, fmts: fmts}
	switch p.sql {
	case "select 1":
		pt.rows = []int{1}
	case "select n from three":
		pt.rows = []int{1, 2, 3}
	case "select $1":
		pt.echo = bytes.Clone(params[0]) // params is valid only during Bind
	}
	return pt, nil
}

type fixturePortal struct {
	p    *fixturePrepared
	fmts []int16
	rows []int
	echo []byte
	next int
	tag  string
	buf  [1][]byte
}

func (pt *fixturePortal) Columns() []Column      { return pt.p.cols }
func (pt *fixturePortal) ResultFormats() []int16 { return pt.fmts }
func (pt *fixturePortal) Tag() string            { return pt.tag }
func (pt *fixturePortal) Close()                 {}

func (pt *fixturePortal) Next(ctx context.Context) ([][]byte, error) {
	s := pt.p.s
	switch pt.p.sql {
	case "select sleep":
		pt.p.s.f.sleeping <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	case "select panic":
		panic("fixture panic")
	case "select $1":
		if pt.next++; pt.next == 1 {
			pt.buf[0] = pt.echo
			return pt.buf[:], nil
		}
		pt.tag = "SELECT 1"
		return nil, io.EOF
	case "insert":
		pt.tag = "INSERT 0 1"
	case "begin":
		s.status, pt.tag = 'T', "BEGIN"
	case "commit":
		s.status, pt.tag = 'I', "COMMIT"
	case "set app":
		s.changes, pt.tag = append(s.changes, Param{"application_name", "app"}), "SET"
	case "notice":
		s.notices, pt.tag = append(s.notices, Notice{Severity: "NOTICE", Code: "00000", Message: "hello"}), "DO"
	default:
		if pt.next < len(pt.rows) {
			v := pt.rows[pt.next]
			pt.next++
			if pt.fmts[0] == 1 {
				pt.buf[0] = binary.BigEndian.AppendUint32(pt.buf[0][:0], uint32(v))
			} else {
				pt.buf[0] = strconv.AppendInt(pt.buf[0][:0], int64(v), 10)
			}
			return pt.buf[:], nil
		}
		pt.tag = "SELECT " + strconv.Itoa(len(pt.rows))
	}
	return nil, io.EOF
}
