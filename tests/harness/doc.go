// Command harness measures widesql against PostgreSQL 15 on this machine, side
// by side, in one run (issue 8).
//
// It starts a throwaway PostgreSQL cluster (initdb into a temporary directory,
// default settings, fsync on) and a widesql server built from this repository
// with a fresh durable data directory, both on free loopback ports. It creates
// the same table in both, loads the same rows through the same pgx client
// path (COPY FROM STDIN, one statement per connection), then runs every workload on both servers in alternation for several
// rounds: pgbench with custom scripts (-n -f, -M prepared and -M simple) for
// the request/response workloads, pgx for scans, aggregates and bulk loads,
// and optionally go-ycsb's PostgreSQL binding for YCSB A-F.
//
// It prints, and writes between marker comments into docs/BENCHMARKS.md, the
// median of each metric on each server and the ratio widesql/PostgreSQL, plus
// peak server memory and data size on disk; it draws the ratios as a PNG chart
// (docs/bench/harness.png). A workload that fails on a server is reported as
// FAILED with its error, never as a number, and the run goes on.
//
// Both servers and their temporary directories are removed on every exit
// path, including Ctrl-C and SIGTERM: the servers run in their own process
// groups, which are killed if a clean shutdown does not finish in time.
// PostgreSQL is started and stopped by tests/internal/pgtmp (this module
// imports it from the tree through a replace directive in go.mod).
//
// With --profile DIR, widesql runs with --pprof and each workload's
// first-round run on it is CPU-profiled into DIR (profile.go).
//
// Layout:
//
//	main.go       flags, the order of the run, cleanup
//	servers.go    finding PostgreSQL, starting and stopping both servers
//	memory.go     sampling the servers' resident memory
//	load.go       schema and data, loaded with pgx
//	pgbench.go    running pgbench scripts and reading their results
//	plan.go       the run's steps: loading, sizes, the workload list, growth, YCSB
//	workloads.go  workload kinds and the alternating round runner
//	profile.go    --profile: CPU profiles of widesql per workload
//	ycsb.go       building and running go-ycsb
//	stats.go      medians, percentiles, ratios
//	report.go     the markdown report and its place in docs/BENCHMARKS.md
//	chart.go      the ratio chart (gonum.org/v1/plot)
//
// Usage: cd tests/harness && go run . --help
package main
