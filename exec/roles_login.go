package exec

import (
	"context"
	"time"

	"github.com/widesql/widesql/pgwire"
	"github.com/widesql/widesql/pgwire/auth"
)

// What the wire server asks of the engine and the
// session about logins: credentials, the bootstrap superuser, idle
// timeouts.

var (
	_ pgwire.RoleLookup   = (*Engine)(nil)
	_ pgwire.IdleTimeouts = (*Session)(nil)
)

// LoginCredentials implements pgwire.RoleLookup.
func (e *Engine) LoginCredentials(ctx context.Context, user string) (pgwire.Credentials, bool, error) {
	rs, err := e.roleStore(ctx)
	if err != nil {
		return pgwire.Credentials{}, false, err
	}
	r := rs.get(user)
	if r == nil || !r.CanLogin || r.Verifier == "" {
		return pgwire.Credentials{}, false, nil
	}
	if r.ValidUntil != nil && *r.ValidUntil < time.Now().UnixMicro() {
		return pgwire.Credentials{}, false, nil
	}
	return pgwire.Credentials{Verifier: r.Verifier, ConnLimit: r.ConnLimit}, true, nil
}

// HasRoles reports whether any role is stored.
func (e *Engine) HasRoles(ctx context.Context) (bool, error) {
	rs, err := e.roleStore(ctx)
	if err != nil {
		return false, err
	}
	return len(rs.list()) > 0, nil
}

// BootstrapRole creates the bootstrap superuser (OID 10) named user with
// password when no role is stored yet, as initdb does; it reports whether
// it did. With roles already stored it changes nothing: passwords are then
// managed with ALTER ROLE.
func (e *Engine) BootstrapRole(ctx context.Context, user, password string) (bool, error) {
	rs, err := e.roleStore(ctx)
	if err != nil {
		return false, err
	}
	if len(rs.list()) > 0 {
		return false, nil
	}
	r := trustedRole(user)
	r.Verifier = auth.NewVerifier(password).String()
	return true, rs.create(ctx, r)
}

// IdleTimeouts implements pgwire.IdleTimeouts:
// idle_in_transaction_session_timeout and idle_session_timeout.
// The values are parsed once per change (Session.cacheTimeout), not per
// message.
func (s *Session) IdleTimeouts() (inTransaction, idle time.Duration) {
	return s.timeouts.idleInTxn, s.timeouts.idle
}
