package lsm

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
)

// TestMemtableOrder inserts random batches, some sorted and some not, and
// checks the cursor against a sorted model: First and Next (across many
// chunk refills), SeekGE and SeekLT at present and absent keys, and Next
// after SeekLT.
func TestMemtableOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := newMemtable()
	var model [][]byte
	for range 300 {
		es := make([]entry, 1+rng.IntN(8))
		for i := range es {
			k := fmt.Appendf(nil, "k%05d", rng.IntN(100000))
			for slices.ContainsFunc(model, func(x []byte) bool { return bytes.Equal(x, k) }) ||
				slices.ContainsFunc(es[:i], func(e entry) bool { return bytes.Equal(e.key, k) }) {
				k = append(k, 'x')
			}
			es[i] = entry{key: k, value: k}
		}
		if rng.IntN(2) == 0 {
			slices.SortFunc(es, func(a, b entry) int { return bytes.Compare(a.key, b.key) })
		}
		m.add(es, 1, 1)
		for _, e := range es {
			model = append(model, e.key)
		}
	}
	slices.SortFunc(model, bytes.Compare)
	it := newMemIter(m)
	i := 0
	for it.First(); it.Valid(); it.Next() {
		if !bytes.Equal(it.Key(), model[i]) || !bytes.Equal(it.Value(), model[i]) {
			t.Fatalf("entry %d: got %q, want %q", i, it.Key(), model[i])
		}
		i++
	}
	if i != len(model) || m.count.Load() != int64(len(model)) {
		t.Fatalf("iterated %d entries, count %d, want %d", i, m.count.Load(), len(model))
	}
	for range 500 {
		k := fmt.Appendf(nil, "k%05d", rng.IntN(100001))
		j, _ := slices.BinarySearchFunc(model, k, bytes.Compare)
		it.SeekGE(k)
		if (j == len(model)) != !it.Valid() || (it.Valid() && !bytes.Equal(it.Key(), model[j])) {
			t.Fatalf("SeekGE(%q): got valid=%v, want index %d of %d", k, it.Valid(), j, len(model))
		}
		// Walk a few entries on from the seek, across a refill.
		for d := 0; d < 12 && it.Valid(); d++ {
			if !bytes.Equal(it.Key(), model[j+d]) {
				t.Fatalf("SeekGE(%q)+%d: got %q, want %q", k, d, it.Key(), model[j+d])
			}
			it.Next()
		}
		it.SeekLT(k)
		if (j == 0) != !it.Valid() || (it.Valid() && !bytes.Equal(it.Key(), model[j-1])) {
			t.Fatalf("SeekLT(%q): got valid=%v, want index %d", k, it.Valid(), j-1)
		}
		if it.Valid() {
			it.Next()
			if (j == len(model)) != !it.Valid() || (it.Valid() && !bytes.Equal(it.Key(), model[j])) {
				t.Fatalf("SeekLT(%q) then Next: got valid=%v, want index %d", k, it.Valid(), j)
			}
		}
	}
	it.SeekLT(nil)
	if !it.Valid() || !bytes.Equal(it.Key(), model[len(model)-1]) {
		t.Fatal("SeekLT(nil) is not the last entry")
	}
	if m.size.Load() < int64(len(model))*(2*6+entrySlot) {
		t.Fatalf("size %d does not count the node slots of %d entries", m.size.Load(), len(model))
	}
}

