package tests

import (
	"path/filepath"
	"testing"

	"github.com/widesql/widesql/tests/sqltest"
)

// TestSQL runs every testdata/sql/*.sql file against a fresh database in each
// client mode. exec's TestSQLFiles runs the same files in-process.
func TestSQL(t *testing.T) {
	for _, path := range sqltest.Files(t, filepath.Join("testdata", "sql")) {
		t.Run(sqltest.Name(path), func(t *testing.T) {
			for i, mode := range clientModes {
				t.Run(mode.name, func(t *testing.T) {
					f, err := sqltest.ParseFile(path) // again: an earlier mode may have rewritten it
					if err != nil {
						t.Fatal(err)
					}
					if f.WidesqlOnly && *pgURL != "" {
						t.Skip("widesql-only file")
					}
					tg := newTarget(t)
					sqltest.Run(t, f, mode.connect(t, tg), sqltest.Options{
						OnPostgres: tg.postgres,
						Rewrite:    *rewrite && i == 0,
						SQLState:   sqlState,
					})
				})
			}
		})
	}
}
