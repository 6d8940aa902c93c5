package main

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
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ycsbVersion is the go-ycsb release whose PostgreSQL binding the harness
// drives; it builds from the module cache (docs: postgres-here.md).
const ycsbVersion = "v1.0.1"

// ycsbTool is a built go-ycsb and its bundled workload files.
type ycsbTool struct {
	bin          string
	workloadsDir string
}

// buildYCSB returns go-ycsb, building it on first use into the user cache
// directory (go mod download of the module, then go build ./cmd/go-ycsb
// inside it). It takes a few minutes cold.
func buildYCSB(ctx context.Context) (ycsbTool, error) {
	var t ycsbTool
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", "github.com/pingcap/go-ycsb@"+ycsbVersion)
	cmd.Dir = os.TempDir() // outside any module, so no go.mod is touched
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GO111MODULE=on")
	out, err := cmd.Output()
	if err != nil {
		return t, fmt.Errorf("go mod download go-ycsb: %v %s", err, out)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		return t, fmt.Errorf("go mod download go-ycsb: %s %s", info.Error, out)
	}
	t.workloadsDir = filepath.Join(info.Dir, "workloads")
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	t.bin = filepath.Join(cache, "widesql-harness", "go-ycsb-"+ycsbVersion)
	if _, err := os.Stat(t.bin); err == nil {
		return t, nil
	}
	build := exec.CommandContext(ctx, "go", "build", "-o", t.bin, "./cmd/go-ycsb")
	build.Dir = info.Dir
	if out, err := build.CombinedOutput(); err != nil {
		return t, fmt.Errorf("go build go-ycsb: %v\n%s", err, lastLines(string(out), 10))
	}
	return t, nil
}

// ycsbResult is what one go-ycsb run measured.
type ycsbResult struct {
	ops float64 // successful operations per second
	p99 float64 // ms, over all successful operations
}

// args returns the go-ycsb command line for phase ("load" or "run") of
// workload letter w against s; a run does ops operations.
func (t ycsbTool) args(phase, w string, s *server, records, ops, threads int) []string {
	a := []string{phase, "postgresql", "-P", filepath.Join(t.workloadsDir, "workload"+w),
		"-p", "recordcount=" + strconv.Itoa(records), "-p", "threadcount=" + strconv.Itoa(threads),
		"-p", "maxscanlength=100",
		"-p", "pg.host=127.0.0.1", "-p", "pg.port=" + strconv.Itoa(s.port),
		"-p", "pg.user=postgres", "-p", "pg.db=bench", "-p", "pg.sslmode=disable"}
	if w != "d" { // D reads the latest inserts by design; the rest use standard zipfian.
		a = append(a, "-p", "requestdistribution=zipfian")
	}
	if phase == "load" {
		a = append(a, "-p", "dropdata=true")
	} else {
		a = append(a, "-p", "operationcount="+strconv.Itoa(ops))
	}
	return a
}

// run runs go-ycsb with args to the end; when it has not finished within
// limit it is killed and the run fails. (Stopping it early with a signal
// would make the operations in flight count as errors, which cannot be told
// from real ones, so every run does a fixed number of operations.)
func (t ycsbTool) run(ctx context.Context, args []string, limit time.Duration) (ycsbResult, error) {
	cmd := exec.Command(t.bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return ycsbResult{}, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(limit):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return ycsbResult{}, fmt.Errorf("go-ycsb did not finish within %s", limit)
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return ycsbResult{}, ctx.Err()
	}
	res, perr := parseYCSB(stdout.String())
	if perr != nil {
		if err != nil {
			return res, fmt.Errorf("go-ycsb: %v: %s", err, lastLines(stderr.String()+stdout.String(), 5))
		}
		return res, perr
	}
	return res, nil
}

var ycsbLineRE = regexp.MustCompile(`(?m)^([A-Z_]+)\s+- Takes\(s\): [0-9.]+, Count: ([0-9]+), OPS: ([0-9.]+),.*?, 99th\(us\): ([0-9.]+)`)

// parseYCSB reads go-ycsb's final plain-text summary (the lines after "Run
// finished"). It fails when the run did not finish, when any *_ERROR line
// counts operations, or when no operation succeeded.
func parseYCSB(stdout string) (ycsbResult, error) {
	i := strings.LastIndex(stdout, "Run finished")
	if i < 0 {
		return ycsbResult{}, fmt.Errorf("go-ycsb did not finish: %s", lastLines(stdout, 5))
	}
	var res ycsbResult
	var errs []string
	found := false
	for _, m := range ycsbLineRE.FindAllStringSubmatch(stdout[i:], -1) {
		op, count := m[1], m[2]
		switch {
		case strings.HasSuffix(op, "_ERROR") && count != "0":
			errs = append(errs, fmt.Sprintf("%s operations failed: %s", strings.TrimSuffix(op, "_ERROR"), count))
		case op == "TOTAL":
			res.ops, _ = strconv.ParseFloat(m[3], 64)
			us, _ := strconv.ParseFloat(m[4], 64)
			res.p99 = us / 1000
			found = true
		}
	}
	if len(errs) > 0 {
		return ycsbResult{}, errors.New(strings.Join(errs, "; "))
	}
	if !found || res.ops == 0 {
		return ycsbResult{}, errors.New("go-ycsb completed no operation")
	}
	return res, nil
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// ycsbWorkloads returns the YCSB load and workloads A, B, C, F, D, E (D and E
// insert, so they come last) for t.
func (h *harness) ycsbWorkloads(t ycsbTool) []*workload {
	records, threads := h.cfg.ycsbRecords, h.cfg.ycsbThreads
	limit := h.cfg.ycsbLimit
	mOps := metric{"throughput", "ops/s", true}
	load := &workload{
		name:    fmt.Sprintf("YCSB load, %s records, %d threads", formatNumber(float64(records)), threads),
		metrics: []metric{mOps},
		run: func(ctx context.Context, s *server) (sample, error) {
			r, err := t.run(ctx, t.args("load", "a", s, records, 0, threads), limit)
			if err != nil {
				return nil, err
			}
			return sample{mOps.name: r.ops}, nil
		},
	}
	ws := []*workload{load}
	for _, w := range []string{"a", "b", "c", "f", "d", "e"} {
		ws = append(ws, &workload{
			name:    fmt.Sprintf("YCSB %s, %d threads", strings.ToUpper(w), threads),
			metrics: []metric{mOps, mP99},
			run: func(ctx context.Context, s *server) (sample, error) {
				r, err := t.run(ctx, t.args("run", w, s, records, h.cfg.ycsbOps, threads), limit)
				if err != nil {
					return nil, err
				}
				return sample{mOps.name: r.ops, mP99.name: r.p99}, nil
			},
		})
	}
	return ws
}
