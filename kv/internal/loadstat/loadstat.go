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

// foldEvery is how often, at most, Add folds the events counted since the
// last fold into the decayed sum. Between folds Add is one atomic add: every
// read of a region Adds its rows, from every core, and a mutex and an
// exponential per read showed up in the range-scan workload. Counting the
// unfolded events as of the last fold misdates them by at most foldEvery
// (plus the rare Add that finds the mutex busy), a weight error of
// foldEvery/Window, about 1e-4.
const foldEvery = 4 * time.Millisecond

// Counter counts events (rows read, row mutations) in total and as an
// exponentially decayed rate. It is updated lazily, on Add and on read:
// there is no goroutine per counter. The zero value is ready to use and it
// is safe for concurrent use. Add is lock-free except once per foldEvery,
// when one caller folds the new events into the rate (and callers that find
// the mutex busy then just count).
type Counter struct {
	total atomic.Int64 // events recorded, exact
	last  atomic.Int64 // unix nanoseconds of the last fold; 0: never

	mu     sync.Mutex
	folded int64   // the part of total already in decay
	decay  float64 // sum of event weights as of last
}

// Add records n events at now.
func (c *Counter) Add(n int64, now time.Time) {
	if n <= 0 {
		return
	}
	t := now.UnixNano()
	if t-c.last.Load() < int64(foldEvery) || !c.mu.TryLock() {
		c.total.Add(n)
		return
	}
	// Fold the earlier events first, so that these n count at t and not at
	// the last fold, which may be long ago.
	c.foldLocked(t)
	c.total.Add(n)
	c.folded += n
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
	c.foldLocked(now.UnixNano())
	return c.decay / Window.Seconds()
}

// foldLocked adds the events not yet folded to decay as of the last fold
// (they happened at most about foldEvery after it), then decays the sum to
// now. A now older than the last fold does not decay it, so a clock that
// goes backwards never grows the rate.
func (c *Counter) foldLocked(now int64) {
	total := c.total.Load()
	c.decay += float64(total - c.folded)
	c.folded = total
	last := c.last.Load()
	if last != 0 && now > last {
		c.decay *= math.Exp(-float64(now-last) / float64(Window))
	}
	if now > last {
		c.last.Store(now)
	}
}
