package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// dataset describes the rows of one benchmark table: n rows keyed
// (tenant, id), perTenant consecutive ids per tenant. Row i (0-based) has
// tenant i/perTenant+1 and id i%perTenant+1; its other columns are derived
// from a hash of i, so both servers get identical data and expected answers
// can be computed without a query.
type dataset struct {
	n, perTenant int
}

// newDataset returns a dataset of n rows with up to 1000 ids per tenant.
func newDataset(n int) dataset {
	k := 1000
	if n < k {
		k = n
	}
	return dataset{n: n, perTenant: k}
}

// fullTenants is the number of tenants holding perTenant rows each.
func (d dataset) fullTenants() int { return d.n / d.perTenant }

// filterLimit is the val bound of the filtered-scan workload: val < filterLimit
// matches about 1% of rows.
const filterLimit = 10000

// groups is the number of distinct grp values.
const groups = 100

// row returns the column values of row i.
func (d dataset) row(i int) (tenant int32, id int64, grp, val int32, payload string) {
	h := splitmix64(uint64(i))
	return int32(i/d.perTenant + 1), int64(i%d.perTenant + 1), int32(h % groups),
		int32((h >> 16) % 1_000_000), fmt.Sprintf("%016x%016x%016x%016x", h, h*3, h*5, h*7)
}

// filteredCount returns how many rows have val < filterLimit.
func (d dataset) filteredCount() int {
	c := 0
	for i := 0; i < d.n; i++ {
		if _, _, _, v, _ := d.row(i); v < filterLimit {
			c++
		}
	}
	return c
}

// splitmix64 is a fixed, well-mixed hash of x.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// tableDDL returns CREATE TABLE for a benchmark table. For widesql with
// families it uses the wide-column design: the small, hot columns grp and
// val in family d (so scans and aggregates over them read no payload) and the
// payload in family p. PostgreSQL gets the same columns and primary key.
func tableDDL(table string, widesql, families bool) string {
	grp, val, payload := "grp", "val", "payload"
	if widesql && families {
		grp, val, payload = "d.grp", "d.val", "p.payload"
	}
	return fmt.Sprintf("CREATE TABLE %s (tenant INT, id BIGINT, %s INT, %s INT, %s TEXT, PRIMARY KEY (tenant, id))",
		table, grp, val, payload)
}

// createTable drops and creates table on s.
func createTable(ctx context.Context, s *server, table string, families bool) error {
	conn, err := s.connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "DROP TABLE IF EXISTS "+table); err != nil {
		return fmt.Errorf("drop %s: %w", table, err)
	}
	if _, err := conn.Exec(ctx, tableDDL(table, s.name == "widesql", families)); err != nil {
		return fmt.Errorf("create %s: %w", table, err)
	}
	return nil
}

// loader loads datasets into tables through pgx, the same way for both
// servers.
//
// With COPY each connection streams one contiguous share of the rows as one
// COPY FROM STDIN statement (pgx CopyFrom, binary format), which is how a
// bulk load is done against PostgreSQL (psql's \copy, pg_restore) and what
// both servers are built to take fastest; a share larger than copyRows is
// sent as several statements of at most copyRows rows, which bounds what one
// statement holds in the server (widesql keeps every rowkey of a COPY to
// check uniqueness within it). With INSERT, batches of batch rows are
// dealt round-robin, in key order, to the connections.
type loader struct {
	copy     bool // COPY FROM STDIN (pgx CopyFrom) instead of multi-row INSERT
	batch    int  // rows per INSERT statement
	copyRows int  // at most this many rows per COPY statement
	conns    int  // concurrent connections
}

// method names the load path for reports.
func (l loader) method() string {
	if l.copy {
		return fmt.Sprintf("COPY FROM STDIN (pgx CopyFrom, binary), one statement per connection of at most %s rows, %d connection%s",
			formatNumber(float64(l.copyRows)), l.conns, plural(l.conns))
	}
	return fmt.Sprintf("multi-row INSERT, %d rows per statement, %d connection%s", l.batch, l.conns, plural(l.conns))
}

// span is the rows [lo, hi) of a dataset, written by one statement.
type span struct{ lo, hi int }

// plan splits n rows into the statements each connection sends, in order.
func (l loader) plan(n int) [][]span {
	out := make([][]span, l.conns)
	if !l.copy {
		for k, lo := 0, 0; lo < n; k, lo = k+1, lo+l.batch {
			out[k%l.conns] = append(out[k%l.conns], span{lo, min(lo+l.batch, n)})
		}
		return out
	}
	for c := range out {
		lo, hi := c*n/l.conns, (c+1)*n/l.conns
		for ; lo < hi; lo += l.copyRows {
			out[c] = append(out[c], span{lo, min(lo+l.copyRows, hi)})
		}
	}
	return out
}

// load writes every row of d into table on s and returns the elapsed time,
// from the first statement to the last acknowledgement (connecting is not
// timed). The first error stops the load.
func (l loader) load(ctx context.Context, s *server, table string, d dataset) (time.Duration, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	plan := l.plan(d.n)
	conns := make([]*pgx.Conn, len(plan))
	for i := range conns {
		c, err := s.connect(ctx)
		if err != nil {
			return 0, err
		}
		defer c.Close(context.Background())
		conns[i] = c
	}
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	fail := func(err error) {
		once.Do(func() { first = err; cancel() })
	}
	begin := time.Now()
	for i, c := range conns {
		wg.Add(1)
		go func(c *pgx.Conn, spans []span) {
			defer wg.Done()
			for _, sp := range spans {
				if err := l.write(ctx, c, table, d, sp); err != nil {
					fail(fmt.Errorf("rows %d..%d: %w", sp.lo, sp.hi-1, err))
					return
				}
			}
		}(c, plan[i])
	}
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		first = ctx.Err()
	}
	return time.Since(begin), first
}

// write sends rows sp of d with one INSERT or COPY statement. Rows for COPY
// are made as pgx asks for them, so a large share is never held whole.
func (l loader) write(ctx context.Context, c *pgx.Conn, table string, d dataset, sp span) error {
	if l.copy {
		i := sp.lo
		n, err := c.CopyFrom(ctx, pgx.Identifier{table}, []string{"tenant", "id", "grp", "val", "payload"},
			pgx.CopyFromFunc(func() ([]any, error) {
				if i >= sp.hi {
					return nil, nil
				}
				t, id, g, v, p := d.row(i)
				i++
				return []any{t, id, g, v, p}, nil
			}))
		if err == nil && n != int64(sp.hi-sp.lo) {
			err = fmt.Errorf("COPY reported %d rows, sent %d", n, sp.hi-sp.lo)
		}
		return err
	}
	args := make([]any, 0, 5*(sp.hi-sp.lo))
	for i := sp.lo; i < sp.hi; i++ {
		t, id, g, v, p := d.row(i)
		args = append(args, t, id, g, v, p)
	}
	_, err := c.Exec(ctx, insertSQL(table, sp.hi-sp.lo), args...)
	return err
}

// insertSQL returns a parameterized INSERT of n rows into table.
func insertSQL(table string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "INSERT INTO %s (tenant, id, grp, val, payload) VALUES ", table)
	for r := 0; r < n; r++ {
		if r > 0 {
			b.WriteByte(',')
		}
		p := 5*r + 1
		fmt.Fprintf(&b, "($%d,$%d,$%d,$%d,$%d)", p, p+1, p+2, p+3, p+4)
	}
	return b.String()
}
