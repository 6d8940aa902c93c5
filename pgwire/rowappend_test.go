package pgwire_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/widesql/widesql/exec"
	"github.com/widesql/widesql/kv/memstore"
	"github.com/widesql/widesql/pgwire"
)

// TestRowAppender runs exec's portals, which encode their DataRows
// straight into the connection's output buffer (pgwire.RowAppender),
// through the protocol paths that handle rows: text and binary formats
// per column, NULL and empty values, portal suspension with the row read
// ahead, precomputed text rows (SHOW) and the simple protocol. The
// fixture engine of the other tests covers the Next path.
func TestRowAppender(t *testing.T) {
	addr := serveExec(t)
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(20 * time.Second))
	fe := pgproto3.NewFrontend(nc, nc)

	// roundTrip sends msgs and renders the reply up to ReadyForQuery.
	roundTrip := func(msgs ...pgproto3.FrontendMessage) string {
		t.Helper()
		for _, m := range msgs {
			fe.Send(m)
		}
		if err := fe.Flush(); err != nil {
			t.Fatal(err)
		}
		var out []string
		for {
			m, err := fe.Receive()
			if err != nil {
				t.Fatal(err)
			}
			switch m := m.(type) {
			case *pgproto3.DataRow:
				vals := make([]string, len(m.Values))
				for i, v := range m.Values {
					switch {
					case v == nil:
						vals[i] = "NULL"
					case len(v) > 0 && v[0] < ' ':
						vals[i] = fmt.Sprintf("%x", v) // binary
					default:
						vals[i] = fmt.Sprintf("%q", v)
					}
				}
				out = append(out, "D("+strings.Join(vals, ",")+")")
			case *pgproto3.CommandComplete:
				out = append(out, "C("+string(m.CommandTag)+")")
			case *pgproto3.ErrorResponse:
				out = append(out, "E("+m.Code+")")
			case *pgproto3.PortalSuspended:
				out = append(out, "S")
			case *pgproto3.ReadyForQuery:
				return strings.Join(out, " ")
			}
		}
	}
	start, _ := (&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "test", "database": "test"}}).Encode(nil)
	if _, err := nc.Write(start); err != nil {
		t.Fatal(err)
	}
	roundTrip()
	for _, q := range []string{
		"CREATE TABLE ra (a INT PRIMARY KEY, b TEXT, c BIGINT)",
		"INSERT INTO ra VALUES (1, 'one', 10), (2, '', NULL), (3, NULL, 30)",
	} {
		if got := roundTrip(&pgproto3.Query{String: q}); strings.Contains(got, "E(") {
			t.Fatalf("%s: %s", q, got)
		}
	}

	for _, tc := range []struct {
		name string
		msgs []pgproto3.FrontendMessage
		want string
	}{
		{"text", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "SELECT a, b, c FROM ra ORDER BY a"},
			&pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{}},
			`D("1","one","10") D("2","",NULL) D("3",NULL,"30") C(SELECT 3)`},
		{"binary per column", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "SELECT a, b, c FROM ra WHERE a >= $1 ORDER BY a", ParameterOIDs: []uint32{23}},
			&pgproto3.Bind{Parameters: [][]byte{[]byte("2")}, ResultFormatCodes: []int16{1, 0, 1}},
			&pgproto3.Execute{}, &pgproto3.Sync{}},
			`D(00000002,"",NULL) D(00000003,NULL,000000000000001e) C(SELECT 2)`},
		{"suspended", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "SELECT a, b FROM ra ORDER BY a"},
			&pgproto3.Bind{}, &pgproto3.Execute{MaxRows: 2}, &pgproto3.Execute{MaxRows: 2},
			&pgproto3.Execute{MaxRows: 2}, &pgproto3.Sync{}},
			`D("1","one") D("2","") S D("3",NULL) C(SELECT 1) C(SELECT 0)`},
		{"suspended at the last row", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "SELECT a FROM ra ORDER BY a"},
			&pgproto3.Bind{}, &pgproto3.Execute{MaxRows: 3}, &pgproto3.Execute{MaxRows: 3}, &pgproto3.Sync{}},
			`D("1") D("2") D("3") S C(SELECT 0)`},
		// PostgreSQL counts a suspended command's RETURNING rows of the
		// final Execute only, and a finished one answers with 0 again.
		{"returning suspended", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "INSERT INTO ra VALUES (4, 'x', 40), (5, 'y', 50) RETURNING a"},
			&pgproto3.Bind{}, &pgproto3.Execute{MaxRows: 2}, &pgproto3.Execute{MaxRows: 2},
			&pgproto3.Execute{MaxRows: 2}, &pgproto3.Sync{}},
			`D("4") D("5") S C(INSERT 0 0) C(INSERT 0 0)`},
		{"returning resumed", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "UPDATE ra SET b = 'z' WHERE a >= 4 RETURNING a"},
			&pgproto3.Bind{}, &pgproto3.Execute{MaxRows: 1}, &pgproto3.Execute{}, &pgproto3.Sync{}},
			`D("4") S D("5") C(UPDATE 1)`},
		{"command run twice", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "DELETE FROM ra WHERE a >= 4"},
			&pgproto3.Bind{}, &pgproto3.Execute{MaxRows: 1}, &pgproto3.Execute{MaxRows: 1}, &pgproto3.Sync{}},
			`C(DELETE 2) E(55000)`},
		{"text rows", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "SHOW DateStyle"},
			&pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{}},
			`D("ISO, MDY") C(SHOW)`},
		{"simple", []pgproto3.FrontendMessage{&pgproto3.Query{String: "SELECT b FROM ra ORDER BY a; SELECT 1/0"}},
			`D("one") D("") D(NULL) C(SELECT 3) E(22012)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := roundTrip(tc.msgs...); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// serveExec starts a pgwire server over a fresh exec engine on an
// in-memory store, on a loopback port, and returns its address; the
// server shuts down when the test ends.
func serveExec(tb testing.TB) string {
	tb.Helper()
	ctx := context.Background()
	eng, err := exec.Open(ctx, memstore.New(), nil)
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	srv := pgwire.NewServer(eng)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	tb.Cleanup(func() {
		sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		<-done
	})
	return ln.Addr().String()
}
