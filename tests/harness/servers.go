package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/widesql/widesql/tests/internal/pgtmp"
)

// pgTools holds the absolute paths of the PostgreSQL programs the harness
// runs.
type pgTools struct {
	bin     string // the directory, e.g. /usr/lib/postgresql/15/bin
	pgbench string
}

// installHint is printed when PostgreSQL or pgbench cannot be found.
const installHint = `PostgreSQL 15 server binaries (initdb, postgres) and pgbench are needed.
On Debian or Ubuntu install them with:
    sudo apt-get install -y postgresql-15      # server, initdb, pgbench
    sudo apt-get install -y postgresql-client-15
They are looked up under /usr/lib/postgresql/*/bin, or in the directory given by --pg-bin.`

// findPGTools locates initdb, postgres and pgbench (pgtmp.Find): in dir, or
// with dir empty in the highest-versioned /usr/lib/postgresql/*/bin holding
// all of them. The error says what is missing and how to install it.
func findPGTools(dir string) (pgTools, error) {
	t, err := pgtmp.Find(dir, "pgbench")
	if err != nil {
		return pgTools{}, fmt.Errorf("%v\n%s", err, installHint)
	}
	return pgTools{bin: t.Bin, pgbench: filepath.Join(t.Bin, "pgbench")}, nil
}

// server is one running database server, PostgreSQL or widesql. Its process
// runs in its own process group; stop ends it and removes its directory.
type server struct {
	name    string // "PostgreSQL" or "widesql"
	port    int
	dataDir string
	mem     *memSampler
	version string
	pprof   string // widesql's --pprof address, "" when not profiling

	pg *pgtmp.Server // PostgreSQL: the throwaway cluster

	// widesql: the process and its temporary root.
	dir    string
	cmd    *exec.Cmd
	exited chan struct{} // closed when the process has been reaped
}

// connString returns a pgx/libpq URL for database bench on the server.
func (s *server) connString() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/bench?sslmode=disable", s.port)
}

// connect opens one pgx connection to database bench.
func (s *server) connect(ctx context.Context) (*pgx.Conn, error) {
	return pgx.Connect(ctx, s.connString())
}

// freePort asks the kernel for an unused loopback TCP port.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// startPostgres starts a throwaway cluster (tests/internal/pgtmp: initdb
// into a temporary directory, a free loopback port, its own process group,
// run as user postgres when the harness is root) with default settings and
// fsync on. The C locale is used so text compares bytewise, as in widesql.
// The returned server has database bench.
func startPostgres(ctx context.Context, t pgTools) (*server, error) {
	pg, err := pgtmp.Start(ctx, pgtmp.Options{BinDir: t.bin, Locale: "C", Settings: []string{"fsync=on"}})
	if err != nil {
		return nil, err
	}
	s := &server{name: "PostgreSQL", port: pg.Port, dataDir: pg.DataDir(), version: pg.Version, pg: pg}
	s.mem = startMemSampler(pg.Pid(), 200*time.Millisecond)
	if err := pg.CreateDatabase(ctx, "bench"); err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

// buildWidesql builds ./cmd/widesql of the repository at root into dir.
func buildWidesql(ctx context.Context, root, dir string) (string, error) {
	bin := filepath.Join(dir, "widesql")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/widesql")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/widesql: %v\n%s", err, out)
	}
	return bin, nil
}

