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
	c := newRowCache(512<<20, 0)
	fillHarnessRows(b, c, n)
	for b.Loop() {
		c.clearTable(2)
	}
	if st := c.stats(); st.entries != n {
		b.Fatalf("%d entries after clearing another table", st.entries)
	}
}

// fillHarnessRows puts n harness-shaped rows of table 1 (families d and
// p) into c, read at seq 1 with the default projection.
func fillHarnessRows(b *testing.B, c *rowCache, n int) {
	b.Helper()
	tb := &table{id: 1}
	tb.fs.Store(newFamSet([]kv.Family{{Name: "d"}, {Name: "p"}}))
	fams := tb.families().fams
	o := &kv.ReadOptions{}
	for i := range n {
		row := harnessRow(i)
		c.put(tb, &row, 1, o, fams)
	}
	if st := c.stats(); st.entries != int64(n) {
		b.Fatalf("%d entries cached, want %d", st.entries, n)
	}
}
