package pgwire

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/widesql/widesql/pgwire/auth"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// SQLSTATEs of authentication and connection admission.
const (
	codeInvalidPassword   = "28P01" // invalid_password
	codeTooManyConnection = "53300" // too_many_connections
)

// Credentials is what password authentication needs to know about a role.
type Credentials struct {
	// Verifier is the role's SCRAM-SHA-256 verifier in PostgreSQL's text
	// form (see package auth).
	Verifier string
	// ConnLimit is the role's CONNECTION LIMIT; -1 for none.
	ConnLimit int
}

// RoleLookup finds the credentials of roles that may log in. The engine
// implements it (pgwire does not know where roles live); it is safe for
// concurrent use.
type RoleLookup interface {
	// LoginCredentials returns the credentials of the role user. ok is
	// false when no such role may log in with a password: unknown,
	// NOLOGIN, without a password, or past its VALID UNTIL.
	LoginCredentials(ctx context.Context, user string) (c Credentials, ok bool, err error)
}

// WithSCRAM makes the server require SCRAM-SHA-256 password
// authentication, checked against the verifiers roles returns. Without it
// every client is trusted as the user it names.
func WithSCRAM(roles RoleLookup) Option {
	return func(s *Server) { s.roles = roles }
}

// authenticate runs the authentication exchange of a new connection and
// returns the role's connection limit (-1: none). Every failure is a
// *pgerror.Error to send as FATAL; the connection then closes. On success
// AuthenticationOk has been queued.
func (c *conn) authenticate(user string) (connLimit int, err error) {
	if c.srv.roles == nil {
		c.send(&pgproto3.AuthenticationOk{})
		return -1, nil
	}
	failed := pgerror.New(codeInvalidPassword, "password authentication failed for user %q", user)
	var cred Credentials
	var ok bool
	if err := c.run(func(ctx context.Context) error {
		var err error
		cred, ok, err = c.srv.roles.LoginCredentials(ctx, user)
		return err
	}); err != nil {
		return 0, pgerror.Flatten(err)
	}
	v, valid := auth.ParseVerifier(cred.Verifier)
	if !ok || !valid {
		// Run the whole exchange anyway so that the client cannot tell
		// a missing role from a wrong password.
		v, ok = auth.MockVerifier(user, c.srv.mockSecret), false
	}
	x := auth.NewExchange(v)

	c.send(&pgproto3.AuthenticationSASL{AuthMechanisms: []string{auth.Mechanism}})
	c.be.SetAuthType(pgproto3.AuthTypeSASL)
	msg, err := c.receiveAuth()
	if err != nil {
		return 0, err
	}
	init, isInit := msg.(*pgproto3.SASLInitialResponse)
	if !isInit {
		return 0, pgerror.New(pgerror.CodeProtocolViolation, "expected SASL response, got message type %T", msg)
	}
	if init.AuthMechanism != auth.Mechanism {
		return 0, pgerror.New(pgerror.CodeProtocolViolation, "client selected an invalid SASL authentication mechanism")
	}
	first, err := x.First(init.Data)
	if err != nil {
		return 0, pgerror.Flatten(err)
	}
	c.send(&pgproto3.AuthenticationSASLContinue{Data: first})
	c.be.SetAuthType(pgproto3.AuthTypeSASLContinue)
	msg, err = c.receiveAuth()
	if err != nil {
		return 0, err
	}
	resp, isResp := msg.(*pgproto3.SASLResponse)
	if !isResp {
		return 0, pgerror.New(pgerror.CodeProtocolViolation, "expected SASL response, got message type %T", msg)
	}
	final, err := x.Final(resp.Data)
	if errors.Is(err, auth.ErrAuthFailed) || (err == nil && !ok) {
		c.log.Info("pgwire: password authentication failed")
		return 0, failed
	}
	if err != nil {
		return 0, pgerror.Flatten(err)
	}
	c.send(&pgproto3.AuthenticationSASLFinal{Data: final})
	c.send(&pgproto3.AuthenticationOk{})
	return cred.ConnLimit, nil
}

// errAuthAbandoned ends a connection whose client left during
// authentication (psql does so to ask for a password, then reconnects).
var errAuthAbandoned = errors.New("pgwire: client left during authentication")

// receiveAuth reads one authentication message. A client that closes the
// connection gets nothing back.
func (c *conn) receiveAuth() (pgproto3.FrontendMessage, error) {
	msg, err := c.be.Receive()
	if err != nil {
		if c.rd.err != nil {
			return nil, errAuthAbandoned
		}
		return nil, pgerror.New(pgerror.CodeProtocolViolation, "invalid authentication message: %v", err)
	}
	return msg, nil
}
