package pgwire

import (
	"runtime"
	"sync/atomic"
	"time"
)

// DefaultBusyPoll is the longest a connection polls its socket for the
// client's next message before sleeping, unless WithBusyPoll says
// otherwise: the value Linux documents for net.core.busy_read.
const DefaultBusyPoll = 50 * time.Microsecond

// maxBusyPoll bounds the poll budget: a read deadline (the startup
// timeout, idle_session_timeout) fires at most this late, since a poll
// does not look at deadlines.
const maxBusyPoll = time.Millisecond

// busyPollGrowStart is the first budget after a budget of zero grows:
// haltpoll's guest_halt_poll_grow_start is its counterpart.
const busyPollGrowStart = 10 * time.Microsecond

// busyPoll is the server's adaptive busy polling of client sockets.
//
// Why: a request/response client sends its next message a few tens of
// microseconds after it got the answer. A connection that sleeps in the
// poller meanwhile leaves its CPU idle, and waking an idle CPU is the
// dearest step of the round trip on a virtual machine (a halted vCPU
// waits for its host to run it again). A connection that polls its socket
// for those microseconds instead finds the message already there.
//
// The cost is bounded three ways. Only a connection that finds every
// other connection waiting too polls (the server has nothing else to
// run, so the CPU would idle), one at a time, and it stops as soon as
// another connection gets a message. It polls at most the budget, which
// adapts as the kernel's haltpoll cpuidle governor's does: a wait that a
// longer poll would have caught (its message came within max) doubles
// the budget, up to max; a wait no poll could have caught halves it, down
// to zero, where polling stops until the client is quick again. A client
// that pauses for long therefore costs one poll budget per pause at most.
//
// The zero budget and a nil *busyPoll both mean no polling; every method
// is safe on a nil receiver.
type busyPoll struct {
	max     time.Duration
	open    atomic.Int32 // raw sockets not yet closed
	waiting atomic.Int32 // raw sockets inside Read
	polling atomic.Bool  // one connection polls at a time
	budget  atomic.Int64 // nanoseconds the next poll may take
}

// newBusyPoll returns the polling state of a server polling at most
// limit (at most maxBusyPoll), or nil (polling off) when limit is not
// positive or the process runs on one processor (GOMAXPROCS 1, or one
// CPU however many Ps --procs asked for): there a polling connection
// holds the only processor, so no other goroutine (a connection whose
// message came, a flush) can run, nor end the poll.
func newBusyPoll(limit time.Duration) *busyPoll {
	return busyPollFor(limit, min(runtime.GOMAXPROCS(0), runtime.NumCPU()))
}

// busyPollFor is newBusyPoll for a process of procs processors.
func busyPollFor(limit time.Duration, procs int) *busyPoll {
	if limit <= 0 || procs < 2 {
		return nil
	}
	p := &busyPoll{max: min(limit, maxBusyPoll)}
	p.budget.Store(int64(p.max))
	return p
}

// opened and closed count the raw sockets.
func (p *busyPoll) opened() {
	if p != nil {
		p.open.Add(1)
	}
}

func (p *busyPoll) closed() {
	if p != nil {
		p.open.Add(-1)
	}
}

// enter and leave bracket a Read, the time a connection waits for its
// client.
func (p *busyPoll) enter() {
	if p != nil {
		p.waiting.Add(1)
	}
}

func (p *busyPoll) leave() {
	if p != nil {
		p.waiting.Add(-1)
	}
}

// idle reports whether every connection is waiting for its client.
func (p *busyPoll) idle() bool { return p.waiting.Load() >= p.open.Load() }

// begin is called by a Read that found nothing to read. counted reports
// whether this wait teaches the budget (the server was idle, so polling
// was the question); poll whether the caller may poll, for at most
// budget, and must then call end.
func (p *busyPoll) begin() (budget time.Duration, counted, poll bool) {
	if p == nil || !p.idle() {
		return 0, false, false
	}
	budget = time.Duration(p.budget.Load())
	if budget == 0 || !p.polling.CompareAndSwap(false, true) {
		return budget, true, false
	}
	return budget, true, true
}

// end lets another connection poll.
func (p *busyPoll) end() { p.polling.Store(false) }

// learn adapts the budget to one counted wait: waited is the time from
// the first read that found nothing to the client's message; caught
// whether a poll found it. Connections learning at once each apply their
// step (compare-and-swap), none overwriting another's.
func (p *busyPoll) learn(waited time.Duration, caught bool) {
	if caught {
		return
	}
	for {
		old := p.budget.Load()
		b := time.Duration(old)
		if waited <= p.max {
			b = min(max(2*b, busyPollGrowStart), p.max)
		} else {
			b /= 2
			if b < busyPollGrowStart/2 {
				b = 0
			}
		}
		if p.budget.CompareAndSwap(old, int64(b)) {
			return
		}
	}
}
