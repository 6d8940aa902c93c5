package pgwire

import (
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"
)

// Short constructors so that the scripts below read like protocol traces.
func query(sql string) *pgproto3.Query { return &pgproto3.Query{String: sql} }
func parse(name, sql string, oids ...uint32) *pgproto3.Parse {
	return &pgproto3.Parse{Name: name, Query: sql, ParameterOIDs: oids}
}
func bind(portal, stmt string, params ...string) *pgproto3.Bind {
	b := &pgproto3.Bind{DestinationPortal: portal, PreparedStatement: stmt}
	for _, p := range params {
		b.Parameters = append(b.Parameters, []byte(p))
	}
	return b
}
func bindBinary(portal, stmt string) *pgproto3.Bind {
	return &pgproto3.Bind{DestinationPortal: portal, PreparedStatement: stmt, ResultFormatCodes: []int16{1}}
}
func describeS(name string) *pgproto3.Describe {
	return &pgproto3.Describe{ObjectType: 'S', Name: name}
}
func describeP(name string) *pgproto3.Describe {
	return &pgproto3.Describe{ObjectType: 'P', Name: name}
}
func execute(portal string, maxRows uint32) *pgproto3.Execute {
	return &pgproto3.Execute{Portal: portal, MaxRows: maxRows}
}
func closeS(name string) *pgproto3.Close { return &pgproto3.Close{ObjectType: 'S', Name: name} }
func closeP(name string) *pgproto3.Close { return &pgproto3.Close{ObjectType: 'P', Name: name} }

var (
	syncMsg = &pgproto3.Sync{}
	flush   = &pgproto3.Flush{}
)

// step sends messages and expects the server's reply, as text.
type step struct {
	send []pgproto3.FrontendMessage
	want string
}

func msgs(m ...pgproto3.FrontendMessage) []pgproto3.FrontendMessage { return m }

