package main

import (
	"context"
	"os"
	"testing"
	"time"
)

func TestParseCPUTime(t *testing.T) {
	// A command name with a space and a parenthesis; utime 1234, stime 66.
	line := []byte("4242 (wide sql) x) S 1 4242 4242 0 -1 4194560 5000 0 3 0 1234 66 0 0 20 0 9 0 100 2000000 3000 18446744073709551615\n")
	got, err := parseCPUTime(line)
	if err != nil {
		t.Fatal(err)
	}
	if want := 13 * time.Second; got != want {
		t.Fatalf("parseCPUTime = %s, want %s", got, want)
	}
	for _, bad := range []string{"", "1 (x) S 1 2", "1 (x) S 1 2 3 4 5 6 7 8 9 a b 0"} {
		if _, err := parseCPUTime([]byte(bad)); err == nil {
			t.Errorf("parseCPUTime(%q): no error", bad)
		}
	}
}

// TestCPUTimeGrows reads this process's CPU time around a busy loop.
func TestCPUTimeGrows(t *testing.T) {
	before, err := cpuTime(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	x := 0
	for start := time.Now(); time.Since(start) < 300*time.Millisecond; {
		x++
	}
	after, err := cpuTime(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if after-before < 100*time.Millisecond {
		t.Fatalf("CPU time grew by %s over a 300 ms busy loop (%d iterations)", after-before, x)
	}
}

// TestWaitIdle waits on this process idle (at once) and busy (an error
// once the limit passes).
func TestWaitIdle(t *testing.T) {
	ctx := context.Background()
	if _, err := waitIdle(ctx, os.Getpid(), 200*time.Millisecond, time.Second); err != nil {
		t.Fatalf("idle: %v", err)
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
		}
	}()
	waited, err := waitIdle(ctx, os.Getpid(), 200*time.Millisecond, 600*time.Millisecond)
	if err == nil {
		t.Fatalf("busy: returned after %s without an error", waited)
	}
}
