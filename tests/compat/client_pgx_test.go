package compat

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// render shows a value pgx decoded with its Go type, so a server that sends
// another type (or format) shows in the diff.
func render(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case pgtype.Numeric:
		val, err := x.Value()
		if err != nil {
			return "numeric:?" + err.Error()
		}
		return fmt.Sprintf("numeric:%v", val)
	case time.Time:
		return "time:" + x.Format("2006-01-02 15:04:05.999999 -0700 MST")
	case []byte:
		return fmt.Sprintf("bytes:%q", x)
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return "nil"
		}
		return "*" + render(rv.Elem().Interface())
	}
	return fmt.Sprintf("%T:%v", v, v)
}

// printRows prints the RowDescription (name, type OID, format code pgx
// chose) and every row as decoded values.
func printRows(tr *transcript, rows pgx.Rows) error {
	defer rows.Close()
	var cols []string
	for _, f := range rows.FieldDescriptions() {
		cols = append(cols, fmt.Sprintf("%s:%d:%d", f.Name, f.DataTypeOID, f.Format))
	}
	tr.printf("columns %s", strings.Join(cols, " "))
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return err
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = render(v)
		}
		tr.printf("row %s", strings.Join(parts, " "))
	}
	if err := rows.Err(); err != nil {
		return err
	}
	tr.printf("tag %s", rows.CommandTag())
	return nil
}

// scenarioArgs converts a scenario row to Go values for pgx and lib/pq.
func scenarioArgs(r []any) ([]any, error) {
	at, err := time.Parse("2006-01-02 15:04:05", r[4].(string))
	if err != nil {
		return nil, err
	}
	var amount pgtype.Numeric
	if err := amount.Scan(r[3].(string)); err != nil {
		return nil, err
	}
	return []any{r[0], int32(r[1].(float64)), r[2], amount, at, r[5], r[6], r[7]}, nil
}

const insertSQL = "INSERT INTO events (tenant, seq, kind, amount, at, note, score, flag) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"

