package pgwire

import (
	"context"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// handleQuery runs a simple Query: every statement in turn, each answered
// with RowDescription, DataRows and CommandComplete, stopping at the first
// error; then one ReadyForQuery.
func (c *conn) handleQuery(sql string) {
	// A simple query replaces the unnamed statement and portal, as in
	// PostgreSQL.
	delete(c.stmts, "")
	if p, ok := c.portals[""]; ok {
		delete(c.portals, "")
		c.closePortal(p)
	}

	var stmts []Statement
	err := c.run(func(ctx context.Context) (err error) {
		stmts, err = c.sess.Parse(ctx, sql)
		return err
	})
	switch {
	case err != nil:
		c.sendError(err)
	case len(stmts) == 0:
		c.send(&pgproto3.EmptyQueryResponse{})
	}
	if len(stmts) == 0 {
		c.readyForQuery()
		return
	}
	c.guard(func() { c.sess.StartQuery(len(stmts)) })
	failed := false
	for _, stmt := range stmts {
		err := c.run(func(ctx context.Context) error { return c.runSimple(ctx, stmt) })
		if err != nil {
			c.sendError(err)
			failed = true
			break
		}
		c.sendSessionEvents()
	}
	if err := c.run(func(ctx context.Context) error { return c.sess.EndQuery(ctx, failed) }); err != nil {
		c.sendError(err)
	}
	c.readyForQuery()
}

// connStatements is the connection's prepared statements as the session
// sees them (pgwire.PreparedStatements).
type connStatements struct{ c *conn }

func (cs connStatements) Deallocate(name string) bool {
	_, ok := cs.c.stmts[name]
	delete(cs.c.stmts, name)
	return ok
}

func (cs connStatements) DeallocateAll() { clear(cs.c.stmts) }

// runSimple prepares, binds and runs one statement of a simple Query with
// text results.
func (c *conn) runSimple(ctx context.Context, stmt Statement) error {
	prep, err := c.sess.Prepare(ctx, stmt, nil)
	if err != nil {
		return err
	}
	if n := len(prep.ParamOIDs()); n > 0 {
		return pgerror.New(pgerror.CodeUndefinedParameter, "there is no parameter $%d", n)
	}
	bound, err := bindPortal(ctx, prep, nil, nil, nil) // copy.go
	if err != nil {
		return err
	}
	defer bound.Close()
	if cp, ok := bound.(CopyPortal); ok {
		return c.runCopy(ctx, cp)
	}
	p := &portal{p: bound, cols: bound.Columns(), fmts: bound.ResultFormats()}
	if p.cols != nil {
		c.send(rowDescription(p.cols, p.fmts))
	}
	return c.execute(ctx, p, 0)
}
