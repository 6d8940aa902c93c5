package pgwire

import (
	"context"
	"time"
)

// Engine is what the wire layer serves. exec implements it.
type Engine interface {
	// NewSession opens a session for one client connection. params are the
	// startup parameters (user, database, client_encoding, DateStyle,
	// TimeZone, application_name, options...).
	NewSession(ctx context.Context, params map[string]string) (Session, error)
}

// Session is one client's state: prepared statements live in pgwire, but the
// transaction and settings live here. A Session is used by one goroutine.
type Session interface {
	// Parse splits sql into statements and parses each. It does not plan.
	// An empty or comment-only string returns no statements and no error.
	// Errors carry SQLSTATE 42601 with a position in sql.
	Parse(ctx context.Context, sql string) ([]Statement, error)
	// Prepare plans one parsed statement. paramOIDs are the client's declared
	// parameter types (0 = infer); the returned Prepared reports the final
	// types for every parameter the statement uses.
	Prepare(ctx context.Context, stmt Statement, paramOIDs []uint32) (Prepared, error)
	// TxnStatus is 'I' (idle), 'T' (in a transaction block) or 'E' (in a
	// failed transaction block), for ReadyForQuery.
	TxnStatus() byte
	// ParameterStatus returns the run-time parameters to report at startup,
	// in a stable order.
	ParameterStatus() []Param
	// TakeParameterChanges returns reported parameters changed by statements
	// since the last call (for ParameterStatus messages after SET).
	TakeParameterChanges() []Param
	// TakeNotices returns notices raised since the last call.
	TakeNotices() []Notice
	// StatementFailed tells the session an ErrorResponse was sent, whoever
	// raised it (pgwire raises 26000, 34000, 42P05, 08P01 itself): inside a
	// transaction block the block is now failed ('E'), as in PostgreSQL.
	StatementFailed()
	// SetPreparedStatements gives the session the connection's prepared
	// statements, right after NewSession, so that DEALLOCATE and DISCARD
	// ALL can drop them.
	SetPreparedStatements(PreparedStatements)
	// StartQuery is called when a simple Query message has been parsed
	// into n statements, before the first runs; EndQuery after the last
	// ran or one failed (failed), before ReadyForQuery. A session runs the
	// statements of a multi-statement Query outside a transaction block as
	// one implicit transaction: EndQuery commits it, or rolls it back
	// after a failure, and an error it returns (a commit conflict) is sent
	// as the Query's ErrorResponse.
	StartQuery(n int)
	EndQuery(ctx context.Context, failed bool) error
	// StatementTimeout is the statement_timeout in force (0: none); the
	// connection cancels a statement running longer with 57014.
	StatementTimeout() time.Duration
	// Close ends the session, rolling back an open transaction.
	Close()
}

// PreparedStatements is the connection's named prepared statements, as a
// session drops them. Called only from inside a session call on the
// connection's goroutine.
type PreparedStatements interface {
	// Deallocate drops the prepared statement name ("" is the unnamed
	// one) and reports whether it existed.
	Deallocate(name string) bool
	// DeallocateAll drops every prepared statement.
	DeallocateAll()
}

// Param is a run-time parameter reported with ParameterStatus.
type Param struct{ Name, Value string }

// Notice is a NoticeResponse: Severity is NOTICE, WARNING, INFO...
type Notice struct{ Severity, Code, Message, Hint string }

// Statement is one parsed statement.
type Statement interface {
	// SQL returns the statement's text as the client sent it.
	SQL() string
}

// Column describes one result column for RowDescription.
type Column struct {
	Name         string
	TableOID     uint32
	ColumnAttr   int16
	TypeOID      uint32
	TypeSize     int16
	TypeModifier int32
}

// Prepared is a planned statement. It can be bound many times.
type Prepared interface {
	// ParamOIDs returns the type OID of each parameter $1..$n.
	ParamOIDs() []uint32
	// Columns returns the result columns, or nil when the statement returns
	// no rows (NoData).
	Columns() []Column
	// Bind creates a portal. params[i] is nil for NULL; paramFormats and
	// resultFormats follow the Bind message rules (0, 1 or n entries;
	// 0 = text, 1 = binary). Errors: 22P02/22P03 for undecodable parameters,
	// 08P01 for a wrong parameter count. params, paramFormats and
	// resultFormats are valid only during the call (they alias the
	// connection's receive buffer): a Portal must copy what it keeps.
	Bind(ctx context.Context, params [][]byte, paramFormats []int16, resultFormats []int16) (Portal, error)
}

