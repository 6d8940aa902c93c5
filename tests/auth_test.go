package tests

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/lib/pq"
)

// Authentication, roles, connection limits and timeouts against a real
// widesql process (helper "auth"). TLS is in tls_test.go.

const bootPassword = "boot-pw-7d1e"

// startAuthServer starts widesql with --auth scram and a bootstrap
// superuser "widesql" (password bootPassword) on the disk store in dir.
func startAuthServer(t *testing.T, dir string, extra ...string) *server {
	t.Helper()
	if serverBin == "" {
		t.Skip("needs a widesql server")
	}
	args := append([]string{"--data", dir, "--auth", "scram", "--bootstrap-password", bootPassword}, extra...)
	s := launchServer(t, args...)
	t.Cleanup(func() { s.stop(t) })
	s.awaitListening(t)
	return s
}

// authURL is a URL for user with password on s; params are added to the
// query (sslmode=disable unless given).
func authURL(s *server, user, password string, params ...string) string {
	q := url.Values{"connect_timeout": {"10"}}
	for i := 0; i+1 < len(params); i += 2 {
		q.Set(params[i], params[i+1])
	}
	if q.Get("sslmode") == "" {
		q.Set("sslmode", "disable")
	}
	u := url.URL{Scheme: "postgres", User: url.UserPassword(user, password), Host: s.addr, Path: "/db", RawQuery: q.Encode()}
	return u.String()
}

func authConnect(t *testing.T, connURL string) (*pgx.Conn, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, connURL)
	if err == nil {
		t.Cleanup(func() { c.Close(context.Background()) })
	}
	return c, err
}

func mustPgx(t *testing.T, connURL string) *pgx.Conn {
	t.Helper()
	c, err := authConnect(t, connURL)
	if err != nil {
		t.Fatalf("connect %s: %v", connURL, err)
	}
	return c
}

// wantAuthFailed checks that err is FATAL 28P01 naming user.
func wantAuthFailed(t *testing.T, err error, user string) {
	t.Helper()
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "28P01" || pe.Severity != "FATAL" ||
		pe.Message != `password authentication failed for user "`+user+`"` {
		t.Fatalf("got %v, want FATAL 28P01 password authentication failed for user %q", err, user)
	}
}

