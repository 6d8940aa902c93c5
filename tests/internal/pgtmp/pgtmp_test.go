package pgtmp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func TestStartStop(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := Start(ctx, Options{})
	if errors.Is(err, ErrNotInstalled) && os.Getenv("CI") == "" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	dir := s.Dir
	if !strings.HasPrefix(s.Version, "1") {
		t.Errorf("server_version %q", s.Version)
	}
	if err := s.CreateDatabase(ctx, "pgtmp_test"); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, s.URL("pgtmp_test"))
	if err != nil {
		t.Fatal(err)
	}
	var collate string
	if err := conn.QueryRow(ctx, "SELECT datcollate FROM pg_database WHERE datname = current_database()").Scan(&collate); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
	if collate != "C.UTF-8" {
		t.Errorf("datcollate = %q, want C.UTF-8", collate)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s still exists after Stop: %v", dir, err)
	}
	if err := s.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
}

func TestFindMissing(t *testing.T) {
	_, err := Find(t.TempDir(), "pgbench")
	if !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("Find(empty dir) = %v, want ErrNotInstalled", err)
	}
	for _, want := range []string{"missing initdb, postgres, pgbench", "apt-get install -y postgresql-15"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

// TestOptions checks what the benchmark harness relies on: another locale,
// settings overriding Start's own (fsync), and the postmaster's pid and data
// directory.
func TestOptions(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := Start(ctx, Options{Locale: "C", Settings: []string{"fsync=on"}})
	if errors.Is(err, ErrNotInstalled) && os.Getenv("CI") == "" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	if _, err := os.Stat(filepath.Join(s.DataDir(), "PG_VERSION")); err != nil {
		t.Errorf("DataDir %s: %v", s.DataDir(), err)
	}
	if err := syscall.Kill(s.Pid(), 0); s.Pid() <= 0 || err != nil {
		t.Errorf("Pid() = %d: %v", s.Pid(), err)
	}
	conn, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var collate, fsync string
	if err := conn.QueryRow(ctx, "SELECT datcollate, current_setting('fsync') FROM pg_database WHERE datname = current_database()").Scan(&collate, &fsync); err != nil {
		t.Fatal(err)
	}
	if collate != "C" || fsync != "on" {
		t.Errorf("datcollate = %q, fsync = %q; want C, on", collate, fsync)
	}
}
