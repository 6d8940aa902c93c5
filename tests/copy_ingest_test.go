package tests

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestCopyIngest runs COPY on the disk engine, where an autocommit COPY is
// a bulk ingest (kv.Ingester): a few hundred thousand rows through pgx's
// binary CopyFrom, in key order and out of it; duplicates against the
// table and within the COPY fail with 23505 (and the row's line) and leave
// the table unchanged; a COPY cut short by CopyFail loads nothing; and
// every row of a COPY that returned survives a SIGKILL.
func TestCopyIngest(t *testing.T) {
	if *pgURL != "" {
		t.Skip("kills the server: widesql only")
	}
	ctx := context.Background()
	dir := t.TempDir()
	s := startDiskServer(t, dir)
	conn := connectTo(t, s)
	exec := func(q string) {
		t.Helper()
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	query := func(c *pgx.Conn, q string) string {
		t.Helper()
		var out string
		if err := c.QueryRow(ctx, q).Scan(&out); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return out
	}
	exec("CREATE TABLE big (tenant INT, id BIGINT, grp INT, d.val INT, p.payload TEXT, PRIMARY KEY (tenant, id))")
	const n = 300000
	rows := make([][]any, 0, n)
	for i := range n {
		var payload any = fmt.Sprintf("payload-%d-%s", i, strings.Repeat("x", i%40))
		if i%17 == 0 {
			payload = nil
		}
		rows = append(rows, []any{int32(i % 3), int64(i), int32(i % 100), int32(i), payload})
	}
	cols := []string{"tenant", "id", "grp", "val", "payload"}
	// Out of key order (tenant varies fastest): sorted runs merged at the end.
	got, err := conn.CopyFrom(ctx, pgx.Identifier{"big"}, cols, pgx.CopyFromRows(rows))
	if err != nil || got != n {
		t.Fatalf("CopyFrom: %d rows, %v", got, err)
	}
	const want = "300000|44999850000|282352"
	if s := query(conn, "SELECT count(*)::text || '|' || sum(id)::text || '|' || count(payload)::text FROM big"); s != want {
		t.Fatalf("after COPY: %s, want %s", s, want)
	}
	// In key order, into a second tenant range.
	sorted := make([][]any, 0, 50000)
	for i := range 50000 {
		sorted = append(sorted, []any{int32(7), int64(i), int32(1), int32(i), "p"})
	}
	if got, err := conn.CopyFrom(ctx, pgx.Identifier{"big"}, cols, pgx.CopyFromRows(sorted)); err != nil || got != 50000 {
		t.Fatalf("sorted CopyFrom: %d rows, %v", got, err)
	}

	// A row that exists: 23505 naming it and its line; nothing loaded.
	dup := [][]any{{int32(9), int64(1), int32(0), int32(0), "a"}, {int32(9), int64(2), int32(0), int32(0), "b"}, {int32(1), int64(4), int32(0), int32(0), "c"}}
	_, err = conn.CopyFrom(ctx, pgx.Identifier{"big"}, cols, pgx.CopyFromRows(dup))
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "23505" || pe.Detail != "Key (tenant, id)=(1, 4) already exists." || pe.Where != "COPY big, line 3" {
		t.Fatalf("duplicate of a table row: %v (%+v)", err, pe)
	}
	// A key twice in the COPY.
	dup = [][]any{{int32(9), int64(5), int32(0), int32(0), "a"}, {int32(8), int64(2), int32(0), int32(0), "b"}, {int32(9), int64(5), int32(0), int32(0), "c"}}
	_, err = conn.CopyFrom(ctx, pgx.Identifier{"big"}, cols, pgx.CopyFromRows(dup))
	if !errors.As(err, &pe) || pe.Code != "23505" || pe.Detail != "Key (tenant, id)=(9, 5) already exists." || pe.Where != "COPY big, line 3" {
		t.Fatalf("duplicate within the COPY: %v (%+v)", err, pe)
	}
	// Bad data: 22P02 with the COPY's context.
	_, err = conn.PgConn().CopyFrom(ctx, strings.NewReader("9\t10\t1\t1\tx\n9\t11\tnope\t1\tx\n"), "COPY big FROM STDIN")
	if !errors.As(err, &pe) || pe.Code != "22P02" || !strings.HasPrefix(pe.Where, "COPY big, line 2, column grp") {
		t.Fatalf("bad data: %v (%+v)", err, pe)
	}
	if s := query(conn, "SELECT count(*)::text FROM big WHERE tenant IN (8, 9)"); s != "0" {
		t.Fatalf("after failed COPYs: %s rows of tenants 8 and 9, want 0", s)
	}
	// A deleted row may be loaded again.
	exec("DELETE FROM big WHERE tenant = 1 AND id = 4")
	if got, err := conn.CopyFrom(ctx, pgx.Identifier{"big"}, cols, pgx.CopyFromRows([][]any{{int32(1), int64(4), int32(5), int32(5), "again"}})); err != nil || got != 1 {
		t.Fatalf("COPY of a deleted key: %d, %v", got, err)
	}

	// Defaults, NOT NULL and NULLs through the ingest, binary and text,
	// with rows cut across CopyData messages.
	exec("CREATE TABLE nn (k INT PRIMARY KEY, a INT NOT NULL, b TEXT DEFAULT 'dflt', c.x BIGINT, c.y TEXT NOT NULL DEFAULT 'y')")
	nnRows := make([][]any, 0, 20000)
	for i := range 20000 {
		var x any = int64(i) * 3
		if i%5 == 0 {
			x = nil
		}
		nnRows = append(nnRows, []any{int32(i), int32(i % 7), x})
	}
	if got, err := conn.CopyFrom(ctx, pgx.Identifier{"nn"}, []string{"k", "a", "x"}, pgx.CopyFromRows(nnRows)); err != nil || got != 20000 {
		t.Fatalf("CopyFrom nn: %d rows, %v", got, err)
	}
	if s := query(conn, "SELECT count(*)::text || '|' || sum(a)::text || '|' || count(x)::text || '|' || sum(x)::text || '|' || count(*) FILTER (WHERE b = 'dflt' AND y = 'y')::text FROM nn"); s != "20000|59997|16000|480000000|20000" {
		t.Fatalf("nn after COPY: %s", s)
	}
	var text strings.Builder
	for i := 20000; i < 30000; i++ {
		fmt.Fprintf(&text, "%d\t%d\t\\N\tt%d\n", i, i%3, i)
	}
	if _, err := conn.PgConn().CopyFrom(ctx, strings.NewReader(text.String()), "COPY nn (k, a, b, y) FROM STDIN"); err != nil {
		t.Fatalf("text COPY nn: %v", err)
	}
	if s := query(conn, "SELECT count(*)::text || '|' || count(b)::text || '|' || min(y) FROM nn WHERE k >= 20000"); s != "10000|0|t20000" {
		t.Fatalf("nn after text COPY: %s", s)
	}
	_, err = conn.CopyFrom(ctx, pgx.Identifier{"nn"}, []string{"k", "a"}, pgx.CopyFromRows([][]any{{int32(40000), int32(1)}, {int32(40001), nil}}))
	if !errors.As(err, &pe) || pe.Code != "23502" || pe.Where != "COPY nn, line 2" {
		t.Fatalf("NULL into NOT NULL: %v (%+v)", err, pe)
	}
	if s := query(conn, "SELECT count(*)::text FROM nn WHERE k >= 40000"); s != "0" {
		t.Fatalf("after a failed COPY: %s rows", s)
	}

	// SIGKILL: every row of the COPYs that returned is there.
	conn.Close(ctx)
	s.kill(t)
	s = startDiskServer(t, dir)
	conn = connectTo(t, s)
	defer conn.Close(ctx)
	if s := query(conn, "SELECT count(*)::text || '|' || sum(id)::text FROM big"); s != fmt.Sprintf("%d|%d", n+50000, 44999850000+50000*49999/2) {
		t.Fatalf("after SIGKILL: %s", s)
	}
	if s := query(conn, "SELECT payload FROM big WHERE tenant = 1 AND id = 4"); s != "again" {
		t.Fatalf("reloaded row after SIGKILL: %s", s)
	}
	if s := query(conn, "SELECT coalesce(payload, 'NULL') FROM big WHERE tenant = 0 AND id = 17*3"); s != "NULL" {
		t.Fatalf("NULL payload after SIGKILL: %s", s)
	}
}
