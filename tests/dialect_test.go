package tests

import (
	"context"
	"database/sql"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/lib/pq"
)

// TestAnyArrayParameter runs what ORMs send for a batch lookup, WHERE id =
// ANY($1) with an array parameter, through pgx (binary int8[] / text[])
// and lib/pq (text '{...}'), in both pgx modes. widesql plans it as a MULTI
// GET whose keys are the array's elements.
func TestAnyArrayParameter(t *testing.T) {
	tg := newTarget(t)
	ctx := context.Background()
	setup := pgxConnect(t, tg, pgx.QueryExecModeCacheStatement)
	mustExec(t, setup, "CREATE TABLE users (id BIGINT, name TEXT, PRIMARY KEY (id))")
	mustExec(t, setup, "INSERT INTO users VALUES (1, 'ada'), (2, 'bob'), (3, 'cy'), (4, 'dee')")
	for _, m := range pgxModes {
		t.Run("pgx-"+m.name, func(t *testing.T) {
			conn := pgxConnect(t, tg, m.mode)
			rows, err := conn.Query(ctx, "SELECT name FROM users WHERE id = ANY($1) ORDER BY id", []int64{4, 1, 9, 1})
			if err != nil {
				t.Fatal(err)
			}
			names, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				t.Fatal(err)
			}
			if len(names) != 2 || names[0] != "ada" || names[1] != "dee" {
				t.Fatalf("id = ANY($1): got %q, want [ada dee]", names)
			}
			rows, err = conn.Query(ctx, "SELECT id FROM users WHERE name = ANY($1) AND id <> ALL($2) ORDER BY id",
				[]string{"bob", "cy", "zed"}, []int64{3})
			if err != nil {
				t.Fatal(err)
			}
			ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
			if err != nil {
				t.Fatal(err)
			}
			if len(ids) != 1 || ids[0] != 2 {
				t.Fatalf("name = ANY($1) AND id <> ALL($2): got %v, want [2]", ids)
			}
			var n int64
			if err := conn.QueryRow(ctx, "SELECT count(*) FROM users WHERE id = ANY($1)", []int64{}).Scan(&n); err != nil || n != 0 {
				t.Fatalf("empty array: got %d, %v", n, err)
			}
		})
	}
	t.Run("libpq", func(t *testing.T) {
		db, err := sql.Open("postgres", tg.url())
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		rows, err := db.QueryContext(ctx, "SELECT name FROM users WHERE id = ANY($1) ORDER BY id", pq.Array([]int64{3, 2}))
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var names []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			names = append(names, s)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if len(names) != 2 || names[0] != "bob" || names[1] != "cy" {
			t.Fatalf("got %q, want [bob cy]", names)
		}
	})
}

// TestNegativeLimitParameter checks the SQLSTATEs of a negative LIMIT and
// OFFSET that are known only once the parameters are bound.
func TestNegativeLimitParameter(t *testing.T) {
	tg := newTarget(t)
	conn := pgxConnect(t, tg, pgx.QueryExecModeCacheStatement)
	for _, c := range []struct {
		sql, code string
	}{
		{"SELECT 1 LIMIT $1", "2201W"},
		{"SELECT 1 OFFSET $1", "2201X"},
	} {
		rows, err := conn.Query(context.Background(), c.sql, int64(-1))
		if err == nil {
			rows.Close()
			err = rows.Err()
		}
		if code, _, _ := sqlState(err); code != c.code {
			t.Errorf("%s with -1: got %v, want SQLSTATE %s", c.sql, err, c.code)
		}
	}
}
