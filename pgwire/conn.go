package pgwire

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"runtime/debug"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// writeBufferSize bounds what a connection holds before it writes to the
// socket; a large result streams through it.
const writeBufferSize = 32 << 10

// conn is one client connection after startup. All fields but those under mu
// belong to the connection's goroutine.
type conn struct {
	srv  *Server
	nc   net.Conn
	log  *slog.Logger
	sess Session

	pid    uint32
	secret []byte

	rd *flushingReader
	be *frontendReader // recv.go
	// out is the pending output: messages are encoded straight into it
	// (DataRows too, portal.go) and written to the socket in one write
	// when it passes writeBufferSize, before a read, and at Sync.
	out  []byte
	werr error // first write error; the connection is dead after it

	ctx     context.Context // canceled by Shutdown
	stmts   map[string]*statement
	portals map[string]*portal
	// spare is a closed unnamed portal no map refers to, for the next
	// Bind to reuse (portal.go).
	spare *portal

	// ignoreTillSync is set by an error in the extended protocol: every
	// message up to the next Sync is discarded.
	ignoreTillSync bool
	// closed is set when the client left in the middle of a COPY FROM
	// STDIN (copy.go reads its messages): the message loop ends.
	closed bool

	// Reused message structs for the per-row and per-statement replies.
	dataRow     pgproto3.DataRow
	cmdComplete pgproto3.CommandComplete
	rfq         pgproto3.ReadyForQuery

	// deadlineSet is whether armIdleTimeout left a read deadline on nc.
	deadlineSet bool

	// runCtx is the context run hands to the engine, reused from call to
	// call until a cancel ends it (a context per message cost more than
	// the point queries it ran); runCancel cancels it.
	runCtx    context.Context
	runCancel context.CancelFunc

	mu      sync.Mutex
	running context.CancelFunc // cancels the statement in progress, or nil
}

// flushingReader flushes the connection's pending output before every read
// from the socket: the backend's reader only reads when its buffer is empty,
// so output is batched while pipelined input is being processed and flushed
// before the server could block waiting for the client.
type flushingReader struct {
	c   *conn
	err error // the last read error, to tell I/O failures from bad messages
}

func (r *flushingReader) Read(p []byte) (int, error) {
	if err := r.c.flush(); err != nil {
		r.err = err
		return 0, err
	}
	n, err := r.c.nc.Read(p)
	if err != nil {
		r.err = err
	}
	return n, err
}

// send encodes msg into the connection's output buffer, writing the
// buffer out when it is full. Write errors are sticky and reported by
// flush.
func (c *conn) send(msg pgproto3.BackendMessage) {
	c.appendMsg(msg)
	c.flushIfFull()
}

// appendMsg encodes msg at the end of the output buffer.
func (c *conn) appendMsg(msg pgproto3.BackendMessage) {
	n := len(c.out)
	b, err := msg.Encode(c.out)
	if err != nil {
		// Only an oversized message gets here; it is a bug above us. The
		// bytes before n are intact whether or not Encode grew the buffer.
		c.log.Warn("pgwire: cannot encode message", "type", fmt.Sprintf("%T", msg), "err", err)
		b, _ = errorResponse(pgerror.New(pgerror.CodeInternalError, "cannot encode %T: %v", msg, err)).Encode(c.out[:n])
	}
	c.out = b
}

// flushIfFull writes the output buffer out once it holds writeBufferSize
// bytes, so that a large result streams instead of accumulating.
func (c *conn) flushIfFull() {
	if len(c.out) >= writeBufferSize {
		c.flush()
	}
}

// flush writes the pending output in one write. After a write error the
// output is dropped: the connection is dead.
func (c *conn) flush() error {
	if c.werr == nil && len(c.out) > 0 {
		_, c.werr = c.nc.Write(c.out)
	}
	if cap(c.out) > 4*writeBufferSize {
		c.out = nil // one very large message: do not keep its buffer
	} else {
		c.out = c.out[:0]
	}
	return c.werr
}

