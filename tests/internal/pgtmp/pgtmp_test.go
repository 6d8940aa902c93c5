package pgtmp

import (
	"context"
	"errors"
	"os"
	"strings"
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
	_, err := Find(t.TempDir())
	if !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("Find(empty dir) = %v, want ErrNotInstalled", err)
	}
}
