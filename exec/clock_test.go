package exec

import (
	"sync"
	"testing"

	"github.com/widesql/widesql/kv"
)

// TestClockNeverGoesBack gives the clock a last timestamp an hour ahead
// of the wall clock (as after the wall clock stepped back) and checks
// that concurrent callers never get an earlier one, each seeing its own
// timestamps in order.
func TestClockNeverGoesBack(t *testing.T) {
	var c clock
	ahead := kv.Now() + 3600e6
	c.last.Store(int64(ahead))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			prev := kv.Timestamp(0)
			for range 10000 {
				ts := c.now()
				if ts < ahead || ts < prev {
					t.Errorf("goroutine %d: now() = %d after %d (last was set to %d)", g, ts, prev, ahead)
					return
				}
				prev = ts
			}
		})
	}
	wg.Wait()
	if ts := c.now(); ts != ahead {
		t.Fatalf("now() = %d, want the last timestamp %d while the wall clock is behind it", ts, ahead)
	}
	var fresh clock
	if a, b := fresh.now(), kv.Now(); a <= 0 || a > b {
		t.Fatalf("a fresh clock's now() = %d, wall clock %d", a, b)
	}
}
