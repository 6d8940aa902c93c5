package exec

import "context"

// OWNER: helper "auth" (roles: CREATE/ALTER/DROP ROLE, SCRAM verifiers).

// RoleInfo is one role as pg_roles shows it.
type RoleInfo struct {
	OID        uint32
	Name       string
	Super      bool
	Inherit    bool
	CreateRole bool
	CreateDB   bool
	CanLogin   bool
	ConnLimit  int // -1: no limit
	// HasPassword reports whether a SCRAM verifier is stored (pg_roles
	// shows '********' then; the verifier itself is never shown).
	HasPassword bool
}

// BootstrapRoleOID is the OID of the bootstrap superuser, as PostgreSQL's
// (10); it owns every object.
const BootstrapRoleOID uint32 = 10

// roleList returns every role, ordered by name. Until roles are stored
// there is only the bootstrap superuser, named after the session's user.
func (x *executor) roleList(ctx context.Context) ([]RoleInfo, error) {
	return []RoleInfo{{OID: BootstrapRoleOID, Name: x.env.sess.param("user"), Super: true, Inherit: true,
		CreateRole: true, CreateDB: true, CanLogin: true, ConnLimit: -1}}, nil
}
