package tests

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/widesql/widesql/tests/internal/serverbin"
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
		if err := serverbin.Build(serverBin); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return m.Run()
}
