package tests

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// psqlPath finds psql. It skips the test when psql is missing, except under
// CI (CI set), where a missing psql means .ci/run did not install it.
func psqlPath(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("psql")
	if err == nil {
		return path
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("psql not found under CI: %v", err)
	}
	t.Skip("psql not installed")
	return ""
}

func runPsql(t *testing.T, tg target, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	base := []string{"-h", tg.host, "-p", tg.port, "-U", tg.user, "-d", tg.database, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1"}
	cmd := exec.CommandContext(ctx, psqlPath(t), append(base, args...)...)
	// Drop the caller's PG* settings (a PGSERVICE, PGOPTIONS...) so psql
	// connects exactly as the arguments say.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	// UTF8 rather than whatever the locale gives (SQL_ASCII under LANG=C).
	cmd.Env = append(cmd.Env, "PGCONNECT_TIMEOUT=10", "PGCLIENTENCODING=UTF8")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("psql %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func TestPsql(t *testing.T) {
	psqlPath(t)
	tg := newTarget(t)

	if got := runPsql(t, tg, "-c", "SELECT 1"); got != "1\n" {
		t.Errorf("psql -c 'SELECT 1' printed %q, want %q", got, "1\n")
	}

	script := filepath.Join(t.TempDir(), "script.sql")
	if err := os.WriteFile(script, []byte(`-- a script with several commands
CREATE TABLE notes (id INT, body TEXT, PRIMARY KEY (id));
INSERT INTO notes VALUES (1, 'first'), (2, NULL), (3, 'third');
UPDATE notes SET body = 'second' WHERE id = 2;
SELECT id, body FROM notes
  ORDER BY id DESC;
SELECT count(*) FROM notes WHERE body LIKE '%ir%';
`), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "CREATE TABLE\nINSERT 0 3\nUPDATE 1\n3|third\n2|second\n1|first\n2\n"
	if got := runPsql(t, tg, "-f", script); got != want {
		t.Errorf("psql -f printed:\n%s\nwant:\n%s", got, want)
	}
}
