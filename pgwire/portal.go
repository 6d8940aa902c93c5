package pgwire

import (
	"context"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// statement is a prepared statement held by name. prep is nil for the empty
// statement (an empty or comment-only query string).
type statement struct {
	sql  string
	prep Prepared

	// rd caches the RowDescription of the statement's portals for the
	// result formats rdFmts: clients describe every portal they bind, and
	// a prepared statement's columns never change.
	rd     *pgproto3.RowDescription
	rdFmts []int16
}

// rowDescription returns the RowDescription of a portal of st with result
// formats fmts. The caller must not modify it.
func (st *statement) rowDescription(cols []Column, fmts []int16) *pgproto3.RowDescription {
	if st.rd == nil || !slices.Equal(st.rdFmts, fmts) {
		st.rd, st.rdFmts = rowDescription(cols, fmts), slices.Clone(fmts)
	}
	return st.rd
}

// portal is a bound statement held by name. p is nil for the empty
// statement's portal.
type portal struct {
	p    Portal
	cols []Column
	fmts []int16
	st   *statement // the statement bound, for its RowDescription; nil in a simple Query

	// ahead is a row read past MaxRows to learn whether the portal is
	// exhausted; it is sent first by the next Execute. ahead owns its bytes.
	ahead    [][]byte
	hasAhead bool
	resumed  bool // suspended at least once: the final tag counts the last Execute only
	done     bool
}

// newPortal returns an empty portal of st, reusing the connection's spare
// one (the unnamed portal a Bind replaced) when there is one: a client
// running one statement after another binds the unnamed portal each time.
func (c *conn) newPortal(st *statement) *portal {
	p := c.spare
	if p == nil {
		return &portal{st: st}
	}
	c.spare = nil
	*p = portal{st: st, ahead: p.ahead[:0]}
	return p
}

// close releases the engine portal. It is safe to call more than once.
func (p *portal) close() {
	if p.p != nil {
		p.p.Close()
	}
}

// closePortals closes every portal; called when a transaction ends.
func (c *conn) closePortals() {
	for name, p := range c.portals {
		delete(c.portals, name)
		c.closePortal(p)
	}
}

// closePortal closes one portal, logging (not propagating) an engine panic.
func (c *conn) closePortal(p *portal) {
	c.run(func(context.Context) error { p.close(); return nil })
}

// execute streams up to maxRows rows of p (all when maxRows is 0) as
// DataRow messages, then PortalSuspended when rows remain or
// CommandComplete when the portal is exhausted. Rows are encoded into the
// write buffer as they come and never accumulated.
func (c *conn) execute(ctx context.Context, p *portal, maxRows int) error {
	if p.done {
		// A SELECT portal at its end yields nothing more, as in PostgreSQL;
		// a command cannot be run twice.
		if tag := p.p.Tag(); strings.HasPrefix(tag, "SELECT ") {
			c.sendCommandComplete("SELECT 0")
			return nil
		}
		return pgerror.New("55000", "portal cannot be run")
	}
	n := 0
	if p.hasAhead {
		c.sendDataRow(p.ahead)
		p.hasAhead = false
		n++
	}
	for {
		row, err := p.p.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if maxRows > 0 && n == maxRows {
			p.ahead = copyRow(p.ahead[:0], row)
			p.hasAhead = true
			p.resumed = true
			c.send(&pgproto3.PortalSuspended{})
			return nil
		}
		c.sendDataRow(row)
		n++
	}
	p.done = true
	c.sendNotices()
	tag := p.p.Tag()
	if p.resumed && strings.HasPrefix(tag, "SELECT ") {
		// PostgreSQL counts only the rows of the final Execute.
		tag = "SELECT " + strconv.Itoa(n)
	}
	c.sendCommandComplete(tag)
	return nil
}

// sendDataRow sends one DataRow through a message struct the connection
// reuses (send encodes it at once).
func (c *conn) sendDataRow(row [][]byte) {
	c.dataRow.Values = row
	c.send(&c.dataRow)
	c.dataRow.Values = nil
}

// sendCommandComplete sends CommandComplete with tag.
func (c *conn) sendCommandComplete(tag string) {
	c.cmdComplete.CommandTag = append(c.cmdComplete.CommandTag[:0], tag...)
	c.send(&c.cmdComplete)
}

// copyRow copies row into dst using one allocation for all values.
func copyRow(dst, row [][]byte) [][]byte {
	size := 0
	for _, v := range row {
		size += len(v)
	}
	buf := make([]byte, 0, size)
	for _, v := range row {
		if v == nil {
			dst = append(dst, nil)
			continue
		}
		start := len(buf)
		buf = append(buf, v...)
		dst = append(dst, buf[start:len(buf):len(buf)])
	}
	return dst
}

// rowDescription describes cols with the given result formats (0, 1 or
// len(cols) entries, as in Bind).
func rowDescription(cols []Column, formats []int16) *pgproto3.RowDescription {
	fields := make([]pgproto3.FieldDescription, len(cols))
	for i, col := range cols {
		fields[i] = pgproto3.FieldDescription{
			Name:                 []byte(col.Name),
			TableOID:             col.TableOID,
			TableAttributeNumber: uint16(col.ColumnAttr),
			DataTypeOID:          col.TypeOID,
			DataTypeSize:         col.TypeSize,
			TypeModifier:         col.TypeModifier,
			Format:               formatAt(formats, i),
		}
	}
	return &pgproto3.RowDescription{Fields: fields}
}

func formatAt(formats []int16, i int) int16 {
	switch {
	case len(formats) == 1:
		return formats[0]
	case i < len(formats):
		return formats[i]
	default:
		return 0
	}
}
