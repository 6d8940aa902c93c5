package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// pgbenchJob is one pgbench run of a custom script against one server.
type pgbenchJob struct {
	script   string // the script text (pgbench meta-commands and SQL)
	mode     string // -M: "prepared", "simple" or "extended"
	clients  int
	threads  int
	duration time.Duration
}

// pgbenchResult is what a pgbench run measured.
type pgbenchResult struct {
	tps      float64 // transactions per second, excluding connection time
	p50, p99 float64 // per-transaction latency in milliseconds
	txns     int     // completed transactions seen in the logs
}

// runPgbench runs job against s with per-transaction logging (-l) in a fresh
// directory under workDir, which it removes afterwards. It fails when pgbench
// exits non-zero, reports failed transactions, or completes none; the error
// carries pgbench's own error line (usually the server's message).
func runPgbench(ctx context.Context, pgbench, workDir string, s *server, job pgbenchJob) (pgbenchResult, error) {
	dir, err := os.MkdirTemp(workDir, "pgbench-")
	if err != nil {
		return pgbenchResult{}, err
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "script.sql")
	if err := os.WriteFile(script, []byte(job.script), 0o644); err != nil {
		return pgbenchResult{}, err
	}
	secs := max(1, int(job.duration.Round(time.Second)/time.Second))
	threads := max(1, min(job.threads, job.clients))
	cmd := exec.CommandContext(ctx, pgbench, "-n", "-f", script, "-M", job.mode,
		"-c", strconv.Itoa(job.clients), "-j", strconv.Itoa(threads), "-T", strconv.Itoa(secs),
		"-l", "--log-prefix", filepath.Join(dir, "tx"),
		"-h", "127.0.0.1", "-p", strconv.Itoa(s.port), "-U", "postgres", "bench")
	cmd.Env = append(os.Environ(), "PGSSLMODE=disable")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return pgbenchResult{}, ctx.Err()
	}
	if msg := pgbenchFailure(stdout.String(), stderr.String()); msg != "" || runErr != nil {
		if msg == "" {
			msg = strings.TrimSpace(stderr.String())
		}
		if runErr != nil {
			return pgbenchResult{}, fmt.Errorf("pgbench: %v: %s", runErr, msg)
		}
		return pgbenchResult{}, errors.New("pgbench: " + msg)
	}
	tps, err := parseTPS(stdout.String())
	if err != nil {
		return pgbenchResult{}, err
	}
	lat, err := readPgbenchLogs(dir)
	if err != nil {
		return pgbenchResult{}, err
	}
	if len(lat) == 0 {
		return pgbenchResult{}, errors.New("pgbench: no transaction completed")
	}
	slices.Sort(lat)
	return pgbenchResult{tps: tps, p50: percentile(lat, 50), p99: percentile(lat, 99), txns: len(lat)}, nil
}

// readPgbenchLogs returns the latencies (ms) of every per-transaction log in
// dir (pgbench writes one file per thread: tx.<pid>, tx.<pid>.<n>).
func readPgbenchLogs(dir string) ([]float64, error) {
	files, err := filepath.Glob(filepath.Join(dir, "tx.*"))
	if err != nil {
		return nil, err
	}
	var all []float64
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return nil, err
		}
		lat, err := pgbenchLatencies(fh)
		fh.Close()
		if err != nil {
			return nil, err
		}
		all = append(all, lat...)
	}
	return all, nil
}

var tpsRE = regexp.MustCompile(`(?m)^tps = ([0-9.]+) \(without initial connection time\)`)

// parseTPS returns the throughput pgbench printed.
func parseTPS(stdout string) (float64, error) {
	m := tpsRE.FindStringSubmatch(stdout)
	if m == nil {
		return 0, fmt.Errorf("pgbench printed no tps line:\n%s", stdout)
	}
	return strconv.ParseFloat(m[1], 64)
}

var failedRE = regexp.MustCompile(`(?m)^number of failed transactions: ([0-9]+)`)

// pgbenchFailure returns why a pgbench run failed, or "" if its output shows
// no failure: the first error line on stderr (e.g. "client 0 script 0
// aborted in command 3 query 0: ERROR: ..."), or a count of failed
// transactions.
func pgbenchFailure(stdout, stderr string) string {
	for _, line := range strings.Split(stderr, "\n") {
		l := strings.TrimSpace(line)
		if strings.Contains(l, "error") || strings.Contains(l, "ERROR") || strings.Contains(l, "FATAL") {
			return strings.TrimPrefix(l, "pgbench: ")
		}
	}
	if m := failedRE.FindStringSubmatch(stdout); m != nil && m[1] != "0" {
		return m[1] + " failed transactions"
	}
	return ""
}
