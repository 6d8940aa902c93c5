package tests

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// COPY FROM STDIN / TO STDOUT through pgx, pgconn, psql's \copy and the
// widesql import/export subcommands. With WIDESQL_TEST_PG every case but
// the subcommands runs against PostgreSQL too, with the same expectations.

func copyConn(t *testing.T) (*pgx.Conn, target) {
	t.Helper()
	tg := newTarget(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, tg.url())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn, tg
}

func copyExec(t *testing.T, conn *pgx.Conn, sql string) {
	t.Helper()
	if _, err := conn.Exec(context.Background(), sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// queryText returns the rows of sql as "a|b" lines, NULL as <null>.
func queryText(t *testing.T, conn *pgx.Conn, sql string) string {
	t.Helper()
	rows, err := conn.Query(context.Background(), sql, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	defer rows.Close()
	var sb strings.Builder
	for rows.Next() {
		for i, v := range rows.RawValues() {
			if i > 0 {
				sb.WriteByte('|')
			}
			if v == nil {
				sb.WriteString("<null>")
			} else {
				sb.Write(v)
			}
		}
		sb.WriteByte('\n')
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return sb.String()
}

func TestCopyFromPgx(t *testing.T) {
	conn, tg := copyConn(t)
	ctx := context.Background()
	copyExec(t, conn, "CREATE TABLE people (id int PRIMARY KEY, name text NOT NULL, score float8, born date)")
	const n = 10000
	rows := make([][]any, n)
	base := time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range rows {
		var score any
		if i%10 != 0 {
			score = float64(i) / 4
		}
		rows[i] = []any{int32(i + 1), fmt.Sprintf("person %d", i+1), score, base.AddDate(0, 0, i)}
	}
	got, err := conn.CopyFrom(ctx, pgx.Identifier{"people"}, []string{"id", "name", "score", "born"}, pgx.CopyFromRows(rows))
	if err != nil || got != n {
		t.Fatalf("CopyFrom: %d rows, %v", got, err)
	}
	if s := queryText(t, conn, "SELECT count(*), sum(id), count(score), max(born) FROM people"); s != "10000|50005000|9000|1997-05-18\n" {
		t.Errorf("aggregates: %q", s)
	}
	if s := queryText(t, conn, "SELECT id, name, score, born FROM people WHERE id IN (1, 2, 7777) ORDER BY id"); s != "1|person 1|<null>|1970-01-01\n2|person 2|0.25|1970-01-02\n7777|person 7777|1944|1991-04-17\n" {
		t.Errorf("rows: %q", s)
	}

	// A composite rowkey and two families (widesql's fam.col syntax).
	ddl := "CREATE TABLE readings (dev text, ts int8, d.temp float8, m.note text, PRIMARY KEY (dev, ts))"
	if tg.postgres {
		ddl = "CREATE TABLE readings (dev text, ts int8, temp float8, note text, PRIMARY KEY (dev, ts))"
	}
	copyExec(t, conn, ddl)
	var rs [][]any
	for d := 0; d < 3; d++ {
		for ts := 0; ts < 500; ts++ {
			rs = append(rs, []any{fmt.Sprintf("dev-%d", d), int64(ts * 60), float64(ts) / 2, fmt.Sprintf("n%d", ts)})
		}
	}
	if got, err := conn.CopyFrom(ctx, pgx.Identifier{"readings"}, []string{"dev", "ts", "temp", "note"}, pgx.CopyFromRows(rs)); err != nil || got != 1500 {
		t.Fatalf("CopyFrom readings: %d rows, %v", got, err)
	}
	if s := queryText(t, conn, "SELECT dev, ts, temp, note FROM readings WHERE dev = 'dev-1' AND ts BETWEEN 120 AND 180 ORDER BY ts"); s != "dev-1|120|1|n2\ndev-1|180|1.5|n3\n" {
		t.Errorf("range: %q", s)
	}
	// A duplicate rowkey, in the data or against the table, is 23505 and
	// loads nothing.
	_, err = conn.CopyFrom(ctx, pgx.Identifier{"readings"}, []string{"dev", "ts"}, pgx.CopyFromRows([][]any{{"dev-9", int64(1)}, {"dev-0", int64(0)}}))
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "23505" {
		t.Fatalf("duplicate: %v", err)
	}
	if s := queryText(t, conn, "SELECT count(*) FROM readings WHERE dev = 'dev-9'"); s != "0\n" {
		t.Errorf("after the duplicate: %q", s)
	}
}

// copyIn runs COPY ... FROM STDIN with data through pgconn.
func copyIn(conn *pgx.Conn, sql, data string) (int64, error) {
	tag, err := conn.PgConn().CopyFrom(context.Background(), strings.NewReader(data), sql)
	return tag.RowsAffected(), err
}

func TestCopyFromFormats(t *testing.T) {
	conn, _ := copyConn(t)
	copyExec(t, conn, "CREATE TABLE f (a int PRIMARY KEY, b text, c int DEFAULT 42)")
	cases := []struct {
		sql, data string
		n         int64
		want      string // SELECT a, b, c FROM f ORDER BY a
	}{
		{"COPY f FROM STDIN", "1\tplain\t1\n2\t\\N\t\\N\n3\ttab\\there\\nnl \\\\ \\x41\\102\\q\t3\n", 3,
			"1|plain|1\n2|<null>|<null>\n3|tab\there\nnl \\ ABq|3\n"},
		{"COPY f (a, b) FROM STDIN WITH (DELIMITER '|', NULL 'NULL')", "1|x\r\n2|NULL\r\n", 2, "1|x|42\n2|<null>|42\n"},
		{"COPY f FROM STDIN (FORMAT csv, HEADER true)", "a,b,c\n1,\"q,\"\"x\"\"\n2nd line\",\n2,,5\n3,\"\",6\n", 3,
			"1|q,\"x\"\n2nd line|<null>\n2|<null>|5\n3||6\n"},
		{"COPY f FROM STDIN (FORMAT csv, HEADER match, DELIMITER ';', QUOTE '''', ESCAPE '\\', NULL 'none')",
			"a;b;c\n1;'it\\'s;x';none\n2;none;7\n", 2, "1|it's;x|<null>\n2|<null>|7\n"},
		{"COPY f FROM STDIN (FORMAT csv, FORCE_NOT_NULL (b), FORCE_NULL (c))", "1,,\"\"\n2,\"\",3\n", 2, "1||<null>\n2||3\n"},
		{"COPY f FROM STDIN WITH CSV HEADER DELIMITER AS ','  NULL AS '-' FORCE NOT NULL b", "a,b,c\n1,-,-\n", 1, "1|-|<null>\n"},
		{"COPY f FROM STDIN (FORMAT text, ENCODING 'UTF8')", "1\tπ ≈ 3.14\t0\n\\.\nnot data\n", 1, "1|π ≈ 3.14|0\n"},
	}
	for _, c := range cases {
		copyExec(t, conn, "DELETE FROM f")
		n, err := copyIn(conn, c.sql, c.data)
		if err != nil || n != c.n {
			t.Errorf("%s: %d rows, %v", c.sql, n, err)
			continue
		}
		if got := queryText(t, conn, "SELECT a, b, c FROM f ORDER BY a"); got != c.want {
			t.Errorf("%s: loaded\n%s\nwant\n%s", c.sql, got, c.want)
		}
	}
}

func TestCopyMalformed(t *testing.T) {
	conn, tg := copyConn(t)
	copyExec(t, conn, "CREATE TABLE m (a int PRIMARY KEY, b text NOT NULL, c numeric(4,1))")
	cases := []struct {
		sql, data, code, where string
	}{
		{"COPY m FROM STDIN", "1\tx\t1\n2\ty\t2\nthree\tz\t3\n", "22P02", "COPY m, line 3, column a: \"three\""},
		{"COPY m FROM STDIN", "1\tx\t1\n2\ty\n", "22P04", "COPY m, line 2: \"2\ty\""},
		{"COPY m FROM STDIN", "1\tx\t1\t0\n", "22P04", "COPY m, line 1: \"1\tx\t1\t0\""},
		{"COPY m FROM STDIN", "1\tx\t1\n2\t\\N\t2\n", "23502", "COPY m, line 2: \"2\t\\N\t2\""},
		{"COPY m FROM STDIN", "1\tx\t1\n1\ty\t2\n", "23505", "COPY m, line 2"},
		{"COPY m FROM STDIN", "1\tx\t12345\n", "22003", "COPY m, line 1, column c: \"12345\""},
		{"COPY m FROM STDIN (FORMAT csv)", "1,x,1\n2,\"open,2", "22P04", "COPY m, line 2: \"2,\"open,2\""},
		{"COPY m FROM STDIN (FORMAT csv)", "1,x,1\r\n2,y,2\n", "22P04", "COPY m, line 2"},
	}
	for _, c := range cases {
		_, err := copyIn(conn, c.sql, c.data)
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != c.code {
			t.Errorf("%q: got %v, want SQLSTATE %s", c.data, err, c.code)
			continue
		}
		// PostgreSQL puts the context in CONTEXT (Where), widesql in the
		// message.
		if !strings.Contains(pe.Where, c.where) && !strings.Contains(pe.Message, "("+c.where+")") {
			t.Errorf("%q: message %q, context %q, want context %q", c.data, pe.Message, pe.Where, c.where)
		}
		if got := queryText(t, conn, "SELECT count(*) FROM m"); got != "0\n" {
			t.Errorf("%q: %s rows loaded, want none", c.data, got)
		}
	}
	// Bad options are PostgreSQL's errors.
	opts := map[string]string{
		"COPY m FROM STDIN (FORMAT foo)":                          "22023",
		"COPY m FROM STDIN (DELIMITER 'ab')":                      "0A000",
		"COPY m FROM STDIN (QUOTE '\"')":                          "0A000",
		"COPY m FROM STDIN (FORMAT csv, FORMAT text)":             "42601",
		"COPY m FROM STDIN (bogus 1)":                             "42601",
		"COPY m (zz) FROM STDIN":                                  "42703",
		"COPY m (a) FROM STDIN (FORMAT csv, FORCE_NULL (b))":      "42P10",
		"COPY m TO STDOUT (FORMAT csv, HEADER match)":             "0A000",
		"COPY m FROM STDIN (FORMAT csv, DELIMITER ',', NULL ',')": "0A000",
		"COPY nosuch FROM STDIN":                                  "42P01",
	}
	if !tg.postgres { // the test role is a superuser there
		opts["COPY m FROM '/etc/passwd'"] = "42501"
		opts["COPY m TO PROGRAM 'cat'"] = "42501"
	}
	for sql, code := range opts {
		_, err := copyIn(conn, sql, "")
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != code {
			t.Errorf("%s: got %v, want SQLSTATE %s", sql, err, code)
		}
	}
	// CopyFail aborts with 57014; the session keeps working.
	ctx := context.Background()
	_, err := conn.CopyFrom(ctx, pgx.Identifier{"m"}, []string{"a", "b"}, &failingSource{n: 5000})
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "57014" || !strings.Contains(pe.Message, "COPY from stdin failed: source broke") {
		t.Errorf("CopyFail: %v", err)
	}
	if got := queryText(t, conn, "SELECT count(*) FROM m"); got != "0\n" {
		t.Errorf("after CopyFail: %s rows", got)
	}
	// Inside a transaction block COPY joins the transaction.
	copyExec(t, conn, "BEGIN")
	if _, err := copyIn(conn, "COPY m FROM STDIN", "7\tx\t1\n"); err != nil {
		t.Fatal(err)
	}
	if got := queryText(t, conn, "SELECT count(*) FROM m"); got != "1\n" {
		t.Errorf("in the block: %s rows", got)
	}
	copyExec(t, conn, "ROLLBACK")
	if got := queryText(t, conn, "SELECT count(*) FROM m"); got != "0\n" {
		t.Errorf("after ROLLBACK: %s rows", got)
	}
}

// failingSource yields n rows, then fails: pgx sends CopyFail.
type failingSource struct{ n, i int }

func (s *failingSource) Next() bool { s.i++; return true }
func (s *failingSource) Values() ([]any, error) {
	if s.i > s.n {
		return nil, errors.New("source broke")
	}
	return []any{int32(s.i), "x"}, nil
}
func (s *failingSource) Err() error { return nil }

func TestCopyTo(t *testing.T) {
	conn, _ := copyConn(t)
	copyExec(t, conn, "CREATE TABLE o (id int PRIMARY KEY, t text, n numeric, b bool, d date, ts timestamp, x bytea)")
	copyExec(t, conn, `INSERT INTO o VALUES
		(1, 'plain', 1.50, true, '2024-02-29', '2024-02-29 12:34:56.789', '\x00ff'),
		(2, E'tab\there, "quoted"\nline\\', -0.001, false, NULL, NULL, NULL),
		(3, '', NULL, NULL, '1999-12-31', '1999-12-31 23:59:59', ''),
		(4, '\.', 0, true, NULL, NULL, NULL)`)
	cases := []struct {
		sql, want string
		n         int64
	}{
		{"COPY o TO STDOUT", "1\tplain\t1.50\tt\t2024-02-29\t2024-02-29 12:34:56.789\t\\\\x00ff\n" +
			"2\ttab\\there, \"quoted\"\\nline\\\\\t-0.001\tf\t\\N\t\\N\t\\N\n" +
			"3\t\t\\N\t\\N\t1999-12-31\t1999-12-31 23:59:59\t\\\\x\n" +
			"4\t\\\\.\t0\tt\t\\N\t\\N\t\\N\n", 4},
		{"COPY o (id, t, n) TO STDOUT (FORMAT csv, HEADER)", "id,t,n\n1,plain,1.50\n2,\"tab\there, \"\"quoted\"\"\nline\\\",-0.001\n3,\"\",\n4,\\.,0\n", 4},
		{"COPY (SELECT t FROM o WHERE id IN (3, 4) ORDER BY id) TO STDOUT CSV", "\"\"\n\"\\.\"\n", 2},
		{"COPY (SELECT id, t FROM o WHERE id < 3 ORDER BY id) TO STDOUT (FORMAT csv, DELIMITER ';', QUOTE '''', FORCE_QUOTE *, NULL 'NULL')",
			"'1';'plain'\n'2';'tab\there, \"quoted\"\nline\\'\n", 2},
		{"COPY (SELECT id, d FROM o ORDER BY id) TO STDOUT (DELIMITER '|', NULL '')", "1|2024-02-29\n2|\n3|1999-12-31\n4|\n", 4},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		tag, err := conn.PgConn().CopyTo(context.Background(), &buf, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if buf.String() != c.want {
			t.Errorf("%s:\n%q\nwant\n%q", c.sql, buf.String(), c.want)
		}
		if tag.RowsAffected() != c.n {
			t.Errorf("%s: tag %q, want %d rows", c.sql, tag, c.n)
		}
	}
}

func TestCopyPsql(t *testing.T) {
	psqlPath(t)
	conn, tg := copyConn(t)
	copyExec(t, conn, "CREATE TABLE p (k text PRIMARY KEY, v int, note text)")
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	data := "k,v,note\nalpha,1,first\nbeta,,\"multi\nline\"\ngamma,3,\"comma, inside\"\n"
	if err := os.WriteFile(in, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := runPsql(t, tg, "-c", `\copy p from '`+in+`' csv header`); got != "COPY 3\n" {
		t.Errorf(`\copy from: %q`, got)
	}
	out := filepath.Join(dir, "out.csv")
	if got := runPsql(t, tg, "-c", `\copy (select k, v, note from p order by k) to '`+out+`' csv header`); got != "COPY 3\n" {
		t.Errorf(`\copy to: %q`, got)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != data {
		t.Errorf("round trip through psql:\n%s\nwant\n%s", b, data)
	}
}

func TestCopyImportExport(t *testing.T) {
	if *pgURL != "" {
		t.Skip("the widesql subcommands need a widesql server")
	}
	conn, tg := copyConn(t)
	copyExec(t, conn, "CREATE TABLE ie (id int8 PRIMARY KEY, name text, amount numeric(10,2))")
	dir := t.TempDir()
	var sb strings.Builder
	sb.WriteString("id,name,amount\n")
	for i := 1; i <= 20000; i++ {
		name := fmt.Sprintf("name %d", i)
		if i%7 == 0 {
			name = fmt.Sprintf("\"quoted, %d\"", i)
		}
		amount := fmt.Sprintf("%d.%02d", i, i%100)
		if i%11 == 0 {
			amount = ""
		}
		fmt.Fprintf(&sb, "%d,%s,%s\n", i, name, amount)
	}
	in := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(in, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, string) {
		t.Helper()
		cmd := exec.Command(serverBin, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("widesql %v: %v\n%s", args, err, stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	conn1 := []string{"--addr", tg.addr(), "--user", tg.user, "--database", tg.database, "--sslmode", "disable"}
	_, msg := run(append(append([]string{"import"}, conn1...), "--table", "ie", "--header", in)...)
	if !strings.HasPrefix(strings.TrimLeft(msg, "\r"), "imported 20000 rows in ") || !strings.Contains(msg, "rows/s)") {
		t.Errorf("import said %q", msg)
	}
	if s := queryText(t, conn, "SELECT count(*), count(amount), sum(id) FROM ie"); s != "20000|18182|200010000\n" {
		t.Errorf("imported: %q", s)
	}
	out := filepath.Join(dir, "out.csv")
	_, msg = run(append(append([]string{"export"}, conn1...), "--table", "ie", "--header", out)...)
	if !strings.HasPrefix(msg, "exported 20000 rows in ") {
		t.Errorf("export said %q", msg)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != sb.String() {
		t.Errorf("export differs from the imported file (%d vs %d bytes)", len(b), sb.Len())
	}
	stdout, _ := run(append(append([]string{"export"}, conn1...), "--query", "select id, name from ie where id <= 2 order by id", "--format", "text")...)
	if stdout != "1\tname 1\n2\tname 2\n" {
		t.Errorf("export --query: %q", stdout)
	}
	// Bad data: a non-zero exit, the line in the message, nothing loaded.
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("100001,a,1\n100002,b,x\n"), 0o644)
	cmd := exec.Command(serverBin, append(append([]string{"import"}, conn1...), "--table", "ie", bad)...)
	outb, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(outb), "line 2, column amount") {
		t.Errorf("bad import: %v\n%s", err, outb)
	}
	if s := queryText(t, conn, "SELECT count(*) FROM ie WHERE id > 100000"); s != "0\n" {
		t.Errorf("bad import loaded %q rows", s)
	}
}
