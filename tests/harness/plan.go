package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// standingNotes explain how to read every report.
var standingNotes = []string{
	"Each number is the median over the rounds; the ratio is widesql / PostgreSQL of the medians. " +
		"For throughput and rate higher is better, so a ratio above 1 favours widesql; for times and latencies lower is better, so a ratio below 1 favours widesql.",
	"p99 latencies come from pgbench's per-transaction logs (-l), or from go-ycsb's histograms for YCSB.",
	"Memory is the peak of the summed proportional set size (Pss) of each server's processes, sampled every 200 ms over the whole run; PostgreSQL's shared buffers count once.",
	"Size on disk is measured after a CHECKPOINT in each server (PostgreSQL writes every page to its files; widesql flushes its memtables to files and truncates its WAL): PostgreSQL's table + indexes of kv, its WAL excluded, against widesql's whole data directory.",
}

// setupLines describe the run for the report.
func (h *harness) setupLines() []string {
	fam := "one default family"
	if h.cfg.families {
		fam = "families `d` (grp, val) and `p` (payload)"
	}
	return []string{
		fmt.Sprintf("Table `kv (tenant INT, id BIGINT, grp INT, val INT, payload TEXT, PRIMARY KEY (tenant, id))` with %s rows, %d ids per tenant, 64-character payloads; in widesql %s.",
			formatNumber(float64(h.cfg.rows)), h.data.perTenant, fam),
		"PostgreSQL: a fresh `initdb` cluster (C locale), default settings, fsync on; `VACUUM ANALYZE` after each load, untimed. widesql: built from this tree, default durable store (WAL fsynced before acknowledging); `CHECKPOINT` after each load, then a wait until its background compactions and splits are done (its CPU under a tenth of a core for 2 s), untimed.",
		"Loading: " + h.loader.method() + " through pgx, the same for both servers.",
		fmt.Sprintf("pgbench runs are %s each (`-n -f script`, `-j %d`); %d round%s per workload, alternating which server goes first.",
			h.cfg.duration, h.cfg.threads, h.cfg.rounds, plural(h.cfg.rounds)),
	}
}

// machineFacts describes this machine.
func machineFacts(pgVersion string) string {
	cpu := "unknown CPU"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, "model name") {
				if i := strings.IndexByte(l, ':'); i >= 0 {
					cpu = strings.TrimSpace(l[i+1:])
				}
				break
			}
		}
	}
	mem := "unknown"
	if kb, ok := kbField("/proc/meminfo", "MemTotal:"); ok {
		mem = fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
	}
	return fmt.Sprintf("%d cores (%s), %s RAM, %s %s/%s, PostgreSQL %s",
		runtime.NumCPU(), cpu, mem, runtime.Version(), runtime.GOOS, runtime.GOARCH, pgVersion)
}

// loadMain creates and loads kv on both servers (PostgreSQL first) and
// returns the load rates as a one-sample result.
func (h *harness) loadMain(ctx context.Context) (result, error) {
	res := result{name: fmt.Sprintf("initial load of kv, %s rows (1 sample)", formatNumber(float64(h.cfg.rows))),
		metrics: []metric{mRate}}
	for _, p := range []struct {
		s *server
		o *outcome
	}{{h.pg, &res.pg}, {h.ws, &res.ws}} {
		logf("loading %d rows into %s", h.cfg.rows, p.s.name)
		if err := createTable(ctx, p.s, "kv", h.cfg.families); err != nil {
			return res, fmt.Errorf("%s: %w", p.s.name, err)
		}
		var wait func()
		if hook := h.runHook(res.name); hook != nil {
			wait = hook(ctx, p.s, 0)
		}
		elapsed, err := h.loader.load(ctx, p.s, "kv", h.data)
		if wait != nil {
			wait()
		}
		if err != nil {
			return res, fmt.Errorf("loading %s: %w", p.s.name, err)
		}
		p.o.samples = []sample{{mRate.name: float64(h.cfg.rows) / elapsed.Seconds()}}
		logf("  %s: %s rows/s", p.s.name, formatNumber(float64(h.cfg.rows)/elapsed.Seconds()))
	}
	if err := h.settle(ctx, h.pg, "kv"); err != nil {
		return res, err
	}
	return res, h.settle(ctx, h.ws, "kv")
}

