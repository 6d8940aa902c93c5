// Package pgtmp starts a throwaway PostgreSQL server for tests: initdb into a
// temporary directory, postgres on a loopback port the kernel picks, and
// everything removed by Stop. Differential tests use it to get their expected
// answers from the real thing.
//
// PostgreSQL refuses to run as root, so when the test runs as root the
// server's programs run as the postgres user (Debian's packages create it).
package pgtmp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrNotInstalled is wrapped by Find (and so Start) when no PostgreSQL server
// installation is found; callers may skip rather than fail on it.
var ErrNotInstalled = errors.New("PostgreSQL server binaries (initdb, postgres) not found")

// InstallHint says how to install what Find looks for.
const InstallHint = "install them with `apt-get install -y postgresql-15` (Debian/Ubuntu); " +
	"they are looked up under /usr/lib/postgresql/*/bin"

// Tools holds the absolute paths of the PostgreSQL server programs.
type Tools struct {
	Bin      string // the directory, e.g. /usr/lib/postgresql/15/bin
	Initdb   string
	Postgres string
}

// Find locates initdb and postgres in dir, or with dir empty in the
// highest-versioned /usr/lib/postgresql/*/bin that holds both. also names
// further programs that must sit in the same directory (the benchmark
// harness needs pgbench). The error wraps ErrNotInstalled when nothing
// usable is found and names what the last candidate lacked.
func Find(dir string, also ...string) (Tools, error) {
	dirs := []string{dir}
	if dir == "" {
		dirs, _ = filepath.Glob("/usr/lib/postgresql/*/bin")
		sort.Slice(dirs, func(i, j int) bool { return major(dirs[i]) > major(dirs[j]) })
	}
	var missing []string
	for _, d := range dirs {
		t := Tools{Bin: d, Initdb: filepath.Join(d, "initdb"), Postgres: filepath.Join(d, "postgres")}
		missing = missing[:0]
		for _, name := range append([]string{"initdb", "postgres"}, also...) {
			if !executable(filepath.Join(d, name)) {
				missing = append(missing, name)
			}
		}
		if len(missing) == 0 {
			return t, nil
		}
	}
	what := "no installation"
	if len(missing) > 0 {
		what = "missing " + strings.Join(missing, ", ")
	}
	return Tools{}, fmt.Errorf("%w (%s) in %v; %s", ErrNotInstalled, what, dirs, InstallHint)
}

