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
	"runtime"
	"testing"
	"time"
)

// socketPair returns the two ends of a fresh loopback connection of the
// given network ("tcp" or "unix"), the server's end wrapped by
// newRawSocket as Server.Serve wraps it, busy polling with poll (nil: not).
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
// allocate nothing, as net.Conn's do: a read that finds its message, and
// one that polls for it.
func TestRawSocketNoAllocs(t *testing.T) {
	server, client := socketPair(t, "tcp", newBusyPoll(maxBusyPoll))
	msg := []byte("Bind+Execute+Sync")
	buf := make([]byte, 64)
	roundTrip := func() {
		if n, err := server.Read(buf); err != nil || n == 0 {
			t.Fatalf("server read: %d, %v", n, err)
		}
		if _, err := server.Write(msg); err != nil {
			t.Fatalf("server write: %v", err)
		}
		io.ReadFull(client, buf[:len(msg)])
	}
	allocs := testing.AllocsPerRun(200, func() {
		client.Write(msg)
		roundTrip()
	})
	if allocs != 0 {
		t.Fatalf("%.1f allocations per round trip, want 0", allocs)
	}
	if runtime.GOMAXPROCS(0) < 2 {
		return // no polling on one processor
	}
	// The client sends from a goroutine of its own, after the server's
	// read has begun to poll (mostly; a late one waits in the poller).
	// testing.AllocsPerRun runs on one processor, where nothing polls,
	// so the allocations are counted by hand.
	send := make(chan struct{})
	defer close(send)
	go func() {
		for range send {
			for start := time.Now(); time.Since(start) < 50*time.Microsecond; {
			}
			client.Write(msg)
		}
	}()
	rs := server.(*rawSocket)
	polledTrip := func() bool {
		send <- struct{}{}
		roundTrip()
		return rs.rd.caught
	}
	for range 10 {
		polledTrip() // warm up
	}
	const trips = 200
	caught := 0
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range trips {
		if polledTrip() {
			caught++
		}
	}
	runtime.ReadMemStats(&after)
	if n := after.Mallocs - before.Mallocs; n > trips/20 { // room for the runtime's own
		t.Fatalf("%d allocations in %d polled round trips, want 0", n, trips)
	}
	if caught == 0 {
		t.Fatal("no read polled: the polled path went unmeasured")
	}
}

// TestRawSocketBusyPoll: a read that finds nothing polls the socket, and
// a message sent while it polls is read without waiting in the poller;
// while another connection is busy it does not poll.
func TestRawSocketBusyPoll(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("no busy polling on one processor (newBusyPoll)")
	}
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

// TestRawSocketBusyPollYields: a poll ends as soon as another connection
// gets a message, however much budget it has left.
func TestRawSocketBusyPollYields(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("no busy polling on one processor (newBusyPoll)")
	}
	poll := newBusyPoll(maxBusyPoll)
	poll.max = time.Minute // a budget the test cannot outwait
	poll.budget.Store(int64(time.Minute))
	a, aClient := socketPair(t, "tcp", poll)
	b, bClient := socketPair(t, "tcp", poll)
	bufA, bufB := make([]byte, 16), make([]byte, 16)
	bDone := make(chan error, 1)
	go func() { // b waits in the poller: a is the one polling
		_, err := b.Read(bufB)
		bDone <- err
	}()
	aDone := make(chan error, 1)
	go func() {
		_, err := a.Read(bufA)
		aDone <- err
	}()
	time.Sleep(20 * time.Millisecond) // both reading, a polling
	bClient.Write([]byte("Sync"))
	if err := <-bDone; err != nil {
		t.Fatalf("b's read: %v", err)
	}
	time.Sleep(20 * time.Millisecond) // a has seen b busy and parked
	aClient.Write([]byte("Sync"))
	select {
	case err := <-aDone:
		if err != nil {
			t.Fatalf("a's read: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a's read did not return")
	}
	rs := a.(*rawSocket)
	if rs.rd.caught || rs.rd.polled > 5*time.Second {
		t.Fatalf("a polled %s (caught %v) after b got its message, want it to stop then", rs.rd.polled, rs.rd.caught)
	}
}

// TestRawSocketBusyPollHangup: a wait ended by the client's hang-up is
// counted but teaches the budget nothing.
func TestRawSocketBusyPollHangup(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("no busy polling on one processor (newBusyPoll)")
	}
	poll := newBusyPoll(maxBusyPoll)
	poll.budget.Store(int64(busyPollGrowStart))
	server, client := socketPair(t, "tcp", poll)
	go func() {
		time.Sleep(5 * time.Millisecond) // past the poll and the limit
		client.Close()
	}()
	if n, err := server.Read(make([]byte, 16)); n != 0 || err != io.EOF {
		t.Fatalf("read after the hang-up: %d, %v, want 0, EOF", n, err)
	}
	rs := server.(*rawSocket)
	if !rs.rd.counted || rs.rd.caught {
		t.Fatalf("counted=%v caught=%v, want a counted wait the poll missed", rs.rd.counted, rs.rd.caught)
	}
	if b := time.Duration(poll.budget.Load()); b != busyPollGrowStart {
		t.Fatalf("budget %s after a hang-up, want it unchanged at %s", b, busyPollGrowStart)
	}
}
