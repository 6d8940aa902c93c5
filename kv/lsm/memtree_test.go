package lsm

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMemTreeModel checks memTree against a sorted model: ascending runs
// (the split that keeps full leaves and inner nodes), interleaved runs and
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
