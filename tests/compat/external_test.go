package compat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// clientTimeout bounds one client program's run against one server.
const clientTimeout = 3 * time.Minute

// scenario is clients/scenario.json.
type scenario struct {
	Table string  `json:"table"`
	DDL   string  `json:"ddl"`
	Rows  [][]any `json:"rows"`
}

func loadScenario(t *testing.T) scenario {
	t.Helper()
	data, err := os.ReadFile(scenarioPath(t))
	if err != nil {
		t.Fatal(err)
	}
	var s scenario
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("clients/scenario.json: %v", err)
	}
	return s
}

func scenarioPath(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("clients", "scenario.json"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// familyColumnRE matches a family-qualified column name in a column list:
// "d.kind" after "(" or ",".
var familyColumnRE = regexp.MustCompile(`([(,]\s*)[A-Za-z_][A-Za-z0-9_]*\.([A-Za-z_][A-Za-z0-9_]*\s)`)

// pgDDL turns widesql's CREATE TABLE into PostgreSQL's: the same table with
// the family prefixes removed (fam.col TYPE becomes col TYPE).
func pgDDL(ddl string) string { return familyColumnRE.ReplaceAllString(ddl, "$1$2") }

// ddlFor returns the scenario's DDL for the endpoint's server.
func ddlFor(ep endpoint, s scenario) string {
	if ep.server == "postgres" {
		return pgDDL(s.DDL)
	}
	return s.DDL
}

// runProgram runs an external client against ep and returns its transcript
// (stdout). A non-zero exit appends "## exit" with the error and the tail
// of stderr, which then shows in the diff.
func runProgram(t *testing.T, ep endpoint, s scenario, dir string, extraEnv []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), clientTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") { // a PGSERVICE or PGOPTIONS must not change the connection
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "COMPAT_HOST="+ep.host, "COMPAT_PORT="+ep.port, "COMPAT_DB="+ep.db,
		"COMPAT_USER="+ep.user, "COMPAT_DDL="+ddlFor(ep, s), "COMPAT_SCENARIO="+scenarioPath(t),
		"TZ=UTC", "PGCLIENTENCODING=UTF8", "PGCONNECT_TIMEOUT=10")
	cmd.Env = append(cmd.Env, extraEnv...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	out := stdout.String()
	if err != nil {
		tail := strings.TrimSpace(stderr.String())
		if lines := strings.Split(tail, "\n"); len(lines) > 15 {
			tail = strings.Join(lines[len(lines)-15:], "\n")
		}
		out += fmt.Sprintf("## exit\n%v\n%s\n", err, tail)
	}
	return out
}

// lookTool finds a program or skips (fails under CI) with an install hint.
func lookTool(t *testing.T, name, hint string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		need(t, name+" ("+hint+")")
	}
	return p
}

// javaClasses compiles clients/java/Compat.java once per test run.
var (
	javaOnce sync.Once
	javaDir  string
	javaErr  error
)

const jdbcJar = "/usr/share/java/postgresql.jar"

func jdbcRunner(t *testing.T) func(endpoint, scenario) string {
	javac := lookTool(t, "javac", "apt-get install default-jdk-headless")
	java := lookTool(t, "java", "apt-get install default-jdk-headless")
	if _, err := os.Stat(jdbcJar); err != nil {
		need(t, jdbcJar+" (apt-get install libpostgresql-jdbc-java)")
	}
	javaOnce.Do(func() {
		javaDir = filepath.Join(workDir, "java")
		out, err := exec.Command(javac, "-d", javaDir, "-cp", jdbcJar, filepath.Join("clients", "java", "Compat.java")).CombinedOutput()
		if err != nil {
			javaErr = fmt.Errorf("javac: %v\n%s", err, out)
		}
	})
	if javaErr != nil {
		t.Fatal(javaErr)
	}
	return func(ep endpoint, s scenario) string {
		return runProgram(t, ep, s, javaDir, nil, java, "-cp", javaDir+string(os.PathListSeparator)+jdbcJar, "Compat")
	}
}

// systemPython is Debian's python3, where python3-psycopg2, python3-psycopg
// and python3-sqlalchemy install (a pyenv python3 on PATH does not see them).
const systemPython = "/usr/bin/python3"

func pythonRunner(t *testing.T, script, module, pkg string) func(endpoint, scenario) string {
	if _, err := os.Stat(systemPython); err != nil {
		need(t, systemPython+" (apt-get install python3)")
	}
	if out, err := exec.Command(systemPython, "-c", "import "+module).CombinedOutput(); err != nil {
		need(t, fmt.Sprintf("python module %s for %s (apt-get install %s): %s", module, systemPython, pkg, bytes.TrimSpace(out)))
	}
	dir, err := filepath.Abs(filepath.Join("clients", "python"))
	if err != nil {
		t.Fatal(err)
	}
	return func(ep endpoint, s scenario) string {
		return runProgram(t, ep, s, dir, []string{"PYTHONDONTWRITEBYTECODE=1"}, systemPython, script)
	}
}

// nodeOnce installs clients/node's dependencies with npm ci when
// node_modules is missing.
var (
	nodeOnce sync.Once
	nodeErr  error
)

func nodeRunner(t *testing.T) func(endpoint, scenario) string {
	node := lookTool(t, "node", "apt-get install nodejs")
	npm := lookTool(t, "npm", "apt-get install npm")
	dir, err := filepath.Abs(filepath.Join("clients", "node"))
	if err != nil {
		t.Fatal(err)
	}
	nodeOnce.Do(func() {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", "pg", "package.json")); err == nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			nodeErr = fmt.Errorf("npm ci in %s: %v\n%s", dir, err, out)
		}
	})
	if nodeErr != nil {
		if os.Getenv("CI") == "" && errors.Is(nodeErr, context.DeadlineExceeded) {
			t.Skipf("npm ci timed out (no registry?): %v", nodeErr)
		}
		t.Fatal(nodeErr)
	}
	return func(ep endpoint, s scenario) string {
		return runProgram(t, ep, s, dir, nil, node, "compat.js")
	}
}

func psqlRunner(t *testing.T) func(endpoint, scenario) string {
	psql := lookTool(t, "psql", "apt-get install postgresql-client-15")
	script, err := filepath.Abs(filepath.Join("clients", "psql", "compat.psql"))
	if err != nil {
		t.Fatal(err)
	}
	return func(ep endpoint, s scenario) string {
		// stdout and stderr go to one pipe so errors stay in place; psql
		// flushes its query output before it reports an error.
		ctx, cancel := context.WithTimeout(context.Background(), clientTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, psql, "-X", "-A", "-v", "ON_ERROR_STOP=0",
			"-v", "ddl="+ddlFor(ep, s), "-f", script, ep.url())
		cmd.Dir = filepath.Dir(script)
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "PG") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Env = append(cmd.Env, "PGCLIENTENCODING=UTF8", "PGCONNECT_TIMEOUT=10", "TZ=UTC")
		var buf syncBuffer
		cmd.Stdout, cmd.Stderr = &buf, &buf
		err := cmd.Run()
		out := buf.String()
		if err != nil {
			out += fmt.Sprintf("## exit\n%v\n", err)
		}
		return out
	}
}
