package tests

// Wire-level tests: a raw pgproto3 frontend sends exact message sequences and
// the replies are compared as one line per message (see describeMessage), so
// the expectations read like a protocol trace and can be checked against a
// real PostgreSQL with WIDESQL_TEST_PG.

import (
	"context"
	"fmt"
	"net"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"
)

const ioTimeout = 10 * time.Second

// wireConn is a started-up protocol connection.
type wireConn struct {
	t      *testing.T
	conn   net.Conn
	fe     *pgproto3.Frontend
	params map[string]string // ParameterStatus values received at startup
	keyed  bool              // BackendKeyData received at startup
}

// dialWire connects to tg and completes startup (no SSL, trust auth).
func dialWire(t *testing.T, tg target) *wireConn {
	t.Helper()
	conn, err := net.DialTimeout("tcp", tg.addr(), ioTimeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	w := &wireConn{t: t, conn: conn, fe: pgproto3.NewFrontend(conn, conn), params: map[string]string{}}
	w.send(&pgproto3.StartupMessage{
		ProtocolVersion: pgproto3.ProtocolVersionNumber,
		Parameters:      map[string]string{"user": tg.user, "database": tg.database, "application_name": "widesql-tests"},
	})
	for {
		switch m := w.receive().(type) {
		case *pgproto3.AuthenticationOk:
		case *pgproto3.ParameterStatus:
			w.params[m.Name] = m.Value
		case *pgproto3.BackendKeyData:
			w.keyed = true
		case *pgproto3.ReadyForQuery:
			return w
		case *pgproto3.ErrorResponse:
			t.Fatalf("startup failed: %s %s", m.Code, m.Message)
		default:
			t.Fatalf("unexpected message during startup: %T", m)
		}
	}
}

func (w *wireConn) send(msgs ...pgproto3.FrontendMessage) {
	w.t.Helper()
	for _, m := range msgs {
		w.fe.Send(m)
	}
	w.conn.SetWriteDeadline(time.Now().Add(ioTimeout))
	if err := w.fe.Flush(); err != nil {
		w.t.Fatalf("send: %v", err)
	}
}

func (w *wireConn) receive() pgproto3.BackendMessage {
	w.t.Helper()
	w.conn.SetReadDeadline(time.Now().Add(ioTimeout))
	m, err := w.fe.Receive()
	if err != nil {
		w.t.Fatalf("receive: %v", err)
	}
	return m
}

// until reads messages up to and including one for which stop is true, and
// returns them described (the described strings are copies: pgproto3 reuses
// message buffers on the next Receive).
func (w *wireConn) until(stop func(pgproto3.BackendMessage) bool) []string {
	w.t.Helper()
	var out []string
	for {
		m := w.receive()
		if d := describeMessage(m); d != "" {
			out = append(out, d)
		}
		if stop(m) {
			return out
		}
	}
}

// untilReady reads through the next ReadyForQuery.
func (w *wireConn) untilReady() []string {
	w.t.Helper()
	return w.until(func(m pgproto3.BackendMessage) bool { _, ok := m.(*pgproto3.ReadyForQuery); return ok })
}

// simple runs a simple Query and returns the described replies.
func (w *wireConn) simple(sql string) []string {
	w.t.Helper()
	w.send(&pgproto3.Query{String: sql})
	return w.untilReady()
}

// describeMessage renders a backend message as one line. Notices and
// ParameterStatus after startup are dropped ("" ) since servers may differ.
func describeMessage(m pgproto3.BackendMessage) string {
	switch m := m.(type) {
	case *pgproto3.ParseComplete:
		return "ParseComplete"
	case *pgproto3.BindComplete:
		return "BindComplete"
	case *pgproto3.CloseComplete:
		return "CloseComplete"
	case *pgproto3.NoData:
		return "NoData"
	case *pgproto3.EmptyQueryResponse:
		return "EmptyQueryResponse"
	case *pgproto3.PortalSuspended:
		return "PortalSuspended"
	case *pgproto3.ParameterDescription:
		return fmt.Sprintf("ParameterDescription %v", m.ParameterOIDs)
	case *pgproto3.RowDescription:
		var cols []string
		for _, f := range m.Fields {
			cols = append(cols, fmt.Sprintf("%s:%d", f.Name, f.DataTypeOID))
		}
		return "RowDescription " + strings.Join(cols, " ")
	case *pgproto3.DataRow:
		var vals []string
		for _, v := range m.Values {
			if v == nil {
				vals = append(vals, nullText)
			} else {
				vals = append(vals, cellText(string(v)))
			}
		}
		return "DataRow " + strings.Join(vals, " ")
	case *pgproto3.CommandComplete:
		return "CommandComplete " + string(m.CommandTag)
	case *pgproto3.ErrorResponse:
		return "ErrorResponse " + m.Code
	case *pgproto3.ReadyForQuery:
		return "ReadyForQuery " + string(m.TxStatus)
	case *pgproto3.NoticeResponse, *pgproto3.ParameterStatus:
		return ""
	}
	return fmt.Sprintf("%T", m)
}

func expectTrace(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\nwant:\n    %s\ngot:\n    %s", what, strings.Join(want, "\n    "), strings.Join(got, "\n    "))
	}
}