// TestMemtableSizeBoundsHeap measures the heap a memtable and its keys
// take, grown by sorted inserts (half-full nodes) and by random ones: size
// must not undercount it, nor overcount it more than twofold.
func TestMemtableSizeBoundsHeap(t *testing.T) {
	for _, sorted := range []bool{true, false} {
		t.Run(fmt.Sprintf("sorted=%v", sorted), func(t *testing.T) {
			const n = 100000
			rng := rand.New(rand.NewPCG(5, 6))
			ids := make([]uint64, n)
			for i := range ids {
				ids[i] = rng.Uint64()
			}
			if sorted {
				slices.Sort(ids)
			}
			es := make([]entry, 1)
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			m := newMemtable()
			for _, id := range ids {
				es[0] = entry{key: fmt.Appendf(make([]byte, 0, 24), "%016x-payload", id), value: make([]byte, 8)}
				m.add(es, 1, 1)
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			runtime.KeepAlive(m)
			runtime.KeepAlive(ids)
			heap := int64(after.HeapAlloc - before.HeapAlloc)
			if size := m.size.Load(); size < heap || size > 2*heap {
				t.Fatalf("size %d, heap %d (%.1f vs %.1f bytes per entry)", size, heap,
					float64(size)/n, float64(heap)/n)
			}
		})
	}
}

// TestMemtablePointBound checks a bounded memIter (a Get's): it serves
// only the entries of its row, copies no others, and First and SeekGE
// below the row land on the row's first entry.
func TestMemtablePointBound(t *testing.T) {
	m := newMemtable()
	var es []entry
	for _, row := range []string{"a", "b", "c"} {
		for i := range 5 {
			k := []byte(fmt.Sprintf("%s/%02d", row, i))
			es = append(es, entry{key: k, value: k})
		}
	}
	m.add(es, 1, 1)
	it := newMemIter(m)
	for range 2 { // the second round reuses the buffer
		it.reset(m, []byte("b/"))
		var got []string
		for it.SeekGE([]byte("a")); it.Valid(); it.Next() {
			got = append(got, string(it.Key()))
		}
		if want := "[b/00 b/01 b/02 b/03 b/04]"; fmt.Sprint(got) != want {
			t.Fatalf("bounded scan: %v, want %s", got, want)
		}
		if it.used != 5 {
			t.Fatalf("copied %d entries for a 5-entry row", it.used)
		}
		if it.First(); !it.Valid() || string(it.Key()) != "b/00" {
			t.Fatal("First is not the row's first entry")
		}
		if it.SeekLT([]byte("b/00")); it.Valid() {
			t.Fatalf("SeekLT below the row found %q", it.Key())
		}
		it.Close()
		if it.m != nil || it.buf[:cap(it.buf)][0].key != nil {
			t.Fatal("Close kept references into the memtable")
		}
	}
}

// TestMemtableIterNoAlloc checks that a warm memIter scans and seeks
// without allocating: refills reuse its buffer.
func TestMemtableIterNoAlloc(t *testing.T) {
	m := newMemtable()
	for i := range 2000 {
		k := fmt.Appendf(nil, "k%06d", i)
		m.add([]entry{{key: k, value: k}}, 1, 1)
	}
	it := newMemIter(m)
	mid := []byte("k001000") // seek keys escape into the btree's pivot
	scan := func() {
		n := 0
		for it.First(); it.Valid(); it.Next() {
			n++
		}
		if n != 2000 {
			t.Fatalf("scanned %d entries, want 2000", n)
		}
		it.SeekGE(mid)
		it.SeekLT(mid)
		it.Close()
		it.reset(m, nil)
	}
	scan() // warm up
	if a := testing.AllocsPerRun(20, scan); a != 0 {
		t.Fatalf("warm scan allocates %.1f times", a)
	}
}

// TestMemtableConcurrentReaders runs readers against one writer (run with
// -race): every scan sees a sorted list, and never loses an entry it saw.
func TestMemtableConcurrentReaders(t *testing.T) {
	m := newMemtable()
	var wg sync.WaitGroup
	done := make(chan struct{})
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seen := 0
			for {
				select {
				case <-done:
					return
				default:
				}
				it := newMemIter(m)
				it.SeekGE([]byte("5"))
				if it.Valid() && bytes.Compare(it.Key(), []byte("5")) < 0 {
					t.Errorf("SeekGE(5) gave %q", it.Key())
					return
				}
				n := 0
				var last []byte
				for it.First(); it.Valid(); it.Next() {
					if last != nil && bytes.Compare(last, it.Key()) >= 0 {
						t.Errorf("out of order: %q then %q", last, it.Key())
						return
					}
					last = it.Key()
					n++
				}
				if n < seen {
					t.Errorf("scan saw %d entries after one saw %d", n, seen)
					return
				}
				seen = n
			}
		}()
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 3000 {
		k := fmt.Appendf(nil, "%08d-%d", rng.IntN(1e8), i)
		m.add([]entry{{key: k}}, uint64(i+1), 1)
	}
	close(done)
	wg.Wait()
}