// startWidesql builds widesql from the repository at root and starts it with
// the default durable store on a fresh data directory and a free loopback
// port. extra holds further server flags. With pprof set it also serves Go's
// profiles (--pprof) on another free loopback port.
func startWidesql(ctx context.Context, root string, extra []string, pprof bool) (*server, error) {
	dir, err := os.MkdirTemp("", "harness-widesql-")
	if err != nil {
		return nil, err
	}
	s := &server{name: "widesql", dir: dir, dataDir: filepath.Join(dir, "data"), version: "this tree"}
	bin, err := buildWidesql(ctx, root, dir)
	if err != nil {
		s.stop()
		return nil, err
	}
	if s.port, err = freePort(); err != nil {
		s.stop()
		return nil, err
	}
	args := []string{"--addr", fmt.Sprintf("127.0.0.1:%d", s.port), "--data", s.dataDir, "--log-level", "warn"}
	if pprof {
		p, err := freePort()
		if err != nil {
			s.stop()
			return nil, err
		}
		s.pprof = fmt.Sprintf("127.0.0.1:%d", p)
		args = append(args, "--pprof", s.pprof)
	}
	args = append(args, extra...)
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	// Pdeathsig: a harness killed outright (SIGKILL) must not leave the
	// server running; pgtmp does the same for PostgreSQL.
	//
	// widesql stays in the harness's session, so with the kernel's
	// autogroup scheduling (on by default) it shares one scheduling group
	// with pgbench and go-ycsb, threads weighed alike; every PostgreSQL
	// backend calls setsid and gets a group of its own. A session of its
	// own for widesql (Setsid) was measured in round 11: with both server
	// and client saturating the two cores, widesql's group then gets half
	// the CPU, and the write and simple-protocol workloads fell (docs/
	// BENCHMARKS.md), so the basis of earlier rounds is kept.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := s.launch(cmd, filepath.Join(dir, "widesql.log")); err != nil {
		return nil, err
	}
	if err := s.waitReady(ctx); err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

// launch starts cmd with its output in logPath and begins sampling its
// memory. On error the server's directory is already removed.
func (s *server) launch(cmd *exec.Cmd, logPath string) error {
	logf, err := os.Create(logPath)
	if err != nil {
		s.stop()
		return err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		s.stop()
		return fmt.Errorf("starting %s: %w", s.name, err)
	}
	s.cmd = cmd
	s.exited = make(chan struct{})
	go func() {
		_ = cmd.Wait()
		logf.Close()
		close(s.exited)
	}()
	s.mem = startMemSampler(cmd.Process.Pid, 200*time.Millisecond)
	return nil
}

// waitReady polls until widesql accepts a connection, the process exits, or
// 60 seconds pass.
func (s *server) waitReady(ctx context.Context) error {
	url := s.connString()
	deadline := time.Now().Add(60 * time.Second)
	for {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		conn, err := pgx.Connect(cctx, url)
		cancel()
		if err == nil {
			return conn.Close(ctx)
		}
		select {
		case <-s.exited:
			return fmt.Errorf("%s exited during start-up; log:\n%s", s.name, s.logTail())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready after 60s: %v; log:\n%s", s.name, err, s.logTail())
		}
	}
}

// logTail returns the last lines of the server's log.
func (s *server) logTail() string {
	matches, _ := filepath.Glob(filepath.Join(s.dir, "*.log"))
	var b strings.Builder
	for _, m := range matches {
		data, _ := os.ReadFile(m)
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) > 20 {
			lines = lines[len(lines)-20:]
		}
		b.WriteString(strings.Join(lines, "\n"))
	}
	return b.String()
}

// stop asks the server to shut down (SIGINT: PostgreSQL's fast shutdown,
// widesql's clean stop), kills its process group if it has not exited within
// 30 seconds, and removes its temporary directory. It is safe to call more
// than once and on a server that never started.
func (s *server) stop() error {
	var errs []error
	if s.pg != nil {
		errs = append(errs, s.pg.Stop()) // the same steps, in pgtmp
	}
	if s.cmd != nil && s.cmd.Process != nil {
		pid := s.cmd.Process.Pid
		_ = syscall.Kill(pid, syscall.SIGINT)
		select {
		case <-s.exited:
		case <-time.After(30 * time.Second):
			errs = append(errs, fmt.Errorf("%s did not stop within 30s; killed", s.name))
		}
		// Leftover children (PostgreSQL backends) share the group.
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		<-s.exited
		s.cmd = nil
	}
	if s.mem != nil {
		s.mem.stop()
	}
	if s.dir != "" {
		if err := os.RemoveAll(s.dir); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
		s.dir = ""
	}
	return errors.Join(errs...)
}
