package loadstat

import (
	"math"
	"sync"
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

// Events Added between folds count as of when they happened, not as of the
// read that folds them: after a quiet Window they weigh 1/e.
func TestCounterUnfoldedEventsDecay(t *testing.T) {
	var c Counter
	t0 := time.Unix(1000, 0)
	c.Add(1, t0)                       // folds (first Add)
	c.Add(2, t0.Add(time.Millisecond)) // within foldEvery: only counted
	c.Add(4, t0.Add(2*time.Millisecond))
	if c.Total() != 7 {
		t.Fatalf("total = %d, want 7", c.Total())
	}
	got := c.Rate(t0.Add(Window)) * Window.Seconds()
	if want := 7 / math.E; math.Abs(got-want) > 0.01 {
		t.Errorf("decayed sum after a quiet window = %.4f, want %.4f", got, want)
	}
	// An Add after a long silence counts whole: the fold it does first
	// must not date it back to the previous fold.
	c.Add(10, t0.Add(10*Window))
	got = c.Rate(t0.Add(10*Window)) * Window.Seconds()
	if want := 10 + 7*math.Exp(-10); math.Abs(got-want) > 0.01 {
		t.Errorf("decayed sum after a late Add = %.4f, want %.4f", got, want)
	}
}

// Concurrent Adds and Rates (run with -race) lose no event: the total is
// exact, and the rate read right after holds all of them, decayed by at
// most the test's duration.
func TestCounterConcurrent(t *testing.T) {
	var c Counter
	const workers, perWorker = 8, 20000
	start := time.Now()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var readers sync.WaitGroup
	readers.Add(1)
	go func() {
		defer readers.Done()
		for {
			select {
			case <-stop:
				return
			default:
				if r := c.Rate(time.Now()); r < 0 || math.IsNaN(r) {
					t.Errorf("rate %v", r)
					return
				}
			}
		}
	}()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWorker {
				c.Add(int64(1+(w+i)%3), time.Now())
			}
		}()
	}
	wg.Wait()
	close(stop)
	readers.Wait()
	var want int64
	for w := range workers {
		for i := range perWorker {
			want += int64(1 + (w+i)%3)
		}
	}
	if c.Total() != want {
		t.Fatalf("total = %d, want %d", c.Total(), want)
	}
	now := time.Now()
	sum := c.Rate(now) * Window.Seconds()
	lo := float64(want) * math.Exp(-float64(now.Sub(start))/float64(Window))
	if sum > float64(want)*(1+1e-9) || sum < lo*(1-1e-9) {
		t.Errorf("decayed sum = %.1f, want within [%.1f, %d]", sum, lo, want)
	}
}

// BenchmarkCounterAdd is the read path's use: every region read Adds its
// rows with the current time, from all cores at once.
func BenchmarkCounterAdd(b *testing.B) {
	var c Counter
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c.Add(100, time.Now())
		}
	})
}
