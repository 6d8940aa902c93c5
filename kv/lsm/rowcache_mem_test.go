package lsm

import (
	"encoding/binary"
	"runtime"
	"testing"

	"github.com/widesql/widesql/kv"
)

// harnessRow is a row shaped as the benchmark harness's kv table (tenant
// INT, id BIGINT, d.grp INT, d.val INT, p.payload TEXT of 64 chars): a
// 12-byte key, one-byte qualifiers, varint integers, and every cell at one
// timestamp.
func harnessRow(i int) kv.Row {
	key := binary.BigEndian.AppendUint32(nil, uint32(i/1000)^1<<31)
	key = binary.BigEndian.AppendUint64(key, uint64(i%1000)^1<<63)
	payload := make([]byte, 64)
	for j := range payload {
		payload[j] = 'a' + byte((i+j)%26)
	}
	ts := kv.Timestamp(1_763_700_000_000_000)
	return kv.Row{Key: key, Cells: []kv.Cell{
		{Family: "d", Qualifier: []byte{2}, Timestamp: ts, Value: binary.AppendUvarint(nil, uint64(i%100))},
		{Family: "d", Qualifier: []byte{3}, Timestamp: ts, Value: binary.AppendUvarint(nil, uint64(i))},
		{Family: "p", Qualifier: []byte{4}, Timestamp: ts, Value: payload},
	}}
}

// TestRowCacheMemory loads harness-shaped rows into a cache that holds
// them all and checks that an entry costs what the budget counts (the
// heap grows by the cache's bytes, within a tolerance) and that this is
// small: the harness's 1M rows must fit in a 256 MiB cache.
func TestRowCacheMemory(t *testing.T) {
	n := 200_000
	if !testing.Short() && !raceEnabled {
		n = 1_000_000 // the harness table
	}
	tb := &table{id: 1}
	tb.fs.Store(newFamSet([]kv.Family{{Name: "d"}, {Name: "p"}}))
	fams := tb.families().fams
	rows := make([]kv.Row, n)
	for i := range rows {
		rows[i] = harnessRow(i)
	}
	o := &kv.ReadOptions{}
	var before, after runtime.MemStats
	c := newRowCache(1<<30, 0) // its fixed part (lastWrite slots) is not counted
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range rows {
		c.put(tb, &rows[i], 1, o, fams)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	st := c.stats()
	if st.entries != int64(n) {
		t.Fatalf("%d entries, want %d", st.entries, n)
	}
	heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	per := float64(st.bytes) / float64(n)
	t.Logf("%d entries: %d bytes counted (%.1f per entry), heap grew %d (%.1f per entry)", n, st.bytes, per, heap, float64(heap)/float64(n))
	if d := float64(heap-st.bytes) / float64(st.bytes); d > 0.05 || d < -0.05 {
		t.Errorf("heap grew %d bytes, the cache counts %d (%.1f%% off)", heap, st.bytes, 100*d)
	}
	if per > 150 {
		t.Errorf("%.1f bytes per harness entry, want at most 150", per)
	}
	for i := range rows {
		h, ok := c.get(1, rows[i].Key, 1, o, true)
		if !ok {
			t.Fatalf("row %d missing", i)
		}
		var r rowReader
		h.emit(&r)
		if !rcRowEqual(&r.row, &rows[i]) {
			t.Fatalf("row %d: got %+v, want %+v", i, r.row, rows[i])
		}
		if i > 1000 {
			break
		}
	}
	runtime.KeepAlive(c)
}

// TestRowCacheMemoryBudget fills a small cache far beyond its budget: it
// evicts, stays within the budget, and the heap it holds is what it
// counts.
func TestRowCacheMemoryBudget(t *testing.T) {
	const budget = 4 << 20
	tb := &table{id: 1}
	tb.fs.Store(newFamSet([]kv.Family{{Name: "d"}, {Name: "p"}}))
	fams := tb.families().fams
	o := &kv.ReadOptions{}
	var before, after runtime.MemStats
	c := newRowCache(budget, 0)
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range 200_000 {
		row := harnessRow(i)
		c.put(tb, &row, 1, o, fams)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	st := c.stats()
	heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d entries, %d bytes counted, heap grew %d", st.entries, st.bytes, heap)
	if st.bytes > budget || st.evictions == 0 || st.entries < budget/200 {
		t.Fatalf("stats %+v", st)
	}
	if d := float64(heap-st.bytes) / float64(st.bytes); d > 0.1 || d < -0.1 {
		t.Errorf("heap grew %d bytes, the cache counts %d (%.1f%% off)", heap, st.bytes, 100*d)
	}
	runtime.KeepAlive(c)
}

func rcRowEqual(a, b *kv.Row) bool {
	if string(a.Key) != string(b.Key) || len(a.Cells) != len(b.Cells) {
		return false
	}
	for i := range a.Cells {
		x, y := &a.Cells[i], &b.Cells[i]
		if x.Family != y.Family || string(x.Qualifier) != string(y.Qualifier) || x.Timestamp != y.Timestamp || string(x.Value) != string(y.Value) {
			return false
		}
	}
	return true
}

// TestRowCacheHashCollision: entries are found by hash, then their table
// and key are compared: an entry of another key with the same tag in the
// probe run is skipped, and removing one leaves the other findable.
func TestRowCacheHashCollision(t *testing.T) {
	tb := &table{id: 1}
	tb.fs.Store(newFamSet([]kv.Family{{Name: "d"}, {Name: "p"}}))
	fams := tb.families().fams
	c := newRowCache(1<<20, 0)
	a, b := harnessRow(1), harnessRow(2)
	o := &kv.ReadOptions{}
	c.put(tb, &a, 1, o, fams)
	ha, hb := c.hash(1, a.Key), c.hash(1, b.Key)
	sh := c.shard(ha)
	// Plant b's entry under a's hash, ahead of a's in the probe run.
	sh.mu.Lock()
	e, ok := encodeEntry(&b, 1, fams, sh.last)
	if !ok {
		t.Fatal("b not encodable")
	}
	id, ok := sh.room(c, len(e))
	if !ok {
		t.Fatal("no room for b")
	}
	lb := locOf(id, len(sh.slabs[id]))
	sh.slabs[id] = append(sh.slabs[id], e...)
	i := sh.find(ha, 1, a.Key)
	la := sh.locs[i]
	sh.tags[i], sh.locs[i] = tagOf(ha), lb
	sh.insert(tagOf(ha), la)
	sh.mu.Unlock()
	for _, k := range []struct {
		row  *kv.Row
		h    uint64
		want bool
	}{{&a, ha, true}, {&b, ha, true}, {&b, hb, false}} {
		sh.mu.Lock()
		i := sh.find(k.h, 1, k.row.Key)
		sh.mu.Unlock()
		if (i >= 0) != k.want {
			t.Fatalf("find %x under %x: %d", k.row.Key, k.h, i)
		}
	}
	hit, ok := c.get(1, a.Key, 1, o, true)
	if !ok {
		t.Fatal("a missed")
	}
	var r rowReader
	hit.emit(&r)
	if !rcRowEqual(&r.row, &a) {
		t.Fatalf("a: got %+v", r.row)
	}
	if _, ok := c.get(2, a.Key, 1, o, true); ok {
		t.Fatal("a hit under another table")
	}
	// Removing b (under a's hash) leaves a.
	sh.mu.Lock()
	sh.remove(sh.find(ha, 1, b.Key))
	sh.mu.Unlock()
	if _, ok := c.get(1, a.Key, 1, o, true); !ok {
		t.Fatal("a missed after b's removal")
	}
}
