package lsm

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/widesql/widesql/kv"
)

// checkRCAccounting walks every shard's slabs and checks what reclaim
// relies on: each slab's dead count is the bytes of its entries no slot
// names, the shard's dead and slab bytes are their sums, bytes is slabs
// plus table plus contexts, and every slot names an entry of a slab in
// order (not a retired one).
func checkRCAccounting(t *testing.T, c *rowCache) {
	t.Helper()
	for si := range c.shards {
		sh := &c.shards[si]
		sh.mu.Lock()
		inOrder := map[uint32]bool{}
		var dead, slabB int64
		for _, id := range sh.order {
			if inOrder[id] || sh.slabs[id] == nil {
				sh.mu.Unlock()
				t.Fatalf("shard %d: slab %d twice in order or freed", si, id)
			}
			inOrder[id] = true
			s := sh.slabs[id]
			slabB += int64(cap(s))
			var d int64
			for off := 0; off < len(s); {
				e := rcEntry(s[off:])
				n := e.size()
				if sh.findLoc(c.hash(sh.ctxs[e[:n].ctx()].tid, e[:n].key()), locOf(id, off)) < 0 {
					d += int64(n)
				}
				off += n
			}
			if d != int64(sh.slabDead[id]) {
				sh.mu.Unlock()
				t.Fatalf("shard %d slab %d: %d dead bytes, counted %d", si, id, d, sh.slabDead[id])
			}
			dead += d
		}
		live := 0
		for i, tg := range sh.tags {
			if tg == 0 {
				continue
			}
			live++
			if !inOrder[uint32(sh.locs[i]>>32)] {
				sh.mu.Unlock()
				t.Fatalf("shard %d: slot %d names slab %d, not in order", si, i, sh.locs[i]>>32)
			}
		}
		bad := ""
		switch {
		case dead != sh.dead:
			bad = fmt.Sprintf("dead %d, counted %d", dead, sh.dead)
		case slabB != sh.slabB:
			bad = fmt.Sprintf("slab bytes %d, counted %d", slabB, sh.slabB)
		case sh.bytes != slabB+int64(len(sh.tags))*rcSlotBytes+sh.ctxB:
			bad = fmt.Sprintf("bytes %d, want %d", sh.bytes, slabB+int64(len(sh.tags))*rcSlotBytes+sh.ctxB)
		case live != sh.n:
			bad = fmt.Sprintf("%d used slots, n %d", live, sh.n)
		}
		sh.mu.Unlock()
		if bad != "" {
			t.Fatalf("shard %d: %s", si, bad)
		}
	}
}

// TestRowCacheReclaimDiff runs random puts, deletes (invalidate) and
// updates (a new value put over the entry, or invalidate then put)
// against a plain map, in a cache whose budget holds twice the live rows:
// every row of the map must stay cached and equal, with no eviction
// (dead bytes are reclaimed before they push live entries out), no
// other row cached, the budget never exceeded, and the accounting exact.
func TestRowCacheReclaimDiff(t *testing.T) {
	const keys = 4000
	u := newRCUnit(0)
	var live int64
	for i := range keys {
		r := harnessRow(i)
		e, _ := encodeEntry(&r, 1, u.fams, 0)
		live += int64(len(e))
	}
	budget := 2 * live
	u.c = newRowCache(budget, 0)
	model := map[int]kv.Row{}
	rng := rand.New(rand.NewPCG(7, 8))
	seq := uint64(1)
	rowOf := func(k int, v uint64) kv.Row {
		r := harnessRow(k)
		r.Cells[1].Value = fmt.Appendf(nil, "%d", v)
		return r
	}
	put := func(k int) {
		r := rowOf(k, seq)
		u.c.put(u.tb, &r, seq, u.o, u.fams)
		model[k] = r
	}
	const ops = 300_000
	for op := range ops {
		seq++
		k := rng.IntN(keys)
		switch x := rng.IntN(10); {
		case x < 4: // a read's insert (of a row not cached) or a replacing put
			put(k)
		case x < 8: // an UPDATE: invalidate, then the next read re-inserts
			u.c.invalidate(1, harnessRow(k).Key, seq)
			delete(model, k)
			if x < 7 {
				put(k)
			}
		default: // a DELETE
			u.c.invalidate(1, harnessRow(k).Key, seq)
			delete(model, k)
		}
		if st := u.c.stats(); st.bytes > budget {
			t.Fatalf("op %d: %d bytes, budget %d", op, st.bytes, budget)
		}
		if op%20_000 == 0 || op == ops-1 {
			checkRCAccounting(t, u.c)
			for k := range keys {
				r, ok := model[k]
				h, hit := u.c.get(1, harnessRow(k).Key, seq, u.o, false)
				if hit != ok {
					t.Fatalf("op %d: row %d cached %v, want %v", op, k, hit, ok)
				}
				if hit {
					var rr rowReader
					h.emit(&rr)
					if !rcRowEqual(&rr.row, &r) {
						t.Fatalf("op %d: row %d: got %+v, want %+v", op, k, rr.row, r)
					}
				}
			}
		}
	}
	st := u.c.stats()
	t.Logf("%+v; live %d", st, rcEntryBytes(u.c))
	if st.evictions != 0 || st.reclaimed == 0 {
		t.Fatalf("evictions %d, reclaimed %d: %+v", st.evictions, st.reclaimed, st)
	}
	if st.dead*rcDeadShare > st.slabBytes+int64(rcShards)*int64(rcReclaimPerPut)*int64(slabSizeFor(u.c.shardBudget)) {
		t.Fatalf("dead %d of %d slab bytes", st.dead, st.slabBytes)
	}
}