// serve runs the message loop until the client leaves, a fatal protocol error
// or Shutdown.
func (c *conn) serve() {
	for {
		if !c.be.buffered() {
			// Only a read from the socket can wait: the rest of a pipelined
			// request (Bind, Execute, Sync in one packet) needs no deadline.
			c.armIdleTimeout() // server.go: idle_session_timeout and friends
		}
		msg, err := c.be.Receive()
		if err != nil {
			if !c.idleTimedOut(err) {
				c.receiveFailed(err)
			}
			return
		}
		if c.srv.isShutdown() {
			c.fatal(pgerror.New(pgerror.CodeAdminShutdown, "terminating connection due to administrator command"))
			return
		}
		if _, ok := msg.(*pgproto3.Terminate); ok {
			return
		}
		c.dispatchSafely(msg)
		if c.closed {
			return
		}
		if c.ctx.Err() != nil { // Shutdown interrupted the message
			c.fatal(pgerror.New(pgerror.CodeAdminShutdown, "terminating connection due to administrator command"))
			return
		}
		if c.werr != nil {
			c.log.Debug("pgwire: write failed", "err", c.werr)
			return
		}
	}
}

// receiveFailed ends the connection after Receive failed: silently when the
// socket failed, with a FATAL when the client sent something undecodable.
func (c *conn) receiveFailed(err error) {
	switch {
	case c.srv.isShutdown():
		c.fatal(pgerror.New(pgerror.CodeAdminShutdown, "terminating connection due to administrator command"))
	case c.rd.err != nil:
		c.log.Debug("pgwire: connection read ended", "err", err)
	default:
		c.log.Warn("pgwire: bad frontend message", "err", err)
		c.fatal(pgerror.New(pgerror.CodeProtocolViolation, "invalid frontend message: %v", err))
	}
}

// fatal sends a FATAL ErrorResponse; the caller then closes the connection.
func (c *conn) fatal(e *pgerror.Error) {
	r := errorResponse(e)
	r.Severity, r.SeverityUnlocalized = "FATAL", "FATAL"
	c.send(r)
	c.flush()
}

// dispatchSafely handles one message, turning a panic below it into an
// XX000 error so that a bug never takes the connection or the server down.
func (c *conn) dispatchSafely(msg pgproto3.FrontendMessage) {
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("pgwire: panic handling message", "type", fmt.Sprintf("%T", msg),
				"panic", r, "stack", string(debug.Stack()))
			c.sendError(pgerror.New(pgerror.CodeInternalError, "internal error: %v", r))
			switch msg.(type) {
			case *pgproto3.Query, *pgproto3.Sync:
				c.readyForQuery()
			default:
				c.ignoreTillSync = true
			}
		}
	}()
	c.dispatch(msg)
}

func (c *conn) dispatch(msg pgproto3.FrontendMessage) {
	if c.ignoreTillSync {
		if _, ok := msg.(*pgproto3.Sync); !ok {
			return
		}
	}
	switch m := msg.(type) {
	case *pgproto3.Query:
		c.handleQuery(m.String)
	case *pgproto3.Parse:
		c.extended(c.handleParse(m))
	case *pgproto3.Bind:
		c.extended(c.handleBind(m))
	case *pgproto3.Describe:
		c.extended(c.handleDescribe(m))
	case *pgproto3.Execute:
		c.extended(c.handleExecute(m))
	case *pgproto3.Close:
		c.extended(c.handleClose(m))
	case *pgproto3.Flush:
		c.flush()
	case *pgproto3.Sync:
		c.ignoreTillSync = false
		c.readyForQuery()
	case *pgproto3.CopyData, *pgproto3.CopyDone, *pgproto3.CopyFail:
		// Outside COPY these are ignored, per the protocol.
	case *pgproto3.FunctionCall:
		c.sendError(pgerror.Unimplemented("the function call protocol"))
		c.readyForQuery()
	default:
		c.sendError(pgerror.New(pgerror.CodeProtocolViolation, "unexpected message type %T", msg))
		c.readyForQuery()
	}
}

// extended finishes an extended-protocol message: an error is reported and
// everything up to the next Sync is discarded.
func (c *conn) extended(err error) {
	if err != nil {
		c.sendError(err)
		c.ignoreTillSync = true
	}
}

// readyForQuery ends a query cycle: it drops the portals when no transaction
// block is open (they belonged to an implicit transaction), sends
// ReadyForQuery and flushes.
func (c *conn) readyForQuery() {
	if c.ctx.Err() != nil {
		return // shutting down: the FATAL replaces the reply
	}
	status := c.txnStatus()
	if status == 'I' {
		c.closePortals()
	}
	c.sendSessionEvents()
	c.rfq.TxStatus = status
	c.send(&c.rfq)
	c.flush()
}

// txnStatus is the session's transaction status, 'E' if it panics.
func (c *conn) txnStatus() (status byte) {
	status = 'E'
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("pgwire: panic in session", "panic", r, "stack", string(debug.Stack()))
		}
	}()
	return c.sess.TxnStatus()
}

