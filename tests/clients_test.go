package tests

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/lib/pq"
	"github.com/widesql/widesql/tests/sqltest"
)

// clientMode is one way of talking to the server; every SQL file runs under
// each of them.
type clientMode struct {
	name    string
	connect func(t *testing.T, tg target) sqltest.Client
}

var clientModes = []clientMode{
	{"pgx-extended", func(t *testing.T, tg target) sqltest.Client {
		return connectPgx(t, tg, pgx.QueryExecModeCacheStatement)
	}},
	{"pgx-simple", func(t *testing.T, tg target) sqltest.Client {
		return connectPgx(t, tg, pgx.QueryExecModeSimpleProtocol)
	}},
	{"libpq", connectLibpq},
}

const nullText = sqltest.NullText

var cellText = sqltest.CellText

// pgxClient checks exactly what the server sent: in both modes every result
// column is requested in text format (QueryResultFormats{0}, which the
// extended protocol's Bind applies to all columns; the simple protocol is
// always text), the server's reported format code is verified, and the raw
// bytes from rows.RawValues are compared with no client-side decoding.
// Statements go through Query too, because pgx's Exec falls back to the
// simple protocol when there are no arguments.
type pgxClient struct {
	conn *pgx.Conn
	mode pgx.QueryExecMode
}

func connectPgx(t *testing.T, tg target, mode pgx.QueryExecMode) sqltest.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, tg.url())
	if err != nil {
		t.Fatalf("pgx connect: %v", err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return &pgxClient{conn: conn, mode: mode}
}

func (c *pgxClient) run(ctx context.Context, query string) ([]string, [][]string, pgconn.CommandTag, error) {
	rows, err := c.conn.Query(ctx, query, c.mode, pgx.QueryResultFormats{pgx.TextFormatCode})
	if err != nil {
		return nil, nil, pgconn.CommandTag{}, err
	}
	defer rows.Close()
	var cols []string
	for _, fd := range rows.FieldDescriptions() {
		cols = append(cols, fd.Name)
	}
	var out [][]string
	for rows.Next() {
		var row []string
		for i, v := range rows.RawValues() {
			if f := rows.FieldDescriptions()[i].Format; f != pgx.TextFormatCode {
				return nil, nil, pgconn.CommandTag{}, fmt.Errorf("column %d sent in format %d, asked for text", i, f)
			}
			if v == nil {
				row = append(row, nullText)
			} else {
				row = append(row, cellText(string(v)))
			}
		}
		out = append(out, row)
	}
	rows.Close()
	return cols, out, rows.CommandTag(), rows.Err()
}

func (c *pgxClient) Exec(ctx context.Context, query string) (int64, error) {
	_, _, tag, err := c.run(ctx, query)
	return tag.RowsAffected(), err
}

func (c *pgxClient) Query(ctx context.Context, query string) ([]string, [][]string, error) {
	cols, rows, _, err := c.run(ctx, query)
	return cols, rows, err
}

func (c *pgxClient) Broken() bool { return c.conn.IsClosed() }

// libpqClient goes through database/sql, which hands back lib/pq's decoded
// values (lib/pq uses the simple protocol for statements without
// parameters). Values are rendered back to PostgreSQL's text output by
// column type, so this mode checks type OIDs and decodability rather than
// exact bytes.
type libpqClient struct {
	conn *sql.Conn
}

func connectLibpq(t *testing.T, tg target) sqltest.Client {
	t.Helper()
	db, err := sql.Open("postgres", tg.url())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatalf("lib/pq connect: %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	return &libpqClient{conn: conn}
}

func (c *libpqClient) Exec(ctx context.Context, query string) (int64, error) {
	res, err := c.conn.ExecContext(ctx, query)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (c *libpqClient) Query(ctx context.Context, query string) ([]string, [][]string, error) {
	rows, err := c.conn.QueryContext(ctx, query)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, nil, err
	}
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, nil, err
	}
	var out [][]string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = libpqText(v, types[i].DatabaseTypeName())
		}
		out = append(out, row)
	}
	return cols, out, rows.Err()
}

func (c *libpqClient) Broken() bool {
	return c.conn.PingContext(context.Background()) != nil
}

// libpqText renders a value decoded by lib/pq as PostgreSQL's text output.
func libpqText(v any, typeName string) string {
	switch v := v.(type) {
	case nil:
		return nullText
	case bool:
		if v {
			return "t"
		}
		return "f"
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return pgFloat8Text(v)
	case time.Time:
		switch typeName {
		case "DATE":
			return v.Format("2006-01-02")
		case "TIMESTAMPTZ":
			if _, off := v.Zone(); off%3600 != 0 { // PostgreSQL prints +05:30
				return v.Format("2006-01-02 15:04:05.999999-07:00")
			}
			return v.Format("2006-01-02 15:04:05.999999-07")
		case "TIME":
			if v.Day() == 2 { // lib/pq reads 24:00:00 as the next day's midnight
				return "24:00:00"
			}
			return v.Format("15:04:05.999999")
		}
		return v.Format("2006-01-02 15:04:05.999999")
	case []byte:
		if typeName == "BYTEA" {
			return `\x` + hex.EncodeToString(v)
		}
		return cellText(string(v))
	case string:
		return cellText(v)
	}
	return fmt.Sprint(v)
}

// pgFloat8Text formats f the way PostgreSQL 12+ prints float8 with the
// default extra_float_digits: the shortest exact digits, in fixed notation
// for decimal exponents -4..14 and scientific notation otherwise.
func pgFloat8Text(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0"
		}
		return "0"
	}
	exp := int(math.Floor(math.Log10(math.Abs(f))))
	if e := strings.SplitN(strconv.FormatFloat(f, 'e', -1, 64), "e", 2); len(e) == 2 {
		exp, _ = strconv.Atoi(e[1]) // Log10 can be off by one at powers of ten
	}
	if exp < -4 || exp >= 15 {
		return strconv.FormatFloat(f, 'e', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// sqlState returns the SQLSTATE and message of a server error from any of
// the clients, or ok=false for other errors.
func sqlState(err error) (code, msg string, ok bool) {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code, pgErr.Message, true
	}
	var pqErr *pq.Error
	if errors.As(err, &pqErr) {
		return string(pqErr.Code), pqErr.Message, true
	}
	return "", "", false
}
