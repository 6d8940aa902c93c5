package tests

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Autocommit UPDATEs and DELETEs racing on the same rows from several
// connections behave as under PostgreSQL's READ COMMITTED: no update is
// lost, a row deleted concurrently is skipped, and no serialization
// failure reaches a client that is not in a transaction block (widesql
// runs such a statement again when it loses a race; exec/txn.go).

// TestConcurrentAutocommitIncrement: 4 connections each run UPDATE ... SET
// n = n + 1 on one row 200 times; every statement updates the row once,
// the RETURNING ones each see a value no other statement saw, and the
// row ends at 800.
func TestConcurrentAutocommitIncrement(t *testing.T) {
	const workers, rounds = 4, 200
	tg := newTarget(t)
	setup := pgxConnect(t, tg, pgx.QueryExecModeCacheStatement)
	mustExec(t, setup, "CREATE TABLE ctr (k INT PRIMARY KEY, n BIGINT)")
	mustExec(t, setup, "INSERT INTO ctr VALUES (1, 0), (2, 0)")
	seen := raceConns(t, raceConnsOf(t, tg, workers), rounds, func(ctx context.Context, c *pgx.Conn, i, r int) (int64, bool, error) {
		if i < 2 {
			tag, err := c.Exec(ctx, "UPDATE ctr SET n = n + 1 WHERE k = $1", 1)
			if err == nil && tag.RowsAffected() != 1 {
				err = fmt.Errorf("UPDATE affected %d rows", tag.RowsAffected())
			}
			return 0, false, err
		}
		var n int64
		err := c.QueryRow(ctx, "UPDATE ctr SET n = n + 1 WHERE k = 1 RETURNING n").Scan(&n)
		return n, true, err
	})
	if t.Failed() {
		return
	}
	if n := queryInt(t, setup, "SELECT n FROM ctr WHERE k = 1"); n != workers*rounds {
		t.Errorf("n = %d after %d increments", n, workers*rounds)
	}
	if n := queryInt(t, setup, "SELECT n FROM ctr WHERE k = 2"); n != 0 {
		t.Errorf("untouched row: n = %d", n)
	}
	checkDistinct(t, seen, workers*rounds)
}

// TestConcurrentAutocommitDeleteUpdate: one connection updates every row
// of a table over and over while two others delete the rows one by one,
// racing each other for the same keys. No statement fails, each row is
// deleted by exactly one DELETE (the loser of a race deletes nothing),
// and the table ends empty.
func TestConcurrentAutocommitDeleteUpdate(t *testing.T) {
	const rows = 300
	tg := newTarget(t)
	setup := pgxConnect(t, tg, pgx.QueryExecModeCacheStatement)
	mustExec(t, setup, "CREATE TABLE dr (k INT PRIMARY KEY, n BIGINT)")
	mustExec(t, setup, fmt.Sprintf("INSERT INTO dr SELECT g, 0 FROM generate_series(1, %d) AS g", rows))
	up := pgxConnect(t, tg, pgx.QueryExecModeCacheStatement)
	dels := []*pgx.Conn{pgxConnect(t, tg, pgx.QueryExecModeCacheStatement), pgxConnect(t, tg, pgx.QueryExecModeSimpleProtocol)}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	deleted := make([]int64, len(dels))
	done := make(chan struct{})
	wg.Add(1)
	go func() { // updates by key and by scan until the deleters are done
		defer wg.Done()
		for pass := 0; ; pass++ {
			select {
			case <-done:
				return
			default:
			}
			for k := 1; k <= rows; k += 7 {
				if _, err := up.Exec(ctx, "UPDATE dr SET n = n + 1 WHERE k = $1 RETURNING n", k); err != nil {
					errs <- fmt.Errorf("UPDATE by key: %w", err)
					return
				}
			}
			if _, err := up.Exec(ctx, "UPDATE dr SET n = n + 1 WHERE n >= 0"); err != nil {
				errs <- fmt.Errorf("UPDATE by scan: %w", err)
				return
			}
		}
	}()
	var dwg sync.WaitGroup
	for i, c := range dels {
		dwg.Add(1)
		go func() {
			defer dwg.Done()
			for k := 1; k <= rows; k++ {
				tag, err := c.Exec(ctx, "DELETE FROM dr WHERE k = $1", k)
				if err != nil {
					errs <- fmt.Errorf("DELETE k = %d: %w", k, err)
					return
				}
				deleted[i] += tag.RowsAffected()
			}
		}()
	}
	dwg.Wait()
	close(done)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("%v (SQLSTATE %q)", err, errCode(err))
	}
	if got := deleted[0] + deleted[1]; got != rows {
		t.Errorf("the DELETEs removed %d rows (%v), want %d", got, deleted, rows)
	}
	if n := queryInt(t, setup, "SELECT count(*) FROM dr"); n != 0 {
		t.Errorf("%d rows left", n)
	}
}

