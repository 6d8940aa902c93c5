package pgwire

import (
	"context"
	"slices"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// The extended-protocol handlers return an error to report; the caller then
// discards messages until Sync. Everything kept from a message is copied:
// pgproto3 reuses its buffers on the next Receive.

func (c *conn) handleParse(m *pgproto3.Parse) error {
	if m.Name == "" {
		delete(c.stmts, "")
	} else if _, dup := c.stmts[m.Name]; dup {
		return pgerror.New(pgerror.CodeDuplicatePreparedStatement, "prepared statement \"%s\" already exists", m.Name)
	}
	st := &statement{sql: m.Query}
	oids := slices.Clone(m.ParameterOIDs)
	err := c.run(func(ctx context.Context) error {
		stmts, err := c.sess.Parse(ctx, m.Query)
		switch {
		case err != nil:
			return err
		case len(stmts) > 1:
			return pgerror.New(pgerror.CodeSyntaxError, "cannot insert multiple commands into a prepared statement")
		case len(stmts) == 0:
			return nil
		}
		st.prep, err = c.sess.Prepare(ctx, stmts[0], oids)
		return err
	})
	c.sendNotices()
	if err != nil {
		return err
	}
	c.stmts[m.Name] = st
	c.send(&pgproto3.ParseComplete{})
	return nil
}

func (c *conn) handleBind(m *pgproto3.Bind) error {
	st, ok := c.stmts[m.PreparedStatement]
	if !ok {
		return errNoStatement(m.PreparedStatement)
	}
	if m.DestinationPortal == "" {
		if old, ok := c.portals[""]; ok {
			delete(c.portals, "")
			c.closePortal(old)
			c.spare = old // nothing refers to it any more
		}
	} else if _, dup := c.portals[m.DestinationPortal]; dup {
		return pgerror.New(pgerror.CodeDuplicateCursor, "portal \"%s\" already exists", m.DestinationPortal)
	}
	p := c.newPortal(st)
	if st.prep == nil {
		if len(m.Parameters) > 0 {
			return pgerror.New(pgerror.CodeProtocolViolation,
				"bind message supplies %d parameters, but prepared statement \"%s\" requires 0",
				len(m.Parameters), m.PreparedStatement)
		}
	} else {
		// The parameters and formats are passed as Receive decoded them,
		// without a copy: Bind uses them only during the call (see
		// Prepared.Bind), before the next Receive reuses their buffer.
		err := c.run(func(ctx context.Context) (err error) {
			p.p, err = bindPortal(ctx, st.prep, m.Parameters, m.ParameterFormatCodes, m.ResultFormatCodes) // copy.go
			if err == nil {
				p.cols, p.fmts = p.p.Columns(), p.p.ResultFormats()
			}
			return err
		})
		c.sendNotices()
		if err != nil {
			if p.p != nil {
				c.closePortal(p)
			}
			return err
		}
	}
	c.portals[m.DestinationPortal] = p
	c.send(&pgproto3.BindComplete{})
	return nil
}

func (c *conn) handleDescribe(m *pgproto3.Describe) error {
	switch m.ObjectType {
	case 'S':
		st, ok := c.stmts[m.Name]
		if !ok {
			return errNoStatement(m.Name)
		}
		if st.prep == nil {
			c.send(&pgproto3.ParameterDescription{})
			c.send(&pgproto3.NoData{})
			return nil
		}
		var oids []uint32
		var cols []Column
		if err := c.run(func(context.Context) error {
			oids, cols = st.prep.ParamOIDs(), st.prep.Columns()
			return nil
		}); err != nil {
			return err
		}
		c.send(&pgproto3.ParameterDescription{ParameterOIDs: oids})
		c.sendRowDescription(cols, nil)
	case 'P':
		p, ok := c.portals[m.Name]
		if !ok {
			// A SQL cursor (DECLARE name CURSOR) is a portal too: psycopg
			// 3 describes its named cursors this way.
			if cd, isCD := c.sess.(CursorDescriber); isCD && m.Name != "" {
				if cols, found := cd.DescribeCursor(m.Name); found {
					c.sendRowDescription(cols, nil)
					return nil
				}
			}
			return errNoPortal(m.Name)
		}
		if p.cols != nil && p.st != nil {
			if rd, enc := p.st.rowDescription(p.cols, p.fmts); enc != nil {
				c.out = append(c.out, enc...)
				c.flushIfFull()
			} else {
				c.send(rd)
			}
			return nil
		}
		c.sendRowDescription(p.cols, p.fmts)
	default:
		return pgerror.New(pgerror.CodeProtocolViolation, "invalid DESCRIBE message subtype %d", m.ObjectType)
	}
	return nil
}

// sendRowDescription sends RowDescription, or NoData when cols is nil.
func (c *conn) sendRowDescription(cols []Column, formats []int16) {
	if cols == nil {
		c.send(&pgproto3.NoData{})
		return
	}
	c.send(rowDescription(cols, formats))
}

func (c *conn) handleExecute(m *pgproto3.Execute) error {
	p, ok := c.portals[m.Portal]
	if !ok {
		return errNoPortal(m.Portal)
	}
	if p.p == nil {
		c.send(&pgproto3.EmptyQueryResponse{})
		return nil
	}
	maxRows := int(m.MaxRows) // 0 means all rows
	run := func(ctx context.Context) error { return c.execute(ctx, p, maxRows) }
	if cp, ok := p.p.(CopyPortal); ok {
		// COPY runs to completion whatever MaxRows says, as in PostgreSQL.
		run = func(ctx context.Context) error { return c.runCopy(ctx, cp) }
	}
	err := c.run(run)
	if err != nil {
		// A failed portal cannot be resumed.
		delete(c.portals, m.Portal)
		c.closePortal(p)
		return err
	}
	c.sendSessionEvents()
	return nil
}

func (c *conn) handleClose(m *pgproto3.Close) error {
	switch m.ObjectType {
	case 'S':
		delete(c.stmts, m.Name)
	case 'P':
		if p, ok := c.portals[m.Name]; ok {
			delete(c.portals, m.Name)
			c.closePortal(p)
		}
	default:
		return pgerror.New(pgerror.CodeProtocolViolation, "invalid CLOSE message subtype %d", m.ObjectType)
	}
	c.send(&pgproto3.CloseComplete{})
	return nil
}

func errNoStatement(name string) error {
	if name == "" {
		return pgerror.New(pgerror.CodeInvalidSQLStatementName, "unnamed prepared statement does not exist")
	}
	return pgerror.New(pgerror.CodeInvalidSQLStatementName, "prepared statement \"%s\" does not exist", name)
}

func errNoPortal(name string) error {
	if name == "" {
		return pgerror.New(pgerror.CodeInvalidCursorName, "unnamed portal does not exist")
	}
	return pgerror.New(pgerror.CodeInvalidCursorName, "portal \"%s\" does not exist", name)
}
