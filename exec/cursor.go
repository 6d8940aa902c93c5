package exec

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/widesql/widesql/pgwire"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
	"github.com/widesql/widesql/sqlparse"
)

// cursor is an open server-side cursor (DECLARE ... CURSOR FOR query). A
// cursor reads forward only. One declared WITHOUT HOLD is closed when its
// transaction ends; one declared WITH HOLD is materialized at DECLARE, so
// it survives the end of the transaction (PostgreSQL materializes it at
// COMMIT; the rows are the same, as both see the DECLARE's snapshot).
type cursor struct {
	op    operator // the query's rows; nil when materialized or done
	rows  []Row    // the rest of a materialized cursor
	types []types.T
	cols  []pgwire.Column
	hold  bool
	// inTxn marks a WITH HOLD cursor declared in the open transaction:
	// a rollback drops it, as in PostgreSQL.
	inTxn bool
}

// fetch reads up to n rows (all for sqlparse.FetchAll), copied so that
// they outlive the operator's next call.
func (c *cursor) fetch(ctx context.Context, n int64) ([]Row, error) {
	var out []Row
	for n == sqlparse.FetchAll || int64(len(out)) < n {
		if c.op == nil {
			if len(c.rows) == 0 {
				break
			}
			out = append(out, c.rows[0])
			c.rows = c.rows[1:]
			continue
		}
		row, err := c.op.Next(ctx)
		if err == io.EOF {
			c.op.Close()
			c.op = nil
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, slices.Clone(row))
	}
	return out, nil
}

func (c *cursor) close() {
	if c.op != nil {
		c.op.Close()
		c.op = nil
	}
	c.rows = nil
}

func errNoCursor(name string) error {
	return pgerror.New(pgerror.CodeInvalidCursorName, "cursor \"%s\" does not exist", name)
}

// prepareCursor plans DECLARE's query; FETCH takes the result columns of
// the cursor it names, which must exist when it is prepared (as in
// PostgreSQL).
func (s *Session) prepareCursor(p *prepared, c *sqlparse.CursorStmt) (*prepared, error) {
	switch c.Kind {
	case sqlparse.DeclareCursor:
		plan, pt, err := planner.BuildIn(s.eng.cat, c.Query, p.declared, s.zone())
		if err != nil {
			return nil, s.fail(err)
		}
		if _, ok := plan.(*planner.Explain); ok || plan.Columns() == nil {
			return nil, s.fail(pgerror.New(pgerror.CodeInvalidCursorDefinition, "cursor \"%s\" must be a SELECT query", c.Name))
		}
		p.cursorPlan, p.paramTypes = plan, pt
	case sqlparse.FetchCursor:
		cur := s.cursors[c.Name]
		if cur == nil {
			return nil, s.fail(errNoCursor(c.Name))
		}
		p.cols, p.paramTypes = cur.cols, p.declared
	default:
		p.paramTypes = p.declared
	}
	return p, nil
}

// startCursor runs a cursor statement for a portal.
func (pt *portal) startCursor(ctx context.Context, c *sqlparse.CursorStmt) error {
	s := pt.prep.sess
	switch c.Kind {
	case sqlparse.DeclareCursor:
		if s.txn != 'T' && !c.Hold {
			return pgerror.New(pgerror.CodeNoActiveSQLTransaction, "DECLARE CURSOR can only be used in transaction blocks")
		}
		if s.cursors[c.Name] != nil {
			return pgerror.New(pgerror.CodeDuplicateCursor, "cursor \"%s\" already exists", c.Name)
		}
		if err := s.startStatement(ctx); err != nil { // txn.go
			return err
		}
		plan := pt.prep.cursorPlan
		env := &evalEnv{params: pt.params, sess: s, now: int64(s.eng.clock.now())}
		x := &executor{eng: s.eng, env: env}
		env.x = x
		if err := x.checkFullScans(plan, c.Query.AllowFullScan); err != nil { // guardrail.go
			return err
		}
		op, err := x.build(plan)
		if err != nil {
			return err
		}
		cur := &cursor{op: op, cols: wireColumns(plan.Columns()), hold: c.Hold, inTxn: c.Hold && s.txn == 'T'}
		for _, col := range plan.Columns() {
			cur.types = append(cur.types, col.T)
		}
		if c.Hold {
			rows, err := cur.fetch(ctx, sqlparse.FetchAll)
			if err != nil {
				cur.close()
				return err
			}
			cur.rows = rows
		}
		if s.cursors == nil {
			s.cursors = map[string]*cursor{}
		}
		s.cursors[c.Name] = cur
		pt.tag = "DECLARE CURSOR"
	case sqlparse.FetchCursor, sqlparse.MoveCursor:
		cur := s.cursors[c.Name]
		if cur == nil {
			return errNoCursor(c.Name)
		}
		rows, err := cur.fetch(ctx, c.Count)
		if err != nil {
			return err
		}
		if c.Kind == sqlparse.MoveCursor {
			pt.tag = fmt.Sprintf("MOVE %d", len(rows))
			return nil
		}
		pt.op, pt.types = &rowsOp{rows: rows}, cur.types
		pt.tag = fmt.Sprintf("FETCH %d", len(rows))
		pt.fixedTag = pt.tag
	case sqlparse.CloseCursor:
		if c.All {
			s.closeCursors(func(*cursor) bool { return true })
		} else {
			cur := s.cursors[c.Name]
			if cur == nil {
				return errNoCursor(c.Name)
			}
			cur.close()
			delete(s.cursors, c.Name)
		}
		pt.tag = "CLOSE CURSOR"
	}
	return nil
}

// closeCursors closes and forgets the cursors drop selects.
func (s *Session) closeCursors(drop func(*cursor) bool) {
	for name, c := range s.cursors {
		if drop(c) {
			c.close()
			delete(s.cursors, name)
		}
	}
}

// endTxnCursors closes the cursors a transaction's end closes: those
// without HOLD, and on rollback the held ones it declared.
func (s *Session) endTxnCursors(commit bool) {
	s.closeCursors(func(c *cursor) bool { return !c.hold || c.inTxn && !commit })
	for _, c := range s.cursors {
		c.inTxn = false
	}
}

// DescribeCursor implements pgwire.CursorDescriber.
func (s *Session) DescribeCursor(name string) ([]pgwire.Column, bool) {
	if c := s.cursors[name]; c != nil {
		return c.cols, true
	}
	return nil, false
}
