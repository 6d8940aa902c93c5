package lsm

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestRowCacheDedicatedKeepsHead puts rows of mixed sizes, some large
// enough for a slab of their own, into shards of a few slabs, hitting rows
// at random so that retiring a referenced dedicated slab sends it back to
// order. Retiring must never take the slab the insert under way was given
// (the newest): once a dedicated slab went back behind it, shrink retired
// the new head and the insert indexed slab rcNoSlab (TestModel's panic).
// No shard may hold more than its budget (a big entry's slab used to be
// kept beside a table and contexts it did not fit with).
func TestRowCacheDedicatedKeepsHead(t *testing.T) {
	for _, budget := range []int64{64 * 4 << 10, 64 * 8 << 10, 64 * 16 << 10} {
		u := newRCUnit(budget)
		g := rand.New(rand.NewPCG(uint64(budget), 3))
		rows := make(map[int]int) // row -> payload size
		for i := range 50_000 {
			k := g.IntN(2000)
			row := harnessRow(k)
			size := 10
			if g.IntN(8) == 0 {
				size = 300 + g.IntN(int(budget/64))
			}
			row.Cells[2].Value = make([]byte, size)
			row.Cells[2].Value[0] = byte(i)
			// As the store does: the write invalidates, a later read puts.
			seq := uint64(2 * (i + 1))
			u.c.invalidate(1, row.Key, seq)
			u.c.put(u.tb, &row, seq+1, u.o, u.fams)
			checkRCBudget(t, u.c, fmt.Sprintf("budget %d, put %d", budget, i))
			rows[k] = i
			for range 3 { // hits set reference bits
				j := g.IntN(2000)
				if _, ok := rows[j]; ok {
					u.c.get(1, harnessRow(j).Key, ^uint64(0), u.o, true)
				}
			}
			if h, ok := u.c.get(1, row.Key, seq+1, u.o, true); ok {
				var r rowReader
				h.emit(&r)
				if !rcRowEqual(&r.row, &row) {
					t.Fatalf("budget %d, put %d: row %d reads back differently", budget, i, k)
				}
			}
		}
	}
}
