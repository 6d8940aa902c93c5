package tests

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// target is a fresh, empty database that one test talks to.
type target struct {
	postgres bool   // a real PostgreSQL rather than widesql
	host     string // loopback address
	port     string
	user     string
	database string
}

// url returns a libpq-style URL for the target.
func (tg target) url() string {
	u := url.URL{
		Scheme:   "postgres",
		User:     url.User(tg.user),
		Host:     net.JoinHostPort(tg.host, tg.port),
		Path:     "/" + tg.database,
		RawQuery: "sslmode=disable&connect_timeout=10",
	}
	return u.String()
}

func (tg target) addr() string { return net.JoinHostPort(tg.host, tg.port) }

// newTarget gives the test an empty database: a new widesql server, or with
// -pg / WIDESQL_TEST_PG a new database on that PostgreSQL, dropped at the end.
func newTarget(t *testing.T) target {
	t.Helper()
	if *pgURL == "" {
		s := startServer(t)
		host, port, err := net.SplitHostPort(s.addr)
		if err != nil {
			t.Fatal(err)
		}
		return target{host: host, port: port, user: "anyone", database: "anything"}
	}
	return newPostgresDatabase(t)
}

func newPostgresDatabase(t *testing.T) target {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	admin, err := pgx.Connect(ctx, *pgURL)
	if err != nil {
		t.Fatalf("connecting to %s: %v", *pgURL, err)
	}
	defer admin.Close(ctx)
	var b [6]byte
	rand.Read(b[:])
	name := "widesql_test_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		admin, err := pgx.Connect(ctx, *pgURL)
		if err != nil {
			t.Errorf("dropping %s: %v", name, err)
			return
		}
		defer admin.Close(ctx)
		if _, err := admin.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("dropping %s: %v", name, err)
		}
	})
	cfg := admin.Config()
	return target{postgres: true, host: cfg.Host, port: strconv.Itoa(int(cfg.Port)), user: cfg.User, database: name}
}
