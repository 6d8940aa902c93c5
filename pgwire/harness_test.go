package pgwire

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// startServer runs a Server over the fixture on 127.0.0.1:0 and shuts it
// down when the test ends.
func startServer(t *testing.T) (*Server, *fixture, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture()
	level := slog.LevelError + 1 // quiet: tests provoke panics on purpose
	if testing.Verbose() {
		level = slog.LevelDebug
	}
	srv := NewServer(f, WithLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))))
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return srv, f, ln.Addr().String()
}

// client is a raw protocol client: a pgproto3.Frontend on a socket.
type client struct {
	t  *testing.T
	nc net.Conn
	fe *pgproto3.Frontend
	// key is the BackendKeyData of the connection, after startup.
	key pgproto3.BackendKeyData
}

func dial(t *testing.T, addr string) *client {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	return &client{t: t, nc: nc, fe: pgproto3.NewFrontend(nc, nc)}
}

// connect dials and completes startup, checking the startup reply.
func connect(t *testing.T, addr string) *client {
	t.Helper()
	c := dial(t, addr)
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "test"}})
	c.expect("AuthenticationOk ParameterStatus(client_encoding=UTF8) ParameterStatus(server_version=15.0) " +
		"ParameterStatus(standard_conforming_strings=on) BackendKeyData ReadyForQuery(I)")
	return c
}

func (c *client) send(msgs ...pgproto3.FrontendMessage) {
	c.t.Helper()
	for _, m := range msgs {
		c.fe.Send(m)
	}
	if err := c.fe.Flush(); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

var msgToken = regexp.MustCompile(`\w+(\([^)]*\))?`)

// expect reads as many messages as want names and compares them, as text,
// with want: names separated by spaces, each optionally followed by its
// salient fields in parentheses (see describe).
func (c *client) expect(want string) {
	c.t.Helper()
	wantToks := msgToken.FindAllString(want, -1)
	var got []string
	for range wantToks {
		m, err := c.fe.Receive()
		if err != nil {
			got = append(got, "<"+err.Error()+">")
			break
		}
		if k, ok := m.(*pgproto3.BackendKeyData); ok {
			c.key = pgproto3.BackendKeyData{ProcessID: k.ProcessID, SecretKey: append([]byte(nil), k.SecretKey...)}
		}
		got = append(got, describe(m))
	}
	if g, w := strings.Join(got, " "), strings.Join(wantToks, " "); g != w {
		c.t.Fatalf("messages:\n got: %s\nwant: %s", g, w)
	}
}

// expectClosed checks that the server closed the connection.
func (c *client) expectClosed() {
	c.t.Helper()
	if m, err := c.fe.Receive(); err == nil {
		c.t.Fatalf("got %s, want the connection closed", describe(m))
	}
}

// describe renders a backend message compactly: its type name and, for
// messages whose content matters to the protocol, that content.
func describe(m pgproto3.BackendMessage) string {
	name := reflect.TypeOf(m).Elem().Name()
	switch m := m.(type) {
	case *pgproto3.CommandComplete:
		return fmt.Sprintf("%s(%s)", name, m.CommandTag)
	case *pgproto3.ReadyForQuery:
		return fmt.Sprintf("%s(%c)", name, m.TxStatus)
	case *pgproto3.ParameterStatus:
		return fmt.Sprintf("%s(%s=%s)", name, m.Name, m.Value)
	case *pgproto3.ErrorResponse:
		if m.Severity != "ERROR" {
			return fmt.Sprintf("%s(%s %s)", name, m.Severity, m.Code)
		}
		return fmt.Sprintf("%s(%s)", name, m.Code)
	case *pgproto3.NoticeResponse:
		return fmt.Sprintf("%s(%s)", name, m.Code)
	case *pgproto3.DataRow:
		vals := make([]string, len(m.Values))
		for i, v := range m.Values {
			vals[i] = string(v)
			if v == nil {
				vals[i] = "NULL"
			}
		}
		return fmt.Sprintf("%s(%s)", name, strings.Join(vals, ","))
	case *pgproto3.RowDescription:
		cols := make([]string, len(m.Fields))
		for i, f := range m.Fields {
			cols[i] = fmt.Sprintf("%s:%d", f.Name, f.DataTypeOID)
			if f.Format != 0 {
				cols[i] += "/b"
			}
		}
		return fmt.Sprintf("%s(%s)", name, strings.Join(cols, ","))
	case *pgproto3.ParameterDescription:
		return fmt.Sprintf("%s(%v)", name, strings.Trim(fmt.Sprint(m.ParameterOIDs), "[]"))
	case *pgproto3.NegotiateProtocolVersion:
		return fmt.Sprintf("%s(%d %s)", name, m.NewestMinorProtocol, strings.Join(m.UnrecognizedOptions, ","))
	}
	return name
}
