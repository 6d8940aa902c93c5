package tests

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// noticeConn is a pgx connection that keeps the notices the server sends.
type noticeConn struct {
	*pgx.Conn
	mu      sync.Mutex
	notices []*pgconn.Notice
}

func connectNotices(t *testing.T, tg target, mode pgx.QueryExecMode) *noticeConn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), ioTimeout)
	defer cancel()
	cfg, err := pgx.ParseConfig(tg.url())
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = mode
	c := &noticeConn{}
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		c.mu.Lock()
		c.notices = append(c.notices, n)
		c.mu.Unlock()
	}
	if c.Conn, err = pgx.ConnectConfig(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// take returns the notices received since the last call.
func (c *noticeConn) take() []*pgconn.Notice {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.notices
	c.notices = nil
	return n
}

func skipOnPostgres(t *testing.T) {
	if *pgURL != "" {
		t.Skip("widesql-only: regions, the rowkey advisor and the full-scan guardrail")
	}
}

// regionWrites returns the writes of each region of table, in key order.
func regionWrites(t *testing.T, c *pgx.Conn, table string) []int64 {
	t.Helper()
	rows, err := c.Query(context.Background(), "SELECT writes FROM widesql.regions WHERE table_name = $1", table)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// loadSequential inserts ids from..to-1 in increasing order, 200 rows per
// statement: the monotonically increasing key of the seeds' hotspot.
func loadSequential(t *testing.T, c *pgx.Conn, table string, from, to int) {
	t.Helper()
	for lo := from; lo < to; lo += 200 {
		var b strings.Builder
		fmt.Fprintf(&b, "INSERT INTO %s VALUES ", table)
		for id := lo; id < min(lo+200, to); id++ {
			if id > lo {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "(%d, 'v%d')", id, id)
		}
		mustExec(t, c, b.String())
	}
}

// TestRegionsHotspot loads a monotonically increasing key into a table
// pre-split at 8 points below the new keys and into a table salted into 8
// buckets: the first sends every write to its last region, the second
// spreads them evenly (seed 004, salting).
func TestRegionsHotspot(t *testing.T) {
	skipOnPostgres(t)
	tg := newTarget(t)
	c := pgxConnect(t, tg, pgx.QueryExecModeCacheStatement)
	const rows = 4000
	mustExec(t, c, "CREATE TABLE hot_plain (id BIGINT PRIMARY KEY, v TEXT)")
	mustExec(t, c, "SPLIT TABLE hot_plain BY (1000), (2000), (3000), (4000), (5000), (6000), (7000), (8000)")
	mustExec(t, c, "CREATE TABLE hot_salted (id BIGINT PRIMARY KEY, v TEXT) WITH (salt_buckets = 8)")
	loadSequential(t, c, "hot_plain", 10000, 10000+rows)
	loadSequential(t, c, "hot_salted", 10000, 10000+rows)

	plain := regionWrites(t, c, "hot_plain")
	if len(plain) != 9 {
		t.Fatalf("hot_plain has %d regions, want 9: %v", len(plain), plain)
	}
	for i, w := range plain[:8] {
		if w != 0 {
			t.Errorf("hot_plain region %d got %d writes, want 0: %v", i, w, plain)
		}
	}
	if plain[8] != rows {
		t.Errorf("hot_plain's last region got %d writes, want all %d: %v", plain[8], rows, plain)
	}

	salted := regionWrites(t, c, "hot_salted")
	if len(salted) != 8 {
		t.Fatalf("hot_salted has %d regions, want 8: %v", len(salted), salted)
	}
	lo, hi, sum := salted[0], salted[0], int64(0)
	for _, w := range salted {
		lo, hi, sum = min(lo, w), max(hi, w), sum+w
	}
	t.Logf("writes per region: pre-split %v, salted %v", plain, salted)
	if sum != rows {
		t.Errorf("hot_salted regions got %d writes in all, want %d: %v", sum, rows, salted)
	}
	if lo == 0 || float64(hi)/float64(lo) > 1.5 {
		t.Errorf("hot_salted writes are uneven (max/min %d/%d): %v", hi, lo, salted)
	}
	// Reading the salted table back merges the buckets in key order.
	if n := queryInt(t, c, "SELECT count(*) FROM hot_salted WHERE id >= 10000 AND id < 10010"); n != 10 {
		t.Errorf("salted range read %d rows, want 10", n)
	}
}

// TestAdvisorNotices: CREATE TABLE sends the rowkey advisor's findings as
// NOTICEs with a HINT; a sound design gets none.
func TestAdvisorNotices(t *testing.T) {
	skipOnPostgres(t)
	tg := newTarget(t)
	for _, m := range pgxModes {
		mode := m.mode
		c := connectNotices(t, tg, mode)
		suffix := m.name
		mustExec(t, c.Conn, "CREATE TABLE ev_"+suffix+" (ts TIMESTAMPTZ, host TEXT, v INT, PRIMARY KEY (ts, host))")
		ns := c.take()
		if len(ns) != 1 {
			t.Fatalf("%s: got %d notices, want 1: %+v", m.name, len(ns), ns)
		}
		n := ns[0]
		if n.Severity != "NOTICE" || n.Code != "01000" || !strings.Contains(n.Message, `rowkey column "ts"`) ||
			!strings.Contains(n.Message, "hotspot") || !strings.Contains(n.Hint, "salt_buckets") {
			t.Errorf("%s: notice %+v", m.name, n)
		}
		mustExec(t, c.Conn, "CREATE TABLE ok_"+suffix+" (host TEXT, ts TIMESTAMPTZ, v INT, PRIMARY KEY (host, ts))")
		mustExec(t, c.Conn, "CREATE TABLE salted_"+suffix+" (ts TIMESTAMPTZ PRIMARY KEY, v INT) WITH (salt_buckets = 4)")
		if ns := c.take(); len(ns) != 0 {
			t.Errorf("%s: sound designs got notices: %+v", m.name, ns)
		}
	}
}

// TestFullScanGuardrail: SET widesql.full_scan = 'warn' adds a WARNING
// naming the table and the reason; 'reject' fails with 55000 before
// anything runs, and the session goes on; ALLOW FULL SCAN lets one
// statement through.
func TestFullScanGuardrail(t *testing.T) {
	skipOnPostgres(t)
	tg := newTarget(t)
	for _, m := range pgxModes {
		t.Run(m.name, func(t *testing.T) {
			c := connectNotices(t, tg, m.mode)
			table := "gr_" + m.name
			mustExec(t, c.Conn, "CREATE TABLE "+table+" (host TEXT, ts BIGINT, v INT, PRIMARY KEY (host, ts))")
			mustExec(t, c.Conn, "INSERT INTO "+table+" VALUES ('a', 1, 10), ('b', 2, 20)")
			c.take()

			mustExec(t, c.Conn, "SET widesql.full_scan = 'warn'")
			if n := queryInt(t, c.Conn, "SELECT count(*) FROM "+table+" WHERE ts = 2"); n != 1 {
				t.Fatalf("count %d", n)
			}
			ns := c.take()
			if len(ns) != 1 || ns[0].Severity != "WARNING" || ns[0].Code != "01000" ||
				ns[0].Message != fmt.Sprintf("full scan of table %q: a condition on ts cannot be used before host is fixed", table) ||
				!strings.Contains(ns[0].Hint, "ALLOW FULL SCAN") {
				t.Fatalf("warn: notices %+v", ns)
			}
			queryInt(t, c.Conn, "SELECT count(*) FROM "+table+" WHERE host = 'a'")
			if ns := c.take(); len(ns) != 0 {
				t.Errorf("a keyed read warned: %+v", ns)
			}

			mustExec(t, c.Conn, "SET widesql.full_scan = 'reject'")
			_, err := c.Exec(context.Background(), "UPDATE "+table+" SET v = 0")
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != "55000" ||
				pe.Message != fmt.Sprintf("full scan of table %q rejected by widesql.full_scan", table) ||
				pe.Detail != "No condition on rowkey column host." || !strings.Contains(pe.Hint, "widesql.full_scan = 'allow'") {
				t.Fatalf("reject: %v (%+v)", err, pe)
			}
			// Nothing ran, and the session goes on.
			if n := queryInt(t, c.Conn, "SELECT v FROM "+table+" WHERE host = 'a' AND ts = 1"); n != 10 {
				t.Errorf("the rejected UPDATE changed v to %d", n)
			}
			if n := queryInt(t, c.Conn, "SELECT count(*) FROM "+table+" ALLOW FULL SCAN"); n != 2 {
				t.Errorf("ALLOW FULL SCAN count %d", n)
			}
			mustExec(t, c.Conn, "RESET widesql.full_scan")
			if n := queryInt(t, c.Conn, "SELECT count(*) FROM "+table); n != 2 {
				t.Errorf("after RESET count %d", n)
			}
			if ns := c.take(); len(ns) != 0 {
				t.Errorf("unexpected notices: %+v", ns)
			}
		})
	}
}

// TestShowTableRegions: SHOW TABLE t REGIONS returns t's rows of
// widesql.regions without the table_name column, WHERE filters them, and
// SPLIT TABLE's tag counts the regions it added.
func TestShowTableRegions(t *testing.T) {
	skipOnPostgres(t)
	tg := newTarget(t)
	for _, m := range pgxModes {
		t.Run(m.name, func(t *testing.T) {
			c := pgxConnect(t, tg, m.mode)
			ctx := context.Background()
			table := "sr_" + m.name
			mustExec(t, c, "CREATE TABLE "+table+" (k TEXT, n INT, PRIMARY KEY (k, n))")
			tag, err := c.Exec(ctx, "SPLIT TABLE "+table+" BY ('g'), ('p', 3)")
			if err != nil || tag.String() != "SPLIT TABLE 2" {
				t.Fatalf("SPLIT TABLE: tag %q, %v", tag.String(), err)
			}
			if tag, err := c.Exec(ctx, "SPLIT TABLE "+table+" BY ('g')"); err != nil || tag.String() != "SPLIT TABLE 0" {
				t.Fatalf("SPLIT TABLE at a boundary: tag %q, %v", tag.String(), err)
			}
			mustExec(t, c, "INSERT INTO "+table+" VALUES ('a', 1), ('h', 1), ('h', 2), ('q', 1)")

			rows, err := c.Query(ctx, "SHOW TABLE "+table+" REGIONS")
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, f := range rows.FieldDescriptions() {
				names = append(names, f.Name)
			}
			if got := strings.Join(names, " "); got != "region_id start_key end_key size_bytes rows reads writes read_rate write_rate files" {
				t.Fatalf("columns %s", got)
			}
			type region struct {
				start, end *string
				writes     int64
			}
			var got []region
			for rows.Next() {
				var r region
				var id, size, nrows, reads int64
				var rr, wr float64
				var files int32
				if err := rows.Scan(&id, &r.start, &r.end, &size, &nrows, &reads, &r.writes, &rr, &wr, &files); err != nil {
					t.Fatal(err)
				}
				got = append(got, r)
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			str := func(s *string) string {
				if s == nil {
					return "NULL"
				}
				return *s
			}
			var text []string
			for _, r := range got {
				text = append(text, fmt.Sprintf("%s..%s:%d", str(r.start), str(r.end), r.writes))
			}
			if want := "NULL../'g':1 /'g'../'p'/3:2 /'p'/3..NULL:1"; strings.Join(text, " ") != want {
				t.Errorf("SHOW TABLE REGIONS: %s, want %s", strings.Join(text, " "), want)
			}
			if n := queryInt(t, c, "SELECT count(*) FROM widesql.regions WHERE table_name = '"+table+"'"); n != 3 {
				t.Errorf("widesql.regions has %d rows for the table", n)
			}
			var start string
			if err := c.QueryRow(ctx, "SHOW TABLE "+table+" REGIONS WHERE writes = 2").Scan(nil, &start, nil, nil, nil, nil, nil, nil, nil, nil); err != nil || start != "/'g'" {
				t.Errorf("SHOW TABLE REGIONS WHERE: start %q, %v", start, err)
			}
		})
	}
}
