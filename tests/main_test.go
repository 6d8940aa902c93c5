package tests

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var (
	rewrite = flag.Bool("rewrite", false, "rewrite expected query results in testdata/sql from actual output (review the diff)")
	pgURL   = flag.String("pg", os.Getenv("WIDESQL_TEST_PG"), "run against this PostgreSQL URL instead of widesql (default $WIDESQL_TEST_PG)")
)

// serverBin is the widesql binary built by TestMain; empty when running
// against PostgreSQL.
var serverBin string

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if *pgURL == "" {
		dir, err := os.MkdirTemp("", "widesql-tests-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		serverBin = filepath.Join(dir, "widesql")
		if err := buildServer(serverBin); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return m.Run()
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

// statSources stats every Go source and module file under root. The go
// command records what a test process stats and opens, and reuses a cached
// test result only while those files are unchanged; the server sources are
// read by a `go build` subprocess that go test cannot see, so without this a
// cached pass would survive a change to the server.
func statSources(root string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") || name == "go.mod" || name == "go.sum" {
			_, err = os.Stat(path)
		}
		return err
	})
}
