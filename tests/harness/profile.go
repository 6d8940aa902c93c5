package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// profiler saves CPU profiles of the widesql server (--profile DIR): the
// server runs with --pprof on a free loopback port, and each workload's
// first-round run on widesql is profiled into DIR/<workload>.pprof, so a
// missed target can be explained with `go tool pprof -top FILE`.
//
// A profile lasts secs seconds from the start of the run: the whole run for
// pgbench workloads (which last --duration), the first --duration seconds of
// a longer run (a bulk load, a YCSB run), and a shorter run (a scan) is
// waited for until the profile ends. CPU samples are only taken while the
// server computes, so that wait adds nothing to the profile. Profiling costs
// widesql a few percent in that one round.
type profiler struct {
	dir  string // where the files go
	addr string // widesql's --pprof address
	secs int
}

// start begins profiling the run of workload name and returns the function
// that waits for the profile and saves it. A profile that cannot be taken
// is logged, never a failure of the workload: it explains numbers, it is
// not one.
func (p *profiler) start(ctx context.Context, name string) (wait func()) {
	path := filepath.Join(p.dir, profileFile(name))
	url := fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", p.addr, p.secs)
	done := make(chan error, 1)
	go func() { done <- fetchProfile(ctx, url, path, time.Duration(p.secs)*time.Second) }()
	return func() {
		if err := <-done; err != nil {
			logf("  widesql profile of %q not saved: %v", name, err)
			return
		}
		logf("  widesql CPU profile: %s", path)
	}
}

// fetchProfile GETs url (a CPU profile of d) and writes it to path.
func fetchProfile(ctx context.Context, url, path string, d time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, d+30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 500))
		return fmt.Errorf("%s: %s", resp.Status, strings.TrimSpace(string(msg)))
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// profileFile names the profile of workload name: its letters and digits
// in lower case, other runs of characters as one '-'.
func profileFile(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String() + ".pprof"
}

// runHook returns the hook runAlternating calls around each run: with
// --profile, it profiles widesql's first-round run of w; otherwise nil.
func (h *harness) runHook(name string) func(ctx context.Context, s *server, round int) func() {
	if h.prof == nil {
		return nil
	}
	return func(ctx context.Context, s *server, round int) func() {
		if s != h.ws || round != 0 {
			return nil
		}
		return h.prof.start(ctx, name)
	}
}

// runAlternating runs w on both servers (the package function), with
// widesql profiled under --profile.
func (h *harness) runAlternating(ctx context.Context, w *workload) result {
	return runAlternating(ctx, w, h.pg, h.ws, h.cfg.rounds, logf, h.runHook(w.name))
}
