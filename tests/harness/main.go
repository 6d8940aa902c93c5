package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// config holds the harness flags.
type config struct {
	rows, rounds, threads      int
	duration                   time.Duration
	batch, loadConns, bulkRows int
	copyRows                   int
	copy, families             bool
	growthMax                  int
	ycsb                       bool
	ycsbRecords, ycsbThreads   int
	ycsbOps                    int
	ycsbLimit                  time.Duration
	only                       string
	pgBin, widesqlFlags        string
	profileDir                 string
	write                      bool
}

func parseFlags(args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("harness", flag.ContinueOnError)
	fs.IntVar(&c.rows, "rows", 1_000_000, "rows in the main table kv (at least 1000)")
	fs.IntVar(&c.rounds, "rounds", 3, "rounds per workload; each round runs both servers, alternating which goes first")
	fs.DurationVar(&c.duration, "duration", 10*time.Second, "length of each pgbench and YCSB run (whole seconds)")
	fs.IntVar(&c.threads, "threads", runtime.NumCPU(), "pgbench worker threads (-j), at most the client count")
	fs.BoolVar(&c.copy, "copy", true, "load with COPY FROM STDIN (pgx CopyFrom, binary), one statement per connection; false: multi-row INSERTs")
	fs.IntVar(&c.copyRows, "copy-rows", 1_000_000, "at most this many rows per COPY statement (a connection's larger share is sent as several)")
	fs.IntVar(&c.batch, "batch", 1000, "rows per INSERT statement when loading with --copy=false")
	fs.IntVar(&c.loadConns, "load-conns", runtime.NumCPU(), "connections loading in parallel, each with its own share of the rows")
	fs.IntVar(&c.bulkRows, "bulk-rows", 0, "rows of the bulk-load workload (0: same as --rows)")
	fs.BoolVar(&c.families, "families", true, "in widesql put grp, val in family d and payload in family p (false: one default family)")
	fs.IntVar(&c.growthMax, "growth-max", 0, "largest table of the point-Get growth workload, a power of 10 from 10000 (0: --rows rounded down; 10000000 for 10^7)")
	fs.BoolVar(&c.ycsb, "ycsb", true, "run YCSB A-F through go-ycsb's PostgreSQL binding (built on first use; skipped with a note if the build fails)")
	fs.IntVar(&c.ycsbRecords, "ycsb-records", 100_000, "YCSB record count")
	fs.IntVar(&c.ycsbThreads, "ycsb-threads", 4, "YCSB client threads")
	fs.IntVar(&c.ycsbOps, "ycsb-ops", 50_000, "operations per YCSB run")
	fs.DurationVar(&c.ycsbLimit, "ycsb-limit", 5*time.Minute, "a YCSB load or run still going after this long is killed and reported FAILED")
	fs.StringVar(&c.only, "only", "", "run only workloads whose name contains one of these comma-separated words (case-insensitive)")
	fs.StringVar(&c.pgBin, "pg-bin", "", "directory holding initdb, postgres and pgbench (default: newest /usr/lib/postgresql/*/bin)")
	fs.StringVar(&c.widesqlFlags, "widesql-flags", "", "extra flags for the widesql server, space-separated")
	fs.StringVar(&c.profileDir, "profile", "", "save a CPU profile of widesql (its --pprof) for each workload's first-round run into this directory, one file per workload")
	fs.BoolVar(&c.write, "write", true, "write the results into docs/BENCHMARKS.md and docs/bench/harness.png")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "harness: widesql vs PostgreSQL 15, side by side (issue 8).\n\nUsage: cd tests/harness && go run . [flags]\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if c.rows < 1000 || c.rounds < 1 || c.batch < 1 || c.copyRows < 1 || c.loadConns < 1 || c.threads < 1 {
		return c, errors.New("--rows must be at least 1000; --rounds, --batch, --copy-rows, --load-conns and --threads at least 1")
	}
	if c.bulkRows == 0 {
		c.bulkRows = c.rows
	}
	if c.growthMax == 0 {
		c.growthMax = c.rows
	}
	return c, nil
}

// harness is one run: its configuration, tools and the two servers.
type harness struct {
	cfg     config
	tools   pgTools
	root    string // repository root
	workDir string // temporary directory for pgbench scripts and logs
	pg, ws  *server
	loader  loader
	data    dataset
	prof    *profiler // nil without --profile
}

func logf(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		os.Exit(2)
	}
	if err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		os.Exit(1)
	}
}