func major(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func executable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// Options configure Start. The zero value is usable.
type Options struct {
	BinDir string // where initdb and postgres are; empty: Find's default
	// Locale is initdb's --locale; empty means C.UTF-8 (see Server). The
	// benchmark harness uses C, PostgreSQL's fastest text comparison.
	Locale string
	// Settings are extra "name=value" server settings, passed as -c after
	// Start's own (fsync=off), so they override them: a benchmark that
	// needs durable commits passes fsync=on.
	Settings []string
}

// Server is one running PostgreSQL cluster. Its superuser is postgres with
// trust authentication on loopback; the cluster is initialised with UTF8
// and (unless Options.Locale says otherwise) the C.UTF-8 locale, as widesql behaves: text compares in code point
// (byte) order and upper()/lower() know non-ASCII letters.
type Server struct {
	Port    int
	Dir     string // temporary root holding data/, the socket and the log
	Version string // server_version, e.g. "15.18 (Debian 15.18-0+deb12u1)"

	cmd    *exec.Cmd
	exited chan struct{} // closed once the postmaster has been reaped
}

// DataDir is the cluster's data directory (PGDATA).
func (s *Server) DataDir() string { return filepath.Join(s.Dir, "data") }

// Pid is the postmaster's process id; its backends are its children.
func (s *Server) Pid() int {
	if s.cmd == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

// Start initdbs a fresh cluster in a new temporary directory and starts it
// on a free loopback port, waiting until it accepts connections. On error
// nothing is left behind. Call Stop when done.
func Start(ctx context.Context, opts Options) (*Server, error) {
	tools, err := Find(opts.BinDir)
	if err != nil {
		return nil, err
	}
	cred, err := credential()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pgtmp-")
	if err != nil {
		return nil, err
	}
	s := &Server{Dir: dir}
	if cred != nil {
		// The postgres user must reach its data directory inside ours.
		if err := os.Chmod(dir, 0o777); err != nil {
			s.Stop()
			return nil, err
		}
	}
	data := s.DataDir()
	locale := opts.Locale
	if locale == "" {
		locale = "C.UTF-8"
	}
	initdb := exec.CommandContext(ctx, tools.Initdb, "-D", data, "-U", "postgres", "-A", "trust",
		"-E", "UTF8", "--locale="+locale, "--no-sync")
	initdb.Dir = dir
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true}
	if out, err := initdb.CombinedOutput(); err != nil {
		s.Stop()
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	if s.Port, err = freePort(); err != nil {
		s.Stop()
		return nil, err
	}
	args := []string{"-D", data, "-p", strconv.Itoa(s.Port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=" + dir,
		"-c", "fsync=off"}
	for _, kv := range opts.Settings {
		args = append(args, "-c", kv)
	}
	logf, err := os.Create(filepath.Join(dir, "postgres.log"))
	if err != nil {
		s.Stop()
		return nil, err
	}
	cmd := exec.Command(tools.Postgres, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logf, logf
	// Pdeathsig: a test binary killed by a timeout must not leave the
	// postmaster running; SIGQUIT is PostgreSQL's immediate shutdown.
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true, Pdeathsig: syscall.SIGQUIT}
	if err := cmd.Start(); err != nil {
		logf.Close()
		s.Stop()
		return nil, fmt.Errorf("starting postgres: %w", err)
	}
	s.cmd, s.exited = cmd, make(chan struct{})
	go func() {
		_ = cmd.Wait()
		logf.Close()
		close(s.exited)
	}()
	if err := s.waitReady(ctx); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// URL returns a pgx/libpq URL for database db as user postgres.
func (s *Server) URL(db string) string {
	u := url.URL{Scheme: "postgres", User: url.User("postgres"),
		Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)), Path: "/" + db,
		RawQuery: "sslmode=disable"}
	return u.String()
}

// CreateDatabase creates database name (an SQL identifier, used unquoted).
func (s *Server) CreateDatabase(ctx context.Context, name string) error {
	conn, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "CREATE DATABASE "+name)
	return err
}

func (s *Server) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(60 * time.Second)
	for {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		conn, err := pgx.Connect(cctx, s.URL("postgres"))
		cancel()
		if err == nil {
			defer conn.Close(ctx)
			return conn.QueryRow(ctx, "SHOW server_version").Scan(&s.Version)
		}
		select {
		case <-s.exited:
			return fmt.Errorf("postgres exited during start-up; log:\n%s", s.LogTail())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres not ready after 60s: %v; log:\n%s", err, s.LogTail())
		}
	}
}

// LogTail returns the last 30 lines of the server's log.
func (s *Server) LogTail() string {
	data, _ := os.ReadFile(filepath.Join(s.Dir, "postgres.log"))
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) > 30 {
		lines = lines[len(lines)-30:]
	}
	return strings.Join(lines, "\n")
}

// Stop shuts the server down (SIGINT, PostgreSQL's fast shutdown), kills its
// process group if it has not exited within 30 seconds, and removes its
// directory. It is safe to call more than once.
func (s *Server) Stop() error {
	var errs []error
	if s.cmd != nil {
		pid := s.cmd.Process.Pid
		_ = syscall.Kill(pid, syscall.SIGINT)
		select {
		case <-s.exited:
		case <-time.After(30 * time.Second):
			errs = append(errs, errors.New("postgres did not stop within 30s; killed"))
		}
		_ = syscall.Kill(-pid, syscall.SIGKILL) // leftover backends share the group
		<-s.exited
		s.cmd = nil
	}
	if s.Dir != "" {
		if err := os.RemoveAll(s.Dir); err != nil {
			errs = append(errs, err)
		}
		s.Dir = ""
	}
	return errors.Join(errs...)
}

// credential returns nil when not root, else the postgres user's
// credential: PostgreSQL refuses to run as root.
func credential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, PostgreSQL must run as user postgres, which does not exist: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
