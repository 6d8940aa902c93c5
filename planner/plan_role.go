package planner

import "github.com/widesql/widesql/planner/types"

// RoleDDLKind says what a RoleDDL does.
type RoleDDLKind uint8

const (
	CreateRoleDDL RoleDDLKind = iota + 1
	AlterRoleDDL
	RenameRoleDDL
	DropRoleDDL
)

// RoleDDL is CREATE/ALTER/DROP ROLE (or USER). exec checks privileges and
// existence against the stored roles; the planner has checked the syntax,
// reserved names and option values.
type RoleDDL struct {
	Kind RoleDDLKind
	// Names: the role (one) for CREATE, ALTER and RENAME; the roles to
	// drop for DROP. CurrentUser is set when ALTER named CURRENT_USER or
	// SESSION_USER: exec substitutes the session's user.
	Names       []string
	CurrentUser bool
	NewName     string // RENAME TO
	IfExists    bool   // DROP IF EXISTS
	Attrs       RoleAttrs
}

// RoleAttrs are the attributes a CREATE or ALTER sets; nil fields are not
// mentioned (CREATE then uses PostgreSQL's defaults: NOSUPERUSER,
// NOCREATEDB, NOCREATEROLE, INHERIT, NOLOGIN unless CREATE USER, no
// password, no connection limit).
type RoleAttrs struct {
	Super, CreateDB, CreateRole, Inherit, Login, Replication, BypassRLS *bool
	// Password is the new password or SCRAM verifier as written;
	// PasswordNull is PASSWORD NULL (remove it).
	Password     *string
	PasswordNull bool
	ConnLimit    *int
	// ValidUntil is a timestamptz (possibly 'infinity').
	ValidUntil *types.Datum
}

func (*RoleDDL) Columns() []ResultColumn { return nil }

// Tag is the command tag: CREATE USER and ALTER USER report ROLE, as
// PostgreSQL does.
func (r *RoleDDL) Tag() string {
	switch r.Kind {
	case CreateRoleDDL:
		return "CREATE ROLE"
	case DropRoleDDL:
		return "DROP ROLE"
	}
	return "ALTER ROLE"
}