func TestAuthSCRAM(t *testing.T) {
	dir := t.TempDir()
	s := startAuthServer(t, dir)

	admin := mustPgx(t, authURL(s, "widesql", bootPassword))
	if n := queryInt(t, admin, "SELECT 41 + 1"); n != 42 {
		t.Fatalf("SELECT: %d", n)
	}
	_, err := authConnect(t, authURL(s, "widesql", "wrong"))
	wantAuthFailed(t, err, "widesql")
	_, err = authConnect(t, authURL(s, "nobody", bootPassword))
	wantAuthFailed(t, err, "nobody")

	// Roles: a login role with a password, a role without one, a NOLOGIN
	// role with one.
	mustExec(t, admin, "CREATE ROLE app LOGIN PASSWORD 'app-pw-first'")
	mustExec(t, admin, "CREATE USER nopw")
	mustExec(t, admin, "CREATE ROLE nolog PASSWORD 'nolog-pw'")
	app := mustPgx(t, authURL(s, "app", "app-pw-first"))
	if n := queryInt(t, app, "SELECT 7"); n != 7 {
		t.Fatalf("app SELECT: %d", n)
	}
	_, err = authConnect(t, authURL(s, "nopw", ""))
	wantAuthFailed(t, err, "nopw")
	_, err = authConnect(t, authURL(s, "nolog", "nolog-pw"))
	wantAuthFailed(t, err, "nolog")

	// A role without CREATEROLE cannot manage roles, but may change its
	// own password.
	_, err = app.Exec(context.Background(), "CREATE ROLE other")
	if errCode(err) != "42501" {
		t.Fatalf("CREATE ROLE by app: %v, want 42501", err)
	}
	_, err = app.Exec(context.Background(), "DROP ROLE nolog")
	if errCode(err) != "42501" {
		t.Fatalf("DROP ROLE by app: %v, want 42501", err)
	}
	mustExec(t, app, "ALTER ROLE app PASSWORD 'app-pw-second'")
	_, err = authConnect(t, authURL(s, "app", "app-pw-first"))
	wantAuthFailed(t, err, "app")
	mustPgx(t, authURL(s, "app", "app-pw-second"))

	// Errors as PostgreSQL reports them.
	for _, c := range []struct{ sql, code string }{
		{"CREATE ROLE app", "42710"},
		{"ALTER ROLE ghost LOGIN", "42704"},
		{"DROP ROLE ghost", "42704"},
		{"DROP ROLE widesql", "55006"},
		{"CREATE ROLE pg_mine", "42939"},
		{"CREATE ROLE x LOGIN NOLOGIN", "42601"},
		{"ALTER ROLE app RENAME TO widesql", "42710"},
	} {
		_, err := admin.Exec(context.Background(), c.sql)
		if errCode(err) != c.code {
			t.Errorf("%s: %v, want %s", c.sql, err, c.code)
		}
	}
	mustExec(t, admin, "DROP ROLE IF EXISTS ghost, nopw")

	// A verifier given as such (pg_dump) is stored as is and works.
	mustExec(t, admin, "CREATE ROLE dumped LOGIN PASSWORD '"+dumpedVerifier+"'")
	mustPgx(t, authURL(s, "dumped", "pencil"))

	// Rename keeps the SCRAM password; ALTER ... NOLOGIN and DROP lock out.
	mustExec(t, admin, "ALTER ROLE dumped RENAME TO dumped2")
	mustPgx(t, authURL(s, "dumped2", "pencil"))
	mustExec(t, admin, "ALTER USER dumped2 NOLOGIN")
	_, err = authConnect(t, authURL(s, "dumped2", "pencil"))
	wantAuthFailed(t, err, "dumped2")
	mustExec(t, admin, "DROP USER dumped2")

	// lib/pq, right and wrong password.
	db, err := sql.Open("postgres", authURL(s, "app", "app-pw-second"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var one int
	if err := db.QueryRow("SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("lib/pq: %v %d", err, one)
	}
	bad, _ := sql.Open("postgres", authURL(s, "app", "nope"))
	defer bad.Close()
	err = bad.QueryRow("SELECT 1").Scan(&one)
	var pqe *pq.Error
	if !errors.As(err, &pqe) || pqe.Code != "28P01" {
		t.Fatalf("lib/pq wrong password: %v, want 28P01", err)
	}

	// psql with PGPASSWORD.
	if out, err := psqlAuth(t, s, "app", "app-pw-second", "SELECT 'psql-ok'"); err != nil || strings.TrimSpace(out) != "psql-ok" {
		t.Fatalf("psql: %v\n%s", err, out)
	}
	if out, err := psqlAuth(t, s, "app", "bad", "SELECT 'psql-ok'"); err == nil || !strings.Contains(out, `password authentication failed for user "app"`) || strings.Contains(out, "psql-ok") {
		t.Fatalf("psql wrong password: %v\n%s", err, out)
	}

	// Roles and passwords survive a restart, and the password text is
	// nowhere in the data directory while a marker written as table data
	// is (so the search would find it if it were there).
	mustExec(t, admin, "CREATE TABLE marker (k INT PRIMARY KEY, v TEXT)")
	mustExec(t, admin, "INSERT INTO marker VALUES (1, 'marker-8e1f0c')")
	admin.Close(context.Background())
	app.Close(context.Background())
	s.stop(t)
	if !dataContains(t, dir, "marker-8e1f0c") {
		t.Fatal("the marker row is not found in the data files: the password search below would prove nothing")
	}
	for _, pw := range []string{"app-pw-first", "app-pw-second", bootPassword, "nolog-pw"} {
		if dataContains(t, dir, pw) {
			t.Errorf("password %q is stored in the data directory", pw)
		}
	}
	if !dataContains(t, dir, "SCRAM-SHA-256$4096:") {
		t.Error("no SCRAM verifier found in the data directory")
	}
	s2 := startAuthServer(t, dir)
	mustPgx(t, authURL(s2, "app", "app-pw-second"))
	_, err = authConnect(t, authURL(s2, "app", "app-pw-first"))
	wantAuthFailed(t, err, "app")
}

// dumpedVerifier is a SCRAM-SHA-256 verifier of the password "pencil", as
// pg_dumpall writes it.
const dumpedVerifier = "SCRAM-SHA-256$4096:78aqRHmP0VXnqjpLMrXnjg==$" +
	"pru7cxKuc/FazoXK/+Rs+LPFl+1/h60pKj0DtEYr0Vw=:GcjUYYDfVlhT5Ax4GPYCbt5lZ/wXTE2eB/zxMsNJc4s="

// psqlAuth runs one command with psql as user, the password in PGPASSWORD.
func psqlAuth(t *testing.T, s *server, user, password, command string) (string, error) {
	t.Helper()
	host, port, _ := net.SplitHostPort(s.addr)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, psqlPath(t), "-h", host, "-p", port, "-U", user, "-d", "db", "-X", "-A", "-t", "-w", "-c", command)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "PGPASSWORD="+password, "PGSSLMODE=disable", "PGCONNECT_TIMEOUT=10")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// dataContains reports whether any file under dir holds s.
func dataContains(t *testing.T, dir, s string) bool {
	t.Helper()
	found := false
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || found {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		found = bytes.Contains(b, []byte(s))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestAuthTrustRefusesRemote: --auth trust on a non-loopback address is
// refused at start-up unless --allow-insecure-remote is given.
func TestAuthTrustRefusesRemote(t *testing.T) {
	if serverBin == "" {
		t.Skip("needs a widesql server")
	}
	cmd := exec.Command(serverBin, "--addr", "0.0.0.0:0", "--data", t.TempDir(), "--store", "memory")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--allow-insecure-remote") {
		t.Fatalf("trust on 0.0.0.0: %v\n%s", err, out)
	}
	cmd = exec.Command(serverBin, "--auth", "scram", "--data", t.TempDir(), "--store", "memory")
	cmd.Env = append(os.Environ(), "WIDESQL_PASSWORD=")
	out, err = cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "WIDESQL_PASSWORD") {
		t.Fatalf("scram without a bootstrap password: %v\n%s", err, out)
	}
}

// TestMaxConnections: the connection over --max-connections gets FATAL
// 53300 while the others keep working, and a slot frees when one leaves.
func TestMaxConnections(t *testing.T) {
	if serverBin == "" {
		t.Skip("needs a widesql server")
	}
	s := launchServer(t, "--data", t.TempDir(), "--store", "memory", "--max-connections", "2")
	t.Cleanup(func() { s.stop(t) })
	s.awaitListening(t)
	u := authURL(s, "anyone", "")
	a, b := mustPgx(t, u), mustPgx(t, u)
	_, err := authConnect(t, u)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "53300" || pe.Message != "sorry, too many clients already" {
		t.Fatalf("third connection: %v, want 53300", err)
	}
	if queryInt(t, a, "SELECT 1") != 1 || queryInt(t, b, "SELECT 2") != 2 {
		t.Fatal("existing sessions broken")
	}
	a.Close(context.Background())
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := authConnect(t, u)
		if err == nil {
			if queryInt(t, c, "SELECT 3") != 3 {
				t.Fatal("new session broken")
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no slot after a client left: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestRoleConnectionLimit: CONNECTION LIMIT n admits n sessions of the role.
func TestRoleConnectionLimit(t *testing.T) {
	s := startAuthServer(t, t.TempDir(), "--store", "memory")
	admin := mustPgx(t, authURL(s, "widesql", bootPassword))
	mustExec(t, admin, "CREATE ROLE one LOGIN PASSWORD 'one-pw' CONNECTION LIMIT 1")
	mustPgx(t, authURL(s, "one", "one-pw"))
	_, err := authConnect(t, authURL(s, "one", "one-pw"))
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "53300" || pe.Message != `too many connections for role "one"` {
		t.Fatalf("second session of role one: %v, want 53300", err)
	}
}

// TestIdleTimeouts: idle_session_timeout and
// idle_in_transaction_session_timeout end the session with FATAL 57P05 and
// 25P03; set with SET or as a startup option.
func TestIdleTimeouts(t *testing.T) {
	if serverBin == "" {
		t.Skip("needs a widesql server")
	}
	s := launchServer(t, "--data", t.TempDir(), "--store", "memory")
	t.Cleanup(func() { s.stop(t) })
	s.awaitListening(t)
	ctx := context.Background()

	check := func(c *pgx.Conn, code string) {
		t.Helper()
		time.Sleep(400 * time.Millisecond)
		_, err := c.Exec(ctx, "SELECT 1")
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != code || pe.Severity != "FATAL" {
			t.Fatalf("after idling: %v, want FATAL %s", err, code)
		}
		if !c.IsClosed() {
			t.Fatal("the connection is still open")
		}
	}
	c := mustPgx(t, authURL(s, "anyone", ""))
	mustExec(t, c, "SET idle_session_timeout = '100ms'")
	check(c, "57P05")

	c = mustPgx(t, authURL(s, "anyone", "", "idle_session_timeout", "100"))
	check(c, "57P05")

	c = mustPgx(t, authURL(s, "anyone", ""))
	mustExec(t, c, "SET idle_in_transaction_session_timeout = 100")
	// Idle outside a transaction is not bounded by it.
	time.Sleep(300 * time.Millisecond)
	mustExec(t, c, "BEGIN")
	check(c, "25P03")

	// Without timeouts an idle session lives on.
	c = mustPgx(t, authURL(s, "anyone", ""))
	time.Sleep(300 * time.Millisecond)
	if queryInt(t, c, "SELECT 5") != 5 {
		t.Fatal("idle session without timeout broken")
	}
}

// TestMessageSizeLimit: a message over --max-message-size ends its
// connection with FATAL 08P01; other sessions keep working.
func TestMessageSizeLimit(t *testing.T) {
	if serverBin == "" {
		t.Skip("needs a widesql server")
	}
	s := launchServer(t, "--data", t.TempDir(), "--store", "memory", "--max-message-size", "65536")
	t.Cleanup(func() { s.stop(t) })
	s.awaitListening(t)
	u := authURL(s, "anyone", "")
	other := mustPgx(t, u)
	c := mustPgx(t, u)
	big := "SELECT '" + strings.Repeat("x", 100<<10) + "'"
	_, err := c.Exec(context.Background(), big, pgx.QueryExecModeSimpleProtocol)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "08P01" || pe.Severity != "FATAL" {
		t.Fatalf("oversized query: %v, want FATAL 08P01", err)
	}
	small := "SELECT '" + strings.Repeat("y", 30<<10) + "'"
	if _, err := other.Exec(context.Background(), small); err != nil {
		t.Fatalf("other session: %v", err)
	}
}

// TestCancelRequestPgx: canceling the context of a running query makes pgx
// send a CancelRequest; the statement fails with 57014 and the session
// stays usable.
func TestCancelRequestPgx(t *testing.T) {
	if serverBin == "" {
		t.Skip("needs a widesql server")
	}
	s := launchServer(t, "--data", t.TempDir(), "--store", "memory")
	t.Cleanup(func() { s.stop(t) })
	s.awaitListening(t)
	cfg, err := pgx.ParseConfig(authURL(s, "anyone", ""))
	if err != nil {
		t.Fatal(err)
	}
	cfg.BuildContextWatcherHandler = func(pc *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: pc, CancelRequestDelay: 0, DeadlineDelay: 10 * time.Second}
	}
	c, err := pgx.ConnectConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	// A recursion too long to finish before the cancel arrives.
	_, err = c.Exec(ctx, "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 1000000000) SELECT count(*) FROM r")
	if errCode(err) != "57014" {
		t.Fatalf("canceled query: %v, want 57014", err)
	}
	if queryInt(t, c, "SELECT 9") != 9 {
		t.Fatal("session broken after cancel")
	}
}
