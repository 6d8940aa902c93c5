package tests

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

func txnConnect(t *testing.T, tg target) *pgx.Conn {
	t.Helper()
	return pgxConnect(t, tg, pgx.QueryExecModeCacheStatement)
}

func queryInt(t *testing.T, c *pgx.Conn, sql string) int64 {
	t.Helper()
	var n int64
	if err := c.QueryRow(context.Background(), sql).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

func errCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// TestTxnIsolation: a block reads the snapshot of its first statement plus
// its own writes; another connection sees nothing of it until COMMIT.
func TestTxnIsolation(t *testing.T) {
	tg := newTarget(t)
	a, b := txnConnect(t, tg), txnConnect(t, tg)
	mustExec(t, a, "CREATE TABLE kv (k INT, v BIGINT, PRIMARY KEY (k))")
	mustExec(t, a, "INSERT INTO kv VALUES (1, 10), (2, 20)")

	mustExec(t, a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
	if n := queryInt(t, a, "SELECT sum(v) FROM kv"); n != 30 {
		t.Fatalf("a sees sum %d", n)
	}
	mustExec(t, a, "INSERT INTO kv VALUES (3, 30)")
	// b sees neither a's write nor, later, does a see b's.
	if n := queryInt(t, b, "SELECT count(*) FROM kv"); n != 2 {
		t.Fatalf("b sees %d rows of an uncommitted block", n)
	}
	mustExec(t, b, "INSERT INTO kv VALUES (4, 40)")
	if n := queryInt(t, a, "SELECT sum(v) FROM kv"); n != 60 {
		t.Fatalf("a sees sum %d, want its snapshot plus its write (60)", n)
	}
	mustExec(t, a, "COMMIT")
	if n := queryInt(t, b, "SELECT sum(v) FROM kv"); n != 100 {
		t.Fatalf("after COMMIT b sees sum %d", n)
	}
}

// TestTxnWriteConflict: two blocks update one row; the second to write or
// commit gets 40001 (PostgreSQL reports it at the UPDATE, widesql at
// COMMIT) and its writes are not applied.
func TestTxnWriteConflict(t *testing.T) {
	ctx := context.Background()
	tg := newTarget(t)
	a, b := txnConnect(t, tg), txnConnect(t, tg)
	mustExec(t, a, "CREATE TABLE acct (id INT, bal BIGINT, PRIMARY KEY (id))")
	mustExec(t, a, "INSERT INTO acct VALUES (1, 100), (2, 100)")

	mustExec(t, a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
	mustExec(t, b, "BEGIN ISOLATION LEVEL REPEATABLE READ")
	queryInt(t, a, "SELECT bal FROM acct WHERE id = 1")
	queryInt(t, b, "SELECT bal FROM acct WHERE id = 1")
	mustExec(t, a, "UPDATE acct SET bal = bal - 10 WHERE id = 1")
	mustExec(t, a, "COMMIT")
	_, err := b.Exec(ctx, "UPDATE acct SET bal = bal - 20 WHERE id = 1")
	if err == nil {
		mustExec(t, b, "UPDATE acct SET bal = bal + 20 WHERE id = 2")
		_, err = b.Exec(ctx, "COMMIT")
	} else {
		mustExec(t, b, "ROLLBACK")
	}
	if errCode(err) != "40001" {
		t.Fatalf("second writer: %v, want 40001", err)
	}
	if n := queryInt(t, b, "SELECT sum(bal) FROM acct"); n != 190 {
		t.Fatalf("sum %d after a conflict, want 190", n)
	}

	// Disjoint rows both commit.
	mustExec(t, a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
	mustExec(t, b, "BEGIN ISOLATION LEVEL REPEATABLE READ")
	mustExec(t, a, "UPDATE acct SET bal = 0 WHERE id = 1")
	mustExec(t, b, "UPDATE acct SET bal = 0 WHERE id = 2")
	mustExec(t, a, "COMMIT")
	mustExec(t, b, "COMMIT")
	if n := queryInt(t, a, "SELECT sum(bal) FROM acct"); n != 0 {
		t.Fatalf("sum %d", n)
	}

	// An autocommit write after the block's snapshot conflicts as well.
	mustExec(t, a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
	queryInt(t, a, "SELECT count(*) FROM acct")
	mustExec(t, b, "UPDATE acct SET bal = 5 WHERE id = 1")
	_, err = a.Exec(ctx, "UPDATE acct SET bal = 7 WHERE id = 1")
	if err == nil {
		_, err = a.Exec(ctx, "COMMIT")
	} else {
		mustExec(t, a, "ROLLBACK")
	}
	if errCode(err) != "40001" {
		t.Fatalf("block after an autocommit write: %v, want 40001", err)
	}
	if n := queryInt(t, a, "SELECT bal FROM acct WHERE id = 1"); n != 5 {
		t.Fatalf("bal %d, want the autocommit write's 5", n)
	}
}

// TestImplicitTxnRollback: the statements of a multi-statement simple
// Query are one implicit transaction; an error rolls back the earlier ones.
func TestImplicitTxnRollback(t *testing.T) {
	w := dialWire(t, newTarget(t))
	w.simple("CREATE TABLE it (k INT, PRIMARY KEY (k))")
	expectTrace(t, "failing multi-statement query", w.simple("INSERT INTO it VALUES (1); INSERT INTO it VALUES (2); INSERT INTO it VALUES (1)"),
		"CommandComplete INSERT 0 1", "CommandComplete INSERT 0 1", "ErrorResponse 23505", "ReadyForQuery I")
	expectTrace(t, "nothing applied", w.simple("SELECT count(*) FROM it"),
		"RowDescription count:20", "DataRow 0", "CommandComplete SELECT 1", "ReadyForQuery I")
	expectTrace(t, "successful multi-statement query", w.simple("INSERT INTO it VALUES (1); INSERT INTO it VALUES (2); SELECT count(*) FROM it"),
		"CommandComplete INSERT 0 1", "CommandComplete INSERT 0 1",
		"RowDescription count:20", "DataRow 2", "CommandComplete SELECT 1", "ReadyForQuery I")
	// BEGIN inside the Query turns the implicit block into an explicit one.
	expectTrace(t, "BEGIN midway", w.simple("INSERT INTO it VALUES (3); BEGIN; INSERT INTO it VALUES (4)"),
		"CommandComplete INSERT 0 1", "CommandComplete BEGIN", "CommandComplete INSERT 0 1", "ReadyForQuery T")
	expectTrace(t, "rollback of the block", w.simple("ROLLBACK"), "CommandComplete ROLLBACK", "ReadyForQuery I")
	expectTrace(t, "after ROLLBACK", w.simple("SELECT count(*) FROM it"),
		"RowDescription count:20", "DataRow 2", "CommandComplete SELECT 1", "ReadyForQuery I")
	// ReadyForQuery reports E in a failed block.
	expectTrace(t, "failed block", w.simple("BEGIN; INSERT INTO it VALUES (1)"),
		"CommandComplete BEGIN", "ErrorResponse 23505", "ReadyForQuery E")
	expectTrace(t, "25P02", w.simple("SELECT 1"), "ErrorResponse 25P02", "ReadyForQuery E")
	expectTrace(t, "COMMIT of a failed block", w.simple("COMMIT"), "CommandComplete ROLLBACK", "ReadyForQuery I")
}

// TestDeallocateAndDiscard: DEALLOCATE and DISCARD ALL drop the statements
// prepared with the extended protocol.
func TestDeallocateAndDiscard(t *testing.T) {
	w := dialWire(t, newTarget(t))
	prepare := func(name string) {
		t.Helper()
		w.send(&pgproto3.Parse{Name: name, Query: "SELECT 1"}, &pgproto3.Sync{})
		expectTrace(t, "parse "+name, w.untilReady(), "ParseComplete", "ReadyForQuery I")
	}
	describe := func(name string, want ...string) {
		t.Helper()
		w.send(&pgproto3.Describe{ObjectType: 'S', Name: name}, &pgproto3.Sync{})
		expectTrace(t, "describe "+name, w.untilReady(), want...)
	}
	exists := []string{"ParameterDescription []", "RowDescription ?column?:23", "ReadyForQuery I"}
	gone := []string{"ErrorResponse 26000", "ReadyForQuery I"}
	prepare("s1")
	prepare("s2")
	prepare("s3")
	expectTrace(t, "DEALLOCATE s1", w.simple("DEALLOCATE s1"), "CommandComplete DEALLOCATE", "ReadyForQuery I")
	describe("s1", gone...)
	describe("s2", exists...)
	expectTrace(t, "DEALLOCATE s1 again", w.simple("DEALLOCATE PREPARE s1"), "ErrorResponse 26000", "ReadyForQuery I")
	expectTrace(t, "DEALLOCATE ALL", w.simple("DEALLOCATE ALL"), "CommandComplete DEALLOCATE ALL", "ReadyForQuery I")
	describe("s2", gone...)
	describe("s3", gone...)
	prepare("s4")
	expectTrace(t, "DISCARD ALL", w.simple("DISCARD ALL"), "CommandComplete DISCARD ALL", "ReadyForQuery I")
	describe("s4", gone...)
	prepare("s4") // the name is free again
}

// TestStatementTimeout: statement_timeout cancels a long statement with
// 57014 and the session stays usable.
func TestStatementTimeout(t *testing.T) {
	ctx := context.Background()
	c := txnConnect(t, newTarget(t))
	mustExec(t, c, "CREATE TABLE big (k INT, v TEXT, PRIMARY KEY (k))")
	for i := 0; i < 100; i++ {
		var sb strings.Builder
		sb.WriteString("INSERT INTO big VALUES ")
		for j := 0; j < 1000; j++ {
			if j > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "(%d, 'value %d')", i*1000+j, j)
		}
		mustExec(t, c, sb.String())
	}
	mustExec(t, c, "SET statement_timeout = 1")
	_, err := c.Exec(ctx, "SELECT count(*) FROM big WHERE v LIKE '%nothing%'")
	if errCode(err) != "57014" {
		t.Fatalf("long statement: %v, want 57014", err)
	}
	mustExec(t, c, "RESET statement_timeout")
	if n := queryInt(t, c, "SELECT count(*) FROM big"); n != 100000 {
		t.Fatalf("count %d", n)
	}
}
