package compat

import (
	"context"
	"database/sql"
	"strings"

	_ "github.com/lib/pq" // registers the "postgres" driver
)

// printSQLRows prints column names and database type names, then every row
// scanned into any (lib/pq's own Go types).
func printSQLRows(tr *transcript, rows *sql.Rows) error {
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		return err
	}
	var cols []string
	for _, ct := range types {
		cols = append(cols, ct.Name()+":"+ct.DatabaseTypeName())
	}
	tr.printf("columns %s", strings.Join(cols, " "))
	for rows.Next() {
		vals := make([]any, len(types))
		ptrs := make([]any, len(types))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = render(v)
		}
		tr.printf("row %s", strings.Join(parts, " "))
	}
	return rows.Err()
}

// runLibpq runs the scenario through lib/pq and database/sql: unnamed
// statements with text parameters, a prepared statement, and transactions
// (lib/pq begins them with BEGIN READ WRITE).
func runLibpq(ctx context.Context, ep endpoint, s scenario, tr *transcript) {
	db, err := sql.Open("postgres", ep.url())
	tr.printf("## connect")
	if err != nil {
		tr.printf("error %s", errorText(err))
		return
	}
	defer db.Close()
	if err := db.PingContext(ctx); err != nil {
		tr.printf("error %s", errorText(err))
		return
	}
	tr.printf("ok")
	query := func(q string, args ...any) error {
		rows, err := db.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		return printSQLRows(tr, rows)
	}
	affected := func(res sql.Result, err error) error {
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		tr.printf("rows affected %d", n)
		return err
	}
	tr.run("create", func() error { return affected(db.ExecContext(ctx, ddlFor(ep, s))) })
	tr.run("load", func() error {
		stmt, err := db.PrepareContext(ctx, insertSQL)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, r := range s.Rows {
			args := []any{r[0], int(r[1].(float64)), r[2], r[3], r[4], r[5], r[6], r[7]}
			if err := affected(stmt.ExecContext(ctx, args...)); err != nil {
				return err
			}
		}
		return nil
	})
	tr.run("by_key", func() error { return query("SELECT * FROM events WHERE tenant = $1 AND seq = $2", "acme", 2) })
	tr.run("by_range", func() error {
		return query("SELECT tenant, seq, kind, amount FROM events WHERE tenant = $1 AND seq >= $2 ORDER BY seq DESC", "acme", 2)
	})
	tr.run("by_prefix", func() error {
		return query("SELECT tenant, seq FROM events WHERE tenant >= $1 AND tenant < $2 ORDER BY tenant, seq", "acme", "h")
	})
	tr.run("update", func() error {
		err := affected(db.ExecContext(ctx, "UPDATE events SET note = $1, score = score + 1 WHERE tenant = $2 AND seq = $3", "updated", "acme", 1))
		if err != nil {
			return err
		}
		return query("SELECT note, score FROM events WHERE tenant = $1 AND seq = $2", "acme", 1)
	})
	tr.run("delete", func() error {
		if err := affected(db.ExecContext(ctx, "DELETE FROM events WHERE tenant = $1", "globex")); err != nil {
			return err
		}
		return query("SELECT tenant, seq FROM events ORDER BY tenant, seq")
	})
	tr.run("transactions", func() error {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE events SET kind = $1 WHERE tenant = $2", "tx", "initech"); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		tx, err = db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM events"); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Rollback(); err != nil {
			return err
		}
		ro, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return err
		}
		defer ro.Rollback()
		var n int
		if err := ro.QueryRowContext(ctx, "SELECT count(*) FROM events WHERE kind = $1", "tx").Scan(&n); err != nil {
			return err
		}
		tr.printf("read-only count %d", n)
		_, err = ro.ExecContext(ctx, "DELETE FROM events")
		tr.printf("write in a read-only transaction fails with %s", sqlState(err))
		return query("SELECT tenant, seq, kind FROM events ORDER BY tenant, seq")
	})
}
