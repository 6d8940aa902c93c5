package pgwire

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"math"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// Server serves the PostgreSQL v3 protocol for an Engine. It is safe for
// concurrent use; one Server may Serve several listeners.
type Server struct {
	engine Engine
	log    *slog.Logger

	// roles checks passwords (WithSCRAM); nil trusts every client.
	roles RoleLookup
	// mockSecret seeds the mock verifiers of roles that cannot log in.
	mockSecret []byte
	// tls answers SSLRequest with 'S' when set (WithTLS); tlsRequired
	// refuses clients that do not ask for it.
	tls         *tls.Config
	tlsRequired bool
	// maxConns bounds the started connections (0: no bound);
	// maxMessage bounds one frontend message's body.
	maxConns   int
	maxMessage int
	// poll is the busy polling of idle client sockets (busypoll.go);
	// nil polls never.
	poll *busyPoll

	// base is the parent of every connection's context; Shutdown cancels it,
	// which cancels every running statement.
	base       context.Context
	cancelBase context.CancelFunc

	mu       sync.Mutex
	shutdown bool
	// down mirrors shutdown for the per-message check (conn.serve), which
	// must not contend on mu; it is written under mu.
	down      atomic.Bool
	listeners map[net.Listener]struct{}
	conns     map[uint32]*conn // live, started connections by BackendKeyData pid
	// roleConns counts the authenticated connections of each role with a
	// CONNECTION LIMIT; roleOf names the role of each counted pid.
	roleConns map[string]int
	roleOf    map[uint32]string
	raw       map[net.Conn]struct{}
	wg        sync.WaitGroup
}

// Option configures a Server.
type Option func(*Server)

// WithLogger sets the logger. The default discards everything.
func WithLogger(l *slog.Logger) Option {
	return func(s *Server) {
		if l != nil {
			s.log = l
		}
	}
}

// WithTLS makes the server answer SSLRequest with 'S' and run TLS with
// config (its certificates; the minimum version is raised to TLS 1.2).
// With required set, a client that does not ask for TLS is refused with
// FATAL 28000.
func WithTLS(config *tls.Config, required bool) Option {
	return func(s *Server) {
		if config != nil {
			s.tls = config.Clone()
			s.tls.MinVersion = max(s.tls.MinVersion, tls.VersionTLS12)
			s.tlsRequired = required
		}
	}
}

// DefaultMaxConnections is PostgreSQL's max_connections default.
const DefaultMaxConnections = 100

// WithMaxConnections bounds the client connections served at once: one
// more gets FATAL 53300 "sorry, too many clients already". n <= 0 means no
// bound. The default is DefaultMaxConnections.
func WithMaxConnections(n int) Option {
	return func(s *Server) { s.maxConns = max(n, 0) }
}

// DefaultMaxMessageSize bounds one frontend message unless
// WithMaxMessageSize says otherwise.
const DefaultMaxMessageSize = 64 << 20

// WithMaxMessageSize bounds the body of one frontend message (a Query, a
// Bind with its parameters, a CopyData). A longer message gets FATAL 08P01
// and its connection closes; n <= 0 or above 1 GiB means 1 GiB,
// PostgreSQL's own bound.
func WithMaxMessageSize(n int) Option {
	return func(s *Server) {
		if n <= 0 || n > maxMessageBody {
			n = maxMessageBody
		}
		s.maxMessage = n
	}
}

// WithBusyPoll sets the longest a connection polls its socket for the
// client's next message before sleeping, when every other connection is
// waiting too; the time actually polled adapts to the clients
// (busypoll.go). d <= 0 turns polling off; d is at most 1ms. The default is
// DefaultBusyPoll. Polling needs Linux and at least two processors
// (GOMAXPROCS); otherwise it is always off.
func WithBusyPoll(d time.Duration) Option {
	return func(s *Server) { s.poll = newBusyPoll(d) }
}