// settle brings a freshly loaded table to its steady state, untimed, as a
// user of each server would after a bulk load: PostgreSQL gets VACUUM
// ANALYZE (hint bits, the visibility map, planner statistics; autovacuum
// would do it a little later), widesql gets CHECKPOINT (the loaded rows
// move from memtables and WAL into files, as a flush would a little later)
// and then the end of the background work the load started (waitIdle).
func (h *harness) settle(ctx context.Context, s *server, table string) error {
	stmt := "CHECKPOINT"
	if s == h.pg {
		stmt = "VACUUM ANALYZE " + table
	}
	conn, err := s.connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, stmt); err != nil {
		return fmt.Errorf("%s: %s: %w", s.name, stmt, err)
	}
	if s == h.ws {
		waited, err := waitIdle(ctx, s.cmd.Process.Pid, idleWindow, maxIdleWait)
		if err != nil {
			return fmt.Errorf("%s: waiting for background work after loading %s: %w", s.name, table, err)
		}
		if waited > idleWindow*3/2 { // idle at the first check says nothing
			logf("  widesql: settled %s after loading %s (background compactions and splits)", waited.Round(time.Second), table)
		}
	}
	return nil
}

// A freshly loaded widesql table is not settled when CHECKPOINT returns:
// compactions give split regions files of their own, and the regions
// split further (up to a minute of both cores after 10^7 rows). A
// workload measured meanwhile would measure that work, as PostgreSQL's
// would measure an autovacuum of the table if VACUUM ANALYZE had not
// run. So settle also waits, untimed, until widesql's process has used
// less than idleCPU of a core over an idleWindow, for at most maxIdleWait.
const (
	idleWindow  = 2 * time.Second
	idleCPU     = 0.1
	maxIdleWait = 5 * time.Minute
)

// waitIdle waits until process pid's CPU time grows by less than idleCPU
// of a core over a window, and returns how long it waited. Waiting longer
// than limit is an error: background work that never ends is a defect to
// report, not to measure through.
func waitIdle(ctx context.Context, pid int, window, limit time.Duration) (time.Duration, error) {
	start := time.Now()
	prev, err := cpuTime(pid)
	if err != nil {
		return 0, err
	}
	for {
		select {
		case <-ctx.Done():
			return time.Since(start), ctx.Err()
		case <-time.After(window):
		}
		cur, err := cpuTime(pid)
		if err != nil {
			return time.Since(start), err
		}
		if float64(cur-prev) < idleCPU*float64(window) {
			return time.Since(start), nil
		}
		if time.Since(start) > limit {
			return time.Since(start), fmt.Errorf("still busy (%.2f cores) after %s", float64(cur-prev)/float64(window), limit)
		}
		prev = cur
	}
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/<pid>/stat's
// times: 100 on every Linux architecture Go supports.
const clockTicks = 100

// cpuTime returns the user + system CPU time process pid has used, from
// /proc/<pid>/stat.
func cpuTime(pid int) (time.Duration, error) {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, err
	}
	return parseCPUTime(data)
}

// parseCPUTime reads utime and stime (fields 14 and 15) from a
// /proc/<pid>/stat line. The command name (field 2) may hold spaces and
// parentheses: fields are counted from after its last ')'.
func parseCPUTime(stat []byte) (time.Duration, error) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("unexpected /proc stat line %q", stat)
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("unexpected /proc stat line %q", stat)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("unexpected /proc stat line %q", stat)
	}
	return time.Duration(utime+stime) * time.Second / clockTicks, nil
}

