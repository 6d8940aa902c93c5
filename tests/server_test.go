package tests

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os/exec"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"
)

const (
	startTimeout    = 15 * time.Second
	shutdownTimeout = 5 * time.Second
)

// listeningRE matches the slog line the server prints once it accepts
// connections: `... msg=listening addr=127.0.0.1:NNNNN`.
var listeningRE = regexp.MustCompile(`msg=listening addr=(127\.0\.0\.1:[0-9]+)`)

// server is one widesql process owned by one test.
type server struct {
	addr  string // host:port it listens on
	cmd   *exec.Cmd
	log   *syncBuffer // the process's stderr and stdout
	done  chan struct{}
	err   error       // Wait's result, valid after done is closed
	addrc chan string // the address from the "listening" line
}

// startServer starts a fresh widesql on a random loopback port with an empty
// data directory. A cleanup stops it with SIGTERM and fails the test unless
// it exits 0 within shutdownTimeout. The server's output is logged when the
// test fails.
func startServer(t *testing.T) *server {
	t.Helper()
	if serverBin == "" {
		t.Fatal("startServer: no widesql binary (running against PostgreSQL?)")
	}
	s := launchServer(t, "--data", t.TempDir())
	t.Cleanup(func() { s.stop(t) })
	s.awaitListening(t)
	return s
}

// launchServer starts the widesql binary on a random loopback port with the
// extra args, capturing its output; awaitListening then waits for its address.
func launchServer(t *testing.T, args ...string) *server {
	t.Helper()
	s := &server{log: &syncBuffer{}, done: make(chan struct{}), addrc: make(chan string, 1)}
	s.cmd = exec.Command(serverBin, append([]string{"--addr", "127.0.0.1:0"}, args...)...)
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.cmd.Stdout = s.log
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("starting widesql: %v", err)
	}
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			s.log.WriteString(line + "\n")
			if m := listeningRE.FindStringSubmatch(line); m != nil {
				select {
				case s.addrc <- m[1]:
				default:
				}
			}
		}
		io.Copy(s.log, stderr) // a line over 1 MiB: keep the rest
	}()
	go func() {
		<-copied // Wait closes the pipe: read it to the end first
		s.err = s.cmd.Wait()
		close(s.done)
	}()
	return s
}

// awaitListening waits for the server's "listening" line and records its
// address.
func (s *server) awaitListening(t *testing.T) {
	t.Helper()
	select {
	case s.addr = <-s.addrc:
	case <-s.done:
		t.Fatalf("widesql exited before listening: %v\n%s", s.err, s.log.String())
	case <-time.After(startTimeout):
		t.Fatalf("widesql printed no `msg=listening addr=` line within %v", startTimeout)
	}
}

// stop sends SIGTERM and requires a clean exit.
func (s *server) stop(t *testing.T) {
	select {
	case <-s.done: // already gone: that is a failure unless it exited 0 on its own
		if s.err != nil {
			t.Errorf("widesql died during the test: %v", s.err)
		}
	default:
		if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Errorf("SIGTERM: %v", err)
		}
		select {
		case <-s.done:
			if s.err != nil {
				t.Errorf("widesql did not exit cleanly on SIGTERM: %v", s.err)
			}
		case <-time.After(shutdownTimeout):
			s.cmd.Process.Kill()
			<-s.done
			t.Errorf("widesql did not exit within %v of SIGTERM", shutdownTimeout)
		}
	}
	var exitErr *exec.ExitError
	if t.Failed() || errors.As(s.err, &exitErr) {
		t.Logf("widesql output:\n%s", s.log.String())
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) WriteString(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.WriteString(s)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