// expectUsable checks that the connection still answers a query.
func expectUsable(t *testing.T, w *wireConn, after string) {
	t.Helper()
	expectTrace(t, "SELECT 1 after "+after, w.simple("SELECT 1"),
		"RowDescription ?column?:23", "DataRow 1", "CommandComplete SELECT 1", "ReadyForQuery I")
}

func TestStartupParameters(t *testing.T) {
	w := dialWire(t, newTarget(t))
	if !w.keyed {
		t.Error("no BackendKeyData at startup")
	}
	p := w.params
	if v := p["server_version"]; !strings.HasPrefix(v, "15.") {
		t.Errorf("server_version = %q, want 15.x", v)
	}
	for name, want := range map[string]string{
		"server_encoding":             "UTF8",
		"client_encoding":             "UTF8",
		"standard_conforming_strings": "on",
		"integer_datetimes":           "on",
	} {
		if p[name] != want {
			t.Errorf("%s = %q, want %q", name, p[name], want)
		}
	}
	if v := p["DateStyle"]; !strings.HasPrefix(v, "ISO") {
		t.Errorf("DateStyle = %q, want ISO, ...", v)
	}
	if _, ok := p["TimeZone"]; !ok {
		t.Error("no TimeZone ParameterStatus")
	}
	expectUsable(t, w, "startup")
}

func TestExecuteRowLimitSuspendsPortal(t *testing.T) {
	w := dialWire(t, newTarget(t))
	w.simple("CREATE TABLE five (a INT, PRIMARY KEY (a))")
	expectTrace(t, "insert", w.simple("INSERT INTO five VALUES (1), (2), (3), (4), (5)"),
		"CommandComplete INSERT 0 5", "ReadyForQuery I")

	// Execute with MaxRows=2, then Flush (not Sync): the server must send the
	// two rows and PortalSuspended without waiting for more input.
	w.send(
		&pgproto3.Parse{Query: "SELECT a FROM five ORDER BY a"},
		&pgproto3.Bind{},
		&pgproto3.Describe{ObjectType: 'P'},
		&pgproto3.Execute{MaxRows: 2},
		&pgproto3.Flush{},
	)
	got := w.until(func(m pgproto3.BackendMessage) bool { _, ok := m.(*pgproto3.PortalSuspended); return ok })
	expectTrace(t, "first Execute", got,
		"ParseComplete", "BindComplete", "RowDescription a:23", "DataRow 1", "DataRow 2", "PortalSuspended")

	w.send(&pgproto3.Execute{MaxRows: 2}, &pgproto3.Execute{}, &pgproto3.Sync{})
	expectTrace(t, "resumed Executes", w.untilReady(),
		"DataRow 3", "DataRow 4", "PortalSuspended", "DataRow 5", "CommandComplete SELECT 1", "ReadyForQuery I")

	// Sync ended the implicit transaction and with it the portal.
	w.send(&pgproto3.Execute{}, &pgproto3.Sync{})
	expectTrace(t, "Execute after Sync", w.untilReady(), "ErrorResponse 34000", "ReadyForQuery I")
	expectUsable(t, w, "portal error")
}

