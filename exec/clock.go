package exec

import (
	"sync/atomic"

	"github.com/widesql/widesql/kv"
)

// clock hands out cell timestamps that never go backwards, even if the
// wall clock does, so a later statement's write is never hidden under an
// earlier one's. Timestamps are millisecond-aligned microseconds (kv's
// contract, which Bigtable imposes). Statements in the same millisecond may
// share a timestamp; a write at an existing version replaces it.
//
// Every statement asks for one, so last is an atomic maximum rather than
// a mutex: under many clients the mutex's hand-offs showed in scheduler
// traces (30 ms of waiting per 5 s of 4-client range scans).
type clock struct {
	last atomic.Int64 // a kv.Timestamp
}

func (c *clock) now() kv.Timestamp {
	for {
		last := c.last.Load()
		t := max(int64(kv.Now()), last)
		if t == last || c.last.CompareAndSwap(last, t) {
			return kv.Timestamp(t)
		}
	}
}
