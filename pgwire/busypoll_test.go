package pgwire

import (
	"testing"
	"time"
)

// TestBusyPollBudget walks the budget through waits as haltpoll's
// governor would: quick waits a poll missed grow it, long ones shrink it
// to zero, and a zero budget grows again once the client is quick.
func TestBusyPollBudget(t *testing.T) {
	const us = time.Microsecond
	p := busyPollFor(50*us, 2)
	steps := []struct {
		waited time.Duration
		caught bool
		want   time.Duration
	}{
		{20 * us, true, 50 * us},          // caught: unchanged
		{2 * time.Second, false, 25 * us}, // a pause: halve
		{2 * time.Second, false, 12500 * time.Nanosecond},
		{2 * time.Second, false, 6250 * time.Nanosecond},
		{2 * time.Second, false, 0}, // below half the grow start: off
		{2 * time.Second, false, 0},
		{30 * us, false, 10 * us}, // quick again: grow from the start
		{30 * us, false, 20 * us},
		{30 * us, false, 40 * us},
		{30 * us, false, 50 * us}, // at most max
		{50 * us, false, 50 * us},
		{51 * us, false, 25 * us},
	}
	for i, s := range steps {
		p.learn(s.waited, s.caught)
		if got := time.Duration(p.budget.Load()); got != s.want {
			t.Fatalf("step %d (waited %s, caught %v): budget %s, want %s", i, s.waited, s.caught, got, s.want)
		}
	}
}

// TestBusyPollBegin: only an idle server polls, one connection at a
// time, and never with a zero budget; a nil poll (off) never polls.
func TestBusyPollBegin(t *testing.T) {
	var off *busyPoll
	off.opened()
	off.enter()
	if _, counted, poll := off.begin(); counted || poll {
		t.Fatal("a nil busyPoll polls")
	}
	if busyPollFor(0, 2) != nil || busyPollFor(-time.Second, 2) != nil {
		t.Fatal("a non-positive limit turns polling on")
	}
	if busyPollFor(time.Millisecond, 1) != nil {
		t.Fatal("one processor polls")
	}
	if p := busyPollFor(time.Hour, 2); p.max != maxBusyPoll {
		t.Fatalf("max %s, want it capped at %s", p.max, maxBusyPoll)
	}

	p := busyPollFor(50*time.Microsecond, 2)
	p.opened()
	p.opened()
	p.enter() // one of two connections waits: the other is busy
	if _, counted, poll := p.begin(); counted || poll {
		t.Fatalf("begin with a busy connection: counted=%v poll=%v, want neither", counted, poll)
	}
	p.enter()
	budget, counted, poll := p.begin()
	if !counted || !poll || budget != 50*time.Microsecond {
		t.Fatalf("begin on an idle server: %s, counted=%v poll=%v, want 50µs, both", budget, counted, poll)
	}
	if _, counted, poll := p.begin(); !counted || poll {
		t.Fatalf("second begin while one polls: counted=%v poll=%v, want counted only", counted, poll)
	}
	p.end()
	p.budget.Store(0)
	if _, counted, poll := p.begin(); !counted || poll {
		t.Fatalf("begin with a zero budget: counted=%v poll=%v, want counted only", counted, poll)
	}
	p.leave()
	p.closed()
	if !p.idle() {
		t.Fatal("one open connection, waiting: not idle")
	}
}