func TestExtendedErrorSkipsToSync(t *testing.T) {
	w := dialWire(t, newTarget(t))

	// An error in Parse: Bind, Describe and Execute are discarded until Sync.
	w.send(
		&pgproto3.Parse{Query: "SELECT * FROM nosuch"},
		&pgproto3.Bind{},
		&pgproto3.Describe{ObjectType: 'P'},
		&pgproto3.Execute{},
		&pgproto3.Parse{Query: "SELECT 2"},
		&pgproto3.Sync{},
	)
	expectTrace(t, "error in Parse", w.untilReady(), "ErrorResponse 42P01", "ReadyForQuery I")
	expectUsable(t, w, "error in Parse")

	// An error in Execute (not foldable at Bind): the later statement is
	// skipped as well.
	w.simple("CREATE TABLE z (a INT, PRIMARY KEY (a)); INSERT INTO z VALUES (0)")
	w.send(
		&pgproto3.Parse{Query: "SELECT 1/a FROM z"},
		&pgproto3.Bind{},
		&pgproto3.Execute{},
		&pgproto3.Parse{Query: "SELECT 2"},
		&pgproto3.Bind{},
		&pgproto3.Execute{},
		&pgproto3.Sync{},
	)
	expectTrace(t, "error in Execute", w.untilReady(),
		"ParseComplete", "BindComplete", "ErrorResponse 22012", "ReadyForQuery I")
	expectUsable(t, w, "error in Execute")

	// Protocol-level errors: unknown statement, unknown portal, wrong parameter count.
	for _, tc := range []struct {
		name string
		msgs []pgproto3.FrontendMessage
		want []string
	}{
		{"Bind to an unknown statement", []pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: "nope"}, &pgproto3.Execute{}, &pgproto3.Sync{}},
			[]string{"ErrorResponse 26000", "ReadyForQuery I"}},
		{"Describe an unknown statement", []pgproto3.FrontendMessage{&pgproto3.Describe{ObjectType: 'S', Name: "nope"}, &pgproto3.Sync{}},
			[]string{"ErrorResponse 26000", "ReadyForQuery I"}},
		{"Execute an unknown portal", []pgproto3.FrontendMessage{&pgproto3.Execute{Portal: "nope"}, &pgproto3.Sync{}},
			[]string{"ErrorResponse 34000", "ReadyForQuery I"}},
		{"Bind with too few parameters", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Name: "two", Query: "SELECT $1::INT + $2::INT"},
			&pgproto3.Bind{PreparedStatement: "two", Parameters: [][]byte{[]byte("1")}},
			&pgproto3.Execute{}, &pgproto3.Sync{}},
			[]string{"ParseComplete", "ErrorResponse 08P01", "ReadyForQuery I"}},
		{"Bind with an undecodable parameter", []pgproto3.FrontendMessage{
			&pgproto3.Bind{PreparedStatement: "two", Parameters: [][]byte{[]byte("1"), []byte("x")}},
			&pgproto3.Execute{}, &pgproto3.Sync{}},
			[]string{"ErrorResponse 22P02", "ReadyForQuery I"}},
		{"Parse of a syntax error", []pgproto3.FrontendMessage{&pgproto3.Parse{Query: "SELEC 1"}, &pgproto3.Sync{}},
			[]string{"ErrorResponse 42601", "ReadyForQuery I"}},
		{"Parse of a duplicate statement name", []pgproto3.FrontendMessage{&pgproto3.Parse{Name: "two", Query: "SELECT 1"}, &pgproto3.Sync{}},
			[]string{"ErrorResponse 42P05", "ReadyForQuery I"}},
	} {
		w.send(tc.msgs...)
		expectTrace(t, tc.name, w.untilReady(), tc.want...)
		expectUsable(t, w, tc.name)
	}
}

func TestParametersWithUnspecifiedTypes(t *testing.T) {
	w := dialWire(t, newTarget(t))
	w.simple("CREATE TABLE t (a INT, b TEXT, PRIMARY KEY (a))")

	// Parameter OIDs 0: the server infers int4 and text from the columns.
	w.send(
		&pgproto3.Parse{Name: "ins", Query: "INSERT INTO t VALUES ($1, $2)", ParameterOIDs: []uint32{0, 0}},
		&pgproto3.Describe{ObjectType: 'S', Name: "ins"},
		&pgproto3.Bind{PreparedStatement: "ins", Parameters: [][]byte{[]byte("1"), []byte("x")}},
		&pgproto3.Execute{},
		&pgproto3.Bind{PreparedStatement: "ins", Parameters: [][]byte{[]byte("2"), nil}},
		&pgproto3.Execute{},
		&pgproto3.Sync{},
	)
	expectTrace(t, "insert with inferred parameters", w.untilReady(),
		"ParseComplete", "ParameterDescription [23 25]", "NoData",
		"BindComplete", "CommandComplete INSERT 0 1",
		"BindComplete", "CommandComplete INSERT 0 1", "ReadyForQuery I")

	// No ParameterOIDs at all, inferred from a comparison with a key column.
	w.send(
		&pgproto3.Parse{Query: "SELECT b FROM t WHERE a = $1"},
		&pgproto3.Describe{ObjectType: 'S'},
		&pgproto3.Bind{Parameters: [][]byte{[]byte("1")}},
		&pgproto3.Execute{},
		&pgproto3.Sync{},
	)
	expectTrace(t, "select with an inferred parameter", w.untilReady(),
		"ParseComplete", "ParameterDescription [23]", "RowDescription b:25",
		"BindComplete", "DataRow x", "CommandComplete SELECT 1", "ReadyForQuery I")

	expectTrace(t, "rows", w.simple("SELECT a, b FROM t ORDER BY a"),
		"RowDescription a:23 b:25", "DataRow 1 x", "DataRow 2 NULL", "CommandComplete SELECT 2", "ReadyForQuery I")
}