// sendNotices sends the notices the session raised since the last call.
func (c *conn) sendNotices() {
	c.guard(func() {
		for _, n := range c.sess.TakeNotices() {
			c.send(&pgproto3.NoticeResponse{Severity: n.Severity, SeverityUnlocalized: n.Severity,
				Code: n.Code, Message: n.Message, Hint: n.Hint})
		}
	})
}

// sendSessionEvents sends pending notices and ParameterStatus changes.
func (c *conn) sendSessionEvents() {
	// One guard for both: this runs twice per request.
	c.guard(func() {
		for _, n := range c.sess.TakeNotices() {
			c.send(&pgproto3.NoticeResponse{Severity: n.Severity, SeverityUnlocalized: n.Severity,
				Code: n.Code, Message: n.Message, Hint: n.Hint})
		}
		for _, p := range c.sess.TakeParameterChanges() {
			c.send(&pgproto3.ParameterStatus{Name: p.Name, Value: p.Value})
		}
	})
}

// guard runs f, logging and swallowing a panic: for session calls whose
// failure must not stop the reply in progress.
func (c *conn) guard(f func()) {
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("pgwire: panic in session", "panic", r, "stack", string(debug.Stack()))
		}
	}()
	f()
}

// sendError sends err as an ErrorResponse, after the notices raised before it.
func (c *conn) sendError(err error) {
	if c.ctx.Err() != nil {
		return // shutting down: the FATAL replaces the error
	}
	e := pgerror.Flatten(err)
	if e.Code == pgerror.CodeInternalError {
		c.log.Warn("pgwire: internal error", "pid", c.pid, "err", err)
	} else {
		c.log.Debug("pgwire: statement error", "pid", c.pid, "code", e.Code, "err", err)
	}
	c.guard(func() { c.sess.StatementFailed() })
	c.sendNotices()
	c.send(errorResponse(e))
}

func errorResponse(e *pgerror.Error) *pgproto3.ErrorResponse {
	return &pgproto3.ErrorResponse{
		Severity:            "ERROR",
		SeverityUnlocalized: "ERROR",
		Code:                e.Code,
		Message:             e.Message,
		Detail:              e.Detail,
		Hint:                e.Hint,
		Where:               e.Where,
		Position:            int32(e.Position),
		ConstraintName:      e.Constraint,
		TableName:           e.Table,
		ColumnName:          e.Column,
	}
}

// run calls the engine through f with a context that a CancelRequest for
// this connection or Shutdown cancels. A panic in f becomes an XX000 error,
// and a bare context error becomes 57014 (or 57P01 at shutdown).
func (c *conn) run(f func(ctx context.Context) error) (err error) {
	if c.runCtx == nil || c.runCtx.Err() != nil {
		c.runCtx, c.runCancel = context.WithCancel(c.ctx)
	}
	ctx := c.runCtx
	if c.sess != nil {
		var d time.Duration
		c.guard(func() { d = c.sess.StatementTimeout() })
		if d > 0 {
			var cancelTimeout context.CancelFunc
			ctx, cancelTimeout = context.WithTimeout(ctx, d)
			defer cancelTimeout()
		}
	}
	c.mu.Lock()
	c.running = c.runCancel
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.running = nil
		c.mu.Unlock()
		if r := recover(); r != nil {
			c.log.Error("pgwire: panic in engine", "panic", r, "stack", string(debug.Stack()))
			err = pgerror.New(pgerror.CodeInternalError, "internal error: %v", r)
		}
	}()
	return c.canceled(f(ctx))
}

// cancelRunning cancels the statement in progress; it is called by the
// goroutine serving a CancelRequest. It cancels under mu, so that a cancel
// never reaches a later statement that reuses the context.
func (c *conn) cancelRunning() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running != nil {
		c.running()
	}
}

// canceled maps a bare context error from the engine to the SQLSTATE
// PostgreSQL reports; other errors pass through.
func (c *conn) canceled(err error) error {
	if errors.Is(err, context.DeadlineExceeded) && pgerror.CodeOf(err) == pgerror.CodeInternalError {
		return pgerror.New(pgerror.CodeQueryCanceled, "canceling statement due to statement timeout")
	}
	if !errors.Is(err, context.Canceled) || pgerror.CodeOf(err) != pgerror.CodeInternalError {
		return err
	}
	if c.ctx.Err() != nil {
		return pgerror.New(pgerror.CodeAdminShutdown, "terminating connection due to administrator command")
	}
	return pgerror.New(pgerror.CodeQueryCanceled, "canceling statement due to user request")
}