// protocolScripts are exact message-sequence expectations for one
// connection each, after startup.
var protocolScripts = []struct {
	name  string
	steps []step
}{
	{"simple select", []step{
		{msgs(query("select 1")), "RowDescription(?column?:23) DataRow(1) CommandComplete(SELECT 1) ReadyForQuery(I)"},
	}},
	{"simple multi-statement", []step{
		{msgs(query("select 1; insert; select n from three")), "RowDescription(?column?:23) DataRow(1) CommandComplete(SELECT 1) " +
			"CommandComplete(INSERT 0 1) " +
			"RowDescription(n:23) DataRow(1) DataRow(2) DataRow(3) CommandComplete(SELECT 3) ReadyForQuery(I)"},
	}},
	{"simple error mid-batch skips the rest", []step{
		{msgs(query("insert; select error; select 1")), "CommandComplete(INSERT 0 1) ErrorResponse(42P01) ReadyForQuery(I)"},
		{msgs(query("select 1")), "RowDescription(?column?:23) DataRow(1) CommandComplete(SELECT 1) ReadyForQuery(I)"},
	}},
	{"simple syntax error", []step{
		{msgs(query("syntax error")), "ErrorResponse(42601) ReadyForQuery(I)"},
	}},
	{"simple empty query", []step{
		{msgs(query("")), "EmptyQueryResponse ReadyForQuery(I)"},
		{msgs(query("-- ping")), "EmptyQueryResponse ReadyForQuery(I)"},
	}},
	{"simple query with a parameter", []step{
		{msgs(query("select $1")), "ErrorResponse(42P02) ReadyForQuery(I)"},
	}},
	{"simple transaction status", []step{
		{msgs(query("begin; insert")), "CommandComplete(BEGIN) CommandComplete(INSERT 0 1) ReadyForQuery(T)"},
		{msgs(query("commit")), "CommandComplete(COMMIT) ReadyForQuery(I)"},
	}},
	{"notices and parameter changes", []step{
		{msgs(query("notice; set app")), "NoticeResponse(00000) CommandComplete(DO) CommandComplete(SET) " +
			"ParameterStatus(application_name=app) ReadyForQuery(I)"},
		{msgs(parse("", "set app"), bind("", ""), execute("", 0), syncMsg),
			"ParseComplete BindComplete CommandComplete(SET) ParameterStatus(application_name=app) ReadyForQuery(I)"},
	}},
	{"engine panic is an error, not a crash", []step{
		{msgs(query("select panic")), "RowDescription(?column?:23) ErrorResponse(XX000) ReadyForQuery(I)"},
		{msgs(parse("", "select panic"), bind("", ""), execute("", 0), syncMsg),
			"ParseComplete BindComplete ErrorResponse(XX000) ReadyForQuery(I)"},
		{msgs(query("select 1")), "RowDescription(?column?:23) DataRow(1) CommandComplete(SELECT 1) ReadyForQuery(I)"},
	}},
	{"extended with MaxRows and PortalSuspended", []step{
		{msgs(parse("s1", "select n from three"), bind("", "s1"), describeP(""), execute("", 1), flush),
			"ParseComplete BindComplete RowDescription(n:23) DataRow(1) PortalSuspended"},
		{msgs(execute("", 1), flush), "DataRow(2) PortalSuspended"},
		{msgs(execute("", 1), flush), "DataRow(3) PortalSuspended"},
		{msgs(execute("", 1), syncMsg), "CommandComplete(SELECT 0) ReadyForQuery(I)"},
		{msgs(bind("", "s1"), execute("", 4), syncMsg), "BindComplete DataRow(1) DataRow(2) DataRow(3) CommandComplete(SELECT 3) ReadyForQuery(I)"},
		// PostgreSQL suspends after MaxRows rows even when none follow.
		{msgs(bind("", "s1"), execute("", 3), execute("", 3), syncMsg),
			"BindComplete DataRow(1) DataRow(2) DataRow(3) PortalSuspended CommandComplete(SELECT 0) ReadyForQuery(I)"},
		{msgs(bind("", "s1"), execute("", 2), execute("", 2), syncMsg),
			"BindComplete DataRow(1) DataRow(2) PortalSuspended DataRow(3) CommandComplete(SELECT 1) ReadyForQuery(I)"},
	}},
	{"extended describe statement and portal", []step{
		{msgs(parse("e", "select $1", 25), describeS("e"), bind("p", "e", "hello"), describeP("p"), execute("p", 0), syncMsg),
			"ParseComplete ParameterDescription(25) RowDescription(?column?:25) BindComplete RowDescription(?column?:25) " +
				"DataRow(hello) CommandComplete(SELECT 1) ReadyForQuery(I)"},
		{msgs(parse("i", "insert"), describeS("i"), bind("", "i"), describeP(""), execute("", 0), syncMsg),
			"ParseComplete ParameterDescription() NoData BindComplete NoData CommandComplete(INSERT 0 1) ReadyForQuery(I)"},
		{msgs(bindBinary("", "s"), syncMsg), "ErrorResponse(26000) ReadyForQuery(I)"},
		{msgs(parse("b", "select 1"), bindBinary("", "b"), describeP(""), syncMsg),
			"ParseComplete BindComplete RowDescription(?column?:23/b) ReadyForQuery(I)"},
	}},
	{"extended describe portal: the statement's cached RowDescription follows the formats", []step{
		{msgs(parse("b", "select 1"), bind("", "b"), describeP(""), bind("", "b"), describeP(""), syncMsg),
			"ParseComplete BindComplete RowDescription(?column?:23) BindComplete RowDescription(?column?:23) ReadyForQuery(I)"},
		{msgs(bindBinary("", "b"), describeP(""), bindBinary("", "b"), describeP(""), syncMsg),
			"BindComplete RowDescription(?column?:23/b) BindComplete RowDescription(?column?:23/b) ReadyForQuery(I)"},
		{msgs(bind("", "b"), describeP(""), execute("", 0), syncMsg),
			"BindComplete RowDescription(?column?:23) DataRow(1) CommandComplete(SELECT 1) ReadyForQuery(I)"},
	}},
	{"extended error discards until Sync", []step{
		{msgs(parse("", "select error"), bind("", ""), describeP(""), execute("", 0), query("select 1"), syncMsg),
			"ErrorResponse(42P01) ReadyForQuery(I)"},
		{msgs(parse("", "select 1"), bind("", ""), execute("", 0), syncMsg),
			"ParseComplete BindComplete DataRow(1) CommandComplete(SELECT 1) ReadyForQuery(I)"},
		{msgs(parse("", "select $1"), bind("", ""), execute("", 0), syncMsg), "ParseComplete ErrorResponse(08P01) ReadyForQuery(I)"},
	}},
	{"extended empty query", []step{
		{msgs(parse("empty", ""), describeS("empty"), bind("", "empty"), describeP(""), execute("", 0), syncMsg),
			"ParseComplete ParameterDescription() NoData BindComplete NoData EmptyQueryResponse ReadyForQuery(I)"},
	}},
	{"multiple commands in a prepared statement", []step{
		{msgs(parse("", "select 1; select 1"), syncMsg), "ErrorResponse(42601) ReadyForQuery(I)"},
	}},
	{"duplicate named statement", []step{
		{msgs(parse("d", "select 1"), parse("d", "insert"), syncMsg), "ParseComplete ErrorResponse(42P05) ReadyForQuery(I)"},
		{msgs(parse("", "select 1"), parse("", "insert"), bind("", ""), execute("", 0), syncMsg),
			"ParseComplete ParseComplete BindComplete CommandComplete(INSERT 0 1) ReadyForQuery(I)"},
	}},
	{"unknown statement and portal", []step{
		{msgs(describeS("nope"), syncMsg), "ErrorResponse(26000) ReadyForQuery(I)"},
		{msgs(execute("nope", 0), syncMsg), "ErrorResponse(34000) ReadyForQuery(I)"},
		{msgs(describeP("nope"), syncMsg), "ErrorResponse(34000) ReadyForQuery(I)"},
	}},
	{"close", []step{
		{msgs(parse("c", "select 1"), bind("cp", "c"), closeP("cp"), closeS("c"), closeS("never"), closeP("never"), syncMsg),
			"ParseComplete BindComplete CloseComplete CloseComplete CloseComplete CloseComplete ReadyForQuery(I)"},
		{msgs(describeS("c"), syncMsg), "ErrorResponse(26000) ReadyForQuery(I)"},
	}},
	{"named portal lives while a transaction block is open", []step{
		{msgs(query("begin")), "CommandComplete(BEGIN) ReadyForQuery(T)"},
		{msgs(parse("t", "select n from three"), bind("C_1", "t"), execute("C_1", 2), syncMsg),
			"ParseComplete BindComplete DataRow(1) DataRow(2) PortalSuspended ReadyForQuery(T)"},
		{msgs(execute("C_1", 2), syncMsg), "DataRow(3) CommandComplete(SELECT 1) ReadyForQuery(T)"},
		{msgs(bind("C_2", "t"), execute("C_2", 1), syncMsg), "BindComplete DataRow(1) PortalSuspended ReadyForQuery(T)"},
		{msgs(query("commit")), "CommandComplete(COMMIT) ReadyForQuery(I)"},
		{msgs(execute("C_2", 1), syncMsg), "ErrorResponse(34000) ReadyForQuery(I)"},
		{msgs(bind("C_3", "t"), syncMsg, execute("C_3", 1), syncMsg), "BindComplete ReadyForQuery(I) ErrorResponse(34000) ReadyForQuery(I)"},
	}},
	{"duplicate named portal", []step{
		{msgs(query("begin")), "CommandComplete(BEGIN) ReadyForQuery(T)"},
		{msgs(parse("t", "select 1"), bind("p", "t"), bind("p", "t"), syncMsg), "ParseComplete BindComplete ErrorResponse(42P03) ReadyForQuery(E)"},
	}},
	{"unexpected messages", []step{
		{msgs(&pgproto3.PasswordMessage{Password: "x"}), "ErrorResponse(08P01) ReadyForQuery(I)"},
		{msgs(&pgproto3.CopyData{Data: []byte("x")}, query("select 1")),
			"RowDescription(?column?:23) DataRow(1) CommandComplete(SELECT 1) ReadyForQuery(I)"},
		{msgs(&pgproto3.FunctionCall{Function: 1}), "ErrorResponse(0A000) ReadyForQuery(I)"},
		{msgs(&pgproto3.Describe{ObjectType: 'X'}, syncMsg), "ErrorResponse(08P01) ReadyForQuery(I)"},
	}},
}

func TestProtocolScripts(t *testing.T) {
	_, _, addr := startServer(t)
	for _, sc := range protocolScripts {
		t.Run(sc.name, func(t *testing.T) {
			c := connect(t, addr)
			for _, st := range sc.steps {
				c.send(st.send...)
				c.expect(st.want)
			}
			c.send(&pgproto3.Terminate{})
			c.expectClosed()
		})
	}
}
