package sstable

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

// reuseTable writes rows kv rows with values that name their key, in
// small blocks, and opens it with a cache of a few blocks, released
// buffers poisoned: a buffer recycled while something still reads it
// shows as a wrong entry (and, under -race, as a race).
func reuseTable(t *testing.T, rows int, c Compression) (*Reader, []kv) {
	t.Helper()
	old := poisonReleased
	poisonReleased = true
	t.Cleanup(func() { poisonReleased = old })
	var entries []kv
	for i := range rows {
		k := cellKey(kvRow(i/100, i), []byte("d"), []byte("v"), 7, uint64(i), 1)
		entries = append(entries, kv{k, fmt.Appendf(nil, "value-%08d-%x", i, k)})
	}
	f, _ := writeTable(t, entries, WriterOptions{Compression: c, BlockSize: 1 << 10})
	return openTable(t, f, NewCache(16<<10)), entries
}

func checkEntry(t *testing.T, it *Iter, want kv) bool {
	if !it.Valid() || !bytes.Equal(it.Key(), want.k) || !bytes.Equal(it.Value(), want.v) {
		t.Errorf("at %x: got %x = %q (valid %v, err %v), want %q", want.k, it.Key(), it.Value(), it.Valid(), it.Err(), want.v)
		return false
	}
	return true
}

// TestBlockReuseHeldBlock holds iterators on blocks while other reads
// evict them from the cache and recycle every buffer released: the held
// blocks' entries must not change until the iterators move. One block is
// read once (recycled when released), the other is hot: protected,
// published in its slot and held through it, without a reference.
func TestBlockReuseHeldBlock(t *testing.T) {
	for _, c := range []Compression{Snappy, NoCompression, Zstd} {
		t.Run(c.String(), func(t *testing.T) {
			r, entries := reuseTable(t, 5000, c)
			defer r.Close()
			const cold, hot = 1234, 3456
			for range 2 { // a miss, then a hit that publishes it
				it := r.NewIter()
				it.SeekGE(entries[hot].k)
				it.Close()
			}
			var held [2]*Iter
			for j, at := range []int{cold, hot} {
				held[j] = r.NewIter()
				defer held[j].Close()
				if !held[j].SeekGE(entries[at].k) || !checkEntry(t, held[j], entries[at]) {
					t.FailNow()
				}
			}
			if held[1].ent != nil {
				t.Fatal("the hot block was not hit through its slot")
			}
			// Churn the whole file through the cache, drop the file's
			// blocks (as a deleted file's are: a protected block
			// outlives scans), and churn again.
			for pass := range 2 {
				if pass == 1 {
					r.cache.EvictFile(r.fileNum)
				}
				it := r.NewIter()
				n := 0
				for ok := it.First(); ok; ok = it.Next() {
					if !checkEntry(t, it, entries[n]) {
						t.FailNow()
					}
					n++
				}
				if it.Close() != nil || n != len(entries) {
					t.Fatalf("scan read %d entries, err %v", n, it.Err())
				}
			}
			if _, misses, _ := r.cache.Stats(); misses < int64(len(entries)/20) {
				t.Fatalf("only %d misses: the cache does not churn", misses)
			}
			// The held blocks are intact, and so are their walks.
			for j, at := range []int{cold, hot} {
				for i := at; i < at+50; i++ {
					if !checkEntry(t, held[j], entries[i]) {
						t.FailNow()
					}
					held[j].Next()
				}
			}
		})
	}
}

// TestBlockReuseConcurrent runs point reads and short scans from several
// goroutines over a cache far smaller than the file, each checking every
// entry it reads and holding its position across the others' misses. Run
// it with -race too.
func TestBlockReuseConcurrent(t *testing.T) {
	for _, c := range []Compression{Snappy, NoCompression} {
		t.Run(c.String(), func(t *testing.T) {
			r, entries := reuseTable(t, 5000, c)
			defer r.Close()
			var wg sync.WaitGroup
			for g := range 6 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					rng := rand.New(rand.NewPCG(uint64(g), 9))
					it := r.NewIter() // reused across reads half the time
					defer func() { it.Close() }()
					for range 400 {
						if rng.IntN(2) == 0 {
							it.Close()
							it = r.NewIter()
						}
						i := rng.IntN(len(entries))
						if !it.SeekGE(entries[i].k) || !checkEntry(t, it, entries[i]) {
							return
						}
						for j := i + 1; j < min(i+rng.IntN(60), len(entries)); j++ {
							if !it.Next() || !checkEntry(t, it, entries[j]) {
								return
							}
						}
					}
				}()
			}
			wg.Wait()
			if hits, misses, _ := r.cache.Stats(); misses < hits/4 {
				t.Fatalf("%d hits, %d misses: the cache does not churn", hits, misses)
			}
		})
	}
}

// TestBlockReuseRecycles checks that misses do reuse released buffers: a
// cold point read's miss allocates its entry, not its block.
func TestBlockReuseRecycles(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	r, entries := reuseTable(t, 5000, Snappy)
	defer r.Close()
	rng := rand.New(rand.NewPCG(5, 5))
	read := func() {
		it := r.NewIter()
		i := rng.IntN(len(entries))
		if !it.SeekGE(entries[i].k) {
			t.Fatal(it.Err())
		}
		it.Close()
	}
	for range 200 {
		read()
	}
	_, m0, _ := r.cache.Stats()
	allocs := testing.AllocsPerRun(500, read)
	_, m1, _ := r.cache.Stats()
	if m1-m0 < 250 {
		t.Fatalf("%d misses in 500 reads: the test needs misses", m1-m0)
	}
	// One allocation per miss (the entry) at most, with slack for the
	// pool's losses at a collection.
	if perMiss := allocs * 501 / float64(m1-m0); perMiss > 1.2 {
		t.Fatalf("%.2f allocations per miss, want about 1 (the entry; the block's buffer is recycled)", perMiss)
	}
}
