package compat

import (
	"context"
	"testing"
	"time"
)

// client is one real client: prepare checks its tools (skipping or failing
// as need does) and returns how to run the scenario against an endpoint.
type client struct {
	name    string
	prepare func(t *testing.T) func(endpoint, scenario) string
}

// goClient adapts a Go client to the client shape.
func goClient(run func(context.Context, endpoint, scenario, *transcript)) func(*testing.T) func(endpoint, scenario) string {
	return func(t *testing.T) func(endpoint, scenario) string {
		return func(ep endpoint, s scenario) string {
			ctx, cancel := context.WithTimeout(context.Background(), clientTimeout)
			defer cancel()
			var tr transcript
			run(ctx, ep, s, &tr)
			return tr.String()
		}
	}
}

var clients = []client{
	{"jdbc", jdbcRunner},
	{"psycopg2", func(t *testing.T) func(endpoint, scenario) string {
		return pythonRunner(t, "compat_psycopg2.py", "psycopg2", "python3-psycopg2")
	}},
	{"psycopg3", func(t *testing.T) func(endpoint, scenario) string {
		return pythonRunner(t, "compat_psycopg3.py", "psycopg", "python3-psycopg")
	}},
	{"sqlalchemy", func(t *testing.T) func(endpoint, scenario) string {
		return pythonRunner(t, "compat_sqlalchemy.py", "sqlalchemy, psycopg2", "python3-sqlalchemy python3-psycopg2")
	}},
	{"node", nodeRunner},
	{"psql", psqlRunner},
	{"pgx", goClient(runPgx)},
	{"libpq", goClient(runLibpq)},
	{"gorm", goClient(runGorm)},
}

// TestCompat runs every client's scenario against PostgreSQL and against
// widesql and requires the same transcript from both (after the documented
// normalisations). Run one client with -run 'TestCompat/jdbc'; -v logs
// the per-step verdicts.
func TestCompat(t *testing.T) {
	s := loadScenario(t)
	for _, c := range clients {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			run := c.prepare(t)
			db := "compat_" + c.name
			pg := postgresEndpoint(t, db)
			ws := widesqlEndpoint(t, db)

			start := time.Now()
			want := normalize(c.name, run(pg, s))
			t.Logf("PostgreSQL run took %v", time.Since(start).Round(time.Millisecond))
			if line := hasError(want); line != "" {
				t.Errorf("the %s scenario fails against PostgreSQL, so the script is wrong: %s\ntranscript:\n%s", c.name, line, want)
				return
			}
			start = time.Now()
			got := normalize(c.name, run(ws, s))
			t.Logf("widesql run took %v", time.Since(start).Round(time.Millisecond))
			t.Logf("steps (widesql compared with PostgreSQL):\n%s", stepResults(want, got))
			if got != want {
				first := firstDifference(want, got)
				t.Errorf("%s got something else from widesql than from PostgreSQL; first differing step: %s\n"+
					"diff (- PostgreSQL, + widesql):\n%s", c.name, first, unifiedDiff(want, got))
			}
			if testing.Verbose() {
				t.Logf("PostgreSQL transcript:\n%s", want)
			}
		})
	}
}
