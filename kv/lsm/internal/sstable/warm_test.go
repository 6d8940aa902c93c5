package sstable

import (
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
)

// readCounter is a memFile that counts its reads.
type readCounter struct {
	*memFile
	reads atomic.Int64
}

func (f *readCounter) ReadAt(p []byte, off int64) (int, error) {
	f.reads.Add(1)
	return f.memFile.ReadAt(p, off)
}

// openCounted opens a copy of f with cache, counting its reads.
func openCounted(t *testing.T, f *memFile, fileNum uint64, cache *Cache) (*Reader, *readCounter) {
	t.Helper()
	rc := &readCounter{memFile: f.reopen()}
	r, err := Open(rc, "test.sst", fileNum, cache)
	if err != nil {
		t.Fatal(err)
	}
	return r, rc
}

// warmFile writes n random entries (seed) in 1 KiB blocks with c and
// returns them and the file.
func warmFile(t *testing.T, seed uint64, n int, c Compression) ([]kv, *memFile) {
	t.Helper()
	entries := randomEntries(rand.New(rand.NewPCG(seed, seed)), n)
	f, _ := writeTable(t, entries, WriterOptions{BlockSize: 1024, Compression: c})
	return entries, f
}

// seekAll seeks every entry through a new iterator each and checks its
// value.
func seekAll(t *testing.T, r *Reader, entries []kv) {
	t.Helper()
	for _, e := range entries {
		it := r.NewIter()
		if !it.SeekGE(e.k) || string(it.Value()) != string(e.v) {
			t.Fatalf("seek %q failed: %v", e.k, it.Err())
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWarm: warming a file into a cache with room caches every block in
// a few large reads, after which point reads miss nothing and read the
// file no more; warming again reads nothing. Compressed and uncompressed
// files alike.
func TestWarm(t *testing.T) {
	for _, c := range []Compression{Snappy, NoCompression} {
		t.Run(c.String(), func(t *testing.T) {
			entries, f := warmFile(t, 21, 5000, c)
			cache := NewCache(64 << 20)
			r, rc := openCounted(t, f, 1, cache)
			defer r.Close()
			opened := rc.reads.Load()

			next, cached, full, err := r.Warm(0, math.MaxInt64)
			if err != nil || full || next != r.Blocks() {
				t.Fatalf("Warm = %d, %d, %v, %v; want %d, _, false, nil", next, cached, full, err, r.Blocks())
			}
			_, misses, used := cache.Stats()
			if misses != 0 || cached != used || used == 0 {
				t.Fatalf("warming: %d misses, %d bytes cached, %d in the cache", misses, cached, used)
			}
			if r.Blocks() < 50 {
				t.Fatalf("only %d blocks: the test needs many", r.Blocks())
			}
			dataEnd := r.index.handles[r.Blocks()-1].Offset
			if reads, want := rc.reads.Load()-opened, int64(dataEnd/warmChunk+1); reads > want {
				t.Fatalf("warming %d blocks took %d reads, want at most %d", r.Blocks(), reads, want)
			}

			before := rc.reads.Load()
			seekAll(t, r, entries)
			if _, misses, _ := cache.Stats(); misses != 0 {
				t.Fatalf("%d misses after warming", misses)
			}
			if _, cached, _, _ := r.Warm(0, math.MaxInt64); cached != 0 || rc.reads.Load() != before {
				t.Fatalf("warming again cached %d bytes and read %d times", cached, rc.reads.Load()-before)
			}
		})
	}
}

// TestWarmLimit: a limit stops warming after about that many bytes, and
// warming goes on from where it stopped.
func TestWarmLimit(t *testing.T) {
	entries, f := warmFile(t, 22, 5000, Snappy)
	cache := NewCache(64 << 20)
	r, _ := openCounted(t, f, 1, cache)
	defer r.Close()
	next, total := 0, int64(0)
	steps := 0
	for next < r.Blocks() {
		n, cached, full, err := r.Warm(next, 8<<10)
		if err != nil || full || n <= next {
			t.Fatalf("Warm(%d) = %d, %d, %v, %v", next, n, cached, full, err)
		}
		if cached > 8<<10+maxBlockLen {
			t.Fatalf("a step cached %d bytes over a limit of 8 KiB", cached)
		}
		next, total, steps = n, total+cached, steps+1
	}
	if _, _, used := cache.Stats(); used != total || steps < 3 {
		t.Fatalf("%d steps cached %d bytes; the cache holds %d", steps, total, used)
	}
	seekAll(t, r, entries)
	if _, misses, _ := cache.Stats(); misses != 0 {
		t.Fatalf("%d misses after warming in steps", misses)
	}
}

// TestWarmNeverEvicts: warming a file larger than the cache fills the
// room there is and stops, full, leaving every block reads had cached in
// place.
func TestWarmNeverEvicts(t *testing.T) {
	entries, f := warmFile(t, 23, 20000, Snappy)
	cache := NewCache(256 << 10)
	hot, _ := openCounted(t, f, 1, cache)
	defer hot.Close()
	seekAll(t, hot, entries[:200]) // file 1's first blocks, cached by reads
	_, _, hotBytes := cache.Stats()

	cold, _ := openCounted(t, f, 2, cache)
	defer cold.Close()
	next, cached, full, err := cold.Warm(0, math.MaxInt64)
	if err != nil || !full || next >= cold.Blocks() {
		t.Fatalf("Warm = %d of %d, %v, %v; want a full cache", next, cold.Blocks(), full, err)
	}
	_, _, used := cache.Stats()
	if used != hotBytes+cached || used > cache.Capacity() {
		t.Fatalf("cache holds %d bytes: %d from reads + %d warmed, capacity %d", used, hotBytes, cached, cache.Capacity())
	}
	_, missesBefore, _ := cache.Stats()
	seekAll(t, hot, entries[:200])
	if _, misses, _ := cache.Stats(); misses != missesBefore {
		t.Fatalf("warming evicted: %d new misses on blocks reads had cached", misses-missesBefore)
	}
	if room := cache.Room(); room < 0 || room > cache.Capacity()/4 {
		t.Fatalf("room %d of %d after warming to full", room, cache.Capacity())
	}
}

// TestWarmCorrupt: a damaged block stops warming with a
// *CorruptionError; the blocks before it stay cached.
func TestWarmCorrupt(t *testing.T) {
	_, f := warmFile(t, 24, 5000, Snappy)
	probe := openTable(t, f, nil)
	bad := probe.index.handles[7]
	probe.Close()
	f.data[bad.Offset+bad.Length/2] ^= 0x40

	cache := NewCache(64 << 20)
	r, _ := openCounted(t, f, 1, cache)
	defer r.Close()
	next, _, full, err := r.Warm(0, math.MaxInt64)
	wantCorruption(t, err, "Warm over a damaged block")
	if next != 7 || full {
		t.Fatalf("stopped at block %d (full %v), want 7", next, full)
	}
	for k := range 7 {
		if !cache.cached(1, r.index.handles[k].Offset) {
			t.Fatalf("block %d before the damage not cached", k)
		}
	}
}

// TestWarmNoCache: a Reader without a cache warms nothing.
func TestWarmNoCache(t *testing.T) {
	_, f := warmFile(t, 25, 500, NoCompression)
	r, rc := openCounted(t, f, 1, nil)
	defer r.Close()
	before := rc.reads.Load()
	if next, cached, full, err := r.Warm(0, math.MaxInt64); next != r.Blocks() || cached != 0 || full || err != nil {
		t.Fatalf("Warm without a cache = %d, %d, %v, %v", next, cached, full, err)
	}
	if rc.reads.Load() != before {
		t.Fatal("Warm without a cache read the file")
	}
}
