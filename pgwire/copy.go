package pgwire

import (
	"context"
	"errors"
	"io"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// The COPY sub-protocol. A COPY statement is bound through the engine's
// CopyPreparer into a CopyPortal; executing it (a simple Query, or Execute
// in the extended protocol) runs one of:
//
//	COPY TO STDOUT   CopyOutResponse, CopyData per row, CopyDone,
//	                 CommandComplete "COPY n"
//	COPY FROM STDIN  CopyInResponse, then the client's messages are read
//	                 here, not by the main loop: CopyData chunks go to
//	                 the portal (they need not align with rows), CopyDone
//	                 loads the data and answers CommandComplete "COPY n",
//	                 CopyFail ends the COPY with 57014. Flush and Sync are
//	                 ignored, as PostgreSQL does for the convenience of
//	                 client libraries that pipeline a Sync after Execute.
//
// An error during copy-in is reported like any statement error: after a
// simple Query, ErrorResponse and ReadyForQuery at once; in the extended
// protocol, ErrorResponse and then everything up to Sync is discarded.
// Either way the CopyData, CopyDone or CopyFail messages the client still
// sends reach the main loop, which drops them, as PostgreSQL does.

// errConnGone ends a COPY whose client left (Terminate, EOF, or an
// undecodable message): the connection is closed after it.
var errConnGone = errors.New("pgwire: connection closed during COPY")

// bindPortal binds prep, through CopyPreparer when it is a COPY.
func bindPortal(ctx context.Context, prep Prepared, params [][]byte, paramFormats, resultFormats []int16) (Portal, error) {
	if cp, ok := prep.(CopyPreparer); ok {
		p, err := cp.BindCopy(ctx, params, paramFormats)
		if err != nil || p != nil {
			return p, err
		}
	}
	return prep.Bind(ctx, params, paramFormats, resultFormats)
}

// runCopy runs a bound COPY portal to its CommandComplete.
func (c *conn) runCopy(ctx context.Context, p CopyPortal) error {
	overall, cols := p.CopyFormat()
	if !p.CopyIn() {
		c.send(&pgproto3.CopyOutResponse{OverallFormat: overall, ColumnFormatCodes: cols})
		for {
			row, err := p.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
			c.send(&pgproto3.CopyData{Data: row[0]})
		}
		c.send(&pgproto3.CopyDone{})
		c.send(&pgproto3.CommandComplete{CommandTag: []byte(p.Tag())})
		return nil
	}
	c.send(&pgproto3.CopyInResponse{OverallFormat: overall, ColumnFormatCodes: cols})
	for {
		msg, err := c.be.Receive() // flushes the CopyInResponse first
		if err != nil {
			c.receiveFailed(err)
			c.closed = true
			return errConnGone
		}
		switch m := msg.(type) {
		case *pgproto3.CopyData:
			if err := p.CopyData(ctx, m.Data); err != nil {
				return err
			}
		case *pgproto3.CopyDone:
			if err := p.CopyDone(ctx); err != nil {
				return err
			}
			c.send(&pgproto3.CommandComplete{CommandTag: []byte(p.Tag())})
			return nil
		case *pgproto3.CopyFail:
			return p.CopyFail(ctx, m.Message)
		case *pgproto3.Flush, *pgproto3.Sync:
		case *pgproto3.Terminate:
			c.closed = true
			return errConnGone
		default:
			typ := byte('?')
			if b, err := msg.Encode(nil); err == nil && len(b) > 0 {
				typ = b[0]
			}
			return pgerror.New(pgerror.CodeProtocolViolation, "unexpected message type 0x%02X during COPY from stdin", typ)
		}
	}
}
