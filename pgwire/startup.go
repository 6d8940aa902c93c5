package pgwire

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// Startup packet codes (the first four bytes after the length).
const (
	sslRequestCode    = 80877103
	gssEncRequestCode = 80877104
	cancelRequestCode = 80877102
)

const (
	// startupTimeout bounds how long a client may take to send its startup
	// packets, like PostgreSQL's authentication_timeout.
	startupTimeout = time.Minute
	// maxStartupPacket is PostgreSQL's MAX_STARTUP_PACKET_LENGTH.
	maxStartupPacket = 10000
	// maxMessageBody bounds one frontend message after startup.
	maxMessageBody = 1 << 30
)

const codeInvalidAuthorization = "28000" // invalid_authorization_specification

// serveConn runs one accepted socket (wrapped by newRawSocket) from the
// first byte to close.
func (s *Server) serveConn(nc net.Conn) {
	log := s.log.With("remote", nc.RemoteAddr().String())
	nc.SetReadDeadline(time.Now().Add(startupTimeout))
	if s.isShutdown() {
		return
	}
	nc, params, err := s.readStartup(nc)
	if err != nil {
		var pe *pgerror.Error
		if errors.As(err, &pe) {
			writeFatal(nc, pe)
		}
		if !errors.Is(err, errStartupDone) {
			log.Debug("pgwire: startup failed", "err", err)
		}
		return
	}

	c := &conn{
		srv:     s,
		nc:      nc,
		out:     make([]byte, 0, writeBufferSize+writeBufferSize/4),
		stmts:   make(map[string]*statement),
		portals: make(map[string]*portal),
	}
	c.rd = &flushingReader{c: c}
	c.be = newFrontendReader(c.rd) // recv.go
	c.be.SetMaxBodyLen(s.maxMessage)
	var cancel func()
	c.ctx, cancel = context.WithCancel(s.base)
	defer cancel()

	if e := s.register(c); e != nil {
		writeFatal(nc, e)
		return
	}
	defer s.unregister(c)
	c.log = log.With("pid", c.pid, "user", params["user"], "database", params["database"])

	// As in PostgreSQL, authentication (still under the startup timeout)
	// comes before the session (database, settings) is set up.
	connLimit, err := c.authenticate(params["user"]) // auth.go
	if err == nil {
		if e := s.admitRole(c, params["user"], connLimit); e != nil {
			err = e
		}
	}
	if err != nil {
		var pe *pgerror.Error
		if errors.As(err, &pe) {
			c.fatal(pe)
		}
		c.log.Debug("pgwire: authentication ended the connection", "err", err)
		return
	}
	nc.SetReadDeadline(time.Time{})
	err = c.run(func(ctx context.Context) error {
		var err error
		c.sess, err = s.engine.NewSession(ctx, params)
		if err == nil {
			c.sess.SetPreparedStatements(connStatements{c})
		}
		return err
	})
	if err != nil {
		c.log.Warn("pgwire: cannot open session", "err", err)
		c.fatal(pgerror.Flatten(err))
		return
	}
	c.log.Debug("pgwire: connection opened")
	defer func() {
		c.closePortals()
		c.run(func(context.Context) error { c.sess.Close(); return nil })
		c.log.Debug("pgwire: connection closed")
	}()

	c.guard(func() {
		for _, p := range c.sess.ParameterStatus() {
			c.send(&pgproto3.ParameterStatus{Name: p.Name, Value: p.Value})
		}
	})
	c.send(&pgproto3.BackendKeyData{ProcessID: c.pid, SecretKey: c.secret})
	c.send(&pgproto3.ReadyForQuery{TxStatus: 'I'})
	if c.flush() != nil {
		return
	}
	c.serve()
}

// errStartupDone ends a connection that was only a CancelRequest.
var errStartupDone = errors.New("pgwire: startup packet handled")

