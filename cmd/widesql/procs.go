package main

import (
	"fmt"
	"os"
	"runtime"
)

// Go processors. On a small machine the server shares its few CPUs with
// its clients (an application, pgbench, psql on the same host) and with
// the kernel's network work. When the kernel preempts a Go thread that
// holds a processor (a P), the goroutines queued on that P wait for the
// thread to run again: with two Ps on two CPUs a request can sit behind a
// preempted thread for a scheduler tick, which is what the tail latencies
// of issue 8's harness showed (PostgreSQL's backends are processes the
// kernel schedules one by one). One P more than CPUs leaves a runnable
// thread to take queued work while another is preempted. Measured on the
// 2-CPU harness machine (docs/BENCHMARKS.md, round 15): in two complete
// harness runs every p99 fell under PostgreSQL's (point Get at 4 clients
// 1.36x -> 0.58x and 0.83x, range scan 1.97x -> 0.95x and 0.79x) and the
// throughput targets held but for one run's point Get at 4 clients. On
// larger machines a preempted thread strands a smaller part of the work
// and oversubscription costs context switches, so the extra P stops at 4
// CPUs; one CPU stays at one P (a second would only time-slice it).
const (
	procsExtraFrom = 2 // CPUs from which the server takes one more P
	procsExtraTo   = 4 // CPUs up to which it does
	procsDefaultIs = "one more than the CPUs on a machine of 2 to 4 CPUs, else the CPUs (the runtime's count, which follows a cgroup CPU limit)"
)

// procsFor returns the default number of Ps for a runtime default of
// cpus (its GOMAXPROCS before the server changes it).
func procsFor(cpus int) int {
	if cpus >= procsExtraFrom && cpus <= procsExtraTo {
		return cpus + 1
	}
	return cpus
}

// setProcs sets GOMAXPROCS to n, or to procsFor the runtime's default
// when n is 0, unless $GOMAXPROCS is set; it returns the number in force
// and how it was chosen, for the start-up log.
func setProcs(n int) (int, string) {
	if os.Getenv("GOMAXPROCS") != "" {
		return runtime.GOMAXPROCS(0), "$GOMAXPROCS"
	}
	how := "--procs"
	if n <= 0 {
		cpus := runtime.GOMAXPROCS(0)
		n = procsFor(cpus)
		how = fmt.Sprintf("default for %d CPUs: %s", cpus, procsDefaultIs)
	}
	runtime.GOMAXPROCS(n)
	return n, how
}
