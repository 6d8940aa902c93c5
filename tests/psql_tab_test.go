package tests

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestPsqlTabCompletion types "select count(*) from fol<TAB>" into an
// interactive psql (on a pseudo-terminal from script(1), so readline is
// on) and checks psql completed the table name: its completion query
// (pg_class, pg_namespace, pg_table_is_visible, LIKE on name) must work.
func TestPsqlTabCompletion(t *testing.T) {
	psql := psqlPath(t)
	script, err := exec.LookPath("script")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("script(1) not found under CI: %v", err)
		}
		t.Skip("script(1) (util-linux) not installed")
	}
	tg := newTarget(t)
	conn := pgxConnect(t, tg, 0)
	mustExec(t, conn, "CREATE TABLE follows_tab (a int PRIMARY KEY)")
	mustExec(t, conn, "CREATE TABLE other_tab (a int PRIMARY KEY)")

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, script, "-qc", psql+" '"+tg.url()+"'", "/dev/null")
	cmd.Env = append(os.Environ(), "PGCLIENTENCODING=UTF8", "TERM=dumb", "PSQLRC=/dev/null")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// psql reads the terminal only once it has connected; the pauses let
	// each keystroke group arrive after the previous one was handled.
	for _, keys := range []string{"select count(*) from follows_t\t", ";\n", "\\q\n"} {
		time.Sleep(time.Second)
		if _, err := stdin.Write([]byte(keys)); err != nil {
			t.Fatal(err)
		}
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("psql: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "from follows_tab ;") {
		t.Errorf("psql did not complete the table name:\n%q", out.String())
	}
}
