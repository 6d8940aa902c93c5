package tests

import (
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/widesql/widesql/tests/slt"
	"github.com/widesql/widesql/tests/sqltest"
)

// TestSLT runs the sqllogictest files of testdata/slt over pgwire with pgx.
// Against PostgreSQL (WIDESQL_TEST_PG) with -rewrite it records
// PostgreSQL's answers as the expected ones.
func TestSLT(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "slt", "*.test"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no testdata/slt/*.test files (%v)", err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := slt.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			tg := newTarget(t)
			engine := "widesql"
			if tg.postgres {
				engine = "postgresql"
			}
			c := connectPgx(t, tg, pgx.QueryExecModeCacheStatement)
			slt.Run(t, f, c, slt.Options{Engine: engine, Rewrite: *rewrite})
		})
	}
}

var _ sqltest.Client = (*pgxClient)(nil)
