package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"
)

type pgSize struct {
	version                       string
	table, index, reindexed, heap int64
}

// measurePostgres starts a throwaway PostgreSQL as the postgres user on a
// loopback port with a private socket directory (see
// shared/reference/postgres-here.md), COPYs the rows in, and reads
// pg_table_size and pg_indexes_size.
func measurePostgres(ctx context.Context, n, port int) (pgSize, error) {
	var res pgSize
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	if len(bins) == 0 {
		return res, fmt.Errorf("no /usr/lib/postgresql/*/bin: apt-get install -y postgresql-15")
	}
	sort.Strings(bins)
	bin := bins[len(bins)-1]
	dir, err := os.MkdirTemp("", "widesql-size-pg-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o777); err != nil {
		return res, err
	}
	data := filepath.Join(dir, "data")
	if err := run("runuser", "-u", "postgres", "--", filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "-A", "trust"); err != nil {
		return res, err
	}
	if err := run("runuser", "-u", "postgres", "--", filepath.Join(bin, "pg_ctl"), "-D", data, "-l", filepath.Join(dir, "log"), "-w",
		"-o", fmt.Sprintf("-p %d -c listen_addresses=127.0.0.1 -c unix_socket_directories=%s", port, dir), "start"); err != nil {
		return res, err
	}
	defer run("runuser", "-u", "postgres", "--", filepath.Join(bin, "pg_ctl"), "-D", data, "-m", "fast", "stop")

	conn, err := pgx.Connect(ctx, fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port))
	if err != nil {
		return res, err
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, "SHOW server_version").Scan(&res.version); err != nil {
		return res, err
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE events (user_id BIGINT, ts TIMESTAMP, n INTEGER,
		x DOUBLE PRECISION, s TEXT, PRIMARY KEY (user_id, ts))`); err != nil {
		return res, err
	}
	base := time.Unix(0, 0).UTC()
	rows := make([][]any, 0, n)
	if err := events(n, func(ev event) error {
		rows = append(rows, []any{ev.user, base.Add(time.Duration(ev.ts) * time.Microsecond), ev.n, ev.x, ev.s})
		return nil
	}); err != nil {
		return res, err
	}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"events"}, []string{"user_id", "ts", "n", "x", "s"}, pgx.CopyFromRows(rows)); err != nil {
		return res, err
	}
	// VACUUM sets hint bits and builds the visibility and free-space maps,
	// as a table in service has them.
	if _, err := conn.Exec(ctx, "VACUUM ANALYZE events"); err != nil {
		return res, err
	}
	q := "SELECT pg_table_size('events'), pg_indexes_size('events'), pg_relation_size('events')"
	if err := conn.QueryRow(ctx, q).Scan(&res.table, &res.index, &res.heap); err != nil {
		return res, err
	}
	if _, err := conn.Exec(ctx, "REINDEX TABLE events"); err != nil {
		return res, err
	}
	err = conn.QueryRow(ctx, "SELECT pg_indexes_size('events')").Scan(&res.reindexed)
	return res, err
}

func run(name string, args ...string) error {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %v\n%s", name, err, out)
	}
	return nil
}