// TestConcurrentAutocommitUpsert: 4 connections each run INSERT ... ON
// CONFLICT DO UPDATE SET n = t.n + 1 on one key of an empty table 150
// times, half of them with RETURNING. The first ones race to insert the
// row, the rest to update it; none fails, each statement inserts or
// updates the row once, no two RETURNING values are the same, and the row
// ends at 600.
func TestConcurrentAutocommitUpsert(t *testing.T) {
	const workers, rounds = 4, 150
	tg := newTarget(t)
	setup := pgxConnect(t, tg, pgx.QueryExecModeCacheStatement)
	mustExec(t, setup, "CREATE TABLE ups (k INT PRIMARY KEY, n BIGINT)")
	seen := raceConns(t, raceConnsOf(t, tg, workers), rounds, func(ctx context.Context, c *pgx.Conn, i, r int) (int64, bool, error) {
		if r%2 == 0 {
			tag, err := c.Exec(ctx, "INSERT INTO ups VALUES ($1, 1) ON CONFLICT (k) DO UPDATE SET n = ups.n + 1", 1)
			if err == nil && tag.RowsAffected() != 1 {
				err = fmt.Errorf("upsert affected %d rows", tag.RowsAffected())
			}
			return 0, false, err
		}
		var n int64
		err := c.QueryRow(ctx, "INSERT INTO ups AS t VALUES (1, 1) ON CONFLICT (k) DO UPDATE SET n = t.n + excluded.n RETURNING n").Scan(&n)
		return n, true, err
	})
	if t.Failed() {
		return
	}
	if n := queryInt(t, setup, "SELECT n FROM ups WHERE k = 1"); n != workers*rounds {
		t.Errorf("n = %d after %d upserts", n, workers*rounds)
	}
	if n := queryInt(t, setup, "SELECT count(*) FROM ups"); n != 1 {
		t.Errorf("%d rows", n)
	}
	checkDistinct(t, seen, workers*rounds)
}

// raceConnsOf opens n connections to tg, alternately through the extended
// protocol (cached statements) and the simple one.
func raceConnsOf(t *testing.T, tg target, n int) []*pgx.Conn {
	conns := make([]*pgx.Conn, n)
	for i := range conns {
		mode := pgx.QueryExecModeCacheStatement
		if i%2 == 1 {
			mode = pgx.QueryExecModeSimpleProtocol
		}
		conns[i] = pgxConnect(t, tg, mode)
	}
	return conns
}

// raceConns runs step rounds times on every connection at once (i the
// connection, r the round) and returns the values of the steps that
// report one (a RETURNING). A step's error fails t, with its SQLSTATE,
// and ends that connection's rounds.
func raceConns(t *testing.T, conns []*pgx.Conn, rounds int, step func(ctx context.Context, c *pgx.Conn, i, r int) (int64, bool, error)) []int64 {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, len(conns))
	seen := make(chan int64, len(conns)*rounds)
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				n, ok, err := step(ctx, c, i, r)
				if err != nil {
					errs <- fmt.Errorf("connection %d, round %d: %w", i, r, err)
					return
				}
				if ok {
					seen <- n
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	close(seen)
	for err := range errs {
		t.Errorf("%v (SQLSTATE %q)", err, errCode(err))
	}
	var out []int64
	for n := range seen {
		out = append(out, n)
	}
	return out
}

// checkDistinct fails t unless the RETURNING values seen are distinct and
// in [1, max]: each statement saw its own increment.
func checkDistinct(t *testing.T, seen []int64, max int) {
	t.Helper()
	dup, bad := map[int64]bool{}, 0
	for _, n := range seen {
		if dup[n] || n < 1 || n > int64(max) {
			bad++
		}
		dup[n] = true
	}
	if bad > 0 {
		t.Errorf("RETURNING gave %d values that another statement also saw, or out of range", bad)
	}
}
