// Package serverbin builds the widesql server binary for end-to-end tests
// (tests, tests/compat) from the module the test runs in.
package serverbin

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Build runs `go build -o bin ./cmd/widesql` in the module root. It first
// stats every Go source and module file of the module: go test reuses a
// cached result only while the files the test process touched are
// unchanged, and the sources are read by a `go build` subprocess go test
// cannot see, so without this a cached pass would survive a change to the
// server.
func Build(bin string) error {
	root, err := ModuleRoot()
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

// ModuleRoot walks up from the working directory to the directory with
// go.mod.
func ModuleRoot() (string, error) {
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

func statSources(root string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
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
}
