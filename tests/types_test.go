package tests

import (
	"context"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// typeCase is one value of a PostgreSQL type sent as a binary parameter
// and read back in binary through pgx's type map. want is the value as
// canon renders what pgx decodes (its Go type and value).
type typeCase struct {
	typ     string // the column type
	arg     any    // the Go parameter value
	literal string // the same value as SQL text
	want    string
}

func mustNumeric(t *testing.T, s string) pgtype.Numeric {
	t.Helper()
	var n pgtype.Numeric
	if err := n.Scan(s); err != nil {
		t.Fatal(err)
	}
	return n
}

// canon renders a value decoded by pgx with its Go type, in a form that
// does not depend on the client's time zone or pointer identity.
func canon(v any) string {
	switch v := v.(type) {
	case pgtype.Numeric:
		dv, err := v.Value()
		if err != nil {
			return "numeric error: " + err.Error()
		}
		return fmt.Sprintf("numeric:%v", dv)
	case time.Time:
		return "time:" + v.UTC().Format("2006-01-02 15:04:05.999999Z07:00")
	case pgtype.Time:
		return fmt.Sprintf("time-of-day:%dus", v.Microseconds)
	case pgtype.Interval:
		return fmt.Sprintf("interval:%dmon %dd %dus", v.Months, v.Days, v.Microseconds)
	case [16]byte:
		return fmt.Sprintf("uuid:%x", v[:])
	case pgtype.InfinityModifier:
		return "inf:" + v.String()
	}
	return fmt.Sprintf("%T:%v", v, v)
}

func TestTypesBinaryRoundTrip(t *testing.T) {
	big30, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	cases := []typeCase{
		{"numeric", mustNumeric(t, "12345678901234567890.123456789012345678901234567890"), "12345678901234567890.123456789012345678901234567890",
			"numeric:12345678901234567890.123456789012345678901234567890"},
		{"numeric", pgtype.Numeric{Int: big30, Exp: -60, Valid: true}, "0.000000000000000000000000000000123456789012345678901234567890",
			"numeric:0.000000000000000000000000000000123456789012345678901234567890"},
		{"numeric", mustNumeric(t, "-1.50"), "-1.50", "numeric:-1.50"},
		{"numeric", pgtype.Numeric{NaN: true, Valid: true}, "NaN", "numeric:NaN"},
		{"numeric(10,2)", mustNumeric(t, "1.505"), "1.505", "numeric:1.51"},
		{"date", time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), "2026-11-21", "time:2026-11-21 00:00:00Z"},
		{"date", pgtype.Date{InfinityModifier: pgtype.Infinity, Valid: true}, "infinity", "inf:infinity"},
		{"date", pgtype.Date{InfinityModifier: pgtype.NegativeInfinity, Valid: true}, "-infinity", "inf:-infinity"},
		{"time", pgtype.Time{Microseconds: (13*3600+45*60+6)*1e6 + 500000, Valid: true}, "13:45:06.5", "time-of-day:49506500000us"},
		{"timestamptz", time.Date(2026, 11, 21, 13, 45, 6, 123456000, time.FixedZone("x", 7200)), "2026-11-21 13:45:06.123456+02",
			"time:2026-11-21 11:45:06.123456Z"},
		{"timestamp", time.Date(1999, 12, 31, 23, 59, 59, 0, time.UTC), "1999-12-31 23:59:59", "time:1999-12-31 23:59:59Z"},
		{"interval", pgtype.Interval{Months: 14, Days: -3, Microseconds: 4*3600e6 + 5*60e6 + 6e6, Valid: true}, "1 year 2 mons -3 days 04:05:06",
			"interval:14mon -3d 14706000000us"},
		{"uuid", [16]byte{0xa0, 0xee, 0xbc, 0x99, 0x9c, 0x0b, 0x4e, 0xf8, 0xbb, 0x6d, 0x6b, 0xb9, 0xbd, 0x38, 0x0a, 0x11},
			"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "uuid:a0eebc999c0b4ef8bb6d6bb9bd380a11"},
		{"json", map[string]any{"b": 1, "a": []any{1, "x"}}, `{"b": 1, "a": [1, "x"]}`, "map[string]interface {}:map[a:[1 x] b:1]"},
		{"jsonb", map[string]any{"b": true, "a": nil}, `{"b": true, "a": null}`, "map[string]interface {}:map[a:<nil> b:true]"},
		{"char(4)", "ab", "ab", "string:ab  "},
		{"real", float32(3.14159265), "3.14159265", "float32:3.1415927"},
		{"real", float32(-0.5), "-0.5", "float32:-0.5"},
		{"int8[]", []int64{1, -2, 9223372036854775807}, "{1,-2,9223372036854775807}", "[]interface {}:[1 -2 9223372036854775807]"},
		{"text[]", []string{"a", "b c", "", "NULL"}, `{a,"b c","","NULL"}`, "[]interface {}:[a b c  NULL]"},
	}
	conn := pgxConnect(t, newTarget(t), pgx.QueryExecModeCacheStatement)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	one := func(sql string, args ...any) (any, uint32, error) {
		// Binary results even for the types pgx would ask as text (json,
		// jsonb, bpchar).
		rows, err := conn.Query(ctx, sql, append([]any{pgx.QueryResultFormats{pgx.BinaryFormatCode}}, args...)...)
		if err != nil {
			return nil, 0, err
		}
		defer rows.Close()
		if !rows.Next() {
			return nil, 0, fmt.Errorf("no row (%v)", rows.Err())
		}
		if f := rows.FieldDescriptions()[0]; f.Format != pgx.BinaryFormatCode {
			return nil, 0, fmt.Errorf("result in format %d, want binary", f.Format)
		}
		vals, err := rows.Values()
		if err != nil {
			return nil, 0, err
		}
		oid := rows.FieldDescriptions()[0].DataTypeOID
		rows.Close()
		return vals[0], oid, rows.Err()
	}
	for i, c := range cases {
		t.Run(fmt.Sprintf("%d_%s", i, c.typ), func(t *testing.T) {
			table := fmt.Sprintf("rt%d", i)
			mustExec(t, conn, fmt.Sprintf("CREATE TABLE %s (id INTEGER PRIMARY KEY, v %s)", table, c.typ))
			// A binary parameter into a column, back as a binary result.
			mustExec(t, conn, fmt.Sprintf("INSERT INTO %s VALUES (1, $1)", table), c.arg)
			mustExec(t, conn, fmt.Sprintf("INSERT INTO %s VALUES (2, '%s')", table, c.literal))
			for id := 1; id <= 2; id++ {
				v, _, err := one(fmt.Sprintf("SELECT v FROM %s WHERE id = $1", table), id)
				if err != nil {
					t.Fatalf("row %d: %v", id, err)
				}
				if got := canon(v); got != c.want {
					t.Errorf("row %d: got %s, want %s", id, got, c.want)
				}
			}
			// A binary parameter compared with the column.
			if c.typ == "json" || c.typ == "numeric(10,2)" {
				return // json has no equality; 1.505 is stored as 1.51
			}
			v, _, err := one(fmt.Sprintf("SELECT count(*) FROM %s WHERE v = $1", table), c.arg)
			if err != nil {
				t.Fatal(err)
			}
			if got := canon(v); got != "int64:2" {
				t.Errorf("v = $1 matched %s rows, want 2", got)
			}
		})
	}
}

// TestTypesResultOIDs checks the result types of arithmetic and
// aggregates over the wire, as PostgreSQL types them.
func TestTypesResultOIDs(t *testing.T) {
	conn := pgxConnect(t, newTarget(t), pgx.QueryExecModeCacheStatement)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	mustExec(t, conn, "CREATE TABLE ro (id INTEGER PRIMARY KEY, s SMALLINT, i INTEGER, b BIGINT, r REAL, f FLOAT8, n NUMERIC, d DATE, ts TIMESTAMP, tz TIMESTAMPTZ, iv INTERVAL, tm TIME)")
	mustExec(t, conn, "INSERT INTO ro VALUES (1, 1, 1, 1, 1.5, 1.5, 1.5, '2026-01-01', '2026-01-01 10:00', '2026-01-01 10:00+00', '1 day', '10:00'), "+
		"(2, 2, 2, 2, 2.5, 2.5, 2.5, '2026-01-03', '2026-01-03 12:00', '2026-01-03 12:00+00', '2 days', '11:00')")
	rows, err := conn.Query(ctx, `SELECT sum(s), sum(i), sum(b), sum(r), sum(f), sum(n), sum(iv),
		avg(s), avg(i), avg(b), avg(r), avg(f), avg(n), avg(iv),
		min(d), max(tz), min(iv), max(n), max(tm) FROM ro`)
	if err != nil {
		t.Fatal(err)
	}
	vals, oids := collectOne(t, rows)
	wantOIDs := []uint32{
		pgtype.Int8OID, pgtype.Int8OID, pgtype.NumericOID, pgtype.Float4OID, pgtype.Float8OID, pgtype.NumericOID, pgtype.IntervalOID,
		pgtype.NumericOID, pgtype.NumericOID, pgtype.NumericOID, pgtype.Float8OID, pgtype.Float8OID, pgtype.NumericOID, pgtype.IntervalOID,
		pgtype.DateOID, pgtype.TimestamptzOID, pgtype.IntervalOID, pgtype.NumericOID, pgtype.TimeOID,
	}
	checkOIDs(t, "aggregates", oids, wantOIDs)
	wantVals := []string{"int64:3", "int64:3", "numeric:3", "float32:4", "float64:4", "numeric:4.0", "interval:0mon 3d 0us",
		"numeric:1.5000000000000000", "numeric:1.5000000000000000", "numeric:1.5000000000000000", "float64:2", "float64:2",
		"numeric:2.0000000000000000", "interval:0mon 1d 43200000000us",
		"time:2026-01-01 00:00:00Z", "time:2026-01-03 12:00:00Z", "interval:0mon 1d 0us", "numeric:2.5", "time-of-day:39600000000us"}
	for i, v := range vals {
		if got := canon(v); i < len(wantVals) && got != wantVals[i] {
			t.Errorf("aggregate column %d: got %s, want %s", i+1, got, wantVals[i])
		}
	}

	rows, err = conn.Query(ctx, `SELECT d + 1, d - d, d + iv, d + tm, ts + iv, tz - iv, ts - ts, tz - tz, iv * 2, iv / 2, tm + iv, tm - tm, -iv
		FROM ro WHERE id = $1`, 2)
	if err != nil {
		t.Fatal(err)
	}
	vals, oids = collectOne(t, rows)
	checkOIDs(t, "arithmetic", oids, []uint32{
		pgtype.DateOID, pgtype.Int4OID, pgtype.TimestampOID, pgtype.TimestampOID, pgtype.TimestampOID, pgtype.TimestamptzOID,
		pgtype.IntervalOID, pgtype.IntervalOID, pgtype.IntervalOID, pgtype.IntervalOID, pgtype.TimeOID, pgtype.IntervalOID, pgtype.IntervalOID,
	})
	wantVals = []string{"time:2026-01-04 00:00:00Z", "int32:0", "time:2026-01-05 00:00:00Z", "time:2026-01-03 11:00:00Z",
		"time:2026-01-05 12:00:00Z", "time:2026-01-01 12:00:00Z", "interval:0mon 0d 0us", "interval:0mon 0d 0us",
		"interval:0mon 4d 0us", "interval:0mon 1d 0us", "time-of-day:39600000000us", "interval:0mon 0d 0us", "interval:0mon -2d 0us"}
	for i, v := range vals {
		if got := canon(v); got != wantVals[i] {
			t.Errorf("arithmetic column %d: got %s, want %s", i+1, got, wantVals[i])
		}
	}
}

func collectOne(t *testing.T, rows pgx.Rows) ([]any, []uint32) {
	t.Helper()
	defer rows.Close()
	if !rows.Next() {
		t.Fatalf("no row: %v", rows.Err())
	}
	vals, err := rows.Values()
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, f := range rows.FieldDescriptions() {
		oids = append(oids, f.DataTypeOID)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return vals, oids
}

func checkOIDs(t *testing.T, what string, got, want []uint32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d columns, want %d", what, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s column %d: type OID %d, want %d", what, i+1, got[i], want[i])
		}
	}
}
