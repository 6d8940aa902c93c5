package lsm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/widesql/widesql/kv"
)

// TestRowCacheMetricsMemory: an UPDATE-heavy load through a store with a
// small row cache (every write invalidates its row, the next Get
// re-inserts it) leaves dead bytes, which compaction reclaims: the
// metrics show the slabs, their dead bytes and the compactions, within
// the budget, and agree with a walk of the slabs (checkRCAccounting).
func TestRowCacheMetricsMemory(t *testing.T) {
	ctx := context.Background()
	const size = 64 * 16 << 10
	s, err := Open(t.TempDir(), Options{NoSync: true, RowCacheSize: size})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "a"}}}); err != nil {
		t.Fatal(err)
	}
	h, _ := s.Table(ctx, "t")
	key := func(i int) []byte { return fmt.Appendf(nil, "k%05d", i) }
	write := func(i, v int) {
		if err := h.Apply(ctx, []kv.RowMutation{{Key: key(i), Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "a", Qualifier: []byte("x"), Timestamp: kv.Timestamp(1000 * (1 + v)), Value: fmt.Appendf(nil, "%040d", v)}}}}); err != nil {
			t.Fatal(err)
		}
	}
	get := func(i int) { readRows(t, h.Read(ctx, kv.RowSet{Keys: [][]byte{key(i)}}, kv.ReadOptions{})) }
	const rows = 2000 // ~150 KB of entries: the cache holds them all
	for i := range rows {
		write(i, 0)
		get(i)
	}
	m0 := s.Metrics()
	if m0.RowCacheEntries != rows || m0.RowCacheSlabBytes == 0 || m0.RowCacheDeadBytes != 0 || m0.RowCacheCompactions != 0 {
		t.Fatalf("after the load: %+v", m0)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for v := 1; v <= 20_000; v++ {
		i := rng.IntN(rows)
		write(i, v)
		get(i)
	}
	m := s.Metrics()
	checkRCAccounting(t, s.rc.Load())
	st := s.rc.Load().stats()
	t.Logf("slabs %d, dead %d, compactions %d, reclaimed %d, copied %d; bytes %d, entries %d, evictions %d",
		m.RowCacheSlabBytes, m.RowCacheDeadBytes, m.RowCacheCompactions, m.RowCacheReclaimedBytes, m.RowCacheCopiedBytes,
		m.RowCacheBytes, m.RowCacheEntries, m.RowCacheEvictions)
	switch {
	case m.RowCacheSlabBytes != st.slabBytes || m.RowCacheDeadBytes != st.dead || m.RowCacheCompactions != st.reclaimed ||
		m.RowCacheReclaimedBytes != st.freed || m.RowCacheCopiedBytes != st.copied || m.RowCacheBytes != st.bytes:
		t.Fatalf("metrics %+v, stats %+v", m, st)
	case m.RowCacheSlabBytes == 0 || m.RowCacheSlabBytes > m.RowCacheBytes || m.RowCacheBytes > size:
		t.Fatalf("slabs %d, bytes %d, budget %d", m.RowCacheSlabBytes, m.RowCacheBytes, size)
	case m.RowCacheDeadBytes == 0 || m.RowCacheDeadBytes > m.RowCacheSlabBytes:
		t.Fatalf("dead %d of %d slab bytes", m.RowCacheDeadBytes, m.RowCacheSlabBytes)
	case m.RowCacheCompactions == 0 || m.RowCacheReclaimedBytes < m.RowCacheCompactions*40:
		// A compacted slab holds dead entries of ~60 bytes.
		t.Fatalf("%d compactions reclaimed %d bytes", m.RowCacheCompactions, m.RowCacheReclaimedBytes)
	case m.RowCacheEvictions != 0 || m.RowCacheEntries != rows:
		t.Fatalf("%d evictions, %d entries: the cache holds every row", m.RowCacheEvictions, m.RowCacheEntries)
	}
}

// TestRowCacheReclaimedBytes: with no slab retired (a budget that holds
// every row), every byte of an entry dropped (replaced or invalidated) is
// either still dead in its slab or was freed by a compaction: the
// reclaimed bytes are the dropped bytes less the dead ones.
func TestRowCacheReclaimedBytes(t *testing.T) {
	const keys = 3000
	u := newRCUnit(0)
	size := func(r *kv.Row) int64 { e, _ := encodeEntry(r, 1, u.fams, 0); return int64(len(e)) }
	var live int64
	for i := range keys {
		r := harnessRow(i)
		live += size(&r)
	}
	u.c = newRowCache(3*live, 0)
	cached := map[int]int64{} // row -> its entry's bytes
	var dropped int64
	// Every row first: a shard that empties drops its slabs and their
	// dead bytes (put's reset), which would not count as reclaimed.
	for k := range keys {
		r := harnessRow(k)
		u.c.put(u.tb, &r, 1, u.o, u.fams)
		cached[k] = size(&r)
	}
	rng := rand.New(rand.NewPCG(3, 9))
	seq := uint64(1)
	for range 200_000 {
		seq++
		k := rng.IntN(keys)
		r := harnessRow(k)
		r.Cells[1].Value = fmt.Appendf(nil, "%d", seq%1000) // sizes vary a little
		if rng.IntN(3) == 0 {
			u.c.invalidate(1, r.Key, seq)
			dropped += cached[k]
			delete(cached, k)
			continue
		}
		dropped += cached[k] // a put replaces the entry
		u.c.put(u.tb, &r, seq, u.o, u.fams)
		cached[k] = size(&r)
	}
	checkRCAccounting(t, u.c)
	st := u.c.stats()
	t.Logf("%+v; dropped %d", st, dropped)
	if st.evictions != 0 || st.entries != int64(len(cached)) {
		t.Fatalf("setup: evictions %d, entries %d of %d", st.evictions, st.entries, len(cached))
	}
	var retired int64
	for i := range u.c.shards {
		retired += u.c.shards[i].retired
	}
	if retired != 0 || st.reclaimed == 0 {
		t.Fatalf("setup: %d slabs retired, %d compacted", retired, st.reclaimed)
	}
	if st.freed+st.dead != dropped {
		t.Fatalf("reclaimed %d + dead %d = %d, dropped %d", st.freed, st.dead, st.freed+st.dead, dropped)
	}
}
