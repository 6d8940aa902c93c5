package exec

import (
	"context"
	"strings"
	"testing"

	"github.com/widesql/widesql/kv/memstore"
	"github.com/widesql/widesql/pgwire/auth"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
)

// roleExec returns an executor whose session user is user, over eng.
func roleExec(t *testing.T, eng *Engine, user string) *executor {
	t.Helper()
	s, err := newSession(eng, map[string]string{"user": user, "database": "db"})
	if err != nil {
		t.Fatal(err)
	}
	env := &evalEnv{sess: s}
	x := &executor{eng: eng, env: env}
	env.x = x
	return x
}

func roleNames(t *testing.T, x *executor) string {
	t.Helper()
	roles, err := x.roleList(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range roles {
		names = append(names, r.Name)
	}
	return strings.Join(names, ",")
}

func boolp(b bool) *bool { return &b }

// TestRoles drives role DDL through the executor: the trusted bootstrap
// user, stored roles with verifiers, privileges, persistence in the store.
func TestRoles(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	eng, err := Open(ctx, store, nil)
	if err != nil {
		t.Fatal(err)
	}
	admin := roleExec(t, eng, "admin")
	if got := roleNames(t, admin); got != "admin" {
		t.Fatalf("trusted roles: %s", got)
	}
	pw := "s3cret"
	run := func(x *executor, p *planner.RoleDDL) error {
		_, err := x.roleDDL(ctx, p)
		return err
	}
	if err := run(admin, &planner.RoleDDL{Kind: planner.CreateRoleDDL, Names: []string{"app"},
		Attrs: planner.RoleAttrs{Login: boolp(true), Password: &pw}}); err != nil {
		t.Fatal(err)
	}
	if err := run(admin, &planner.RoleDDL{Kind: planner.CreateRoleDDL, Names: []string{"app"}}); pgerror.CodeOf(err) != "42710" {
		t.Fatalf("duplicate: %v", err)
	}
	if got := roleNames(t, admin); got != "admin,app" {
		t.Fatalf("roles: %s", got)
	}
	cred, ok, err := eng.LoginCredentials(ctx, "app")
	if err != nil || !ok || strings.Contains(cred.Verifier, pw) {
		t.Fatalf("credentials: %+v %v %v", cred, ok, err)
	}
	if _, valid := auth.ParseVerifier(cred.Verifier); !valid {
		t.Fatalf("stored verifier %q does not parse", cred.Verifier)
	}

	// app has no CREATEROLE: it may change its own password only.
	app := roleExec(t, eng, "app")
	if err := run(app, &planner.RoleDDL{Kind: planner.CreateRoleDDL, Names: []string{"x"}}); pgerror.CodeOf(err) != "42501" {
		t.Fatalf("create by app: %v", err)
	}
	if err := run(app, &planner.RoleDDL{Kind: planner.AlterRoleDDL, Names: []string{"app"},
		Attrs: planner.RoleAttrs{CreateDB: boolp(true)}}); pgerror.CodeOf(err) != "42501" {
		t.Fatalf("createdb by app: %v", err)
	}
	pw2 := "other"
	if err := run(app, &planner.RoleDDL{Kind: planner.AlterRoleDDL, Names: []string{"current_user"}, CurrentUser: true,
		Attrs: planner.RoleAttrs{Password: &pw2}}); err != nil {
		t.Fatalf("own password: %v", err)
	}
	cred2, _, _ := eng.LoginCredentials(ctx, "app")
	if cred2.Verifier == cred.Verifier {
		t.Fatal("password not changed")
	}
	if err := run(app, &planner.RoleDDL{Kind: planner.DropRoleDDL, Names: []string{"app"}}); pgerror.CodeOf(err) != "42501" {
		t.Fatalf("drop by app: %v", err)
	}

	// A reopened engine over the same store sees the roles.
	eng2, err := Open(ctx, store, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := roleNames(t, roleExec(t, eng2, "admin")); got != "admin,app" {
		t.Fatalf("roles after reopen: %s", got)
	}
	if c, ok, _ := eng2.LoginCredentials(ctx, "app"); !ok || c.Verifier != cred2.Verifier {
		t.Fatalf("credentials after reopen: %+v %v", c, ok)
	}
	admin2 := roleExec(t, eng2, "admin")
	if err := run(admin2, &planner.RoleDDL{Kind: planner.RenameRoleDDL, Names: []string{"app"}, NewName: "app2"}); err != nil {
		t.Fatal(err)
	}
	if err := run(admin2, &planner.RoleDDL{Kind: planner.DropRoleDDL, Names: []string{"ghost"}}); pgerror.CodeOf(err) != "42704" {
		t.Fatalf("drop missing: %v", err)
	}
	if err := run(admin2, &planner.RoleDDL{Kind: planner.DropRoleDDL, Names: []string{"admin"}}); pgerror.CodeOf(err) != "55006" {
		t.Fatalf("drop self: %v", err)
	}
	if err := run(admin2, &planner.RoleDDL{Kind: planner.DropRoleDDL, Names: []string{"ghost", "app2"}, IfExists: true}); err != nil {
		t.Fatal(err)
	}
	if got := roleNames(t, admin2); got != "admin" {
		t.Fatalf("roles after drop: %s", got)
	}
	if _, ok, _ := eng2.LoginCredentials(ctx, "app2"); ok {
		t.Fatal("dropped role can log in")
	}
}

// TestBootstrapRole: the bootstrap superuser is OID 10 and is created only
// when no role exists.
func TestBootstrapRole(t *testing.T) {
	ctx := context.Background()
	eng, err := Open(ctx, memstore.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if made, err := eng.BootstrapRole(ctx, "boss", "pw"); !made || err != nil {
		t.Fatalf("bootstrap: %v %v", made, err)
	}
	if made, err := eng.BootstrapRole(ctx, "other", "pw"); made || err != nil {
		t.Fatalf("second bootstrap: %v %v", made, err)
	}
	roles, err := roleExec(t, eng, "someone").roleList(ctx)
	if err != nil || len(roles) != 1 || roles[0].Name != "boss" || roles[0].OID != BootstrapRoleOID || !roles[0].Super {
		t.Fatalf("roles: %+v %v", roles, err)
	}
	boss := roleExec(t, eng, "boss")
	if _, err := boss.roleDDL(ctx, &planner.RoleDDL{Kind: planner.AlterRoleDDL, Names: []string{"boss"},
		Attrs: planner.RoleAttrs{Super: boolp(false)}}); err == nil {
		t.Fatal("the bootstrap superuser lost SUPERUSER")
	}
}
