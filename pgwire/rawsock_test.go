//go:build linux

package pgwire

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// socketPair returns the two ends of a fresh loopback connection of the
// given network ("tcp" or "unix"), the server's end wrapped by
// newRawSocket as serveConn wraps it, busy polling with poll (nil: not).
func socketPair(t *testing.T, network string, poll *busyPoll) (server, client net.Conn) {
	t.Helper()
	addr := "127.0.0.1:0"
	if network == "unix" {
		addr = filepath.Join(t.TempDir(), "s")
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	client, err = net.Dial(network, ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	raw := <-accepted
	if raw == nil {
		t.Fatal("accept failed")
	}
	server = newRawSocket(raw, poll)
	if _, ok := server.(*rawSocket); !ok {
		t.Fatalf("newRawSocket(%T) did not wrap it", raw)
	}
	t.Cleanup(func() { server.Close(); client.Close() })
	return server, client
}

// TestRawSocketRoundTrip sends a request and a response bigger than the
// socket buffers both ways, so writes meet EAGAIN and wait in the poller
// while the peer reads slowly, and reads return partial buffers; with
// busy polling and without.
func TestRawSocketRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		network string
		poll    time.Duration
	}{{"tcp", 0}, {"unix", 0}, {"tcp", maxBusyPoll}, {"unix", maxBusyPoll}} {
		t.Run(fmt.Sprintf("%s/poll=%s", tc.network, tc.poll), func(t *testing.T) {
			server, client := socketPair(t, tc.network, newBusyPoll(tc.poll))
			big := make([]byte, 8<<20)
			for i := range big {
				big[i] = byte(i * 7 / 5)
			}
			// Client to server: the raw Read path.
			go func() { client.Write(big) }()
			got := make([]byte, len(big))
			if _, err := io.ReadFull(server, got); err != nil {
				t.Fatalf("read: %v", err)
			}
			if !bytes.Equal(got, big) {
				t.Fatal("read: bytes differ")
			}
			// Server to client, the client reading in small steps
			// after a pause: the raw Write path must wait, not spin
			// or drop bytes.
			done := make(chan error, 1)
			go func() {
				n, err := server.Write(big)
				if err == nil && n != len(big) {
					err = errors.New("short write")
				}
				done <- err
			}()
			time.Sleep(50 * time.Millisecond)
			client.SetReadDeadline(time.Now().Add(30 * time.Second)) // a lost byte fails, not hangs
			clear(got)
			for off := 0; off < len(got); {
				n, err := client.Read(got[off:min(off+4096, len(got))])
				if err != nil {
					t.Fatalf("client read: %v", err)
				}
				off += n
			}
			if err := <-done; err != nil {
				t.Fatalf("write: %v", err)
			}
			if !bytes.Equal(got, big) {
				t.Fatal("write: bytes differ")
			}
		})
	}
}

// TestRawSocketErrors checks the errors the connection loop tells apart:
// a read deadline is a net.Error timeout (idle_session_timeout), the
// peer's close is io.EOF, and a close from another goroutine ends a
// waiting read with net.ErrClosed (Shutdown); with busy polling and
// without.
func TestRawSocketErrors(t *testing.T) {
	for _, d := range []time.Duration{0, maxBusyPoll} {
		t.Run(fmt.Sprintf("poll=%s", d), func(t *testing.T) { testRawSocketErrors(t, newBusyPoll(d)) })
	}
}

