package planner

import (
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
	"github.com/widesql/widesql/sqlparse"
)

const codeReservedName = "42939" // reserved_name

// roleStmt plans a role statement: reserved names and option values are
// checked here, privileges and existence by exec.
func (b *builder) roleStmt(s *sqlparse.RoleStmt) (Plan, error) {
	r := &RoleDDL{Names: s.Names, CurrentUser: s.CurrentUser, NewName: s.NewName, IfExists: s.IfExists}
	switch s.Kind {
	case sqlparse.CreateRole:
		r.Kind = CreateRoleDDL
		if err := checkRoleName(s.Names[0]); err != nil {
			return nil, err
		}
		if s.User {
			t := true
			r.Attrs.Login = &t
		}
	case sqlparse.AlterRole:
		r.Kind = AlterRoleDDL
	case sqlparse.RenameRole:
		r.Kind = RenameRoleDDL
		if err := checkRoleName(s.NewName); err != nil {
			return nil, err
		}
	case sqlparse.DropRole:
		r.Kind = DropRoleDDL
		return r, nil
	default:
		return nil, pgerror.New(pgerror.CodeInternalError, "unknown role statement kind %d", s.Kind)
	}
	for _, o := range s.Options {
		if err := b.roleOption(&r.Attrs, o); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (b *builder) roleOption(a *RoleAttrs, o sqlparse.RoleOption) error {
	v := o.Bool
	switch o.Name {
	case "superuser":
		a.Super = &v
	case "createdb":
		a.CreateDB = &v
	case "createrole":
		a.CreateRole = &v
	case "inherit":
		a.Inherit = &v
	case "login":
		a.Login = &v
	case "replication":
		a.Replication = &v
	case "bypassrls":
		a.BypassRLS = &v
	case "password":
		if o.Null {
			a.PasswordNull = true
			return nil
		}
		pw := o.Value
		a.Password = &pw
	case "connection limit":
		if o.Int < -1 {
			return pgerror.New(pgerror.CodeInvalidParameterValue, "invalid connection limit: %d", o.Int).WithPosition(o.Pos)
		}
		n := o.Int
		a.ConnLimit = &n
	case "valid until":
		d, err := types.ParseTextIn(types.TTimestampTZ, o.Value, b.loc)
		if err != nil {
			return err
		}
		a.ValidUntil = &d
	default:
		return pgerror.New(pgerror.CodeSyntaxError, "unrecognized role option %q", o.Name).WithPosition(o.Pos)
	}
	return nil
}

// checkRoleName rejects the names PostgreSQL reserves.
func checkRoleName(name string) error {
	switch {
	case name == "public" || name == "none" || name == "current_user" || name == "session_user" ||
		name == "current_role":
		return pgerror.New(codeReservedName, "role name %q is reserved", name)
	case strings.HasPrefix(name, "pg_"):
		return pgerror.New(codeReservedName, "role name %q is reserved", name).
			WithDetail("Role names starting with \"pg_\" are reserved.")
	case name == "":
		return pgerror.New(pgerror.CodeInvalidParameterValue, "zero-length delimited identifier")
	}
	return nil
}
