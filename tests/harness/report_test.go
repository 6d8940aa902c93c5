package main

import (
	"errors"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output in testdata/")

// sampleReport has a measured workload, one failed on widesql, one failed on
// both, and a lower-is-better metric.
func sampleReport() report {
	return report{
		date: "2026-11-21 12:00 UTC", machine: "2 cores (test CPU), 24.0 GiB RAM, go1.26.8 linux/amd64, PostgreSQL 15.18",
		command: "cd tests/harness && go run . --rows 100000 --rounds 2",
		setup:   []string{"Table `kv` with 100,000 rows."},
		results: []result{
			{name: "point Get, -M prepared, 4 clients", metrics: []metric{mTPS, mP99},
				pg: outcome{samples: []sample{{"throughput": 50000, "p99 latency": 0.2}, {"throughput": 52000, "p99 latency": 0.4}}},
				ws: outcome{samples: []sample{{"throughput": 60000, "p99 latency": 0.3}, {"throughput": 64000, "p99 latency": 0.3}}}},
			{name: "filtered full scan | pipes", metrics: []metric{mTime},
				pg: outcome{samples: []sample{{"time": 120}}},
				ws: outcome{samples: []sample{{"time": 60}}}},
			{name: "multi-get of 10 keys with IN, -M simple, 4 clients", metrics: []metric{mTPS, mP99},
				pg: outcome{samples: []sample{{"throughput": 9000, "p99 latency": 1}}},
				ws: outcome{samples: []sample{{"throughput": 1, "p99 latency": 1}}, err: errors.New("pgbench: error: client 0 aborted: ERROR:  `IN` \n not supported (SQLSTATE 0A000)")}},
			{name: "YCSB E, 4 threads", metrics: []metric{mTPS},
				pg: outcome{err: errors.New("interrupted")},
				ws: outcome{err: errors.New("YCSB load failed")}},
		},
		foot:      footprint{pgPeakMem: 100 << 20, wsPeakMem: 150 << 20, pgTable: 120 << 20, pgBase: 140 << 20, wsData: 90 << 20, wsWAL: 30 << 20},
		notes:     []string{"A note."},
		chartPath: "bench/harness.png",
	}
}

// TestMarkdown compares the rendered report with testdata/report.md
// (go test -rewrite regenerates it). A failed workload shows FAILED and its
// error, never its number.
func TestMarkdown(t *testing.T) {
	got := sampleReport().markdown()
	path := filepath.Join("testdata", "report.md")
	if *rewrite {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("markdown differs from %s (rerun with -rewrite and review):\n%s", path, got)
	}
	for _, line := range strings.Split(got, "\n") {
		if strings.HasPrefix(line, "| multi-get") && (strings.Contains(line, "1.00 tps") || !strings.Contains(line, "FAILED [1]")) {
			t.Errorf("failed workload shows a number: %s", line)
		}
	}
}

func TestSpliceGenerated(t *testing.T) {
	doc := "# Measured numbers\n\nintro\n"
	once, err := spliceGenerated(doc, "first")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(once, doc) || !strings.Contains(once, beginMarker+"\n\nfirst\n\n"+endMarker) {
		t.Fatalf("appended section wrong:\n%s", once)
	}
	edited := once + "\n## Later section\n\nkept\n"
	twice, err := spliceGenerated(edited, "second")
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(edited, "first", "second", 1); twice != want {
		t.Errorf("replacement changed text outside the markers:\n%s", twice)
	}
	if _, err := spliceGenerated(endMarker+"\n"+beginMarker, "x"); err == nil {
		t.Error("markers out of order accepted")
	}
}

// TestChart draws the sample report's chart and checks it is a PNG with
// one bar per metric measured on both servers.
func TestChart(t *testing.T) {
	bars := chartBars(sampleReport().results)
	if len(bars) != 3 {
		t.Fatalf("%d bars, want 3 (failed workloads have none): %+v", len(bars), bars)
	}
	// The scan took 60 ms on widesql and 120 ms on PostgreSQL: twice as good.
	if bars[2].adv != 2 {
		t.Errorf("scan advantage = %v, want 2", bars[2].adv)
	}
	path := filepath.Join(t.TempDir(), "chart.png")
	if err := drawChart(bars, "test", path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 500 || b.Dy() < 200 {
		t.Errorf("chart is %v", b)
	}
	if err := drawChart(nil, "empty", path); err == nil {
		t.Error("empty chart drawn")
	}
}
