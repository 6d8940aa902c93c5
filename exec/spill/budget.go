package spill

import (
	"fmt"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// codeOutOfMemory is SQLSTATE 53200, out_of_memory.
const codeOutOfMemory = "53200"

// Budget is a query's memory allowance in bytes. The zero Budget has no
// limit. A Budget is used by one goroutine.
type Budget struct {
	limit, used, peak int64
	noSpill           bool
}

// DisableSpill forbids spilling: containers and operators return Grow's
// 53200 error instead of writing to disk (SET widesql.spill = off).
func (b *Budget) DisableSpill() { b.noSpill = true }

// CanSpill reports whether an operator over the budget may spill.
func (b *Budget) CanSpill() bool { return !b.noSpill }

// NewBudget returns a budget of limit bytes; limit <= 0 means unlimited.
func NewBudget(limit int64) *Budget { return &Budget{limit: limit} }

// Grow reserves n bytes. Over the limit it reserves nothing and returns a
// 53200 error naming the limit; the caller spills or fails with it.
func (b *Budget) Grow(n int64) error {
	if b.limit > 0 && b.used+n > b.limit {
		return pgerror.New(codeOutOfMemory, "out of memory: the query needs more than work_mem (%s)", FormatBytes(b.limit)).
			WithHint("Raise work_mem, or let the operator spill to disk.")
	}
	b.used += n
	b.peak = max(b.peak, b.used)
	return nil
}

// Shrink releases n bytes reserved with Grow.
func (b *Budget) Shrink(n int64) { b.used = max(b.used-n, 0) }

// Used returns the bytes reserved now; Peak the most ever reserved.
func (b *Budget) Used() int64 { return b.used }

// Peak returns the most bytes ever reserved.
func (b *Budget) Peak() int64 { return b.peak }

// datumOverhead approximates a Datum's in-memory size, slice slot included.
const datumOverhead = 48

// RowSize estimates the memory a retained row occupies.
func RowSize(row []types.Datum) int64 {
	n := int64(24 + datumOverhead*len(row))
	for i := range row {
		n += int64(len(row[i].S))
	}
	return n
}

// FormatBytes renders n as PostgreSQL prints memory settings (4MB, 64kB).
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dkB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}
