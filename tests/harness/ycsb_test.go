package main

import (
	"os"
	"strings"
	"testing"
)

// testdata/ycsb_run_e.txt is real go-ycsb v1.0.1 output of workload E,
// stopped by SIGTERM.
func TestParseYCSB(t *testing.T) {
	out, err := os.ReadFile("testdata/ycsb_run_e.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, err := parseYCSB(string(out))
	if err != nil {
		t.Fatal(err)
	}
	if got.ops != 4848.8 || got.p99 != 4.303 {
		t.Errorf("parseYCSB = %+v, want ops 4848.8, p99 4.303 ms", got)
	}
}

func TestParseYCSBFailures(t *testing.T) {
	withErrors := "Run finished, takes 1s\n" +
		"READ   - Takes(s): 1.0, Count: 10, OPS: 10.0, Avg(us): 1, Min(us): 1, Max(us): 1, 50th(us): 1, 90th(us): 1, 95th(us): 1, 99th(us): 1, 99.9th(us): 1, 99.99th(us): 1\n" +
		"SCAN_ERROR - Takes(s): 1.0, Count: 7, OPS: 7.0, Avg(us): 1, Min(us): 1, Max(us): 1, 50th(us): 1, 90th(us): 1, 95th(us): 1, 99th(us): 1, 99.9th(us): 1, 99.99th(us): 1\n" +
		"TOTAL  - Takes(s): 1.0, Count: 10, OPS: 10.0, Avg(us): 1, Min(us): 1, Max(us): 1, 50th(us): 1, 90th(us): 1, 95th(us): 1, 99th(us): 1, 99.9th(us): 1, 99.99th(us): 1\n"
	if _, err := parseYCSB(withErrors); err == nil || !strings.Contains(err.Error(), "SCAN operations failed: 7") {
		t.Errorf("errors not reported: %v", err)
	}
	if _, err := parseYCSB("panic: failed to create db conn\n"); err == nil {
		t.Error("an unfinished run parsed")
	}
	if _, err := parseYCSB("Run finished, takes 1s\n"); err == nil {
		t.Error("a run without operations parsed")
	}
}
