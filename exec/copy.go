package exec

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/widesql/widesql/pgwire"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// COPY ... FROM STDIN and TO STDOUT: the engine side of pgwire's COPY
// sub-protocol (pgwire.CopyPortal). copy_parse.go reads the text and CSV
// formats, copy_load.go writes the rows, copy_out.go encodes them.

var _ pgwire.CopyPreparer = (*prepared)(nil)
var _ pgwire.CopyPortal = (*copyPortal)(nil)

// BindCopy implements pgwire.CopyPreparer: a COPY statement binds to a
// copyPortal; any other statement to nil (pgwire then calls Bind).
func (p *prepared) BindCopy(ctx context.Context, params [][]byte, paramFormats []int16) (pgwire.CopyPortal, error) {
	switch p.plan.(type) {
	case *planner.CopyFrom, *planner.CopyTo:
	default:
		return nil, nil
	}
	// Bind checks the transaction state, re-plans after DDL and decodes
	// the parameters of a COPY (query).
	bound, err := p.Bind(ctx, params, paramFormats, nil)
	if err != nil {
		return nil, err
	}
	pt := bound.(*portal)
	cp := &copyPortal{sess: p.sess, params: pt.params, loc: pt.loc}
	switch plan := p.plan.(type) {
	case *planner.CopyFrom:
		cp.from = plan
	case *planner.CopyTo:
		cp.to = plan
	default: // DDL between Prepare and Bind cannot turn COPY into another statement
		return nil, pgerror.New(pgerror.CodeInternalError, "COPY re-planned as %T", plan)
	}
	return cp, nil
}

// copyPortal runs one COPY statement.
type copyPortal struct {
	sess   *Session
	params []types.Datum
	loc    *time.Location
	from   *planner.CopyFrom
	to     *planner.CopyTo

	started bool
	x       *executor
	tag     string
	count   int64

	ld *copyLoader // FROM

	op     operator // TO: the query's rows
	types  []types.T
	header bool // TO: the header line is still to send
	line   []byte
	out    [][]byte
	done   bool
}

func (cp *copyPortal) Columns() []pgwire.Column { return nil }
func (cp *copyPortal) ResultFormats() []int16   { return nil }
func (cp *copyPortal) Tag() string              { return cp.tag }
func (cp *copyPortal) CopyIn() bool             { return cp.from != nil }

// CopyFormat implements pgwire.CopyPortal: text (CSV is text too) for the
// whole row and every column.
func (cp *copyPortal) CopyFormat() (byte, []uint16) {
	if cp.to != nil {
		return 0, make([]uint16, len(cp.to.Query.Columns()))
	}
	cols := make([]uint16, len(cp.from.Targets))
	if cp.from.Format.Binary {
		for i := range cols {
			cols[i] = 1
		}
		return 1, cols
	}
	return 0, cols
}

// start begins the statement: the transaction of a block, the executor,
// and the loader or the query.
func (cp *copyPortal) start(ctx context.Context) error {
	cp.started = true
	s := cp.sess
	if cp.from != nil && s.tx.block && s.tx.readOnly {
		return pgerror.New(pgerror.CodeReadOnlySQLTransaction, "cannot execute COPY FROM in a read-only transaction")
	}
	if err := s.startStatement(ctx); err != nil { // exec/txn.go
		return err
	}
	env := &evalEnv{params: cp.params, sess: s, now: int64(s.eng.clock.now())}
	cp.x = &executor{eng: s.eng, env: env}
	env.x = cp.x
	if cp.from != nil {
		var err error
		cp.ld, err = newCopyLoader(cp.x, cp.from, cp.loc, !s.tx.block)
		return err
	}
	op, err := cp.x.build(cp.to.Query)
	if err != nil {
		return err
	}
	cp.op = op
	for _, c := range cp.to.Query.Columns() {
		cp.types = append(cp.types, c.T)
	}
	cp.header = cp.to.Format.Header
	return nil
}

// CopyData implements pgwire.CopyPortal.
func (cp *copyPortal) CopyData(ctx context.Context, data []byte) error {
	if cp.done {
		return nil
	}
	if !cp.started {
		if err := cp.start(ctx); err != nil {
			return cp.fail(err)
		}
	}
	if err := ctx.Err(); err != nil {
		return cp.fail(err)
	}
	return cp.fail(cp.ld.data(ctx, data))
}

// CopyDone implements pgwire.CopyPortal.
func (cp *copyPortal) CopyDone(ctx context.Context) error {
	if !cp.started {
		if err := cp.start(ctx); err != nil {
			return cp.fail(err)
		}
	}
	if cp.done {
		return pgerror.New(pgerror.CodeProtocolViolation, "COPY already ended")
	}
	n, err := cp.ld.finish(ctx)
	if err != nil {
		return cp.fail(err)
	}
	cp.done = true
	cp.tag = fmt.Sprintf("COPY %d", n)
	return nil
}

// CopyFail implements pgwire.CopyPortal.
func (cp *copyPortal) CopyFail(ctx context.Context, msg string) error {
	return cp.fail(pgerror.New(pgerror.CodeQueryCanceled, "COPY from stdin failed: %s", msg))
}

// fail ends the COPY after err: what was loaded is removed, and a
// transaction block fails.
func (cp *copyPortal) fail(err error) error {
	if err == nil {
		return nil
	}
	cp.done = true
	if cp.ld != nil {
		cp.ld.abort()
		cp.ld = nil
	}
	return cp.sess.fail(err)
}

// Next implements pgwire.Portal for COPY TO: one CopyData payload per row.
func (cp *copyPortal) Next(ctx context.Context) ([][]byte, error) {
	if cp.to == nil || cp.done {
		return nil, io.EOF
	}
	if !cp.started {
		if err := cp.start(ctx); err != nil {
			cp.Close()
			return nil, cp.fail(err)
		}
	}
	f := &cp.to.Format
	if cp.header {
		cp.header = false
		cols := cp.to.Query.Columns()
		cp.line = cp.line[:0]
		for j, c := range cols {
			if j > 0 {
				cp.line = append(cp.line, f.Delimiter)
			}
			cp.line = appendCopyValue(cp.line, f, []byte(c.Name), false, len(cols) == 1)
		}
		cp.line = append(cp.line, '\n')
		return cp.row(), nil
	}
	row, err := cp.op.Next(ctx)
	if err == io.EOF {
		cp.done = true
		cp.tag = fmt.Sprintf("COPY %d", cp.count)
		cp.Close()
		return nil, io.EOF
	}
	if err != nil {
		cp.Close()
		return nil, cp.fail(err)
	}
	cp.count++
	cp.line = encodeCopyRow(cp.line[:0], f, row, cp.loc) // copy_out.go
	return cp.row(), nil
}

func (cp *copyPortal) row() [][]byte {
	cp.out = append(cp.out[:0], cp.line)
	return cp.out
}

// Close implements pgwire.Portal: a COPY FROM cut short loads nothing.
func (cp *copyPortal) Close() {
	if cp.op != nil {
		cp.op.Close()
		cp.op = nil
	}
	if cp.ld != nil && !cp.done {
		cp.ld.abort()
		cp.ld = nil
	}
}
