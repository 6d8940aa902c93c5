// Package pgwire serves the PostgreSQL v3 frontend/backend protocol over an
// Engine (engine.go), on top of github.com/jackc/pgx/v5/pgproto3 for message
// encoding.
//
// # Layers and ownership
//
//	Server     listeners, the set of live connections (for CancelRequest and
//	           Shutdown), BackendKeyData allocation            server.go
//	startup    SSLRequest/GSSENCRequest/CancelRequest/StartupMessage,
//	           protocol version negotiation, the session       startup.go
//	conn       the message loop, buffered output, error and panic handling,
//	           cancellation                                     conn.go
//	recv       frontend message framing and decoding after startup
//	           (pgproto3's Receive, without allocations for
//	           Bind and Execute)                                recv.go
//	simple     Query                                            simple.go
//	extended   Parse/Bind/Describe/Execute/Close               extended.go
//	portal     prepared statements and portals by name, row streaming with
//	           MaxRows                                          portal.go
//
// pgwire owns sockets, the protocol state machine, and prepared statements
// and portals by name. The Session (from Engine.NewSession) owns the
// transaction and the settings; pgwire asks it for TxnStatus, notices and
// ParameterStatus changes, and never interprets SQL.
//
// # Connection state machine
//
//	           accept
//	             |
//	             v
//	+---------- STARTUP ----------+  SSLRequest, GSSENCRequest: 'N', stay
//	| CancelRequest: cancel the   |  version major != 3: FATAL 08P01
//	| matching backend's running  |  minor > 0 or _pq_.*: NegotiateProtocolVersion
//	| statement, close silently   |  no user: FATAL 28000
//	+-------------+---------------+
//	              | StartupMessage: AuthenticationOk, NewSession (FATAL on
//	              | error), ParameterStatus*, BackendKeyData, ReadyForQuery(I)
//	              v
//	           READY <-------------------------------------------+
//	              |                                              |
//	  Query ------+--> each statement: Prepare, Bind (text),     |
//	              |    RowDescription?, DataRow*, CommandComplete;
//	              |    the first error ends the batch; then      |
//	              |    ReadyForQuery(TxnStatus) ------------------+
//	              |                                              |
//	  Parse/Bind/Describe/Execute/Close/Flush:                   |
//	              |    answered one by one, output batched       |
//	              |    error --> ErrorResponse, IGNORE_TILL_SYNC |
//	              |              (every message but Sync and     |
//	              |              Terminate is discarded)         |
//	  Sync -------+--> leave IGNORE_TILL_SYNC, ReadyForQuery ----+
//	              |
//	  Terminate, EOF, undecodable message (FATAL 08P01),
//	  Shutdown (FATAL 57P01) --> CLOSED: portals closed, Session.Close
//
// Portals: the unnamed statement and portal are replaced silently; a named
// statement must be closed before its name is reused (42P05), and so must a
// named portal (42P03). At every ReadyForQuery with status 'I' all portals
// are closed: outside a transaction block they belonged to an implicit
// transaction that has ended. Inside a block ('T' or 'E') they survive Sync,
// so a client can page through a named portal with Execute MaxRows and
// PortalSuspended across Syncs (pgjdbc setFetchSize). A portal whose Execute
// fails is closed.
//
// Execute MaxRows: as in PostgreSQL, PortalSuspended follows the MaxRows-th
// row whether or not more rows follow, and CommandComplete ends an Execute
// that exhausted the portal (SELECT 0 when it found no rows left).
//
// # Output buffering
//
// Messages are encoded straight into a per-connection output buffer, and
// so are DataRows when the engine's Portal is a RowAppender (no slice per
// row or value). It is written out in one write at ReadyForQuery, at
// Flush, when it passes writeBufferSize (so a large result streams without
// being held), and before every read from the socket: the
// message reader only reads when it has consumed everything the client sent,
// so pipelined messages are answered in one write and the client never waits
// on output the server still holds.
//
// # Cancellation and errors
//
// Every engine call runs with a context canceled by a CancelRequest naming
// this connection's BackendKeyData or by Server.Shutdown. An engine error is
// flattened once with pgerror.Flatten into an ErrorResponse; a bare
// context.Canceled becomes 57014 (57P01 at shutdown). A panic in the engine
// is recovered, logged with its stack and reported as XX000; the connection
// keeps working. Shutdown ends each connection with FATAL 57P01.
package pgwire
