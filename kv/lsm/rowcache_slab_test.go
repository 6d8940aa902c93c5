package lsm

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/widesql/widesql/kv"
)

// rcUnit is a cache with one table (families d and p) for unit tests of
// the cache alone.
type rcUnit struct {
	c    *rowCache
	tb   *table
	fams []famInfo
	o    *kv.ReadOptions
}

func newRCUnit(budget int64) *rcUnit {
	tb := &table{id: 1}
	tb.fs.Store(newFamSet([]kv.Family{{Name: "d"}, {Name: "p"}}))
	return &rcUnit{c: newRowCache(budget, 0), tb: tb, fams: tb.families().fams, o: &kv.ReadOptions{}}
}

func (u *rcUnit) put(row *kv.Row) { u.c.put(u.tb, row, 1, u.o, u.fams) }

// check reads row's key: it must be cached (if want) and equal row.
func (u *rcUnit) check(t *testing.T, row *kv.Row, want bool) {
	t.Helper()
	h, ok := u.c.get(1, row.Key, 1, u.o, true)
	if ok != want {
		t.Fatalf("row %x: cached %v, want %v", row.Key, ok, want)
	}
	if ok {
		var r rowReader
		h.emit(&r)
		if !rcRowEqual(&r.row, row) {
			t.Fatalf("row %x: got %+v, want %+v", row.Key, r.row, *row)
		}
	}
}

func (u *rcUnit) retired() int64 {
	var n int64
	for i := range u.c.shards {
		sh := &u.c.shards[i]
		sh.mu.Lock()
		n += sh.retired
		sh.mu.Unlock()
	}
	return n
}

// TestRowCacheRetiredSlabRead: a reader that found an entry copies it
// after unlocking; meanwhile its slab may be retired (and the entry
// evicted or moved), and new entries written: the reader still copies
// the bytes it found, as no slab's bytes are written again.
func TestRowCacheRetiredSlabRead(t *testing.T) {
	u := newRCUnit(64 * 16 << 10) // 16 KiB shards: 1 KiB slabs
	a := harnessRow(0)
	u.put(&a)
	hit, ok := u.c.get(1, a.Key, 1, u.o, true)
	if !ok {
		t.Fatal("a not cached")
	}
	for i := 1; i < 50_000; i++ {
		row := harnessRow(i)
		u.put(&row)
	}
	if u.retired() == 0 {
		t.Fatal("no slab retired")
	}
	b := harnessRow(0)
	b.Cells[2].Value = []byte("replaced")
	u.put(&b) // a's key again, other bytes
	runtime.GC()
	var r rowReader
	hit.emit(&r)
	if !rcRowEqual(&r.row, &a) {
		t.Fatalf("got %+v, want %+v", r.row, a)
	}
	u.check(t, &b, true)
}

// TestRowCacheRetiredSlabConcurrent has readers copy hits while writers
// fill a small cache (every slab is soon retired) and replace rows: under
// -race, a write to bytes a reader copies is reported; each copy must be
// a row that was cached.
func TestRowCacheRetiredSlabConcurrent(t *testing.T) {
	u := newRCUnit(64 * 8 << 10)
	const keys = 20_000
	ops := 200_000
	if raceEnabled || testing.Short() {
		ops = 40_000
	}
	// Row i's version v: its payload is rotated by v (harnessRow(i)
	// with v in the val cell).
	version := func(i, v int) kv.Row {
		row := harnessRow(i)
		row.Cells[1].Value = []byte{byte(v)}
		return row
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	errc := make(chan string, 4)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range ops {
				i := (k*7919 + w) % keys
				row := version(i, k%5)
				u.put(&row)
			}
		}()
	}
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var r rowReader
			for k := 0; !stop.Load(); k++ {
				i := k * 104729 % keys
				key := harnessRow(i).Key
				h, ok := u.c.get(1, key, 1, u.o, true)
				if !ok {
					continue
				}
				runtime.Gosched() // let the writers retire its slab
				h.emit(&r)
				v := int(r.row.Cells[1].Value[0])
				if want := version(i, v); v >= 5 || !rcRowEqual(&r.row, &want) {
					errc <- "bad copy"
					return
				}
			}
		}()
	}
	for u.c.stats().inserts < int64(2*ops) {
		runtime.Gosched()
	}
	stop.Store(true)
	wg.Wait()
	close(errc)
	for e := range errc {
		t.Fatal(e)
	}
	st := u.c.stats()
	if u.retired() == 0 || st.hits == 0 || st.bytes > 64*8<<10 {
		t.Fatalf("stats %+v, %d retired", st, u.retired())
	}
}