// measureSizes measures kv on disk in both servers after a CHECKPOINT in
// each: PostgreSQL's then holds every page in its files, widesql's has
// flushed its memtables to files and truncated its WAL. A widesql without
// CHECKPOINT (0A000, or 42601 from an older parser) is measured as it is,
// WAL included, and the returned note says so.
func (h *harness) measureSizes(ctx context.Context) (f footprint, note string) {
	if err := checkpoint(ctx, h.pg); err != nil {
		f.sizeErr = err
		return f, ""
	}
	if err := checkpoint(ctx, h.ws); err != nil {
		if code := sqlstate(err); code != "0A000" && code != "42601" {
			f.sizeErr = fmt.Errorf("widesql: %w", err)
			return f, ""
		}
		note = "widesql refused CHECKPOINT (" + oneLine(err.Error()) + "), so its size on disk includes the WAL not yet truncated."
	}
	conn, err := h.pg.connect(ctx)
	if err != nil {
		f.sizeErr = err
		return f, note
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, "SELECT pg_table_size('kv') + pg_indexes_size('kv')").Scan(&f.pgTable); err != nil {
		f.sizeErr = err
		return f, note
	}
	f.pgBase, _ = dirSize(filepath.Join(h.pg.dataDir, "base"), "")
	f.wsData, f.wsWAL = dirSize(h.ws.dataDir, "wal")
	logf("size of kv: PostgreSQL %s (base/ %s), widesql %s (WAL %s)",
		humanBytes(f.pgTable), humanBytes(f.pgBase), humanBytes(f.wsData), humanBytes(f.wsWAL))
	return f, note
}

// checkpoint runs CHECKPOINT on s.
func checkpoint(ctx context.Context, s *server) error {
	conn, err := s.connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "CHECKPOINT")
	return err
}