func testRawSocketErrors(t *testing.T, poll *busyPoll) {
	server, client := socketPair(t, "tcp", poll)
	buf := make([]byte, 16)

	server.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	_, err := server.Read(buf)
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read past its deadline: %v, want a timeout", err)
	}
	var oe *net.OpError
	if !errors.As(err, &oe) || oe.Op != "read" {
		t.Fatalf("read past its deadline: %#v, want a *net.OpError for read", err)
	}
	server.SetReadDeadline(time.Time{})

	client.Write([]byte("abc"))
	if n, err := server.Read(buf); err != nil || string(buf[:n]) != "abc" {
		t.Fatalf("read after the deadline was cleared: %q, %v", buf[:n], err)
	}

	client.Close()
	if n, err := server.Read(buf); n != 0 || err != io.EOF {
		t.Fatalf("read after the peer closed: %d, %v, want 0, EOF", n, err)
	}

	server2, _ := socketPair(t, "tcp", poll)
	res := make(chan error, 1)
	go func() {
		_, err := server2.Read(buf)
		res <- err
	}()
	time.Sleep(20 * time.Millisecond)
	server2.Close()
	select {
	case err := <-res:
		if !errors.Is(err, net.ErrClosed) {
			t.Fatalf("read ended by Close: %v, want net.ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end a waiting read")
	}
	if _, err := server2.Write([]byte("x")); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("write after Close: %v, want net.ErrClosed", err)
	}
}

// TestRawSocketLeavesOthers: a connection that is not a socket (a pipe,
// a TLS connection) is returned unwrapped.
func TestRawSocketLeavesOthers(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if got := newRawSocket(a, nil); got != a {
		t.Fatalf("newRawSocket(pipe) = %T, want the pipe itself", got)
	}
}

// TestRawSocketNoAllocs: a request's read and its response's write
// allocate nothing, as net.Conn's do, with the busy poll's bookkeeping.
func TestRawSocketNoAllocs(t *testing.T) {
	server, client := socketPair(t, "tcp", newBusyPoll(maxBusyPoll))
	msg := []byte("Bind+Execute+Sync")
	buf := make([]byte, 64)
	allocs := testing.AllocsPerRun(200, func() {
		client.Write(msg)
		if n, err := server.Read(buf); err != nil || n == 0 {
			t.Fatalf("server read: %d, %v", n, err)
		}
		if _, err := server.Write(msg); err != nil {
			t.Fatalf("server write: %v", err)
		}
		io.ReadFull(client, buf[:len(msg)])
	})
	if allocs != 0 {
		t.Fatalf("%.1f allocations per round trip, want 0", allocs)
	}
}

// TestRawSocketBusyPoll: a read that finds nothing polls the socket, and
// a message sent while it polls is read without waiting in the poller;
// while another connection is busy it does not poll.
func TestRawSocketBusyPoll(t *testing.T) {
	poll := newBusyPoll(maxBusyPoll)
	server, client := socketPair(t, "tcp", poll)
	rs := server.(*rawSocket)
	buf := make([]byte, 16)
	// The message is sent about 100µs after the read starts, into a
	// poll of up to 1ms (the writer spins: a timer may take longer). On
	// a loaded machine some tries miss, or the message is there before
	// the read; a poll that never reads again misses them all.
	caught := 0
	for try := 0; try < 200 && caught == 0; try++ {
		go func() {
			for start := time.Now(); time.Since(start) < 100*time.Microsecond; {
			}
			client.Write([]byte("Sync"))
		}()
		if n, err := server.Read(buf); err != nil || string(buf[:n]) != "Sync" {
			t.Fatalf("read: %q, %v", buf[:n], err)
		}
		if rs.rd.caught {
			if !rs.rd.counted {
				t.Fatal("a caught message's wait did not count")
			}
			caught++
		}
	}
	if caught == 0 {
		t.Fatal("no message was caught by polling in 200 tries")
	}

	// A second connection inside a statement: the first waits unpolled
	// and its wait teaches nothing.
	other, _ := socketPair(t, "tcp", poll)
	go func() {
		time.Sleep(time.Millisecond)
		client.Write([]byte("Sync"))
	}()
	if n, err := server.Read(buf); err != nil || n != 4 {
		t.Fatalf("read: %d, %v", n, err)
	}
	if rs.rd.counted || rs.rd.caught {
		t.Fatalf("counted=%v caught=%v while another connection was busy, want neither", rs.rd.counted, rs.rd.caught)
	}
	other.Close()
	other.Close()
	if o := poll.open.Load(); o != 1 {
		t.Fatalf("%d open sockets counted after a double Close, want 1", o)
	}
}
