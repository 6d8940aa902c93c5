package lsm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/widesql/widesql/kv"
)

// BenchmarkRowCacheUpdateMix is the harness's point Get mixed with
// UPDATEs (pgbench with /tmp/pg1m.sql@3 and /tmp/upd1m.sql@1) on the
// cache alone: 1M harness rows cached in 256 MiB (as the server's
// default share), then each op is, on a uniformly random row, a read (a
// hit, or a miss that inserts the row) three times in four, or an
// UPDATE (invalidate). It reports what the cache charges (MB) against
// its entries' bytes (liveMB), the reads' hit rate and the evictions: an
// UPDATE leaves its entry's bytes dead in a slab, and the cache should
// stay near its live size instead of climbing to the budget and evicting
// live rows. Run with -benchtime 4000000x (1M UPDATEs).
// In 160 MiB the rows fit (about 145 MB charged once loaded), with
// little room for dead bytes.
func BenchmarkRowCacheUpdateMix(b *testing.B) {
	for _, mb := range []int64{256, 160} {
		b.Run(fmt.Sprint(mb, "MiB"), func(b *testing.B) { benchRowCacheUpdateMix(b, mb<<20) })
	}
}

func benchRowCacheUpdateMix(b *testing.B, budget int64) {
	n := 1_000_000
	if testing.Short() {
		n, budget = n/10, budget/10
	}
	c := newRowCache(budget, 0)
	tb := &table{id: 1}
	tb.fs.Store(newFamSet([]kv.Family{{Name: "d"}, {Name: "p"}}))
	fams := tb.families().fams
	rows := make([]kv.Row, n)
	for i := range rows {
		rows[i] = harnessRow(i)
		c.put(tb, &rows[i], 1, &kv.ReadOptions{}, fams) // as fillHarnessRows, with this table
	}
	if st := c.stats(); st.entries != int64(n) {
		b.Fatalf("%d entries cached, want %d", st.entries, n)
	}
	o := &kv.ReadOptions{}
	rng := rand.New(rand.NewPCG(1, 2))
	seq := uint64(1)
	st0 := c.stats()
	var reads, hits int64
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		k := rng.IntN(n)
		seq++
		if rng.IntN(4) == 0 {
			c.invalidate(1, rows[k].Key, seq)
			continue
		}
		reads++
		if _, ok := c.get(1, rows[k].Key, seq, o, true); ok {
			hits++
			continue
		}
		c.put(tb, &rows[k], seq, o, fams)
	}
	b.StopTimer()
	st := c.stats()
	b.ReportMetric(float64(st.bytes)/1e6, "MB")
	b.ReportMetric(float64(rcEntryBytes(c))/1e6, "liveMB")
	b.ReportMetric(float64(st.entries), "entries")
	b.ReportMetric(100*float64(hits)/float64(max(reads, 1)), "hit%")
	b.ReportMetric(float64(st.evictions-st0.evictions), "evictions")
}

// rcEntryBytes is the bytes of the entries the tables name: what the
// cache's slabs would hold with no dead bytes and no free tails.
func rcEntryBytes(c *rowCache) int64 {
	var n int64
	for si := range c.shards {
		sh := &c.shards[si]
		sh.mu.Lock()
		for i, tg := range sh.tags {
			if tg != 0 {
				n += int64(len(sh.entry(sh.locs[i])))
			}
		}
		sh.mu.Unlock()
	}
	return n
}
