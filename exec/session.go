package exec

import (
	"context"
	"strings"
	"time"

	"github.com/widesql/widesql/pgwire"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
	"github.com/widesql/widesql/sqlparse"
)

// Session is one client's state: settings, the transaction block and its
// kv transaction (exec/txn.go). It implements pgwire.Session and is used
// by one goroutine at a time.
type Session struct {
	eng     *Engine
	values  map[string]string // current settings by canonical name
	startup map[string]string
	txn     byte     // 'I', 'T' or 'E', as ReadyForQuery reports it
	tx      txnState // the open block, if any
	changes []pgwire.Param
	notices []pgwire.Notice
	stmts   pgwire.PreparedStatements // the connection's, for DEALLOCATE and DISCARD
	seqLast map[string]int64          // currval by sequence name, "" for lastval (exec/seqfuncs.go)
	// zoneLoc caches the TimeZone setting zoneName resolves to (exec/timezone.go).
	zoneLoc  *time.Location
	zoneName string
	// cursors are the open server-side cursors by name (cursor.go).
	cursors map[string]*cursor
	// cache holds parsed and planned statements (stmtcache.go).
	cache stmtCache
	// timeouts are the parsed values of the duration settings the wire
	// server asks for around every message, kept in step with values by
	// setValue (cacheTimeout).
	timeouts sessionTimeouts
	// encScratch is the idle portal row buffers (prepared.go), nil while
	// a portal holds them.
	encScratch *encodeScratch
	// autocommit is the last autocommit handle kvTable made (txn.go), for
	// the next statement on the same table.
	autocommit autocommitHandle
}

// sessionTimeouts are parsed duration settings (0: none).
type sessionTimeouts struct {
	statement, idleInTxn, idle time.Duration
}

var _ pgwire.Session = (*Session)(nil)

func newSession(e *Engine, params map[string]string) (*Session, error) {
	s := &Session{eng: e, values: map[string]string{}, startup: params, txn: 'I'}
	for _, st := range settings {
		s.values[st.name] = st.def
	}
	s.values["session_authorization"] = params["user"]
	for k, v := range params {
		switch k {
		case "user", "database", "options", "replication":
			continue
		}
		st, err := lookupSetting(k)
		if err != nil || st.readOnly {
			continue // PostgreSQL rejects these at startup; clients send few
		}
		if v, err = validateSetting(st, v); err != nil {
			return nil, err
		}
		s.values[st.name] = v
	}
	for _, name := range timeoutSettings {
		s.cacheTimeout(name)
	}
	s.changes = nil
	return s, nil
}

// param returns a startup parameter such as "user" or "database".
func (s *Session) param(name string) string { return s.startup[name] }

// statement is a parsed statement handed to pgwire. Statements from the
// session's cache (stmtcache.go) carry what the cache needs.
type statement struct {
	p sqlparse.Statement
	// cacheable: p came from the texts cache, plans holds its plans.
	cacheable bool
	plans     []planEntry
	// shape is set for a parameterized SELECT: literals are this text's
	// constants and orig the text itself.
	shape    *cachedShape
	literals []sqlparse.Literal
	orig     string
}

func (st *statement) SQL() string {
	if st.shape != nil {
		return st.orig
	}
	return st.p.SQL
}

// Parse implements pgwire.Session.
func (s *Session) Parse(ctx context.Context, sql string) ([]pgwire.Statement, error) {
	return s.parseCached(sql) // stmtcache.go
}

// Prepare implements pgwire.Session.
func (s *Session) Prepare(ctx context.Context, pst pgwire.Statement, oids []uint32) (pgwire.Prepared, error) {
	st := pst.(*statement)
	if s.txn == 'E' && !endsTxn(&st.p) {
		return nil, errAborted()
	}
	switch {
	case st.shape != nil:
		return s.prepareShape(ctx, st, oids) // stmtcache.go
	case st.cacheable && planAhead(&st.p):
		return s.prepareCached(ctx, st, oids)
	}
	return s.prepare(ctx, &st.p, oids)
}

// prepare plans stmt with the client's declared parameter types.
func (s *Session) prepare(ctx context.Context, stmt *sqlparse.Statement, oids []uint32) (pgwire.Prepared, error) {
	if s.txn == 'E' && !endsTxn(stmt) {
		return nil, errAborted()
	}
	declared := make([]types.T, len(oids))
	for i, oid := range oids {
		if oid == 0 {
			continue
		}
		t, ok := types.TypeFromOID(oid)
		if !ok {
			return nil, s.fail(pgerror.New(pgerror.CodeFeatureNotSupported, "parameter $%d has unsupported type OID %d", i+1, oid))
		}
		declared[i] = t
	}
	if stmt.Cursor != nil || stmt.Utility != nil {
		p := &prepared{sess: s, stmt: stmt, declared: declared, gen: s.eng.cat.gen.Load(), zone: s.zone()}
		if stmt.Cursor != nil {
			return s.prepareCursor(p, stmt.Cursor) // cursor.go
		}
		p.paramTypes = declared
		p.cols = utilityColumns(stmt.Utility)
		return p, nil
	}
	p, err := s.planStatement(stmt, declared)
	if err != nil {
		return nil, s.fail(err)
	}
	return p, nil
}

