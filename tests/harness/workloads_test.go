package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestRunAlternatingHook checks the order of runs, that the hook brackets
// each timed run (not the warm-up), and that a failure is kept as FAILED.
func TestRunAlternatingHook(t *testing.T) {
	pg, ws := &server{name: "PostgreSQL"}, &server{name: "widesql"}
	var trace []string
	wsRuns := 0
	w := &workload{name: "w", metrics: []metric{mTime}, warmup: true,
		run: func(_ context.Context, s *server) (sample, error) {
			trace = append(trace, "run "+s.name)
			if s == ws {
				wsRuns++
			}
			if s == ws && wsRuns == 3 { // warm-up, round 0, then round 1 fails
				return nil, errors.New("boom")
			}
			return sample{mTime.name: 1}, nil
		}}
	hook := func(_ context.Context, s *server, round int) func() {
		trace = append(trace, fmt.Sprintf("before %s %d", s.name, round))
		if s != ws {
			return nil
		}
		return func() { trace = append(trace, "after "+s.name) }
	}
	res := runAlternating(context.Background(), w, pg, ws, 3, func(string, ...any) {}, hook)
	want := "run PostgreSQL|run widesql|" + // warm-ups, not hooked
		"before PostgreSQL 0|run PostgreSQL|before widesql 0|run widesql|after widesql|" +
		"before widesql 1|run widesql|after widesql|before PostgreSQL 1|run PostgreSQL|" +
		"before PostgreSQL 2|run PostgreSQL"
	if got := strings.Join(trace, "|"); got != want {
		t.Errorf("trace:\n%s\nwant:\n%s", got, want)
	}
	if len(res.pg.samples) != 3 || res.pg.err != nil {
		t.Errorf("PostgreSQL outcome %+v", res.pg)
	}
	if res.ws.err == nil || len(res.ws.samples) != 1 {
		t.Errorf("widesql outcome %+v, want the error after one sample", res.ws)
	}
}
