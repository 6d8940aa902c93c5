package tests

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// catalogQueryRE picks the captured client statements that read the
// system catalogs.
var catalogQueryRE = regexp.MustCompile(`(?i)\bpg_[a-z_]+|information_schema`)

// TestClientCatalogStatements replays every catalog query that psql,
// pgjdbc, SQLAlchemy, GORM, pgx, lib/pq, psycopg and node-postgres were
// seen sending to PostgreSQL 15 (testdata/clients/statements.jsonl, a copy
// of ../shared/reference/pg-client-statements.jsonl plus psql 15's tab
// completion of a table name, taken from PostgreSQL's statement log). Each must prepare and
// run on widesql with every parameter NULL; with -pg / WIDESQL_TEST_PG the
// same statements run on PostgreSQL instead, which checks the fixture.
// When a reference PostgreSQL is given by WIDESQL_TEST_PG_REF, the result
// columns (names and type OIDs) must also equal PostgreSQL's.
//
// The statements are the clients' own text, not fingerprints: widesql
// answers them through general pg_catalog relations and functions.
func TestClientCatalogStatements(t *testing.T) {
	stmts := readClientStatements(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	conn := pgconnTo(ctx, t, newTarget(t))
	var ref *pgconn.PgConn
	if u := os.Getenv("WIDESQL_TEST_PG_REF"); u != "" && *pgURL == "" {
		var err error
		if ref, err = pgconn.Connect(ctx, u); err != nil {
			t.Fatalf("reference PostgreSQL: %v", err)
		}
		defer ref.Close(ctx)
	}
	for _, ddl := range clientFixture {
		for _, c := range []*pgconn.PgConn{conn, ref} {
			if c == nil {
				continue
			}
			if err := c.Exec(ctx, ddl).Close(); err != nil {
				t.Fatalf("fixture %q: %v", ddl, err)
			}
		}
	}
	if ref != nil {
		defer func() { // before ref.Close
			if err := ref.Exec(ctx, "DROP TABLE IF EXISTS users, c1").Close(); err != nil {
				t.Errorf("dropping the fixture on the reference PostgreSQL: %v", err)
			}
		}()
	}
	failed := 0
	for i, s := range stmts {
		if !catalogQueryRE.MatchString(s.SQL) {
			continue
		}
		name := fmt.Sprintf("#%d %s: %.70s", i+1, s.Client, strings.Join(strings.Fields(s.SQL), " "))
		if err := runClientStatement(ctx, conn, ref, s.SQL); err != nil {
			failed++
			t.Errorf("%s\n    %v", name, err)
		}
	}
	if failed > 0 {
		t.Logf("%d catalog statements failed", failed)
	}
}

// clientFixture creates the tables the captured statements were run
// against, so that lookups by name find something.
var clientFixture = []string{
	"CREATE TABLE users (id int PRIMARY KEY, name text NOT NULL, email varchar(100), created_at timestamptz DEFAULT now())",
	"CREATE TABLE c1 (a int, b text, PRIMARY KEY (a))",
}

// pgNodeTreeOID is PostgreSQL's pg_node_tree type.
const pgNodeTreeOID = 194

type clientStatement struct {
	Client string `json:"client"`
	SQL    string `json:"sql"`
}

func readClientStatements(t *testing.T) []clientStatement {
	f, err := os.Open("testdata/clients/statements.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []clientStatement
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var s clientStatement
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// runClientStatement prepares sql on conn (and ref), compares the result
// columns with ref's, then executes it on conn with NULL parameters.
func runClientStatement(ctx context.Context, conn, ref *pgconn.PgConn, sql string) error {
	sd, err := conn.Prepare(ctx, "", sql, nil)
	if err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	if ref != nil {
		rd, err := ref.Prepare(ctx, "", sql, nil)
		if err != nil {
			return fmt.Errorf("prepare on the reference PostgreSQL: %w", err)
		}
		if got, want := describeFields(sd.Fields), describeFields(rd.Fields); got != want {
			return fmt.Errorf("result columns differ from PostgreSQL's\n    widesql:    %s\n    postgresql: %s", got, want)
		}
	}
	params := make([][]byte, len(sd.ParamOIDs))
	res := conn.ExecPrepared(ctx, "", params, nil, nil).Read()
	if res.Err != nil {
		return fmt.Errorf("execute: %w", res.Err)
	}
	return nil
}

func describeFields(fs []pgconn.FieldDescription) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		oid := f.DataTypeOID
		if oid == pgNodeTreeOID {
			// widesql has no pg_node_tree type: those catalog columns
			// (pg_index.indexprs, ...) are text, which every client reads
			// the same way.
			oid = 25
		}
		parts[i] = fmt.Sprintf("%s:%d", f.Name, oid)
	}
	return strings.Join(parts, " ")
}

// pgconnTo opens a low-level connection to tg, closed when the test ends.
func pgconnTo(ctx context.Context, t *testing.T, tg target) *pgconn.PgConn {
	t.Helper()
	c, err := pgconn.Connect(ctx, tg.url())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}
