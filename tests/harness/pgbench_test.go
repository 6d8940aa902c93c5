package main

import "testing"

// Output of pgbench 15.18 on a successful run.
const pgbenchOK = `pgbench (15.18 (Debian 15.18-0+deb12u1))
transaction type: /tmp/good.sql
scaling factor: 1
query mode: prepared
number of clients: 1
number of threads: 1
maximum number of tries: 1
duration: 1 s
number of transactions actually processed: 27925
number of failed transactions: 0 (0.000%)
latency average = 0.035 ms
initial connection time = 14.919 ms
tps = 28345.275398 (without initial connection time)
`

// Output of pgbench 15.18 when the server rejects the script's query.
const (
	pgbenchAbortedStdout = `pgbench (15.18 (Debian 15.18-0+deb12u1))
transaction type: /tmp/bad.sql
number of transactions actually processed: 0
number of failed transactions: 0 (NaN%)
`
	pgbenchAbortedStderr = `pgbench: error: client 0 script 0 aborted in command 0 query 0: ERROR:  column "nosuch" does not exist
LINE 1: SELECT nosuch FROM pg_class LIMIT 1;
               ^
pgbench: error: Run was aborted; the above results are incomplete.
`
)

func TestParseTPS(t *testing.T) {
	got, err := parseTPS(pgbenchOK)
	if err != nil || got != 28345.275398 {
		t.Errorf("parseTPS = %v, %v", got, err)
	}
	if _, err := parseTPS(pgbenchAbortedStdout); err == nil {
		t.Error("parseTPS of an aborted run succeeded")
	}
}

func TestPgbenchFailure(t *testing.T) {
	if got := pgbenchFailure(pgbenchOK, ""); got != "" {
		t.Errorf("failure of a good run = %q", got)
	}
	want := `error: client 0 script 0 aborted in command 0 query 0: ERROR:  column "nosuch" does not exist`
	if got := pgbenchFailure(pgbenchAbortedStdout, pgbenchAbortedStderr); got != want {
		t.Errorf("failure = %q\nwant     %q", got, want)
	}
	if got := pgbenchFailure("number of failed transactions: 12 (0.5%)\n", ""); got != "12 failed transactions" {
		t.Errorf("failure with failed transactions = %q", got)
	}
}