// run performs a whole benchmark run. Every server and temporary directory
// it creates is removed before it returns, also when interrupted.
func run(cfg config) (err error) {
	tools, err := findPGTools(cfg.pgBin)
	if err != nil {
		return err
	}
	root, err := repoRoot()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	h := &harness{cfg: cfg, tools: tools, root: root, data: newDataset(cfg.rows),
		loader: loader{copy: cfg.copy, batch: cfg.batch, copyRows: cfg.copyRows, conns: cfg.loadConns}}
	if cfg.profileDir != "" {
		if err := os.MkdirAll(cfg.profileDir, 0o755); err != nil {
			return err
		}
	}
	if h.workDir, err = os.MkdirTemp("", "harness-work-"); err != nil {
		return err
	}
	defer os.RemoveAll(h.workDir)

	logf("starting PostgreSQL from %s", tools.bin)
	if h.pg, err = startPostgres(ctx, tools); err != nil {
		return fmt.Errorf("PostgreSQL: %w", err)
	}
	defer stopServer(h.pg, &err)
	logf("building and starting widesql from %s", root)
	if h.ws, err = startWidesql(ctx, root, strings.Fields(cfg.widesqlFlags), cfg.profileDir != ""); err != nil {
		return fmt.Errorf("widesql: %w", err)
	}
	defer stopServer(h.ws, &err)
	logf("PostgreSQL %s on port %d, widesql on port %d", h.pg.version, h.pg.port, h.ws.port)
	if cfg.profileDir != "" {
		secs := max(1, int(cfg.duration.Round(time.Second)/time.Second))
		h.prof = &profiler{dir: cfg.profileDir, addr: h.ws.pprof, secs: secs}
		logf("widesql profiles (pprof on %s) go to %s", h.ws.pprof, cfg.profileDir)
	}

	rep := report{date: time.Now().Format("2006-01-02 15:04 MST"), machine: machineFacts(h.pg.version),
		command: "cd tests/harness && go run . " + strings.Join(os.Args[1:], " ")}
	rep.command = strings.TrimSpace(rep.command)
	rep.setup = h.setupLines()

	initial, err := h.loadMain(ctx)
	if err != nil {
		return err
	}
	rep.results = append(rep.results, initial)
	var sizeNote string
	rep.foot, sizeNote = h.measureSizes(ctx)
	if sizeNote != "" {
		rep.notes = append(rep.notes, sizeNote)
	}

	for _, w := range h.workloads() {
		if ctx.Err() != nil {
			break
		}
		logf("%s", w.name)
		rep.results = append(rep.results, h.runAlternating(ctx, w))
	}
	if ctx.Err() == nil && h.selected("growth") {
		rep.results = append(rep.results, h.runGrowth(ctx)...)
	}
	if ctx.Err() == nil && cfg.ycsb && h.selected("ycsb") {
		res, note := h.runYCSB(ctx)
		rep.results = append(rep.results, res...)
		if note != "" {
			rep.notes = append(rep.notes, note)
		}
	}
	rep.foot.pgPeakMem, rep.foot.wsPeakMem = h.pg.mem.Peak(), h.ws.mem.Peak()
	rep.notes = append(rep.notes, standingNotes...)
	if ctx.Err() != nil {
		fmt.Println(rep.markdown())
		return errors.New("interrupted: servers stopped, nothing written to docs/")
	}
	return h.publish(rep)
}

// stopServer stops s and records a failure to stop in *err.
func stopServer(s *server, err *error) {
	if e := s.stop(); e != nil && *err == nil {
		*err = e
	}
}

// publish prints the report and, with --write, writes the chart and the
// marked section of docs/BENCHMARKS.md.
func (h *harness) publish(rep report) error {
	title := fmt.Sprintf("widesql vs PostgreSQL %s, %s rows, medians of %d rounds (%s)",
		h.pg.version, formatNumber(float64(h.cfg.rows)), h.cfg.rounds, rep.date)
	var chartErr error
	if h.cfg.write {
		chart := filepath.Join(h.root, "docs", "bench", "harness.png")
		if err := os.MkdirAll(filepath.Dir(chart), 0o755); err != nil {
			return err
		}
		if chartErr = drawChart(chartBars(rep.results), title, chart); chartErr == nil {
			rep.chartPath = "bench/harness.png"
		} else {
			rep.notes = append(rep.notes, "No chart: "+chartErr.Error())
		}
	}
	md := rep.markdown()
	fmt.Println(md)
	if !h.cfg.write {
		return nil
	}
	doc := filepath.Join(h.root, "docs", "BENCHMARKS.md")
	if err := writeGenerated(doc, md); err != nil {
		return err
	}
	logf("wrote %s and docs/bench/harness.png", doc)
	return nil
}

// selected reports whether workloads named name run under --only.
func (h *harness) selected(name string) bool {
	if h.cfg.only == "" {
		return true
	}
	for _, w := range strings.Split(h.cfg.only, ",") {
		if w = strings.TrimSpace(w); w != "" && strings.Contains(strings.ToLower(name), strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// repoRoot finds the widesql repository root above the working directory.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(data), "module github.com/widesql/widesql\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run the harness inside the widesql repository (cd tests/harness)")
		}
		dir = parent
	}
}