// NewServer returns a Server that serves engine.
func NewServer(engine Engine, opts ...Option) *Server {
	s := &Server{
		engine:     engine,
		log:        slog.New(slog.NewTextHandler(io.Discard, nil)),
		listeners:  make(map[net.Listener]struct{}),
		conns:      make(map[uint32]*conn),
		raw:        make(map[net.Conn]struct{}),
		roleConns:  make(map[string]int),
		roleOf:     make(map[uint32]string),
		mockSecret: make([]byte, 32),
		maxConns:   DefaultMaxConnections,
		maxMessage: DefaultMaxMessageSize,
		poll:       newBusyPoll(DefaultBusyPoll),
	}
	rand.Read(s.mockSecret)
	s.base, s.cancelBase = context.WithCancel(context.Background())
	for _, o := range opts {
		o(s)
	}
	return s
}

// Serve accepts connections on ln and serves each on its own goroutine. It
// returns nil when ctx is done or Shutdown was called (closing ln either way),
// and the accept error when ln fails otherwise. Connections already accepted
// are not affected by ctx; they end with Shutdown or when the client leaves.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	s.mu.Lock()
	if s.shutdown {
		s.mu.Unlock()
		ln.Close()
		return nil
	}
	s.listeners[ln] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.listeners, ln)
		s.mu.Unlock()
	}()

	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()

	var backoff time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || s.isShutdown() {
				return nil
			}
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			// Resource exhaustion (EMFILE and friends): back off and retry.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			s.log.Warn("pgwire: accept failed; retrying", "err", err, "backoff", backoff)
			select {
			case <-time.After(backoff):
				continue
			case <-ctx.Done():
				return nil
			}
		}
		backoff = 0
		nc = newRawSocket(nc, s.poll) // rawsock.go; TLS, when negotiated, runs over it
		if !s.track(nc) {
			nc.Close()
			continue
		}
		go func() {
			defer s.wg.Done()
			defer s.untrack(nc)
			s.serveConn(nc)
		}()
	}
}

// Shutdown stops accepting connections, cancels running statements, ends
// every client connection with a FATAL 57P01 "terminating connection due to
// administrator command", and waits for the connection goroutines. When ctx
// ends first, it closes the remaining sockets and returns ctx.Err().
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.shutdown = true
	s.down.Store(true)
	for ln := range s.listeners {
		ln.Close()
	}
	// Wake every connection blocked in a read; each then sees the shutdown
	// flag, says goodbye and closes.
	for nc := range s.raw {
		nc.SetReadDeadline(time.Now())
	}
	s.mu.Unlock()
	s.cancelBase()

	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		s.mu.Lock()
		for nc := range s.raw {
			nc.Close()
		}
		s.mu.Unlock()
		<-done
		return ctx.Err()
	}
}

func (s *Server) isShutdown() bool { return s.down.Load() }

// track registers an accepted socket; it reports false after Shutdown.
func (s *Server) track(nc net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shutdown {
		return false
	}
	s.raw[nc] = struct{}{}
	s.wg.Add(1)
	return true
}

func (s *Server) untrack(nc net.Conn) {
	s.mu.Lock()
	delete(s.raw, nc)
	s.mu.Unlock()
	nc.Close()
}

// register assigns c a unique BackendKeyData and makes it reachable by
// CancelRequest. It fails with 57P01 after Shutdown and with 53300 when
// the server serves its maximum of connections already.
func (s *Server) register(c *conn) *pgerror.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shutdown {
		return pgerror.New(pgerror.CodeAdminShutdown, "the database system is shutting down")
	}
	if s.maxConns > 0 && len(s.conns) >= s.maxConns {
		return pgerror.New(codeTooManyConnection, "sorry, too many clients already")
	}
	for {
		var b [8]byte
		rand.Read(b[:])
		pid := binary.BigEndian.Uint32(b[:4]) % math.MaxInt32
		if _, dup := s.conns[pid]; pid == 0 || dup {
			continue
		}
		c.pid = pid
		c.secret = b[4:]
		s.conns[pid] = c
		return nil
	}
}

