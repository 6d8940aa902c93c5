package exec

import (
	"sync"

	"github.com/widesql/widesql/kv"
)

// clock hands out cell timestamps that never go backwards, even if the
// wall clock does, so a later statement's write is never hidden under an
// earlier one's. Timestamps are millisecond-aligned microseconds (kv's
// contract, which Bigtable imposes). Statements in the same millisecond may
// share a timestamp; a write at an existing version replaces it.
type clock struct {
	mu   sync.Mutex
	last kv.Timestamp
}

func (c *clock) now() kv.Timestamp {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := kv.Now(); t > c.last {
		c.last = t
	}
	return c.last
}
