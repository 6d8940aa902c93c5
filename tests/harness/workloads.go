package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// metric is one number a workload measures on each server.
type metric struct {
	name         string // e.g. "throughput", "p99 latency"
	unit         string // e.g. "tps", "ms"
	higherBetter bool
}

var (
	mTPS  = metric{"throughput", "tps", true}
	mP50  = metric{"p50 latency", "ms", false}
	mP99  = metric{"p99 latency", "ms", false}
	mTime = metric{"time", "ms", false}
	mRate = metric{"rate", "rows/s", true}
)

// sample holds the values of one run on one server, by metric name.
type sample map[string]float64

// workload is one benchmark. prepare (optional) runs once per server before
// the rounds; warmup (optional) runs run once per server untimed; run
// measures once. A workload must leave the server able to run the next one.
type workload struct {
	name    string
	metrics []metric
	prepare func(ctx context.Context, s *server) error
	warmup  bool
	run     func(ctx context.Context, s *server) (sample, error)
}

// outcome is what a workload gave on one server: its samples, or the error
// that stopped it. A workload with an error is FAILED, whatever samples
// earlier rounds gave.
type outcome struct {
	samples []sample
	err     error
}

// median returns the median of the named metric over the samples.
func (o outcome) median(name string) float64 {
	xs := make([]float64, 0, len(o.samples))
	for _, s := range o.samples {
		if v, ok := s[name]; ok {
			xs = append(xs, v)
		}
	}
	return median(xs)
}

// result is a workload's outcome on both servers.
type result struct {
	name    string
	metrics []metric
	pg, ws  outcome
	note    string // shown under the table, e.g. why a workload was skipped
}

// runAlternating runs w on both servers: prepare on each, an optional
// warm-up, then rounds rounds, alternating which server goes first. After a
// failure on one server the workload is not run there again; the other goes
// on. It stops early when ctx is done. hook, when not nil, is called before
// each timed run (round counts from 0) and the function it returns, when
// not nil, after it.
func runAlternating(ctx context.Context, w *workload, pg, ws *server, rounds int, logf func(string, ...any),
	hook func(ctx context.Context, s *server, round int) func()) result {
	res := result{name: w.name, metrics: w.metrics}
	servers := [2]*server{pg, ws}
	outs := [2]*outcome{&res.pg, &res.ws}
	for i, s := range servers {
		if w.prepare != nil {
			if err := w.prepare(ctx, s); err != nil {
				outs[i].err = fmt.Errorf("prepare: %w", err)
			}
		}
		if w.warmup && outs[i].err == nil {
			if _, err := w.run(ctx, s); err != nil {
				outs[i].err = err
			}
		}
	}
	for r := 0; r < rounds && ctx.Err() == nil; r++ {
		order := []int{0, 1}
		if r%2 == 1 {
			order = []int{1, 0}
		}
		for _, i := range order {
			if outs[i].err != nil || ctx.Err() != nil {
				continue
			}
			var after func()
			if hook != nil {
				after = hook(ctx, servers[i], r)
			}
			smp, err := w.run(ctx, servers[i])
			if after != nil {
				after()
			}
			if err != nil {
				outs[i].err = err
				logf("  %-10s round %d: FAILED: %v", servers[i].name, r+1, oneLine(err.Error()))
				continue
			}
			outs[i].samples = append(outs[i].samples, smp)
			logf("  %-10s round %d: %s", servers[i].name, r+1, describe(w.metrics, smp))
		}
	}
	if err := ctx.Err(); err != nil {
		for _, o := range outs {
			if o.err == nil && len(o.samples) < rounds {
				o.err = fmt.Errorf("interrupted: %w", err)
			}
		}
	}
	for i, o := range outs {
		if o.err != nil && len(o.samples) == 0 && errors.Is(o.err, context.Canceled) {
			outs[i].err = errors.New("interrupted")
		}
	}
	return res
}

// describe formats one sample for the progress log.
func describe(ms []metric, s sample) string {
	parts := make([]string, 0, len(ms))
	for _, m := range ms {
		parts = append(parts, fmt.Sprintf("%s %s %s", m.name, formatNumber(s[m.name]), m.unit))
	}
	return strings.Join(parts, ", ")
}