func (s *Server) unregister(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conns[c.pid] == c {
		delete(s.conns, c.pid)
		if role, ok := s.roleOf[c.pid]; ok {
			delete(s.roleOf, c.pid)
			if s.roleConns[role]--; s.roleConns[role] <= 0 {
				delete(s.roleConns, role)
			}
		}
	}
}

// admitRole counts c against its role's CONNECTION LIMIT (limit < 0: none),
// failing with 53300 when the role has that many connections already.
func (s *Server) admitRole(c *conn, role string, limit int) *pgerror.Error {
	if limit < 0 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.roleConns[role] >= limit {
		return pgerror.New(codeTooManyConnection, "too many connections for role %q", role)
	}
	s.roleConns[role]++
	s.roleOf[c.pid] = role
	return nil
}

// cancel cancels the running statement of the connection with the given
// BackendKeyData, if any. A wrong secret is ignored, as PostgreSQL does.
func (s *Server) cancel(pid uint32, secret []byte) {
	s.mu.Lock()
	c := s.conns[pid]
	s.mu.Unlock()
	if c == nil || subtle.ConstantTimeCompare(c.secret, secret) != 1 {
		s.log.Debug("pgwire: cancel request for unknown backend", "pid", pid)
		return
	}
	c.cancelRunning()
}

// IdleTimeouts is implemented by a Session that bounds how long a client
// may stay idle: idle_in_transaction_session_timeout (inTransaction, in a
// transaction block) and idle_session_timeout (idle, outside one); 0 is no
// bound. A connection idle longer gets FATAL 25P03 or 57P05 and closes.
type IdleTimeouts interface {
	IdleTimeouts() (inTransaction, idle time.Duration)
}

// SQLSTATEs of the idle timeouts.
const (
	codeIdleInTransactionTimeout = "25P03" // idle_in_transaction_session_timeout
	codeIdleSessionTimeout       = "57P05" // idle_session_timeout
)

// idleTimeout is the bound on the wait for the next message in the
// session's current state, and whether it is the idle-in-transaction one.
func (c *conn) idleTimeout() (d time.Duration, inTxn bool) {
	it, ok := c.sess.(IdleTimeouts)
	if !ok {
		return 0, false
	}
	var txnBound, idle time.Duration
	status := byte('I')
	c.guard(func() {
		txnBound, idle = it.IdleTimeouts()
		status = c.sess.TxnStatus()
	})
	if status == 'I' {
		return idle, false
	}
	return txnBound, true
}

// armIdleTimeout sets the read deadline before the wait for the next
// message (conn.serve). After Shutdown it leaves the deadline Shutdown set.
// With no timeout in force and no deadline set it does nothing: this runs
// before every message.
func (c *conn) armIdleTimeout() {
	d, _ := c.idleTimeout()
	if d <= 0 && !c.deadlineSet {
		return
	}
	var deadline time.Time
	if d > 0 {
		deadline = time.Now().Add(d)
	}
	c.srv.mu.Lock()
	defer c.srv.mu.Unlock()
	if !c.srv.shutdown {
		c.nc.SetReadDeadline(deadline)
		c.deadlineSet = d > 0
	}
}

// idleTimedOut reports whether err, from the wait for the next message,
// is an idle timeout; if so it sends the FATAL that ends the connection.
func (c *conn) idleTimedOut(err error) bool {
	var ne net.Error
	if c.srv.isShutdown() || !errors.As(err, &ne) || !ne.Timeout() {
		return false
	}
	d, inTxn := c.idleTimeout()
	if d <= 0 {
		return false
	}
	e := pgerror.New(codeIdleSessionTimeout, "terminating connection due to idle-session timeout")
	if inTxn {
		e = pgerror.New(codeIdleInTransactionTimeout, "terminating connection due to idle-in-transaction timeout")
	}
	c.log.Info("pgwire: idle timeout", "err", e.Message)
	c.fatal(e)
	return true
}
