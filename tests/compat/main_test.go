package compat

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/widesql/widesql/tests/internal/pgtmp"
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
	} else if err := buildServer(serverBin); err != nil {
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

// buildServer runs `go build -o bin ./cmd/widesql` in the module root.
func buildServer(bin string) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = "/usr/local/go/bin/go"
	}
	if err := statSources(root); err != nil {
		return err
	}
	cmd := exec.Command(goTool, "build", "-o", bin, "./cmd/widesql")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building widesql: %v\n%s", err, out)
	}
	return nil
}

// moduleRoot walks up from the package directory to the directory with go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the test directory")
		}
		dir = parent
	}
}

// statSources stats every Go source and module file under root, and every
// client program under clients/. go test caches a passing result while the
// files the test process touched are unchanged; the server's sources are
// read by a `go build` subprocess and the client programs by interpreters,
// neither of which go test sees, so without this a cached pass would survive
// a change to either.
func statSources(root string) error {
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") || name == "go.mod" || name == "go.sum" {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		return err
	}
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
