package exec

import (
	"context"
	"fmt"
	"sort"

	"github.com/widesql/widesql/pgwire/auth"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
)

// Privileges. widesql has no GRANT system yet; roles carry attributes:
//   - a session whose user is a stored role acts with that role's
//     attributes;
//   - a session whose user is not stored (a client trusted under --auth
//     trust, which names any user it likes) acts as the bootstrap
//     superuser, as everyone on a trust server effectively is;
//   - only superusers and CREATEROLE roles create, alter, rename and drop
//     roles; only superusers touch superusers or the SUPERUSER,
//     REPLICATION and BYPASSRLS attributes; any role may change its own
//     password (PostgreSQL 15's rules).

// trustedRole is the role of a session whose user is not stored.
func trustedRole(name string) *roleRecord {
	return &roleRecord{OID: BootstrapRoleOID, Name: name, Super: true, Inherit: true, CreateRole: true,
		CreateDB: true, CanLogin: true, ConnLimit: -1}
}

func sortRoles(rs []RoleInfo) {
	sort.Slice(rs, func(i, j int) bool { return rs[i].Name < rs[j].Name })
}

func permissionDenied(format string, args ...any) error {
	return pgerror.New(codeInsufficientPrivilege, format, args...)
}

// currentRole returns the session user's role (stored or trusted).
func (x *executor) currentRole(rs *roleStore) *roleRecord {
	user := x.env.sess.param("user")
	if r := rs.get(user); r != nil {
		return r
	}
	return trustedRole(user)
}

// roleDDL runs CREATE/ALTER/DROP ROLE and returns the command tag.
func (x *executor) roleDDL(ctx context.Context, p *planner.RoleDDL) (string, error) {
	rs, err := x.eng.roleStore(ctx)
	if err != nil {
		return "", err
	}
	me := x.currentRole(rs)
	switch p.Kind {
	case planner.CreateRoleDDL:
		err = x.createRole(ctx, rs, me, p)
	case planner.AlterRoleDDL:
		err = x.alterRole(ctx, rs, me, p)
	case planner.RenameRoleDDL:
		err = x.renameRole(ctx, rs, me, p)
	case planner.DropRoleDDL:
		err = x.dropRoles(ctx, rs, me, p)
	default:
		err = pgerror.New(pgerror.CodeInternalError, "unknown role statement %d", p.Kind)
	}
	return p.Tag(), err
}

func (x *executor) createRole(ctx context.Context, rs *roleStore, me *roleRecord, p *planner.RoleDDL) error {
	a := &p.Attrs
	switch {
	case !me.Super && !me.CreateRole:
		return permissionDenied("permission denied to create role")
	case !me.Super && isTrue(a.Super):
		return permissionDenied("must be superuser to create superusers")
	case !me.Super && isTrue(a.Replication):
		return permissionDenied("must be superuser to create replication users")
	case !me.Super && isTrue(a.BypassRLS):
		return permissionDenied("must be superuser to create bypassrls users")
	}
	name := p.Names[0]
	if rs.get(name) != nil || name == me.Name {
		return errRoleExists(name)
	}
	r := &roleRecord{Name: name, Inherit: true, ConnLimit: -1}
	x.setAttrs(r, a)
	return rs.create(ctx, r)
}

func (x *executor) alterRole(ctx context.Context, rs *roleStore, me *roleRecord, p *planner.RoleDDL) error {
	name := p.Names[0]
	if p.CurrentUser {
		name = me.Name
	}
	old := rs.get(name)
	if old == nil {
		if name == me.Name {
			return pgerror.New(codeFeatureNotSupportedRol,
				"role %q is trusted, not stored: create it first (CREATE ROLE) to give it attributes", name)
		}
		return errNoRole(name)
	}
	a := &p.Attrs
	onlyPassword := a.Super == nil && a.CreateDB == nil && a.CreateRole == nil && a.Inherit == nil &&
		a.Login == nil && a.Replication == nil && a.BypassRLS == nil && a.ConnLimit == nil && a.ValidUntil == nil
	switch {
	case me.Super:
	case old.Super || a.Super != nil:
		return permissionDenied("must be superuser to alter superuser roles or change superuser attribute")
	case a.Replication != nil || a.BypassRLS != nil:
		return permissionDenied("must be superuser to change replication or bypassrls attributes")
	case me.CreateRole:
	case old.Name == me.Name && onlyPassword:
	default:
		return permissionDenied("permission denied")
	}
	nw := *old
	x.setAttrs(&nw, a)
	if nw.OID == BootstrapRoleOID && !nw.Super {
		return pgerror.New(pgerror.CodeFeatureNotSupported, "permission denied: bootstrap user must be superuser")
	}
	return rs.replace(ctx, old, &nw)
}

