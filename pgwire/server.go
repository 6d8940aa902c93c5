package pgwire

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"math"
	"net"
	"sync"
	"time"
)

// Server serves the PostgreSQL v3 protocol for an Engine. It is safe for
// concurrent use; one Server may Serve several listeners.
type Server struct {
	engine Engine
	log    *slog.Logger

	// base is the parent of every connection's context; Shutdown cancels it,
	// which cancels every running statement.
	base       context.Context
	cancelBase context.CancelFunc

	mu        sync.Mutex
	shutdown  bool
	listeners map[net.Listener]struct{}
	conns     map[uint32]*conn // live, started connections by BackendKeyData pid
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

// NewServer returns a Server that serves engine.
func NewServer(engine Engine, opts ...Option) *Server {
	s := &Server{
		engine:    engine,
		log:       slog.New(slog.NewTextHandler(io.Discard, nil)),
		listeners: make(map[net.Listener]struct{}),
		conns:     make(map[uint32]*conn),
		raw:       make(map[net.Conn]struct{}),
	}
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

func (s *Server) isShutdown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shutdown
}

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
// CancelRequest. It reports false after Shutdown.
func (s *Server) register(c *conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shutdown {
		return false
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
		return true
	}
}

func (s *Server) unregister(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conns[c.pid] == c {
		delete(s.conns, c.pid)
	}
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