// oneLine collapses whitespace so an error fits on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// pgbenchWorkload measures throughput and latency of script with pgbench.
func (h *harness) pgbenchWorkload(name, script, mode string, clients int, prepare func(context.Context, *server) error) *workload {
	return &workload{
		name:    fmt.Sprintf("%s, -M %s, %d client%s", name, mode, clients, plural(clients)),
		metrics: []metric{mTPS, mP99},
		prepare: prepare,
		run: func(ctx context.Context, s *server) (sample, error) {
			r, err := runPgbench(ctx, h.tools.pgbench, h.workDir, s, pgbenchJob{script: script, mode: mode,
				clients: clients, threads: h.cfg.threads, duration: h.cfg.duration})
			if err != nil {
				return nil, err
			}
			return sample{mTPS.name: r.tps, mP99.name: r.p99, mP50.name: r.p50}, nil
		},
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// pointGetScript reads one row of table (of dataset d) by its full key.
func pointGetScript(table string, d dataset) string {
	return fmt.Sprintf(`\set r random(0, %d)
\set t :r / %d + 1
\set i :r %% %d + 1
SELECT grp, val, payload FROM %s WHERE tenant = :t AND id = :i;
`, d.n-1, d.perTenant, d.perTenant, table)
}

// multiGetScript reads 10 rows of one tenant by key with IN.
func multiGetScript(d dataset) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\\set t random(1, %d)\n", d.fullTenants())
	ids := make([]string, 10)
	for i := range ids {
		fmt.Fprintf(&b, "\\set i%d random(1, %d)\n", i, d.perTenant)
		ids[i] = fmt.Sprintf(":i%d", i)
	}
	fmt.Fprintf(&b, "SELECT tenant, id, grp, val, payload FROM kv WHERE tenant = :t AND id IN (%s);\n", strings.Join(ids, ", "))
	return b.String()
}

// rangeScript reads 100 consecutive rows of one tenant in key order.
func rangeScript(d dataset) string {
	return fmt.Sprintf(`\set t random(1, %d)
\set i random(1, %d)
\set j :i + 99
SELECT id, grp, val, payload FROM kv WHERE tenant = :t AND id BETWEEN :i AND :j ORDER BY id;
`, d.fullTenants(), max(1, d.perTenant-99))
}

// insertScript inserts one new row into kv_ins; each client writes its own
// tenant and random ids, so collisions are vanishingly rare.
const insertScript = `\set id random(1, 4611686018427387903)
\set v random(0, 999999)
INSERT INTO kv_ins (tenant, id, grp, val, payload) VALUES (:client_id + 1, :id, :v % 100, :v, 'inserted-row-payload-0123456789abcdef0123456789abcdef0123456789');
`

// updateScript sets val of one random row by key.
func updateScript(d dataset) string {
	return fmt.Sprintf(`\set r random(0, %d)
\set t :r / %d + 1
\set i :r %% %d + 1
\set v random(0, 999999)
UPDATE kv SET val = :v WHERE tenant = :t AND id = :i;
`, d.n-1, d.perTenant, d.perTenant)
}

// scanWorkload times one query over kv through pgx and checks its answer.
func scanWorkload(name, query string, check func(rows, sumA, sumB int64) error) *workload {
	return &workload{
		name:    name,
		metrics: []metric{mTime},
		warmup:  true,
		run: func(ctx context.Context, s *server) (sample, error) {
			conn, err := s.connect(ctx)
			if err != nil {
				return nil, err
			}
			defer conn.Close(context.Background())
			begin := time.Now()
			rows, err := conn.Query(ctx, query)
			if err != nil {
				return nil, err
			}
			var n, a, b int64
			for rows.Next() {
				vals, err := rows.Values()
				if err != nil {
					rows.Close()
					return nil, err
				}
				n++
				if len(vals) >= 3 {
					a += toInt64(vals[1])
					b += toInt64(vals[2])
				}
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return nil, err
			}
			elapsed := time.Since(begin)
			if err := check(n, a, b); err != nil {
				return nil, fmt.Errorf("wrong answer: %w", err)
			}
			return sample{mTime.name: float64(elapsed.Microseconds()) / 1000}, nil
		},
	}
}

// toInt64 converts an integer column value as pgx returns it.
func toInt64(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case int32:
		return int64(x)
	case int16:
		return int64(x)
	}
	return 0
}

// bulkLoadWorkload loads a fresh table bulk of n rows and reports rows/s.
func (h *harness) bulkLoadWorkload(n int) *workload {
	d := newDataset(n)
	how := "multi-row INSERT"
	if h.loader.copy {
		how = "COPY"
	}
	return &workload{
		name:    fmt.Sprintf("bulk load of %s rows, %s", formatNumber(float64(n)), how),
		metrics: []metric{mRate},
		run: func(ctx context.Context, s *server) (sample, error) {
			if err := createTable(ctx, s, "bulk", h.cfg.families); err != nil {
				return nil, err
			}
			elapsed, err := h.loader.load(ctx, s, "bulk", d)
			if err != nil {
				return nil, err
			}
			if err := dropTable(ctx, s, "bulk"); err != nil {
				return nil, err
			}
			return sample{mRate.name: float64(n) / elapsed.Seconds()}, nil
		},
	}
}

// dropTable drops table on s.
func dropTable(ctx context.Context, s *server, table string) error {
	conn, err := s.connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "DROP TABLE "+table)
	return err
}