// TestRowCacheReclaimBudget: an UPDATE-heavy load on a cache smaller than
// its rows evicts, compacts, never exceeds the budget, and keeps its
// accounting exact.
// The 8 MiB cache's first slabs are smaller than its later ones: a
// compaction may then allocate more than it frees, and must shrink.
func TestRowCacheReclaimBudget(t *testing.T) {
	for _, budget := range []int64{1 << 20, 8 << 20} {
		t.Run(fmt.Sprint(budget>>20, "MiB"), func(t *testing.T) { testRowCacheReclaimBudget(t, budget) })
	}
}

func testRowCacheReclaimBudget(t *testing.T, budget int64) {
	u := newRCUnit(budget)
	// A second table, cleared now and then: clearTable's rebuild leaves
	// its entries' bytes dead in their slabs.
	t2 := &table{id: 2}
	t2.fs.Store(newFamSet([]kv.Family{{Name: "d"}, {Name: "p"}}))
	rng := rand.New(rand.NewPCG(3, 4))
	seq := uint64(1)
	keys := int(budget / 110) // a little more than the cache holds
	for op := range 10 * keys {
		seq++
		k := rng.IntN(keys)
		r := harnessRow(k)
		if op%2 == 0 {
			u.c.invalidate(1, r.Key, seq)
		}
		if op%7 == 0 {
			u.c.put(t2, &r, seq, u.o, t2.families().fams)
		}
		if op%(keys/3) == 0 {
			u.c.clearTable(2)
		}
		u.c.put(u.tb, &r, seq, u.o, u.fams)
		if st := u.c.stats(); st.bytes > budget {
			t.Fatalf("op %d: %d bytes, budget %d", op, st.bytes, budget)
		}
		if op%(keys+1) == 0 {
			checkRCAccounting(t, u.c)
		}
	}
	checkRCAccounting(t, u.c)
	st := u.c.stats()
	t.Logf("%+v", st)
	if st.evictions == 0 || st.reclaimed == 0 {
		t.Fatalf("stats %+v", st)
	}
}

// TestRowCacheReclaimConcurrentRead: readers copy stable rows (never
// written) while a writer's UPDATE-heavy churn on other rows makes their
// slabs mostly dead, so compaction moves them: every copy a reader makes,
// including of an entry found just before its slab was compacted, is the
// row (run with -race: nothing writes a slab a reader copies from).
func TestRowCacheReclaimConcurrentRead(t *testing.T) {
	const stable, churn = 200, 2000
	u := newRCUnit(4 << 20)
	rows := make([]kv.Row, stable)
	for i := range rows {
		rows[i] = harnessRow(i)
	}
	var seq atomic.Uint64
	seq.Store(1)
	// Interleave stable rows with churned ones so their slabs go mostly dead.
	for i := range churn {
		if i%10 == 0 && i/10 < stable {
			u.c.put(u.tb, &rows[i/10], 1, u.o, u.fams)
		}
		r := harnessRow(stable + i)
		u.c.put(u.tb, &r, 1, u.o, u.fams)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	var reads atomic.Int64
	errc := make(chan string, 4)
	for g := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 9))
			var rr rowReader
			for !stop.Load() {
				i := rng.IntN(stable)
				h, ok := u.c.get(1, rows[i].Key, seq.Load(), u.o, true)
				if !ok {
					select {
					case errc <- fmt.Sprintf("stable row %d missed", i):
					default:
					}
					return
				}
				rr.row = kv.Row{}
				h.emit(&rr)
				if !rcRowEqual(&rr.row, &rows[i]) {
					select {
					case errc <- fmt.Sprintf("row %d: got %+v", i, rr.row):
					default:
					}
					return
				}
				reads.Add(1)
			}
		}()
	}
	rng := rand.New(rand.NewPCG(5, 6))
	n := 60_000
	if raceEnabled {
		n = 20_000
	}
	for range n {
		s := seq.Add(1)
		r := harnessRow(stable + rng.IntN(churn))
		u.c.invalidate(1, r.Key, s)
		u.c.put(u.tb, &r, s, u.o, u.fams)
	}
	stop.Store(true)
	wg.Wait()
	close(errc)
	for e := range errc {
		t.Fatal(e)
	}
	checkRCAccounting(t, u.c)
	st := u.c.stats()
	t.Logf("%d reads; %+v", reads.Load(), st)
	if st.reclaimed == 0 || st.copied == 0 || reads.Load() == 0 {
		t.Fatalf("nothing compacted or read: %+v", st)
	}
}

