package exec

import "context"

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
	// Replication and BypassRLS are stored and shown, not enforced
	// (widesql has neither replication nor row-level security).
	Replication, BypassRLS bool
	// ValidUntil is VALID UNTIL in µs since the epoch (types.PosInf for
	// 'infinity'); nil when none was set (pg_roles shows NULL).
	ValidUntil *int64
}

// BootstrapRoleOID is the OID of the bootstrap superuser, as PostgreSQL's
// (10); it owns every object.
const BootstrapRoleOID uint32 = 10

// roleList returns every role, ordered by name: the stored roles (see
// roles_store.go) and, when the session's user is not one of them (a
// client trusted under --auth trust) and no bootstrap superuser was
// stored, that user as the bootstrap superuser.
func (x *executor) roleList(ctx context.Context) ([]RoleInfo, error) {
	rs, err := x.eng.roleStore(ctx)
	if err != nil {
		return nil, err
	}
	stored := rs.list()
	user := x.env.sess.param("user")
	var out []RoleInfo
	if rs.get(user) == nil && !rs.hasOID(BootstrapRoleOID) {
		out = append(out, trustedRole(user).info())
	}
	for _, r := range stored {
		out = append(out, r.info())
	}
	sortRoles(out)
	return out, nil
}
