package lsm

import (
	"context"
	"fmt"
	"testing"

	"github.com/widesql/widesql/kv"
)

// TestRowCacheMultiGetCounts: every point a read looks up in the row
// cache counts once, as a hit or a miss. A multi-get whose rows are not
// all cached falls back from the cache (probeCacheMany) to the normal
// path, which looks each point up again: the probe's hits used to be
// counted there a second time.
func TestRowCacheMultiGetCounts(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "a"}}}); err != nil {
		t.Fatal(err)
	}
	h, _ := s.Table(ctx, "t")
	key := func(i int) []byte { return fmt.Appendf(nil, "k%d", i) }
	for i := range 5 {
		if err := h.Apply(ctx, []kv.RowMutation{{Key: key(i), Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "a", Qualifier: []byte("x"), Timestamp: 1000, Value: fmt.Appendf(nil, "v%d", i)}}}}); err != nil {
			t.Fatal(err)
		}
	}
	get := func(keys ...int) int {
		var rs kv.RowSet
		for _, k := range keys {
			rs.Keys = append(rs.Keys, key(k))
		}
		return len(readRows(t, h.Read(ctx, rs, kv.ReadOptions{})))
	}
	for i := range 3 {
		get(i) // a miss, and the row is cached
	}
	steps := []struct {
		name         string
		keys         []int
		hits, misses int64
	}{
		{"cached", []int{0, 1, 2}, 3, 0},        // served whole from the cache
		{"fallback", []int{0, 1, 3}, 2, 1},      // 0 and 1 hit (once), 3 misses and is cached
		{"now cached", []int{0, 1, 3}, 3, 0},    // served whole
		{"absent", []int{0, 4, 9}, 1, 2},        // 4 is not cached yet (it is now), 9 is no row
		{"absent first", []int{-1, 2, 5}, 1, 2}, // "k-1" sorts first: the probe stops at once
		{"get", []int{4}, 1, 0},                 //
		{"get absent", []int{7}, 0, 1},          //
		{"all", []int{0, 1, 2, 3, 4}, 5, 0},     // served whole
		{"one absent", []int{1, 2, 8, 3}, 3, 1}, // "k8" sorts last: the probe's hits are 1, 2, 3
	}
	for _, st := range steps {
		m0 := s.Metrics()
		get(st.keys...)
		m := s.Metrics()
		if h, ms := m.RowCacheHits-m0.RowCacheHits, m.RowCacheMisses-m0.RowCacheMisses; h != st.hits || ms != st.misses {
			t.Errorf("%s %v: %d hits, %d misses; want %d, %d", st.name, st.keys, h, ms, st.hits, st.misses)
		}
	}
}