// Portal is a bound statement being executed.
type Portal interface {
	// Columns is the same as Prepared.Columns.
	Columns() []Column
	// ResultFormats returns the per-column format code actually used (0 or 1).
	ResultFormats() []int16
	// Next returns the next row, each value encoded in its column's result
	// format, nil for NULL. It returns io.EOF when the statement is complete.
	// Statements without rows do their work on the first call. The returned
	// slices are valid until the next call.
	Next(ctx context.Context) ([][]byte, error)
	// Tag returns the command tag ("SELECT 3", "INSERT 0 1") once Next has
	// returned io.EOF.
	Tag() string
	// Close releases the portal's resources. Safe to call more than once.
	Close()
}

// PortalReleaser is an optional capability of a Portal, found by type
// assertion: the connection calls Release after Close when it drops the
// portal and will call none of its methods again, so the engine may
// reuse the portal's memory for a later Bind.
type PortalReleaser interface {
	Release()
}

// RowAppender is an optional capability of a Portal, found by type
// assertion: the next row encoded straight into the connection's output
// buffer, with no slice per row or value in between.
type RowAppender interface {
	// AppendRow appends the next row as the body of a DataRow message
	// after its type and length (the value count as an int16, then each
	// value as an int32 length, -1 for NULL, and its bytes in the
	// column's result format) to dst and returns the extended buffer.
	// At the end it returns io.EOF, and errors as Next does; dst's
	// contents are then unchanged (what is past len(dst) may be).
	AppendRow(ctx context.Context, dst []byte) ([]byte, error)
}

// CopyPreparer is an optional capability of a Prepared, found by type
// assertion: binding a COPY ... FROM STDIN or TO STDOUT statement, whose
// rows travel in the COPY sub-protocol instead of DataRows (copy.go).
type CopyPreparer interface {
	// BindCopy binds the statement when it is a COPY and returns its
	// portal; it returns nil, nil for any other statement (use Bind).
	// Errors are those of Bind; the arguments are valid only during the
	// call, as in Bind.
	BindCopy(ctx context.Context, params [][]byte, paramFormats []int16) (CopyPortal, error)
}

// CopyPortal is a bound COPY statement. Its Columns are nil.
//
// COPY TO STDOUT (CopyIn false): Next returns one value per row, the row's
// CopyData payload with its line terminator, then io.EOF; Tag is then
// "COPY n".
//
// COPY FROM STDIN (CopyIn true): the client's CopyData payloads go to
// CopyData, then CopyDone or CopyFail ends the COPY; Next is not called.
// After an error from any of them the COPY is over and has loaded nothing.
type CopyPortal interface {
	Portal
	// CopyIn reports the direction: true for FROM STDIN.
	CopyIn() bool
	// CopyFormat returns the overall format (0 text, which CSV is too;
	// 1 binary) and each column's format code, for CopyInResponse and
	// CopyOutResponse.
	CopyFormat() (overall byte, columns []uint16)
	// CopyData consumes one chunk of data; chunks need not align with
	// rows. data is valid only during the call.
	CopyData(ctx context.Context, data []byte) error
	// CopyDone ends the data and loads all of it atomically; Tag is then
	// "COPY n".
	CopyDone(ctx context.Context) error
	// CopyFail aborts the COPY with the client's message and returns the
	// error to report (57014 "COPY from stdin failed: msg").
	CopyFail(ctx context.Context, msg string) error
}

// CursorDescriber is implemented by sessions with SQL cursors (DECLARE
// name CURSOR): Describe of a portal the connection did not bind looks
// the name up there, as PostgreSQL's cursors are portals.
type CursorDescriber interface {
	// DescribeCursor returns the open cursor's result columns.
	DescribeCursor(name string) ([]Column, bool)
}
