package tests

import (
	"bytes"
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	_ "github.com/lib/pq"
)

// pgxModes are the pgx execution modes whose parameter handling differs:
// server-side $n binding versus client-side interpolation.
var pgxModes = []struct {
	name string
	mode pgx.QueryExecMode
}{
	{"extended", pgx.QueryExecModeCacheStatement},
	{"simple", pgx.QueryExecModeSimpleProtocol},
}

func pgxConnect(t *testing.T, tg target, mode pgx.QueryExecMode) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), ioTimeout)
	defer cancel()
	cfg, err := pgx.ParseConfig(tg.url())
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = mode
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func mustExec(t *testing.T, conn *pgx.Conn, sql string, args ...any) int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), ioTimeout)
	defer cancel()
	tag, err := conn.Exec(ctx, sql, args...)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return tag.RowsAffected()
}

func TestPgxParameters(t *testing.T) {
	for _, m := range pgxModes {
		t.Run(m.name, func(t *testing.T) {
			conn := pgxConnect(t, newTarget(t), m.mode)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			mustExec(t, conn, "CREATE TABLE p (k INT, s TEXT, n BIGINT, PRIMARY KEY (k))")

			// $2 before $1.
			if n := mustExec(t, conn, "INSERT INTO p (s, k, n) VALUES ($2, $1, $3)", 1, "one", int64(10)); n != 1 {
				t.Errorf("insert affected %d rows", n)
			}
			mustExec(t, conn, "INSERT INTO p VALUES ($1, $2, $3), ($4, $5, $6)", 2, "two", int64(20), 3, nil, nil)

			// A repeated $1 and a NULL parameter.
			var got []int32
			rows, err := conn.Query(ctx, "SELECT k FROM p WHERE k = $1 OR n = $1 * 10 OR s = $2 ORDER BY k", 2, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err = pgx.CollectRows(rows, pgx.RowTo[int32])
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0] != 2 {
				t.Errorf("repeated $1: got %v, want [2]", got)
			}

			var s string
			if err := conn.QueryRow(ctx, "SELECT $2::TEXT || s || $1::TEXT FROM p WHERE k = $3", "]", "[", 1).Scan(&s); err != nil {
				t.Fatal(err)
			}
			if s != "[one]" {
				t.Errorf("$2 || s || $1 = %q, want [one]", s)
			}

			var isNull bool
			if err := conn.QueryRow(ctx, "SELECT s IS NULL FROM p WHERE k = $1", 3).Scan(&isNull); err != nil || !isNull {
				t.Errorf("NULL parameter stored: isNull=%v err=%v", isNull, err)
			}

			// Parameters in UPDATE and DELETE, and a key range.
			if n := mustExec(t, conn, "UPDATE p SET s = $1 WHERE k >= $2 AND k <= $3", "x", 2, 3); n != 2 {
				t.Errorf("update affected %d rows, want 2", n)
			}
			if n := mustExec(t, conn, "DELETE FROM p WHERE k = $1", 3); n != 1 {
				t.Errorf("delete affected %d rows, want 1", n)
			}
			// A string parameter containing quotes and a backslash round-trips.
			tricky := `it's a \ "test"`
			mustExec(t, conn, "UPDATE p SET s = $1 WHERE k = $2", tricky, 1)
			if err := conn.QueryRow(ctx, "SELECT s FROM p WHERE k = $1", 1).Scan(&s); err != nil || s != tricky {
				t.Errorf("tricky string: got %q, %v", s, err)
			}
		})
	}
}