func TestSimpleQueryWithSeveralStatements(t *testing.T) {
	w := dialWire(t, newTarget(t))
	expectTrace(t, "several statements", w.simple(
		"CREATE TABLE m (a INT, PRIMARY KEY (a)); INSERT INTO m VALUES (1), (2);\nSELECT a FROM m ORDER BY a; SELECT 'z' AS z;"),
		"CommandComplete CREATE TABLE",
		"CommandComplete INSERT 0 2",
		"RowDescription a:23", "DataRow 1", "DataRow 2", "CommandComplete SELECT 2",
		"RowDescription z:25", "DataRow z", "CommandComplete SELECT 1",
		"ReadyForQuery I")

	// A run-time error stops the rest of the string.
	w.simple("INSERT INTO m VALUES (0)")
	expectTrace(t, "error midway", w.simple("SELECT 1 AS one; SELECT 10/a AS q FROM m WHERE a = 0; SELECT 2"),
		"RowDescription one:23", "DataRow 1", "CommandComplete SELECT 1",
		"RowDescription q:23", "ErrorResponse 22012", "ReadyForQuery I")
	expectUsable(t, w, "an error in a multi-statement query")
}

func TestEmptyQuery(t *testing.T) {
	w := dialWire(t, newTarget(t))
	for _, sql := range []string{"", ";", "  ;  ", "-- only a comment"} {
		expectTrace(t, fmt.Sprintf("Query %q", sql), w.simple(sql), "EmptyQueryResponse", "ReadyForQuery I")
	}
	w.send(&pgproto3.Parse{Query: ""}, &pgproto3.Bind{}, &pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{}, &pgproto3.Sync{})
	expectTrace(t, "extended empty query", w.untilReady(),
		"ParseComplete", "BindComplete", "NoData", "EmptyQueryResponse", "ReadyForQuery I")
	expectUsable(t, w, "empty queries")
}

// TestSimpleQueryErrorsKeepConnection runs one bad statement of each kind
// through the simple protocol and checks SELECT 1 afterwards.
func TestSimpleQueryErrorsKeepConnection(t *testing.T) {
	w := dialWire(t, newTarget(t))
	w.simple("CREATE TABLE t (k INT, v VARCHAR(2), PRIMARY KEY (k)); INSERT INTO t VALUES (1, 'a')")
	for _, tc := range []struct{ sql, code string }{
		{"SELEC 1", "42601"},
		{"SELECT * FROM nosuch", "42P01"},
		{"SELECT nope FROM t", "42703"},
		{"SELECT 'x'::integer", "22P02"},
		{"SELECT k FROM t WHERE 1", "42804"},
		{"INSERT INTO t VALUES (NULL, 'a')", "23502"},
		{"INSERT INTO t VALUES (1, 'a')", "23505"},
		{"SELECT 32767::SMALLINT + 1::SMALLINT", "22003"},
		{"SELECT 1/0", "22012"},
		{"INSERT INTO t VALUES (2, 'abc')", "22001"},
	} {
		expectTrace(t, tc.sql, withoutDescriptionBeforeError(w.simple(tc.sql)), "ErrorResponse "+tc.code, "ReadyForQuery I")
		expectUsable(t, w, tc.sql)
	}
}

