package compat

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/widesql/widesql/tests/internal/pgtmp"
	"github.com/widesql/widesql/tests/internal/serverbin"
)

// serverBin is the widesql binary built by TestMain, in workDir, a
// temporary directory removed when the tests end.
var serverBin, workDir string

// The PostgreSQL reference server, started on first use and stopped by
// TestMain.
var (
	pgOnce   sync.Once
	pgServer *pgtmp.Server
	pgErr    error
)

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "widesql-compat-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	workDir = dir
	serverBin = filepath.Join(dir, "widesql")
	if bin := os.Getenv("COMPAT_WIDESQL_BIN"); bin != "" {
		serverBin = bin // a prebuilt server, e.g. while the tree does not build
	} else if err := serverbin.Build(serverBin); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := statClients(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() {
		if pgServer != nil {
			if err := pgServer.Stop(); err != nil {
				fmt.Fprintln(os.Stderr, "stopping PostgreSQL:", err)
			}
		}
	}()
	return m.Run()
}

// referenceServer returns the shared PostgreSQL server, starting it on first use.
// Without PostgreSQL binaries it skips the test, or fails it under CI.
func referenceServer(t *testing.T) *pgtmp.Server {
	t.Helper()
	pgOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		pgServer, pgErr = pgtmp.Start(ctx, pgtmp.Options{})
	})
	if pgErr != nil {
		if isNotInstalled(pgErr) {
			need(t, pgErr.Error())
		}
		t.Fatalf("starting the PostgreSQL reference server: %v", pgErr)
	}
	return pgServer
}

func isNotInstalled(err error) bool { return errors.Is(err, pgtmp.ErrNotInstalled) }

// need reports a missing tool: a skip, except under CI, where .ci/run
// should have installed it.
func need(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("missing under CI (.ci/run should install it): %s", what)
	}
	t.Skipf("skipped, not installed: %s", what)
}

// statClients reads every client program under clients/: go test caches a
// passing result while the files the test process touched are unchanged,
// and the client programs are read by interpreters go test cannot see.
func statClients() error {
	return filepath.WalkDir("clients", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "node_modules" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			_, err = os.ReadFile(path)
		}
		return err
	})
}