// planStatement plans a query, DML or DDL statement. It does not record a
// failure: its callers decide.
func (s *Session) planStatement(stmt *sqlparse.Statement, declared []types.T) (*prepared, error) {
	p := &prepared{sess: s, stmt: stmt, declared: declared, gen: s.eng.cat.gen.Load(), zone: s.zone()}
	plan, pt, err := planner.BuildIn(s.eng.cat, stmt, declared, p.zone)
	if err != nil {
		return nil, err
	}
	p.plan, p.paramTypes = plan, pt
	p.cols = wireColumns(plan.Columns())
	return p, nil
}

func endsTxn(stmt *sqlparse.Statement) bool {
	if stmt.Utility == nil {
		return false
	}
	switch stmt.Utility.Kind {
	case sqlparse.Commit, sqlparse.Rollback, sqlparse.RollbackTo:
		return true
	}
	return false
}

func errAborted() error {
	return pgerror.New(pgerror.CodeInFailedSQLTransaction, "current transaction is aborted, commands ignored until end of transaction block")
}

// fail records a statement error: inside a transaction block it aborts the
// block, as in PostgreSQL.
func (s *Session) fail(err error) error {
	if err != nil && s.txn == 'T' {
		s.txn = 'E'
	}
	return err
}

// StatementFailed implements pgwire.Session.
func (s *Session) StatementFailed() { _ = s.fail(errAborted()) }

// TxnStatus implements pgwire.Session.
func (s *Session) TxnStatus() byte { return s.txn }

// ParameterStatus implements pgwire.Session.
func (s *Session) ParameterStatus() []pgwire.Param {
	var out []pgwire.Param
	for _, name := range sortedSettingNames() {
		if st := settings[strings.ToLower(name)]; st.reported {
			out = append(out, pgwire.Param{Name: name, Value: s.values[name]})
		}
	}
	return out
}

// TakeParameterChanges implements pgwire.Session.
func (s *Session) TakeParameterChanges() []pgwire.Param {
	c := s.changes
	s.changes = nil
	return c
}

// TakeNotices implements pgwire.Session.
func (s *Session) TakeNotices() []pgwire.Notice {
	n := s.notices
	s.notices = nil
	return n
}

func (s *Session) notice(severity, code, msg string) {
	s.notices = append(s.notices, pgwire.Notice{Severity: severity, Code: code, Message: msg})
}

// noticeHint raises a notice with a HINT field.
func (s *Session) noticeHint(severity, code, msg, hint string) {
	s.notices = append(s.notices, pgwire.Notice{Severity: severity, Code: code, Message: msg, Hint: hint})
}

// Close implements pgwire.Session: an open block is rolled back.
func (s *Session) Close() {
	if s.tx.block {
		s.rollbackBlock()
	}
	s.closeCursors(func(*cursor) bool { return true })
}

// SetPreparedStatements implements pgwire.Session.
func (s *Session) SetPreparedStatements(ps pgwire.PreparedStatements) { s.stmts = ps }

// StatementTimeout implements pgwire.Session: statement_timeout.
func (s *Session) StatementTimeout() time.Duration { return s.timeouts.statement }

// timeoutSettings are the settings sessionTimeouts holds parsed.
var timeoutSettings = []string{"statement_timeout", "idle_in_transaction_session_timeout", "idle_session_timeout"}

// cacheTimeout re-parses setting name into s.timeouts when it is one of
// timeoutSettings. Values were validated when set, so a parse error
// cannot happen; it would read as 0 (no timeout), as before caching.
func (s *Session) cacheTimeout(name string) {
	var d *time.Duration
	switch name {
	case "statement_timeout":
		d = &s.timeouts.statement
	case "idle_in_transaction_session_timeout":
		d = &s.timeouts.idleInTxn
	case "idle_session_timeout":
		d = &s.timeouts.idle
	default:
		return
	}
	ms, _ := parseUnits(s.values[name], "ms", timeUnits)
	*d = time.Duration(ms) * time.Millisecond
}

func wireColumns(cols []planner.ResultColumn) []pgwire.Column {
	if cols == nil {
		return nil
	}
	out := make([]pgwire.Column, len(cols))
	for i, c := range cols {
		out[i] = pgwire.Column{
			Name: c.Name, TypeOID: c.T.OID(), TypeSize: c.T.TypeSize(), TypeModifier: c.T.TypeModifier(),
			TableOID: c.TableID, ColumnAttr: c.ColumnAttr,
		}
	}
	return out
}
