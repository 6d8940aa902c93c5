package loadstat

import (
	"math"
	"testing"
	"time"
)

func TestCounter(t *testing.T) {
	var c Counter
	t0 := time.Unix(1000, 0)
	if c.Rate(t0) != 0 || c.Total() != 0 {
		t.Fatal("zero counter not zero")
	}
	// A steady 10 events per second for ten windows reads about 10/s.
	now := t0
	for range 6000 { // 600 s in steps of 100 ms
		now = now.Add(100 * time.Millisecond)
		c.Add(1, now)
	}
	if got := c.Rate(now); math.Abs(got-10) > 0.2 {
		t.Errorf("steady rate = %.3f, want about 10", got)
	}
	if c.Total() != 6000 {
		t.Errorf("total = %d", c.Total())
	}
	// One window of silence divides it by e; the total stays.
	if got, want := c.Rate(now.Add(Window)), 10/math.E; math.Abs(got-want) > 0.2 {
		t.Errorf("rate after a quiet window = %.3f, want about %.3f", got, want)
	}
	// A clock that goes backwards does not grow the rate.
	before := c.Rate(now.Add(Window))
	if got := c.Rate(now); got > before {
		t.Errorf("rate grew from %.3f to %.3f reading an older time", before, got)
	}
	if c.Total() != 6000 {
		t.Errorf("total changed on read: %d", c.Total())
	}
}