// withoutDescriptionBeforeError drops a RowDescription directly followed by
// an ErrorResponse. Whether one is sent depends on when the error is found:
// PostgreSQL folds constants while planning and fails before describing
// `SELECT 1/0`; a server that evaluates at run time describes first. Both
// are valid, and clients cope with either.
func withoutDescriptionBeforeError(trace []string) []string {
	var out []string
	for i, m := range trace {
		if strings.HasPrefix(m, "RowDescription") && i+1 < len(trace) && strings.HasPrefix(trace[i+1], "ErrorResponse") {
			continue
		}
		out = append(out, m)
	}
	return out
}

// TestExplainAnalyze checks the shape of EXPLAIN ANALYZE, whose timings
// cannot be golden: the access line gains actual rows, kv rows and cells
// read, and a time, and an execution time line follows.
func TestExplainAnalyze(t *testing.T) {
	if *pgURL != "" {
		t.Skip("widesql-only: EXPLAIN ANALYZE format")
	}
	conn := pgxConnect(t, newTarget(t), pgx.QueryExecModeCacheStatement)
	ctx, cancel := context.WithTimeout(context.Background(), ioTimeout)
	defer cancel()
	mustExec(t, conn, "CREATE TABLE follows (follower TEXT, followed TEXT, w INT, PRIMARY KEY (follower, followed))")
	mustExec(t, conn, "INSERT INTO follows VALUES ('a', 'b', 1), ('a', 'c', 2), ('b', 'a', 3)")
	rows, err := conn.Query(ctx, "EXPLAIN ANALYZE SELECT followed FROM follows WHERE follower = 'a' AND w > 1")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for rows.Next() {
		var l string
		if err := rows.Scan(&l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := []*regexp.Regexp{
		regexp.MustCompile(`^RANGE SCAN ON follows ROWKEY 4\+ BYTES \[/'a' - /'a'\] FAMILIES \(d\) FILTER \(w > 1\)  \(actual rows=1 rows_read=2 cells_read=\d+ time=[0-9.]+ms\)$`),
		regexp.MustCompile(`^Execution Time: [0-9.]+ms$`),
	}
	if len(lines) != len(want) {
		t.Fatalf("EXPLAIN ANALYZE lines:\n%s", strings.Join(lines, "\n"))
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("line %d = %q, want match for %s", i, lines[i], re)
		}
	}

	// A point Get of a row read before is answered by the row cache,
	// and says so; a write to the row makes the next one read the store.
	get := "SELECT w FROM follows WHERE follower = 'a' AND followed = 'c'"
	explainGet := func() string {
		t.Helper()
		var line string
		if err := conn.QueryRow(ctx, "EXPLAIN ANALYZE "+get).Scan(&line); err != nil {
			t.Fatal(err)
		}
		return line
	}
	mustExec(t, conn, get)
	hit := regexp.MustCompile(`^POINT GET ON follows .*\(actual rows=1 rows_read=1 cells_read=0 cache_hits=1 time=[0-9.]+ms\)$`)
	if l := explainGet(); !hit.MatchString(l) {
		t.Errorf("repeated point Get: %q, want match for %s", l, hit)
	}
	mustExec(t, conn, "UPDATE follows SET w = 5 WHERE follower = 'a' AND followed = 'c'")
	if l := explainGet(); strings.Contains(l, "cache_hits") || !strings.Contains(l, "actual rows=1 ") {
		t.Errorf("point Get after an update: %q, want a store read", l)
	}
	var w int
	if err := conn.QueryRow(ctx, get).Scan(&w); err != nil || w != 5 {
		t.Errorf("point Get after an update = %d, %v; want 5", w, err)
	}
}

// TestProtocolErrorAbortsTransaction: an error the wire layer raises itself
// (an unknown portal) fails an open transaction block like any other error,
// until ROLLBACK.
func TestProtocolErrorAbortsTransaction(t *testing.T) {
	w := dialWire(t, newTarget(t))
	w.simple("BEGIN")
	w.send(&pgproto3.Execute{Portal: "nope"}, &pgproto3.Sync{})
	expectTrace(t, "unknown portal in a block", w.untilReady(), "ErrorResponse 34000", "ReadyForQuery E")
	w.send(&pgproto3.Query{String: "SELECT 1"})
	expectTrace(t, "statement in a failed block", w.untilReady(), "ErrorResponse 25P02", "ReadyForQuery E")
	w.send(&pgproto3.Query{String: "ROLLBACK"})
	expectTrace(t, "rollback", w.untilReady(), "CommandComplete ROLLBACK", "ReadyForQuery I")
	expectUsable(t, w, "after rollback")
}