// TestRowCacheSecondChance: slabs are evicted oldest first, but an entry
// hit since it was written moves to the newest slab and stays cached.
func TestRowCacheSecondChance(t *testing.T) {
	u := newRCUnit(64 * 32 << 10)
	const hot = 64
	hotRows := make([]kv.Row, hot)
	for i := range hotRows {
		hotRows[i] = harnessRow(i)
		u.put(&hotRows[i])
	}
	for i := hot; i < 100_000; i++ {
		row := harnessRow(i)
		u.put(&row)
		if i%1000 == 0 {
			for j := range hotRows {
				u.check(t, &hotRows[j], true)
			}
		}
	}
	st := u.c.stats()
	if st.evictions < 50_000 || st.bytes > 64*32<<10 {
		t.Fatalf("stats %+v", st)
	}
	var moved int64
	for i := range u.c.shards {
		moved += u.c.shards[i].moved
	}
	if moved == 0 {
		t.Fatal("no entry moved")
	}
	// A row read once, long ago, is gone.
	old := harnessRow(hot + 1)
	u.check(t, &old, false)
}

// TestRowCacheInvalidationBounded: a workload that keeps replacing and
// invalidating the same rows leaves dead bytes in slabs, which are
// retired or compacted (reclaim): the cache's bytes and the heap stay
// within the budget.
func TestRowCacheInvalidationBounded(t *testing.T) {
	const budget = 2 << 20
	u := newRCUnit(budget)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for k := range 300_000 {
		row := harnessRow(k % 1000)
		if k%3 == 0 {
			u.c.invalidate(1, row.Key, 1)
			continue
		}
		row.Cells[1].Value = []byte{byte(k)}
		u.put(&row)
		if st := u.c.stats(); st.bytes > budget {
			t.Fatalf("after %d: %d bytes", k, st.bytes)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if heap := int64(after.HeapAlloc) - int64(before.HeapAlloc); heap > budget*11/10 {
		t.Fatalf("heap grew %d bytes, budget %d", heap, budget)
	}
	st := u.c.stats()
	if st.entries == 0 || st.entries > 1000 || u.retired()+st.reclaimed == 0 {
		t.Fatalf("stats %+v", st)
	}
	runtime.KeepAlive(u)
}

// TestRowCacheLargeEntry: an entry larger than a quarter of a slab takes
// a dedicated slab, which is retired as any other (and kept while hit).
func TestRowCacheLargeEntry(t *testing.T) {
	u := newRCUnit(64 * 16 << 10) // 1 KiB slabs
	big := harnessRow(0)
	big.Cells[2].Value = make([]byte, 5000)
	for i := range big.Cells[2].Value {
		big.Cells[2].Value[i] = byte(i)
	}
	u.put(&big)
	for i := 1; i < 20_000; i++ {
		row := harnessRow(i)
		u.put(&row)
		if i%200 == 0 {
			u.check(t, &big, true)
		}
	}
	if u.retired() == 0 {
		t.Fatal("no slab retired")
	}
	// Unread, it goes with its slab.
	for i := 20_000; i < 40_000; i++ {
		row := harnessRow(i)
		u.put(&row)
	}
	u.check(t, &big, false)
}
