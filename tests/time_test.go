package tests

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestTimeTravel checks the clock side of versions: cells are stamped with
// the time of the statement that wrote them, AS OF TIMESTAMP takes a
// timestamptz parameter, and SET widesql.write_timestamp stamps cells at
// the given time instead (tests/testdata/sql/time_travel.sql and cells.sql
// cover the rest with fixed timestamps).
func TestTimeTravel(t *testing.T) {
	if *pgURL != "" {
		t.Skip("widesql-only: AS OF TIMESTAMP, cells and versions views")
	}
	tg := newTarget(t)
	for _, m := range pgxModes {
		t.Run(m.name, func(t *testing.T) {
			c := pgxConnect(t, tg, m.mode)
			table := "tt_" + m.name
			mustExec(t, c, "CREATE TABLE "+table+" (k INT PRIMARY KEY, v TEXT) WITH (d.versions = 5)")

			before := time.Now().Truncate(time.Millisecond)
			mustExec(t, c, "INSERT INTO "+table+" VALUES (1, 'a')")
			after := time.Now()
			ts := queryTime(t, c, "SELECT ts FROM cells."+table+" WHERE k = 1 AND column_name = 'v'")
			if ts.Before(before) || ts.After(after) {
				t.Fatalf("cell written at %v, outside the statement's [%v, %v]", ts, before, after)
			}
			if ts.Nanosecond()%int(time.Millisecond) != 0 {
				t.Fatalf("cell timestamp %v is not a whole millisecond", ts)
			}

			time.Sleep(5 * time.Millisecond)
			mid := time.Now()
			time.Sleep(5 * time.Millisecond)
			mustExec(t, c, "UPDATE "+table+" SET v = 'b' WHERE k = 1")

			asOf := func(at time.Time) []string {
				t.Helper()
				rows, err := c.Query(context.Background(), "SELECT v FROM "+table+" AS OF TIMESTAMP $1 WHERE k = 1", at)
				if err != nil {
					t.Fatal(err)
				}
				vs, err := pgx.CollectRows(rows, pgx.RowTo[string])
				if err != nil {
					t.Fatal(err)
				}
				return vs
			}
			if got := asOf(mid); len(got) != 1 || got[0] != "a" {
				t.Fatalf("AS OF between the writes: %q, want [a]", got)
			}
			if got := asOf(time.Now().Add(time.Hour)); len(got) != 1 || got[0] != "b" {
				t.Fatalf("AS OF after the writes: %q, want [b]", got)
			}
			if got := asOf(before.Add(-time.Second)); len(got) != 0 {
				t.Fatalf("AS OF before the insert: %q, want no row", got)
			}
			if n := queryInt(t, c, "SELECT count(*) FROM versions."+table+" WHERE k = 1 AND _ts > now() - interval '1 minute'"); n != 2 {
				t.Fatalf("versions: %d, want 2", n)
			}

			// An explicit write time, in the session's zone when it has none.
			mustExec(t, c, "SET TimeZone = 'Europe/Paris'")
			mustExec(t, c, "SET widesql.write_timestamp = '2001-02-03 04:05:06.789'")
			mustExec(t, c, "INSERT INTO "+table+" VALUES (2, 'old')")
			mustExec(t, c, "RESET widesql.write_timestamp")
			mustExec(t, c, "RESET TimeZone")
			want := time.Date(2001, 2, 3, 3, 5, 6, 789e6, time.UTC)
			if got := queryTime(t, c, "SELECT _ts FROM versions."+table+" WHERE k = 2"); !got.Equal(want) {
				t.Fatalf("row written at %v, want %v", got, want)
			}
			// After RESET, the clock again.
			mustExec(t, c, "UPDATE "+table+" SET v = 'new' WHERE k = 2")
			if got := queryTime(t, c, "SELECT max(ts) FROM cells."+table+" WHERE k = 2"); got.Before(before) {
				t.Fatalf("write after RESET stamped %v, before the test began", got)
			}
		})
	}
}

func queryTime(t *testing.T, c *pgx.Conn, sql string) time.Time {
	t.Helper()
	var ts time.Time
	if err := c.QueryRow(context.Background(), sql).Scan(&ts); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return ts
}