// TestRowCacheReclaimShrinks builds the case where a compaction takes
// more than it frees: the victim is a shard's small first slab (1 KiB,
// almost all dead), the head is full, so its live entry needs a new 8 KiB
// head, with the shard within a slab of its budget. The insert must still
// leave the shard within budget (reclaim shrinks after compacting).
func TestRowCacheReclaimShrinks(t *testing.T) {
	u := newRCUnit(8 << 20) // 128 KiB shards, 8 KiB slabs, first ones 1, 2, 4 KiB
	c := u.c
	sh := &c.shards[0]
	var keys []kv.Row // rows of shard 0
	for i := 0; len(keys) < 4000; i++ {
		r := harnessRow(i)
		if c.hash(1, r.Key)&(rcShards-1) == 0 {
			keys = append(keys, r)
		}
	}
	size := func(r *kv.Row) int { e, _ := encodeEntry(r, 1, u.fams, 0); return len(e) }
	// fill puts rows while the next one retires nothing (no new head or
	// bigger table past the budget) and reclaims nothing.
	k := 0
	fill := func() {
		for ; ; k++ {
			n := size(&keys[k])
			grow := (sh.n+1)*8 > len(sh.tags)*7 && sh.bytes+int64(max(len(sh.tags)/2, rcMinTable))*rcSlotBytes > c.shardBudget
			full := false
			if sh.head != rcNoSlab {
				hs := sh.slabs[sh.head]
				full = len(hs)+n > cap(hs) && sh.bytes+int64(sh.slabSize) > c.shardBudget
			}
			if grow || full || sh.dead*rcDeadShare > sh.slabB {
				return
			}
			u.put(&keys[k])
		}
	}
	fill()
	if sh.retired != 0 || sh.order[0] != 0 || cap(sh.slabs[0]) != rcFirstSlab {
		t.Fatalf("setup: retired %d, order %v", sh.retired, sh.order)
	}
	slabOf := func(r *kv.Row) (uint32, bool) {
		sh.mu.Lock()
		defer sh.mu.Unlock()
		j := sh.find(c.hash(1, r.Key), 1, r.Key)
		if j < 0 {
			return 0, false
		}
		return uint32(sh.locs[j] >> 32), true
	}
	seq := uint64(2)
	// Slab 0 all dead but one entry; then dead bytes spread over the other
	// slabs up to a quarter; the head filled; then dead bytes just past a
	// quarter: compacting slab 0 alone brings them back under.
	var keep kv.Row
	first := true
	for i := range k {
		if id, ok := slabOf(&keys[i]); ok && id == 0 {
			if first {
				keep, first = keys[i], false
				continue
			}
			c.invalidate(1, keys[i].Key, seq)
		}
	}
	d0 := sh.dead
	kill := func(stop func() bool) {
		for i := 0; i < k && !stop(); i++ {
			// At most half of any other slab: slab 0 is the victim.
			if id, ok := slabOf(&keys[i]); ok && id != 0 && id != sh.head && int(sh.slabDead[id])*2 < cap(sh.slabs[id]) {
				c.invalidate(1, keys[i].Key, seq)
			}
		}
	}
	kill(func() bool { return (sh.dead+150)*rcDeadShare > sh.slabB })
	fill()
	kill(func() bool { return sh.dead*rcDeadShare > sh.slabB })
	if (sh.dead-d0)*rcDeadShare > sh.slabB || sh.dead*rcDeadShare <= sh.slabB {
		t.Fatalf("setup: dead %d (slab 0: %d) of %d", sh.dead, d0, sh.slabB)
	}
	if hs := sh.slabs[sh.head]; len(hs)+size(&keep) <= cap(hs) || sh.bytes+int64(sh.slabSize-rcFirstSlab) <= c.shardBudget {
		t.Fatalf("setup: head %d of %d, bytes %d", len(hs), cap(hs), sh.bytes)
	}
	before := sh.bytes
	r := keys[k]
	c.put(u.tb, &r, seq, u.o, u.fams)
	checkRCAccounting(t, c)
	t.Logf("bytes %d -> %d (budget %d), reclaimed %d, retired %d", before, sh.bytes, c.shardBudget, sh.reclaimed, sh.retired)
	if sh.reclaimed == 0 {
		t.Fatal("nothing compacted")
	}
	if sh.bytes > c.shardBudget {
		t.Fatalf("shard holds %d bytes, budget %d", sh.bytes, c.shardBudget)
	}
	u.check(t, &keep, true)
}
