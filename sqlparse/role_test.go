package sqlparse

import (
	"fmt"
	"strings"
	"testing"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// roleString renders a RoleStmt compactly for the table below.
func roleString(r *RoleStmt) string {
	var b strings.Builder
	fmt.Fprintf(&b, "kind=%d user=%v names=%s", r.Kind, r.User, strings.Join(r.Names, ","))
	if r.NewName != "" {
		fmt.Fprintf(&b, " new=%s", r.NewName)
	}
	if r.IfExists {
		b.WriteString(" if-exists")
	}
	if r.CurrentUser {
		b.WriteString(" current")
	}
	for _, o := range r.Options {
		switch o.Name {
		case "password", "valid until":
			fmt.Fprintf(&b, " %s=%q", o.Name, o.Value)
			if o.Null {
				fmt.Fprintf(&b, "(null)")
			}
		case "connection limit":
			fmt.Fprintf(&b, " %s=%d", o.Name, o.Int)
		default:
			fmt.Fprintf(&b, " %s=%v", o.Name, o.Bool)
		}
	}
	return b.String()
}

func TestParseRole(t *testing.T) {
	for _, c := range []struct{ sql, want string }{
		{"CREATE ROLE r1 LOGIN PASSWORD 'x'", `kind=1 user=false names=r1 login=true password="x"`},
		{"create user \"U\" with encrypted password 'p''w' connection limit -1 valid until 'infinity' nosuperuser",
			`kind=1 user=true names=U password="p'w" connection limit=-1 valid until="infinity" superuser=false`},
		{"CREATE ROLE a WITH SUPERUSER CREATEDB CREATEROLE NOINHERIT REPLICATION BYPASSRLS PASSWORD NULL",
			`kind=1 user=false names=a superuser=true createdb=true createrole=true inherit=false replication=true bypassrls=true password=""(null)`},
		{"alter user u nologin", "kind=2 user=true names=u login=false"},
		{"ALTER ROLE current_user PASSWORD 'n'", `kind=2 user=false names=current_user current password="n"`},
		{"alter role u rename to v", "kind=3 user=false names=u new=v"},
		{"DROP ROLE IF EXISTS a, \"B\"", "kind=4 user=false names=a,B if-exists"},
		{"drop user x", "kind=4 user=true names=x"},
	} {
		st, err := Parse(c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if st[0].Role == nil {
			t.Errorf("%s: not a role statement", c.sql)
			continue
		}
		if got := roleString(st[0].Role); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.sql, got, c.want)
		}
	}
}

func TestParseRoleErrors(t *testing.T) {
	for _, c := range []struct {
		sql, code string
		pos       int
	}{
		{"CREATE ROLE x LOGIN LOGIN", pgerror.CodeSyntaxError, 21},
		{"CREATE ROLE x LOGIN NOLOGIN", pgerror.CodeSyntaxError, 21},
		{"CREATE ROLE", pgerror.CodeSyntaxError, 12},
		{"CREATE ROLE x PASSWORD", pgerror.CodeSyntaxError, 23},
		{"CREATE ROLE x CONNECTION LIMIT 'a'", pgerror.CodeSyntaxError, 32},
		{"CREATE ROLE x IN ROLE y", pgerror.CodeFeatureNotSupported, 15},
		{"ALTER ROLE x SET search_path = a", pgerror.CodeFeatureNotSupported, 14},
		{"ALTER ROLE x RENAME y", pgerror.CodeSyntaxError, 21},
		{"DROP ROLE a b", pgerror.CodeSyntaxError, 13},
	} {
		_, err := Parse(c.sql)
		e, ok := err.(*pgerror.Error)
		if !ok || e.Code != c.code || e.Position != c.pos {
			t.Errorf("%s: %v (%+v), want %s at %d", c.sql, err, e, c.code, c.pos)
		}
	}
}
