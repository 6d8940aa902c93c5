package pgwire

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestPGX drives the server with the real pgx v5 client, in its default
// extended mode (named cached statements, Describe, binary results) and in
// the simple protocol.
func TestPGX(t *testing.T) {
	_, f, addr := startServer(t)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeSimpleProtocol} {
		t.Run(mode.String(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			cfg, err := pgx.ParseConfig(fmt.Sprintf("postgres://test@%s/db?sslmode=disable", addr))
			if err != nil {
				t.Fatal(err)
			}
			cfg.DefaultQueryExecMode = mode
			conn, err := pgx.ConnectConfig(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)

			var one int32
			if err := conn.QueryRow(ctx, "select 1").Scan(&one); err != nil || one != 1 {
				t.Fatalf("select 1: %d, %v", one, err)
			}
			// Twice: the second run uses the cached statement.
			for range 2 {
				rows, err := conn.Query(ctx, "select n from three")
				if err != nil {
					t.Fatal(err)
				}
				ns, err := pgx.CollectRows(rows, pgx.RowTo[int64])
				if err != nil || fmt.Sprint(ns) != "[1 2 3]" {
					t.Fatalf("select n from three: %v, %v", ns, err)
				}
				if tag := rows.CommandTag().String(); tag != "SELECT 3" {
					t.Fatalf("tag %q", tag)
				}
			}
			tag, err := conn.Exec(ctx, "insert")
			if err != nil || tag.String() != "INSERT 0 1" || tag.RowsAffected() != 1 || !tag.Insert() {
				t.Fatalf("insert: %q, %v", tag, err)
			}

			_, err = conn.Exec(ctx, "select error")
			var pgErr *pgconn.PgError
			if !errors.As(err, &pgErr) || pgErr.Code != "42P01" || pgErr.Position != 8 || pgErr.Severity != "ERROR" {
				t.Fatalf("select error: %#v", err)
			}

			if mode != pgx.QueryExecModeSimpleProtocol {
				// The simple protocol inlines arguments into the SQL text,
				// which the fixture does not parse.
				var s string
				if err := conn.QueryRow(ctx, "select $1", "hello").Scan(&s); err != nil || s != "hello" {
					t.Fatalf("select $1: %q, %v", s, err)
				}
			}

			// A canceled context makes pgx send a CancelRequest.
			qctx, qcancel := context.WithCancel(ctx)
			go func() { <-f.sleeping; qcancel() }()
			_, err = conn.Exec(qctx, "select sleep")
			if err == nil {
				t.Fatal("select sleep was not canceled")
			}
			// pgx closes the connection after a context cancel; a new one works.
			conn2, err := pgx.ConnectConfig(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer conn2.Close(ctx)
			if err := conn2.Ping(ctx); err != nil {
				t.Fatalf("ping: %v", err)
			}
		})
	}
}

// TestPGXTransaction checks that pgx sees the transaction status the
// session reports, in both protocols.
func TestPGXTransaction(t *testing.T) {
	_, _, addr := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, fmt.Sprintf("postgres://test@%s/db?sslmode=disable", addr))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s := conn.PgConn().TxStatus(); s != 'T' {
		t.Fatalf("status after begin: %c", s)
	}
	if _, err := tx.Exec(ctx, "insert"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if s := conn.PgConn().TxStatus(); s != 'I' {
		t.Fatalf("status after commit: %c", s)
	}
}