// sqlstate returns the SQLSTATE of a server error, or "".
func sqlstate(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// workloads returns the pgbench and pgx workloads in run order: reads, then
// scans and aggregates (before anything changes kv), then writes, then bulk
// load. Growth and YCSB run afterwards.
func (h *harness) workloads() []*workload {
	d := h.data
	var ws []*workload
	for _, mode := range []string{"prepared", "simple"} {
		for _, c := range []int{1, 4, 16} {
			ws = append(ws, h.pgbenchWorkload("point Get", pointGetScript("kv", d), mode, c, nil))
		}
	}
	for _, mode := range []string{"prepared", "simple"} {
		ws = append(ws, h.pgbenchWorkload("multi-get of 10 keys with IN", multiGetScript(d), mode, 4, nil))
	}
	for _, mode := range []string{"prepared", "simple"} {
		ws = append(ws, h.pgbenchWorkload("range scan of 100 rows by key prefix, ORDER BY key", rangeScript(d), mode, 4, nil))
	}
	want := d.filteredCount()
	ws = append(ws, scanWorkload(fmt.Sprintf("filtered full scan, val < %d (%d rows)", filterLimit, want),
		fmt.Sprintf("SELECT tenant, id, grp, val, payload FROM kv WHERE val < %d", filterLimit),
		func(n, _, _ int64) error {
			if n != int64(want) {
				return fmt.Errorf("%d rows, want %d", n, want)
			}
			return nil
		}))
	ws = append(ws, scanWorkload("GROUP BY grp with COUNT and SUM (100 groups)",
		"SELECT grp, count(*), sum(val) FROM kv GROUP BY grp",
		func(n, count, _ int64) error {
			if n != groups || count != int64(d.n) {
				return fmt.Errorf("%d groups counting %d rows, want %d groups counting %d", n, count, groups, d.n)
			}
			return nil
		}))
	createIns := func(ctx context.Context, s *server) error { return createTable(ctx, s, "kv_ins", h.cfg.families) }
	for _, mode := range []string{"prepared", "simple"} {
		ws = append(ws, h.pgbenchWorkload("single-row durable INSERT", insertScript, mode, 16, createIns))
	}
	for _, mode := range []string{"prepared", "simple"} {
		ws = append(ws, h.pgbenchWorkload("UPDATE of one column by key", updateScript(d), mode, 4, nil))
	}
	ws = append(ws, h.bulkLoadWorkload(h.cfg.bulkRows))
	var out []*workload
	for _, w := range ws {
		if h.selected(w.name) {
			out = append(out, w)
		}
	}
	return out
}

// runGrowth measures prepared point-Get latency with 1 client on tables of
// 10^4, 10^5, ... up to --growth-max rows, then how much it grew from the
// smallest to the largest.
func (h *harness) runGrowth(ctx context.Context) []result {
	var levels []int
	for n := 10_000; n <= h.cfg.growthMax; n *= 10 {
		levels = append(levels, n)
	}
	if len(levels) < 2 {
		return nil
	}
	var out []result
	for _, n := range levels {
		table, d := "kv", h.data
		var prepare func(context.Context, *server) error
		if n != h.cfg.rows {
			table, d = fmt.Sprintf("grow_%d", n), newDataset(n)
			prepare = func(ctx context.Context, s *server) error {
				if err := createTable(ctx, s, table, h.cfg.families); err != nil {
					return err
				}
				if _, err := h.loader.load(ctx, s, table, d); err != nil {
					return err
				}
				return h.settle(ctx, s, table)
			}
		}
		w := h.pgbenchWorkload(fmt.Sprintf("growth: point Get on %s rows", formatNumber(float64(n))),
			pointGetScript(table, d), "prepared", 1, prepare)
		w.metrics = []metric{mP50, mP99}
		logf("%s", w.name)
		out = append(out, h.runAlternating(ctx, w))
		if ctx.Err() != nil {
			return out
		}
		if table != "kv" {
			// A 10^7-row table takes GBs; later workloads need not share the disk with it.
			for _, s := range []*server{h.pg, h.ws} {
				if err := dropTable(ctx, s, table); err != nil {
					logf("  %s: dropping %s: %v", s.name, table, err)
				}
			}
		}
	}
	first, last := out[0], out[len(out)-1]
	g := result{name: fmt.Sprintf("growth of point-Get latency from %s to %s rows (factor)",
		formatNumber(float64(levels[0])), formatNumber(float64(levels[len(levels)-1]))),
		metrics: []metric{{"p50 growth", "×", false}, {"p99 growth", "×", false}}}
	for _, p := range []struct{ a, b, o *outcome }{{&first.pg, &last.pg, &g.pg}, {&first.ws, &last.ws, &g.ws}} {
		if p.a.err != nil || p.b.err != nil {
			p.o.err = fmt.Errorf("a growth level failed")
			continue
		}
		p.o.samples = []sample{{
			"p50 growth": p.b.median(mP50.name) / p.a.median(mP50.name),
			"p99 growth": p.b.median(mP99.name) / p.a.median(mP99.name),
		}}
	}
	return append(out, g)
}

// runYCSB builds go-ycsb and runs the YCSB load and workloads. When go-ycsb
// cannot be built it returns no results and a note saying why.
func (h *harness) runYCSB(ctx context.Context) ([]result, string) {
	logf("building go-ycsb %s (first time: a few minutes)", ycsbVersion)
	bctx, cancel := context.WithTimeout(ctx, 15*time.Minute)
	tool, err := buildYCSB(bctx)
	cancel()
	if err != nil {
		return nil, "YCSB skipped: go-ycsb could not be built: " + oneLine(err.Error())
	}
	ws := h.ycsbWorkloads(tool)
	var out []result
	var loadErr [2]error
	for i, w := range ws {
		if i > 0 {
			w.prepare = func(_ context.Context, s *server) error {
				if e := loadErr[serverIndex(s, h)]; e != nil {
					return fmt.Errorf("YCSB load failed: %w", e)
				}
				return nil
			}
		}
		logf("%s", w.name)
		r := h.runAlternating(ctx, w)
		if i == 0 {
			loadErr = [2]error{r.pg.err, r.ws.err}
		}
		out = append(out, r)
		if ctx.Err() != nil {
			break
		}
	}
	return out, fmt.Sprintf("YCSB: go-ycsb %s, binding postgresql (lib/pq, prepared statements), %s records, "+
		"requestdistribution=zipfian (D keeps its latest), maxscanlength=100, %s operations per run.",
		ycsbVersion, formatNumber(float64(h.cfg.ycsbRecords)), formatNumber(float64(h.cfg.ycsbOps)))
}

// serverIndex is 0 for PostgreSQL and 1 for widesql.
func serverIndex(s *server, h *harness) int {
	if s == h.pg {
		return 0
	}
	return 1
}
