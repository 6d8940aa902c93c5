package lsm

import (
	"testing"

	"github.com/widesql/widesql/kv"
)

// BenchmarkRowCacheClearOther is what a bulk ingest into a table with no
// cached rows (a fresh COPY target) costs the row cache when it holds the
// harness's 1M rows of another table: clearTable runs under the commit
// mutex, so every write of the store waits for it.
func BenchmarkRowCacheClearOther(b *testing.B) {
	const n = 1_000_000
	tb := &table{id: 1}
	tb.fs.Store(newFamSet([]kv.Family{{Name: "d"}, {Name: "p"}}))
	fams := tb.families().fams
	o := &kv.ReadOptions{}
	c := newRowCache(512<<20, 0)
	for i := range n {
		row := harnessRow(i)
		c.put(tb, &row, 1, o, fams)
	}
	for b.Loop() {
		c.clearTable(2)
	}
	if st := c.stats(); st.entries != n {
		b.Fatalf("%d entries after clearing another table", st.entries)
	}
}
