package pgwire

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

func TestStartupSSLAndGSSRequestsAreDeclined(t *testing.T) {
	_, _, addr := startServer(t)
	c := dial(t, addr)
	for _, req := range []pgproto3.FrontendMessage{&pgproto3.SSLRequest{}, &pgproto3.GSSEncRequest{}} {
		c.send(req)
		var b [1]byte
		if _, err := io.ReadFull(c.nc, b[:]); err != nil || b[0] != 'N' {
			t.Fatalf("reply to %T: %q, %v; want N", req, b[0], err)
		}
	}
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "test", "database": "db"}})
	c.expect("AuthenticationOk ParameterStatus(client_encoding=UTF8) ParameterStatus(server_version=15.0) " +
		"ParameterStatus(standard_conforming_strings=on) BackendKeyData ReadyForQuery(I)")
	c.send(query("select 1"))
	c.expect("RowDescription(?column?:23) DataRow(1) CommandComplete(SELECT 1) ReadyForQuery(I)")
}

// rawStartup builds a startup packet with an arbitrary protocol version.
func rawStartup(version uint32, kv ...string) []byte {
	body := binary.BigEndian.AppendUint32(nil, version)
	for _, s := range kv {
		body = append(append(body, s...), 0)
	}
	body = append(body, 0)
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(body)+4)), body...)
}

func TestStartupProtocolVersions(t *testing.T) {
	_, _, addr := startServer(t)
	for _, tc := range []struct {
		name    string
		version uint32
		kv      []string
		want    string
		closed  bool
	}{
		{"2.0 is refused", 2 << 16, []string{"user", "u"}, "ErrorResponse(FATAL 08P01)", true},
		{"4.0 is refused", 4 << 16, []string{"user", "u"}, "ErrorResponse(FATAL 08P01)", true},
		{"3.2 is negotiated down", 3<<16 | 2, []string{"user", "u"},
			"NegotiateProtocolVersion(0 ) AuthenticationOk", false},
		{"_pq_ options are reported", 3 << 16, []string{"user", "u", "_pq_.x", "1"},
			"NegotiateProtocolVersion(0 _pq_.x) AuthenticationOk", false},
		{"user is required", 3 << 16, []string{"database", "d"}, "ErrorResponse(FATAL 28000)", true},
		{"session error is FATAL", 3 << 16, []string{"user", "u", "database", "nosuchdb"},
			"AuthenticationOk ErrorResponse(FATAL 3D000)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := dial(t, addr)
			if _, err := c.nc.Write(rawStartup(tc.version, tc.kv...)); err != nil {
				t.Fatal(err)
			}
			c.expect(tc.want)
			if tc.closed {
				c.expectClosed()
			}
		})
	}
}

func TestCancelRequest(t *testing.T) {
	_, f, addr := startServer(t)
	c := connect(t, addr)
	c.send(query("select sleep"))
	<-f.sleeping

	// A wrong secret is ignored; the right one cancels. Both close silently.
	wrong := append([]byte(nil), c.key.SecretKey...)
	wrong[0]++
	for _, secret := range [][]byte{wrong, c.key.SecretKey} {
		k := dial(t, addr)
		k.send(&pgproto3.CancelRequest{ProcessID: c.key.ProcessID, SecretKey: secret})
		k.expectClosed()
	}
	c.expect("RowDescription(?column?:23) ErrorResponse(57014) ReadyForQuery(I)")
	c.send(query("select 1"))
	c.expect("RowDescription(?column?:23) DataRow(1) CommandComplete(SELECT 1) ReadyForQuery(I)")
}

func TestCancelRequestExtended(t *testing.T) {
	_, f, addr := startServer(t)
	c := connect(t, addr)
	c.send(parse("", "select sleep"), bind("", ""), execute("", 0), syncMsg)
	<-f.sleeping
	k := dial(t, addr)
	k.send(&pgproto3.CancelRequest{ProcessID: c.key.ProcessID, SecretKey: c.key.SecretKey})
	k.expectClosed()
	c.expect("ParseComplete BindComplete ErrorResponse(57014) ReadyForQuery(I)")
}

func TestShutdown(t *testing.T) {
	srv, f, addr := startServer(t)
	idle := connect(t, addr)
	busy := connect(t, addr)
	busy.send(query("select sleep"))
	<-f.sleeping

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	idle.expect("ErrorResponse(FATAL 57P01)")
	idle.expectClosed()
	busy.expect("RowDescription(?column?:23) ErrorResponse(FATAL 57P01)")
	busy.expectClosed()
	if nc, err := net.Dial("tcp", addr); err == nil {
		nc.Close()
		t.Fatal("dial after Shutdown succeeded")
	}
}

func TestUndecodableMessageIsFatal(t *testing.T) {
	_, _, addr := startServer(t)
	c := connect(t, addr)
	if _, err := c.nc.Write([]byte{'z', 0, 0, 0, 4}); err != nil {
		t.Fatal(err)
	}
	c.expect("ErrorResponse(FATAL 08P01)")
	c.expectClosed()
}

func TestServeReturnsWhenContextEnds(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(newFixture())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	c := connect(t, ln.Addr().String())
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	// The accepted connection outlives Serve until Shutdown.
	c.send(query("select 1"))
	c.expect("RowDescription(?column?:23) DataRow(1) CommandComplete(SELECT 1) ReadyForQuery(I)")
	if err := srv.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.expect("ErrorResponse(FATAL 57P01)")
}

// TestBusyPollCountsConnections: the server counts each accepted socket
// for the busy poll (busypoll.go) from accept to close, whatever ends it:
// a session, a CancelRequest, a bad startup.
func TestBusyPollCountsConnections(t *testing.T) {
	srv, f, addr := startServer(t)
	if srv.poll == nil {
		t.Skip("busy polling is off on one processor")
	}
	open := func() int32 { return srv.poll.open.Load() }
	waitOpen := func(want int32) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); open() != want; {
			if time.Now().After(deadline) {
				t.Fatalf("%d sockets counted, want %d", open(), want)
			}
			time.Sleep(time.Millisecond)
		}
	}
	c := connect(t, addr)
	d := connect(t, addr)
	waitOpen(2)
	c.send(query("select sleep"))
	<-f.sleeping
	k := dial(t, addr)
	k.send(&pgproto3.CancelRequest{ProcessID: c.key.ProcessID, SecretKey: c.key.SecretKey})
	k.expectClosed()
	c.expect("RowDescription(?column?:23) ErrorResponse(57014) ReadyForQuery(I)")
	bad := dial(t, addr)
	bad.nc.Write([]byte{0, 0, 0, 8, 0, 0, 0, 0}) // protocol version 0.0
	bad.expect("ErrorResponse(FATAL 08P01)")
	waitOpen(2)
	c.nc.Close()
	d.nc.Close()
	waitOpen(0)
}
