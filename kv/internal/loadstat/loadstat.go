// Package loadstat keeps the load counters of a region: a total since the
// region came to be and a recent rate, for kv.RegionInfo. Both engines use
// it, so that their regions report load alike.
package loadstat

import (
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// Window is the time constant of the recent rate: an event counts with
// weight e^(-age/Window), so the rate follows a change in load within
// about a minute.
const Window = 60 * time.Second

// Counter counts events (rows read, row mutations) in total and as an
// exponentially decayed rate. It is updated lazily, on Add and on read:
// there is no goroutine per counter. The zero value is ready to use and it
// is safe for concurrent use. Callers on hot paths batch their events and
// Add them once per read or write batch: Add takes a mutex and reads the
// clock.
type Counter struct {
	total atomic.Int64

	mu    sync.Mutex
	last  int64   // unix nanoseconds of the last decay; 0: never
	decay float64 // sum of event weights as of last
}

// Add records n events at now.
func (c *Counter) Add(n int64, now time.Time) {
	if n <= 0 {
		return
	}
	c.total.Add(n)
	c.mu.Lock()
	c.decayLocked(now.UnixNano())
	c.decay += float64(n)
	c.mu.Unlock()
}

// Total returns the number of events recorded.
func (c *Counter) Total() int64 { return c.total.Load() }

// Rate returns the recent rate at now, in events per second: the decayed
// sum divided by Window, so a steady r events per second reads r once the
// load has lasted a few Windows.
func (c *Counter) Rate(now time.Time) float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.decayLocked(now.UnixNano())
	return c.decay / Window.Seconds()
}

func (c *Counter) decayLocked(now int64) {
	if c.last != 0 && now > c.last {
		c.decay *= math.Exp(-float64(now-c.last) / float64(Window))
	}
	if now > c.last {
		c.last = now
	}
}
