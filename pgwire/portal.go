package pgwire

import (
	"context"
	"encoding/binary"
	"io"
	"math"
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
	// rdEnc is rd encoded, nil when it could not be: pgbench -M prepared
	// and libpq describe the portal of every execution, and the message's
	// bytes are the same each time.
	rdEnc []byte
}

// rowDescription returns the RowDescription of a portal of st with result
// formats fmts, and its encoding (nil if it has none). The caller must not
// modify either.
func (st *statement) rowDescription(cols []Column, fmts []int16) (*pgproto3.RowDescription, []byte) {
	if st.rd == nil || !slices.Equal(st.rdFmts, fmts) {
		st.rd, st.rdFmts = rowDescription(cols, fmts), slices.Clone(fmts)
		var err error
		if st.rdEnc, err = st.rd.Encode(nil); err != nil {
			st.rdEnc = nil // send encodes it again and reports the error
		}
	}
	return st.rd, st.rdEnc
}

// portal is a bound statement held by name. p is nil for the empty
// statement's portal.
type portal struct {
	p    Portal
	cols []Column
	fmts []int16
	st   *statement // the statement bound, for its RowDescription; nil in a simple Query

	resumed bool // suspended at least once: the final tag counts the last Execute only
	done    bool
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
	*p = portal{st: st}
	return p
}

// close closes the engine portal and releases it (PortalReleaser): the
// connection drops p.p. It is safe to call more than once.
func (p *portal) close() {
	if p.p == nil {
		return
	}
	p.p.Close()
	if r, ok := p.p.(PortalReleaser); ok {
		r.Release()
	}
	p.p = nil
}

// closePortals closes every portal; called when a transaction ends.
// The unnamed portal becomes the spare for the next Bind: a client that
// runs one statement after another outside a transaction block binds it
// again after every Sync.
func (c *conn) closePortals() {
	if p, ok := c.portals[""]; ok && len(c.portals) == 1 {
		// The common case, without a map iteration per request.
		delete(c.portals, "")
		c.closePortal(p)
		c.spare = p
		return
	}
	for name, p := range c.portals {
		delete(c.portals, name)
		c.closePortal(p)
		if name == "" {
			c.spare = p
		}
	}
}

// closePortal closes one portal, logging (not propagating) an engine panic.
// Close needs no context and cannot be canceled: it does not go through run.
func (c *conn) closePortal(p *portal) {
	if p.p != nil {
		c.guard(p.close)
	}
}

// execute streams up to maxRows rows of p (all when maxRows is 0) as
// DataRow messages, then PortalSuspended when maxRows were sent or
// CommandComplete when the portal is exhausted. Rows are encoded into the
// output buffer as they come and never accumulated.
func (c *conn) execute(ctx context.Context, p *portal, maxRows int) error {
	if p.done {
		// A portal with rows at its end yields no more (a SELECT, and a
		// command's RETURNING rows, which PostgreSQL keeps in a store:
		// "INSERT 0 0"); a command without rows cannot be run twice.
		if tag := p.p.Tag(); p.cols != nil || strings.HasPrefix(tag, "SELECT ") {
			c.sendCommandComplete(withCount(tag, 0))
			return nil
		}
		return pgerror.New("55000", "portal cannot be run")
	}
	n := 0
	ra, direct := p.p.(RowAppender)
	for {
		if maxRows > 0 && n == maxRows {
			// As in PostgreSQL, the portal is suspended once it sent
			// maxRows rows, whether or not more follow: the next Execute
			// may find none and complete with SELECT 0.
			p.resumed = true
			c.send(&pgproto3.PortalSuspended{})
			return nil
		}
		if direct {
			// The row is encoded straight into the output buffer after a
			// DataRow header whose length is filled in afterwards.
			start := len(c.out)
			hdr := append(c.out, 'D', 0, 0, 0, 0)
			b, err := ra.AppendRow(ctx, hdr)
			if err != nil {
				c.out = hdr[:start]
				if err == io.EOF {
					break
				}
				return err
			}
			if len(b)-start-1 > math.MaxInt32 {
				c.out = hdr[:start]
				return pgerror.New(pgerror.CodeProgramLimitExceeded, "row too large to send: %d bytes", len(b)-start)
			}
			binary.BigEndian.PutUint32(b[start+1:], uint32(len(b)-start-1))
			c.out = b
		} else {
			row, err := p.p.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
			c.dataRow.Values = row
			c.appendMsg(&c.dataRow)
			c.dataRow.Values = nil
		}
		n++
		c.flushIfFull()
	}
	p.done = true
	c.sendNotices()
	tag := p.p.Tag()
	if p.resumed {
		// PostgreSQL counts only the rows of the final Execute, for a
		// command's RETURNING rows too.
		tag = withCount(tag, n)
	}
	c.sendCommandComplete(tag)
	return nil
}

// withCount returns tag ("SELECT 5", "INSERT 0 5", "UPDATE 5") with its
// row count replaced by n; a tag without a count is returned as is.
func withCount(tag string, n int) string {
	i := strings.LastIndexByte(tag, ' ')
	if i < 0 || i == len(tag)-1 {
		return tag
	}
	for _, r := range tag[i+1:] {
		if r < '0' || r > '9' {
			return tag
		}
	}
	return tag[:i+1] + strconv.Itoa(n)
}

// sendCommandComplete sends CommandComplete with tag.
func (c *conn) sendCommandComplete(tag string) {
	c.cmdComplete.CommandTag = append(c.cmdComplete.CommandTag[:0], tag...)
	c.send(&c.cmdComplete)
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
