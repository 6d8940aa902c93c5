package compat

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// endpoint is one server and database a client talks to.
type endpoint struct {
	server string // "postgres" or "widesql", for messages
	host   string
	port   string
	db     string
	user   string
}

// url returns a libpq-style URL for the endpoint.
func (e endpoint) url() string {
	u := url.URL{Scheme: "postgres", User: url.User(e.user), Host: net.JoinHostPort(e.host, e.port),
		Path: "/" + e.db, RawQuery: "sslmode=disable&connect_timeout=10"}
	return u.String()
}

// postgresEndpoint creates database db on the shared PostgreSQL server.
func postgresEndpoint(t *testing.T, db string) endpoint {
	t.Helper()
	pg := referenceServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := pg.CreateDatabase(ctx, db); err != nil {
		t.Fatalf("creating database %s on PostgreSQL: %v", db, err)
	}
	return endpoint{server: "postgres", host: "127.0.0.1", port: fmt.Sprint(pg.Port), db: db, user: "postgres"}
}

// listeningRE matches the line widesql logs once it accepts connections.
var listeningRE = regexp.MustCompile(`msg=listening addr=(127\.0\.0\.1:[0-9]+)`)

// widesqlEndpoint starts a fresh widesql server (memory store) for the test;
// a cleanup stops it with SIGTERM and fails the test unless it exits 0.
// The database name is the same as on PostgreSQL, so clients that report
// it (JDBC's catalog, psql's \l) see the same name.
func widesqlEndpoint(t *testing.T, db string) endpoint {
	t.Helper()
	cmd := exec.Command(serverBin, "--addr", "127.0.0.1:0", "--store", "memory", "--data", t.TempDir())
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	var log syncBuffer
	cmd.Stdout = &log
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting widesql: %v", err)
	}
	addrc := make(chan string, 1)
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			log.Write([]byte(line + "\n"))
			if m := listeningRE.FindStringSubmatch(line); m != nil {
				select {
				case addrc <- m[1]:
				default:
				}
			}
		}
		io.Copy(&log, stderr)
	}()
	done := make(chan error, 1)
	go func() {
		<-copied
		done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("widesql did not exit cleanly: %v\n%s", err, log.String())
			}
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
			t.Errorf("widesql did not exit within 10s of SIGTERM\n%s", log.String())
		}
	})
	var addr string
	select {
	case addr = <-addrc:
	case err := <-done:
		done <- err
		t.Fatalf("widesql exited before listening: %v\n%s", err, log.String())
	case <-time.After(15 * time.Second):
		t.Fatalf("widesql printed no listening line within 15s\n%s", log.String())
	}
	host, port, _ := net.SplitHostPort(addr)
	t.Cleanup(func() {
		if t.Failed() && strings.TrimSpace(log.String()) != "" {
			t.Logf("widesql log:\n%s", log.String())
		}
	})
	return endpoint{server: "widesql", host: host, port: port, db: db, user: "postgres"}
}

// syncBuffer is a strings.Builder safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