// TestBinaryResults reads each type in binary: pgx's extended mode asks for
// binary results for the types it knows, and the server must honour that.
func TestBinaryResults(t *testing.T) {
	for _, m := range pgxModes {
		t.Run(m.name, func(t *testing.T) {
			conn := pgxConnect(t, newTarget(t), m.mode)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			mustExec(t, conn, `CREATE TABLE b (k INT, sm SMALLINT, big BIGINT, f DOUBLE PRECISION, ok BOOLEAN,
				ts TIMESTAMP, raw BYTEA, s VARCHAR(20), PRIMARY KEY (k))`)
			ts := time.Date(2026, 1, 2, 3, 4, 5, 123456000, time.UTC)
			raw := []byte{0, 1, 0xfe, 0xff, '\\'}
			mustExec(t, conn, "INSERT INTO b VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
				int32(-7), int16(-32768), int64(-9223372036854775808), -1.25e-7, true, ts, raw, "héllo")

			rows, err := conn.Query(ctx, "SELECT k, sm, big, f, ok, ts, raw, s FROM b WHERE k = $1", -7)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			if !rows.Next() {
				t.Fatalf("no row: %v", rows.Err())
			}
			if m.mode == pgx.QueryExecModeCacheStatement {
				for _, fd := range rows.FieldDescriptions()[:7] {
					if fd.Format != pgx.BinaryFormatCode {
						t.Errorf("column %s: format %d, want binary", fd.Name, fd.Format)
					}
				}
			}
			var (
				k    int32
				sm   int16
				big  int64
				f    float64
				ok   bool
				gotT time.Time
				gotR []byte
				s    string
			)
			if err := rows.Scan(&k, &sm, &big, &f, &ok, &gotT, &gotR, &s); err != nil {
				t.Fatal(err)
			}
			if k != -7 || sm != -32768 || big != -9223372036854775808 || f != -1.25e-7 || !ok || s != "héllo" {
				t.Errorf("got k=%d sm=%d big=%d f=%v ok=%v s=%q", k, sm, big, f, ok, s)
			}
			if !gotT.Equal(ts) {
				t.Errorf("timestamp: got %v, want %v", gotT, ts)
			}
			if !bytes.Equal(gotR, raw) {
				t.Errorf("bytea: got %x, want %x", gotR, raw)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}

			// NULLs in binary.
			mustExec(t, conn, "INSERT INTO b (k) VALUES (1)")
			var nk *int64
			var nf *float64
			var nb *bool
			var nt *time.Time
			var nr []byte
			if err := conn.QueryRow(ctx, "SELECT big, f, ok, ts, raw FROM b WHERE k = 1").Scan(&nk, &nf, &nb, &nt, &nr); err != nil {
				t.Fatal(err)
			}
			if nk != nil || nf != nil || nb != nil || nt != nil || nr != nil {
				t.Errorf("NULLs: got %v %v %v %v %v", nk, nf, nb, nt, nr)
			}
		})
	}
}

func TestLibpqParameters(t *testing.T) {
	tg := newTarget(t)
	db, err := sql.Open("postgres", tg.url())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	if _, err := db.ExecContext(ctx, "CREATE TABLE p (k INT, s TEXT, ts TIMESTAMP, ok BOOLEAN, PRIMARY KEY (k))"); err != nil {
		t.Fatal(err)
	}
	ts := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	res, err := db.ExecContext(ctx, "INSERT INTO p VALUES ($1, $2, $3, $4), ($5, $6, $7, $8)", 1, "one", ts, true, 2, nil, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 2 {
		t.Errorf("insert affected %d rows, want 2", n)
	}

	// A prepared statement reused with different parameters.
	stmt, err := db.PrepareContext(ctx, "SELECT s, ts, ok FROM p WHERE k = $1")
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	var s sql.NullString
	var gotT sql.NullTime
	var ok bool
	if err := stmt.QueryRowContext(ctx, 1).Scan(&s, &gotT, &ok); err != nil {
		t.Fatal(err)
	}
	if s.String != "one" || !gotT.Time.Equal(ts) || !ok {
		t.Errorf("k=1: got %v %v %v", s, gotT, ok)
	}
	if err := stmt.QueryRowContext(ctx, 2).Scan(&s, &gotT, &ok); err != nil {
		t.Fatal(err)
	}
	if s.Valid || gotT.Valid || ok {
		t.Errorf("k=2: got %v %v %v", s, gotT, ok)
	}
	if err := stmt.QueryRowContext(ctx, 3).Scan(&s, &gotT, &ok); err != sql.ErrNoRows {
		t.Errorf("k=3: got %v, want sql.ErrNoRows", err)
	}

	// $2 before $1, a repeated $1.
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM p WHERE (s = $2 AND k = $1) OR k = $1 + 1", 1, "one").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("count = %d, want 2", n)
	}

	// An error with parameters leaves the pool usable.
	_, err = db.ExecContext(ctx, "INSERT INTO p VALUES ($1, $2)", 1, "dup")
	if code, _, _ := sqlState(err); code != "23505" {
		t.Errorf("duplicate insert: got %v, want 23505", err)
	}
	if err := db.QueryRowContext(ctx, "SELECT 1").Scan(&n); err != nil || n != 1 {
		t.Errorf("SELECT 1 after an error: %v %v", n, err)
	}
}