func (x *executor) renameRole(ctx context.Context, rs *roleStore, me *roleRecord, p *planner.RoleDDL) error {
	old := rs.get(p.Names[0])
	switch {
	case old == nil:
		return errNoRole(p.Names[0])
	case old.Name == x.env.sess.param("user"):
		return pgerror.New(pgerror.CodeFeatureNotSupported, "session user cannot be renamed")
	case rs.get(p.NewName) != nil:
		return errRoleExists(p.NewName)
	case old.Super && !me.Super:
		return permissionDenied("must be superuser to rename superusers")
	case !me.Super && !me.CreateRole:
		return permissionDenied("permission denied to rename role")
	}
	nw := *old
	// PostgreSQL clears MD5 passwords on rename (they are salted with the
	// name); SCRAM verifiers are not, so they survive.
	nw.Name = p.NewName
	return rs.replace(ctx, old, &nw)
}

func (x *executor) dropRoles(ctx context.Context, rs *roleStore, me *roleRecord, p *planner.RoleDDL) error {
	if !me.Super && !me.CreateRole {
		return permissionDenied("permission denied to drop role")
	}
	var drop []*roleRecord
	seen := map[string]bool{}
	for _, name := range p.Names {
		r := rs.get(name)
		switch {
		case r == nil && name == me.Name:
			return pgerror.New(codeObjectInUse, "current user cannot be dropped")
		case r == nil && p.IfExists:
			x.env.sess.notice("NOTICE", "00000", fmt.Sprintf("role %q does not exist, skipping", name))
			continue
		case r == nil:
			return errNoRole(name)
		case r.Name == me.Name:
			return pgerror.New(codeObjectInUse, "current user cannot be dropped")
		case r.Name == x.env.sess.param("user"):
			return pgerror.New(codeObjectInUse, "session user cannot be dropped")
		case r.OID == BootstrapRoleOID:
			return pgerror.New(codeDependentObjectsExist,
				"cannot drop role %s because it is required by the database system", r.Name)
		case r.Super && !me.Super:
			return permissionDenied("must be superuser to drop superusers")
		}
		if !seen[r.Name] {
			seen[r.Name] = true
			drop = append(drop, r)
		}
	}
	return rs.drop(ctx, drop)
}

// setAttrs applies the attributes a statement gave to r.
func (x *executor) setAttrs(r *roleRecord, a *planner.RoleAttrs) {
	set := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	set(&r.Super, a.Super)
	set(&r.CreateDB, a.CreateDB)
	set(&r.CreateRole, a.CreateRole)
	set(&r.Inherit, a.Inherit)
	set(&r.CanLogin, a.Login)
	set(&r.Replication, a.Replication)
	set(&r.BypassRLS, a.BypassRLS)
	if a.ConnLimit != nil {
		r.ConnLimit = *a.ConnLimit
	}
	if a.ValidUntil != nil {
		v := a.ValidUntil.I
		r.ValidUntil = &v
	}
	switch {
	case a.PasswordNull:
		r.Verifier = ""
	case a.Password != nil && *a.Password == "":
		x.env.sess.notice("NOTICE", "00000", "empty string is not a valid password, clearing password")
		r.Verifier = ""
	case a.Password != nil:
		r.Verifier = passwordVerifier(*a.Password)
	}
}

// passwordVerifier returns what is stored for a password: the text itself
// when it already is a SCRAM-SHA-256 verifier (pg_dump writes them so),
// else a verifier derived from it with a fresh salt.
func passwordVerifier(pw string) string {
	if v, ok := auth.ParseVerifier(pw); ok {
		return v.String()
	}
	return auth.NewVerifier(pw).String()
}

func isTrue(b *bool) bool { return b != nil && *b }
