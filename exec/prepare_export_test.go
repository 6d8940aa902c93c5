package exec

import (
	"context"
	"testing"

	"github.com/widesql/widesql/pgwire"
)

// MustPrepare parses sql (one statement) and prepares it on s as an
// extended-protocol client's Parse does, failing tb on an error. Tests
// in package exec and exec_test share it.
func MustPrepare(tb testing.TB, s pgwire.Session, sql string) pgwire.Prepared {
	tb.Helper()
	ctx := context.Background()
	stmts, err := s.Parse(ctx, sql)
	if err != nil || len(stmts) != 1 {
		tb.Fatalf("parse %q: %d statements, %v", sql, len(stmts), err)
	}
	p, err := s.Prepare(ctx, stmts[0], nil)
	if err != nil {
		tb.Fatalf("prepare %q: %v", sql, err)
	}
	return p
}
