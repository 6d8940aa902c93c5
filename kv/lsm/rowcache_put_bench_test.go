package lsm

import (
	"testing"

	"github.com/widesql/widesql/kv"
)

// BenchmarkRowCachePut is a miss's cost in the cache: inserting a
// harness-shaped row into a full cache (16 MiB), evicting another, as
// when the working set is larger than the cache.
func BenchmarkRowCachePut(b *testing.B) {
	tb := &table{id: 1}
	tb.fs.Store(newFamSet([]kv.Family{{Name: "d"}, {Name: "p"}}))
	fams := tb.families().fams
	const n = 1 << 18
	rows := make([]kv.Row, n)
	for i := range rows {
		rows[i] = harnessRow(i)
	}
	c := newRowCache(16<<20, 0)
	o := &kv.ReadOptions{}
	for i := range rows {
		c.put(tb, &rows[i], 1, o, fams)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		c.put(tb, &rows[i*7919%n], 1, o, fams)
		i++
	}
	st := c.stats()
	if st.evictions == 0 {
		b.Fatalf("no evictions: %+v", st)
	}
	b.ReportMetric(float64(st.copied)/float64(b.N), "copiedB/op")
	b.ReportMetric(100*float64(st.dead)/float64(st.slabBytes), "dead%")
}
