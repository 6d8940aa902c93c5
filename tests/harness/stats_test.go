package main

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{10, 10, 1}, 10},
	} {
		in := slices.Clone(tc.in)
		if got := median(in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
		if !slices.Equal(in, tc.in) {
			t.Errorf("median modified its input: %v", in)
		}
	}
	if !math.IsNaN(median(nil)) {
		t.Error("median(nil) is not NaN")
	}
}

func TestPercentile(t *testing.T) {
	xs := make([]float64, 100)
	for i := range xs {
		xs[i] = float64(i + 1) // 1..100
	}
	for _, tc := range []struct{ p, want float64 }{{99, 99}, {50, 50}, {100, 100}, {1, 1}, {99.9, 100}, {0.1, 1}} {
		if got := percentile(xs, tc.p); got != tc.want {
			t.Errorf("percentile(1..100, %v) = %v, want %v", tc.p, got, tc.want)
		}
	}
	// Nearest rank over 10 values: p99 is the largest, p90 the ninth.
	ten := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 1000}
	if got := percentile(ten, 99); got != 1000 {
		t.Errorf("p99 of ten = %v, want 1000", got)
	}
	if got := percentile(ten, 90); got != 9 {
		t.Errorf("p90 of ten = %v, want 9", got)
	}
	if !math.IsNaN(percentile(nil, 99)) {
		t.Error("percentile of nothing is not NaN")
	}
}

func TestRatioAndAdvantage(t *testing.T) {
	if got := ratio(150, 100); got != 1.5 {
		t.Errorf("ratio(150, 100) = %v", got)
	}
	for _, bad := range [][2]float64{{1, 0}, {1, math.NaN()}, {math.NaN(), 1}, {1, math.Inf(1)}, {-1, 1}} {
		if got := ratio(bad[0], bad[1]); !math.IsNaN(got) {
			t.Errorf("ratio(%v, %v) = %v, want NaN", bad[0], bad[1], got)
		}
	}
	if got := advantage(2, true); got != 2 {
		t.Errorf("advantage(2, higher) = %v", got)
	}
	// widesql took twice PostgreSQL's time: PostgreSQL is twice as good.
	if got := advantage(2, false); got != 0.5 {
		t.Errorf("advantage(2, lower) = %v", got)
	}
	if got := advantage(0, false); !math.IsInf(got, 1) {
		t.Errorf("advantage(0, lower) = %v", got)
	}
}

// TestPgbenchLatencies reads real pgbench -l logs (two threads of one run,
// with a skipped and a failed line appended) through readPgbenchLogs.
func TestPgbenchLatencies(t *testing.T) {
	lat, err := readPgbenchLogs("testdata/pgbench-log")
	if err != nil {
		t.Fatal(err)
	}
	if len(lat) != 10 {
		t.Fatalf("%d latencies, want 10 (skipped and failed lines left out): %v", len(lat), lat)
	}
	slices.Sort(lat)
	if got := percentile(lat, 99); got != 13.352 {
		t.Errorf("p99 = %v ms, want 13.352", got)
	}
	if got := percentile(lat, 50); got != 0.028 {
		t.Errorf("p50 = %v ms, want 0.028", got)
	}
	got, err := pgbenchLatencies(strings.NewReader("garbage\n\n1 2 3 4 5 6\n"))
	if err != nil || len(got) != 1 || got[0] != 0.003 {
		t.Errorf("pgbenchLatencies(mixed) = %v, %v", got, err)
	}
}

func TestFormatNumber(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{56512.3, "56,512"}, {1234567, "1,234,567"}, {999.6, "1,000"}, {512.4, "512"}, {12.34, "12.3"},
		{1.2345, "1.23"}, {0.01234, "0.0123"}, {0, "0.00"}, {-2500, "-2,500"}, {math.NaN(), "—"},
	} {
		if got := formatNumber(tc.in); got != tc.want {
			t.Errorf("formatNumber(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