// readStartup reads startup packets until the StartupMessage, answering
// SSLRequest ('S' and a TLS handshake when the server has a certificate,
// else 'N') and GSSENCRequest ('N'), and serving a CancelRequest. It returns
// the connection to go on with (nc, or the TLS connection over it) and the
// startup parameters; a *pgerror.Error is sent to the client as FATAL by the
// caller.
func (s *Server) readStartup(nc net.Conn) (net.Conn, map[string]string, error) {
	secure := false
	for {
		body, err := readStartupPacket(nc)
		if err != nil {
			return nc, nil, err
		}
		code := binary.BigEndian.Uint32(body)
		switch code {
		case sslRequestCode:
			if s.tls == nil || secure {
				if _, err := nc.Write([]byte{'N'}); err != nil {
					return nc, nil, err
				}
				continue
			}
			if _, err := nc.Write([]byte{'S'}); err != nil {
				return nc, nil, err
			}
			tc := tls.Server(nc, s.tls)
			if err := tc.Handshake(); err != nil {
				return nc, nil, fmt.Errorf("pgwire: TLS handshake: %w", err)
			}
			nc, secure = tc, true
			continue
		case gssEncRequestCode:
			if _, err := nc.Write([]byte{'N'}); err != nil {
				return nc, nil, err
			}
			continue
		case cancelRequestCode:
			var m pgproto3.CancelRequest
			if err := m.Decode(body); err != nil {
				return nc, nil, err
			}
			s.cancel(m.ProcessID, m.SecretKey)
			return nc, nil, errStartupDone
		}
		if major := code >> 16; major != 3 {
			return nc, nil, pgerror.New(pgerror.CodeProtocolViolation,
				"unsupported frontend protocol %d.%d: server supports 3.0 to 3.0", major, code&0xffff)
		}
		params, unknown, err := parseStartupParams(body[4:])
		if err != nil {
			return nc, nil, err
		}
		if minor := code & 0xffff; minor > 0 || len(unknown) > 0 {
			b, _ := (&pgproto3.NegotiateProtocolVersion{NewestMinorProtocol: 0, UnrecognizedOptions: unknown}).Encode(nil)
			if _, err := nc.Write(b); err != nil {
				return nc, nil, err
			}
		}
		if params["user"] == "" {
			return nc, nil, pgerror.New(codeInvalidAuthorization, "no PostgreSQL user name specified in startup packet")
		}
		if s.tlsRequired && !secure {
			return nc, nil, pgerror.New(codeInvalidAuthorization,
				"connection without SSL refused for user %q: the server requires SSL", params["user"]).
				WithHint("Connect with sslmode=require.")
		}
		return nc, params, nil
	}
}

// readStartupPacket reads one length-prefixed startup packet and returns its
// body, code included. It reads exactly the packet, nothing after it.
func readStartupPacket(r io.Reader) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := int(int32(binary.BigEndian.Uint32(hdr[:]))) - 4
	if n < 4 || n > maxStartupPacket {
		return nil, pgerror.New(pgerror.CodeProtocolViolation, "invalid length of startup packet")
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return body, nil
}

// parseStartupParams decodes the name/value pairs of a StartupMessage.
// Protocol options (names starting with "_pq_.") are returned in unknown:
// widesql supports none of them.
func parseStartupParams(b []byte) (params map[string]string, unknown []string, err error) {
	bad := pgerror.New(pgerror.CodeProtocolViolation, "invalid startup packet layout: expected terminator as last byte")
	params = make(map[string]string)
	for len(b) > 1 {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			return nil, nil, bad
		}
		name := string(b[:i])
		b = b[i+1:]
		i = bytes.IndexByte(b, 0)
		if i < 0 {
			return nil, nil, bad
		}
		value := string(b[:i])
		b = b[i+1:]
		if strings.HasPrefix(name, "_pq_.") {
			unknown = append(unknown, name)
			continue
		}
		params[name] = value
	}
	if len(b) != 1 || b[0] != 0 {
		return nil, nil, bad
	}
	return params, unknown, nil
}

// writeFatal writes a FATAL ErrorResponse directly to a socket that has no
// connection state yet.
func writeFatal(nc net.Conn, e *pgerror.Error) {
	r := errorResponse(e)
	r.Severity, r.SeverityUnlocalized = "FATAL", "FATAL"
	b, err := r.Encode(nil)
	if err != nil {
		panic(fmt.Sprintf("pgwire: encode FATAL: %v", err))
	}
	nc.Write(b)
}