// runPgx runs the scenario through pgx v5: the extended protocol (pgx's
// statement cache, binary formats where pgx knows the type), the simple
// protocol, CopyFrom and SendBatch.
func runPgx(ctx context.Context, ep endpoint, s scenario, tr *transcript) {
	conn, err := pgx.Connect(ctx, ep.url())
	tr.printf("## connect")
	if err != nil {
		tr.printf("error %s", errorText(err))
		return
	}
	defer conn.Close(ctx)
	tr.printf("ok")
	cfg, err := pgx.ParseConfig(ep.url())
	if err != nil {
		tr.printf("error %s", errorText(err))
		return
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	simple, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		tr.printf("error %s", errorText(err))
		return
	}
	defer simple.Close(ctx)

	query := func(c *pgx.Conn, sql string, args ...any) error {
		rows, err := c.Query(ctx, sql, args...)
		if err != nil {
			return err
		}
		return printRows(tr, rows)
	}
	tr.run("create", func() error {
		tag, err := conn.Exec(ctx, ddlFor(ep, s))
		tr.printf("tag %s", tag)
		return err
	})
	tr.run("load", func() error {
		var n int64
		for _, r := range s.Rows {
			args, err := scenarioArgs(r)
			if err != nil {
				return err
			}
			tag, err := conn.Exec(ctx, insertSQL, args...)
			if err != nil {
				return err
			}
			n += tag.RowsAffected()
		}
		tr.printf("inserted %d", n)
		return nil
	})
	for _, mode := range []struct {
		name string
		conn *pgx.Conn
	}{{"extended", conn}, {"simple", simple}} {
		c := mode.conn
		tr.run("by_key "+mode.name, func() error {
			return query(c, "SELECT * FROM events WHERE tenant = $1 AND seq = $2", "acme", 2)
		})
		tr.run("by_range "+mode.name, func() error {
			return query(c, "SELECT tenant, seq, kind, amount FROM events WHERE tenant = $1 AND seq >= $2 ORDER BY seq DESC", "acme", 2)
		})
		tr.run("by_prefix "+mode.name, func() error {
			return query(c, "SELECT tenant, seq FROM events WHERE tenant >= $1 AND tenant < $2 ORDER BY tenant, seq", "acme", "h")
		})
	}
	tr.run("scan_typed", func() error {
		var (
			tenant, kind string
			seq          int32
			amount       pgtype.Numeric
			at           time.Time
			note         *string
			score        *float64
			flag         *bool
		)
		err := conn.QueryRow(ctx, "SELECT tenant, seq, kind, amount, at, note, score, flag FROM events WHERE tenant = $1 AND seq = $2",
			"acme", int32(1)).Scan(&tenant, &seq, &kind, &amount, &at, &note, &score, &flag)
		if err != nil {
			return err
		}
		tr.printf("scanned %s %d %s %s %s %s %s %s", tenant, seq, kind, render(amount), render(at),
			render(note), render(score), render(flag))
		return nil
	})
	tr.run("send_batch", func() error {
		b := &pgx.Batch{}
		b.Queue("INSERT INTO events (tenant, seq, kind) VALUES ($1, $2, $3)", "batchco", int32(1), "b1")
		b.Queue("INSERT INTO events (tenant, seq, kind) VALUES ($1, $2, $3)", "batchco", int32(2), "b2")
		b.Queue("SELECT tenant, seq, kind FROM events WHERE tenant = $1 ORDER BY seq", "batchco")
		b.Queue("UPDATE events SET kind = $1 WHERE tenant = $2", "b", "batchco")
		b.Queue("SELECT count(*) FROM events WHERE kind = $1", "b")
		br := conn.SendBatch(ctx, b)
		for _, kind := range []string{"exec", "exec", "query", "exec", "query"} {
			if kind == "exec" {
				tag, err := br.Exec()
				if err != nil {
					br.Close()
					return err
				}
				tr.printf("tag %s", tag)
				continue
			}
			rows, err := br.Query()
			if err != nil {
				br.Close()
				return err
			}
			if err := printRows(tr, rows); err != nil {
				br.Close()
				return err
			}
		}
		return br.Close()
	})
	tr.run("update", func() error {
		tag, err := conn.Exec(ctx, "UPDATE events SET note = $1, score = score + 1 WHERE tenant = $2 AND seq = $3", "updated", "acme", 1)
		if err != nil {
			return err
		}
		tr.printf("tag %s", tag)
		return query(conn, "SELECT note, score FROM events WHERE tenant = $1 AND seq = $2", "acme", 1)
	})
	tr.run("delete", func() error {
		tag, err := simple.Exec(ctx, "DELETE FROM events WHERE tenant = $1", "globex")
		if err != nil {
			return err
		}
		tr.printf("tag %s", tag)
		return query(conn, "SELECT tenant, seq FROM events ORDER BY tenant, seq")
	})
	tr.run("transaction", func() error {
		tx, err := conn.Begin(ctx)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM events WHERE tenant = $1", "acme"); err != nil {
			tx.Rollback(ctx)
			return err
		}
		if err := tx.Rollback(ctx); err != nil {
			return err
		}
		return query(conn, "SELECT count(*) FROM events WHERE tenant = $1", "acme")
	})
	// Last, so that a server without COPY does not change the earlier
	// steps' data.
	tr.run("copy_from", func() error {
		rows := [][]any{
			{"copyco", int32(1), "copy", nil, time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC), "tab\there", 2.5, true},
			{"copyco", int32(2), "copy", nil, time.Date(2024, 5, 2, 0, 0, 0, 0, time.UTC), nil, nil, false},
		}
		n, err := conn.CopyFrom(ctx, pgx.Identifier{"events"},
			[]string{"tenant", "seq", "kind", "amount", "at", "note", "score", "flag"}, pgx.CopyFromRows(rows))
		tr.printf("copied %d", n)
		if err != nil {
			return err
		}
		return query(conn, "SELECT tenant, seq, note, score, flag FROM events WHERE tenant = $1 ORDER BY seq", "copyco")
	})
}
