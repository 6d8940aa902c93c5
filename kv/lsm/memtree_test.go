package lsm

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// TestMemTreeModel checks memTree (google/btree over arena items) against
// a sorted model: ascending runs (half-full nodes), interleaved runs and
// random keys, values of every size class (none, small, chunk-sized and
// huge), and every iteration from every kind of pivot: present, absent,
// below and above all keys, with early stops.
func TestMemTreeModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var tr memTree
	model := map[string][]byte{}
	add := func(k string) {
		var v []byte
		switch rng.IntN(20) {
		case 0:
		case 1:
			v = bytes.Repeat([]byte{byte(len(model))}, chunkHuge+rng.IntN(100))
		case 2:
			v = bytes.Repeat([]byte{'v'}, 3000+rng.IntN(5000))
		default:
			v = fmt.Appendf(nil, "v%d", len(model))
		}
		model[k] = v
		tr.insert(entry{key: []byte(k), value: v})
	}
	for i := range 20000 { // ascending
		add(fmt.Sprintf("a%08d", i))
	}
	for i := range 5000 { // four interleaved ascending streams
		add(fmt.Sprintf("b%02d%08d", i%4, i))
	}
	for range 20000 { // random
		add(fmt.Sprintf("c%08d", rng.IntN(1e8)))
	}
	var empty memTree // the zero memTree: no btree yet
	empty.Ascend(func(entry) bool { t.Fatal("empty tree visited an entry"); return false })
	empty.AscendGreaterOrEqual(entry{key: []byte("a")}, func(entry) bool { t.Fatal("empty tree visited an entry"); return false })
	if empty.Len() != 0 {
		t.Fatal("empty tree has entries")
	}
	add("c00000000x") // replaces nothing; then replace one key
	add("a00000005")
	keys := make([]string, 0, len(model))
	for k := range model {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if tr.Len() != len(keys) {
		t.Fatalf("Len %d, want %d", tr.Len(), len(keys))
	}
	check := func(what string, got []entry, want []string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d entries, want %d", what, len(got), len(want))
		}
		for i, e := range got {
			if string(e.key) != want[i] || !bytes.Equal(e.value, model[want[i]]) || (len(e.value) == 0) != (e.value == nil) {
				t.Fatalf("%s: entry %d is %q (value %d bytes), want %q (%d bytes)", what, i, e.key, len(e.value), want[i], len(model[want[i]]))
			}
		}
	}
	collect := func(limit int) (func(entry) bool, *[]entry) {
		var out []entry
		return func(e entry) bool { out = append(out, e); return len(out) < limit }, &out
	}
	fn, out := collect(len(keys) + 1)
	tr.Ascend(fn)
	check("Ascend", *out, keys)
	fn, out = collect(len(keys) + 1)
	tr.Descend(fn)
	rev := slices.Clone(keys)
	slices.Reverse(rev)
	check("Descend", *out, rev)
	pivots := []string{"", "a", "a00000000", "b", "b0100000001", "z", keys[len(keys)-1]}
	for range 300 {
		k := keys[rng.IntN(len(keys))]
		pivots = append(pivots, k, k+"0", k[:len(k)-1])
	}
	for _, p := range pivots {
		limit := 1 + rng.IntN(200)
		i, _ := slices.BinarySearch(keys, p)
		fn, out = collect(limit)
		tr.AscendGreaterOrEqual(entry{key: []byte(p)}, fn)
		check("AscendGreaterOrEqual "+p, *out, keys[i:min(len(keys), i+limit)])
		j, found := slices.BinarySearch(keys, p)
		if found {
			j++
		}
		want := slices.Clone(keys[max(0, j-limit):j])
		slices.Reverse(want)
		fn, out = collect(limit)
		tr.DescendLessOrEqual(entry{key: []byte(p)}, fn)
		check("DescendLessOrEqual "+p, *out, want)
	}
}

// TestMemTreePivotSlots runs more concurrent searches than there are
// pivot slots: while pivotSlots of them hold their slots (inside their
// callbacks), each key is in exactly one slot; the others wait for a slot;
// every search finds its key's successor, and all slots are free at the
// end.
func TestMemTreePivotSlots(t *testing.T) {
	m := newMemtable()
	const n = pivotSlots + 40
	var es []entry
	for i := range n {
		es = append(es, entry{key: fmt.Appendf(nil, "k%04d", 2*i+1)})
	}
	m.add(es, 1, 1)
	var entered, checked atomic.Int64 // searches in their callback; done checking
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var got []byte
			k := fmt.Appendf(nil, "k%04d", 2*i)
			m.mu.RLock()
			m.tree.AscendGreaterOrEqual(entry{key: k}, func(e entry) bool {
				if got != nil {
					return false
				}
				got = e.key
				// The first pivotSlots searches hold their slots until all
				// of them are in flight, then each finds its key in a slot
				// of its own; the later ones wait for a slot.
				if entered.Add(1) > pivotSlots {
					return true
				}
				for entered.Load() < pivotSlots {
					runtime.Gosched()
				}
				mine := 0
				for _, p := range pivotKeys {
					if bytes.Equal(p, k) {
						mine++
					}
				}
				if mine != 1 {
					t.Errorf("search %d: its key is in %d slots", i, mine)
				}
				for checked.Add(1); checked.Load() < pivotSlots; {
					runtime.Gosched()
				}
				return true
			})
			m.mu.RUnlock()
			if want := fmt.Sprintf("k%04d", 2*i+1); string(got) != want {
				t.Errorf("search %d found %q, want %q", i, got, want)
			}
		}()
	}
	wg.Wait()
	for w := range pivotFree {
		if u := pivotFree[w].Load(); u != 0 {
			t.Fatalf("pivot slots still taken: word %d = %x", w, u)
		}
	}
}

// BenchmarkMemtableInsert measures memtable.add: 2M entries (32-byte keys,
// 16-byte values) in 1000-entry batches, either sorted batches taken in
// turn from four interleaved ascending streams (concurrent sequential
// loads) or random keys. It reports ns and allocations per entry.
func BenchmarkMemtableInsert(b *testing.B) {
	const n, batch, keyLen = 2_000_000, 1000, 32
	for _, mode := range []string{"interleaved", "random"} {
		b.Run(mode, func(b *testing.B) {
			flat := make([]byte, 0, n*keyLen)
			rng := rand.New(rand.NewPCG(9, 10))
			for i := range n {
				if mode == "random" {
					flat = fmt.Appendf(flat, "r%016x-family-qualifier-", rng.Uint64())[:len(flat)+keyLen]
					continue
				}
				// Batch k comes from stream k%4, which ascends.
				k := i / batch
				c := (k/4)*batch + i%batch
				flat = fmt.Appendf(flat, "s%02d%012d-family-qualifier-", k%4, c)[:len(flat)+keyLen]
			}
			value := make([]byte, 16)
			es := make([]entry, batch)
			b.ReportAllocs()
			b.ResetTimer()
			var allocs uint64
			for range b.N {
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				allocs -= ms.Mallocs
				m := newMemtable()
				for i := 0; i < n; i += batch {
					for j := range es {
						o := (i + j) * keyLen
						es[j] = entry{key: flat[o : o+keyLen], value: value}
					}
					m.add(es, 1, 1)
				}
				runtime.ReadMemStats(&ms)
				allocs += ms.Mallocs
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/entry")
			b.ReportMetric(float64(allocs)/float64(b.N*n), "allocs/entry")
		})
	}
}
