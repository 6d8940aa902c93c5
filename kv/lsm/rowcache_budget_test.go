package lsm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/widesql/widesql/kv"
)

// checkRCBudget fails if a shard holds more than its budget.
func checkRCBudget(t *testing.T, c *rowCache, what string) {
	t.Helper()
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		b, tb, cb, sb := sh.bytes, int64(len(sh.tags))*rcSlotBytes, sh.ctxB, sh.slabB
		sh.mu.Unlock()
		if b > c.shardBudget {
			t.Fatalf("%s: shard %d holds %d bytes (table %d, contexts %d, slabs %d), budget %d", what, i, b, tb, cb, sb, c.shardBudget)
		}
	}
}

// TestRowCacheBudgetMixed puts rows of mixed sizes into small shards:
// most small, some large enough for a dedicated slab, up to a shard's
// whole budget (whose slab's size class, beside the table and contexts,
// does not fit it), read with a few projections of costly contexts, with
// random hits (so referenced dedicated slabs go back to order) and
// UPDATEs. No shard may ever hold more than its budget: a 16 KiB shard
// used to hold 16,544 bytes, a 15 KiB entry's 16 KiB slab beside its
// table and context, as shrink spares the slab made for the insert.
func TestRowCacheBudgetMixed(t *testing.T) {
	for _, budget := range []int64{64 * 4 << 10, 64 * 16 << 10, 64 * 64 << 10} {
		t.Run(fmt.Sprint(budget/64>>10, "KiB"), func(t *testing.T) { testRowCacheBudgetMixed(t, budget) })
	}
}

func testRowCacheBudgetMixed(t *testing.T, budget int64) {
	u := newRCUnit(budget)
	g := rand.New(rand.NewPCG(uint64(budget), 5))
	// Projections: none, and two of long qualifiers (a context of ~1 KiB).
	opts := []*kv.ReadOptions{{}, {Columns: []kv.Column{{Family: "p", Qualifier: make([]byte, 900)}}},
		{Columns: []kv.Column{{Family: "d", Qualifier: make([]byte, 700)}}}}
	const keys = 3000
	sizes := map[int]int{} // cached rows' payload sizes (as last put)
	var dedicated, uncached int
	seq := uint64(1)
	for i := range 60_000 {
		seq += 2
		k := g.IntN(keys)
		row := harnessRow(k)
		size := 10
		switch x := g.IntN(16); {
		case x < 2:
			size = 300 + g.IntN(int(budget/64)) // up to a whole shard
		case x < 3:
			size = int(budget/64) - 200 - g.IntN(1000) // near a whole shard
		}
		row.Cells[2].Value = make([]byte, max(size, 1))
		row.Cells[2].Value[0] = byte(i)
		o := opts[g.IntN(len(opts))]
		// As the store does: the write (a new value) invalidates, a later
		// read puts.
		u.c.invalidate(1, row.Key, seq-1)
		u.c.put(u.tb, &row, seq, o, u.fams)
		checkRCBudget(t, u.c, fmt.Sprintf("put %d (payload %d)", i, size))
		h, ok := u.c.get(1, row.Key, seq, o, true)
		if ok {
			if len(h.e) > u.c.shards[0].slabSize/4 {
				dedicated++
			}
			var r rowReader
			h.emit(&r)
			if !rcRowEqual(&r.row, &row) {
				t.Fatalf("put %d: row %d reads back differently", i, k)
			}
		} else if size < 100 {
			// A small row is always cached by its put (nothing retires
			// the newest slab's last entry).
			t.Fatalf("put %d: small row %d not cached", i, k)
		} else {
			uncached++
		}
		sizes[k] = size
		for range 3 { // hits set reference bits
			j := g.IntN(keys)
			u.c.get(1, harnessRow(j).Key, ^uint64(0), opts[g.IntN(len(opts))], true)
		}
		if i%5000 == 0 {
			checkRCAccounting(t, u.c)
		}
	}
	checkRCAccounting(t, u.c)
	st := u.c.stats()
	t.Logf("%d dedicated hits after put, %d rows not cached; %+v", dedicated, uncached, st)
	if dedicated < 1000 || uncached == 0 || st.evictions == 0 {
		t.Fatalf("the load did not do what it is for: %d dedicated, %d uncached, %+v", dedicated, uncached, st)
	}
}

// TestRowCacheTooBigKeepsShard: a row whose slab, beside the shard's
// table and contexts, does not fit the shard's budget is not cached, and
// retires nothing for it: the shard's rows stay.
func TestRowCacheTooBigKeepsShard(t *testing.T) {
	u := newRCUnit(64 * 16 << 10)
	c := u.c
	var rows []kv.Row // rows of shard 0
	for i := 0; len(rows) < 20; i++ {
		if r := harnessRow(i); c.hash(1, r.Key)&(rcShards-1) == 0 {
			rows = append(rows, r)
		}
	}
	for i := range rows[:19] {
		u.put(&rows[i])
	}
	sh := &c.shards[0]
	n, retired := sh.n, sh.retired
	// Passes put's check (size + a minimal table within the budget), but
	// its slab's size class is the whole budget, and the table is bigger.
	big := rows[19]
	big.Cells[2].Value = make([]byte, int(c.shardBudget)-rcMinTable*rcSlotBytes-200)
	var enc rcEnc
	if !planEntry(&enc, &big, u.fams) || int64(enc.size)+rcMinTable*rcSlotBytes > c.shardBudget {
		t.Fatalf("setup: entry of %d bytes", enc.size)
	}
	u.put(&big)
	checkRCBudget(t, c, "big put")
	checkRCAccounting(t, c)
	if sh.n != n || sh.retired != retired {
		t.Fatalf("entries %d -> %d, retired %d -> %d", n, sh.n, retired, sh.retired)
	}
	u.check(t, &big, false)
	for i := range rows[:19] {
		u.check(t, &rows[i], true)
	}
	// A row read with a projection that costs more than half a shard
	// (its context) is not cached either, and empties nothing (a new
	// context past the contexts' share resets the shard).
	wide := &kv.ReadOptions{Columns: []kv.Column{{Family: "p", Qualifier: make([]byte, c.shardBudget/2)}}}
	small := rows[19]
	c.put(u.tb, &small, 1, wide, u.fams)
	checkRCBudget(t, c, "wide put")
	checkRCAccounting(t, c)
	if sh.n != n || sh.retired != retired || len(sh.ctxs) != 1 {
		t.Fatalf("wide put: entries %d -> %d, retired %d -> %d, %d contexts", n, sh.n, retired, sh.retired, len(sh.ctxs))
	}
	if _, ok := c.get(1, small.Key, 1, wide, true); ok {
		t.Fatal("the wide read's row is cached")
	}
	// A big row that fits is cached.
	big.Cells[2].Value = big.Cells[2].Value[:c.shardBudget/2]
	u.put(&big)
	checkRCBudget(t, c, "fitting big put")
	u.check(t, &big, true)
}
