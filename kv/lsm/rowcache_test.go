package lsm

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
)

// rcEnv is a store with one table "t" (families f and g) for the row
// cache's tests.
type rcEnv struct {
	t   *testing.T
	ctx context.Context
	s   *Store
	tbl kv.Table
}

func newRCEnv(t *testing.T, opts Options, fams ...kv.Family) *rcEnv {
	t.Helper()
	opts.NoSync = true
	s, err := Open(t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if len(fams) == 0 {
		fams = []kv.Family{{Name: "f"}, {Name: "g"}}
	}
	ctx := context.Background()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: fams}); err != nil {
		t.Fatal(err)
	}
	tbl, err := s.Table(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	return &rcEnv{t: t, ctx: ctx, s: s, tbl: tbl}
}

func rcSet(fam, q string, ts kv.Timestamp, v string) kv.Mutation {
	return kv.Mutation{Kind: kv.SetCell, Family: fam, Qualifier: []byte(q), Timestamp: ts, Value: []byte(v)}
}

func (e *rcEnv) apply(key string, ms ...kv.Mutation) {
	e.t.Helper()
	if err := e.tbl.Apply(e.ctx, []kv.RowMutation{{Key: []byte(key), Mutations: ms}}); err != nil {
		e.t.Fatal(err)
	}
}

func (e *rcEnv) flush() {
	e.t.Helper()
	if err := e.s.Flush(e.ctx); err != nil {
		e.t.Fatal(err)
	}
}

// rcFormat reads it to the end: the rows as text, and its stats.
func rcFormat(t *testing.T, it kv.RowIterator) (string, kv.ReadStats) {
	t.Helper()
	defer it.Close()
	out := ""
	for it.Next() {
		r := it.Row()
		out += string(r.Key) + ":"
		for _, c := range r.Cells {
			out += fmt.Sprintf(" %s/%s@%d=%s", c.Family, c.Qualifier, c.Timestamp, c.Value)
		}
		out += "\n"
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out, it.Stats()
}

// get reads keys with o and returns the rows and how many came from the
// cache.
func (e *rcEnv) get(o kv.ReadOptions, keys ...string) (string, int64) {
	e.t.Helper()
	rs := kv.RowSet{}
	for _, k := range keys {
		rs.Keys = append(rs.Keys, []byte(k))
	}
	out, st := rcFormat(e.t, e.tbl.Read(e.ctx, rs, o))
	return out, st.CacheHits
}

// expect reads keys twice: both reads return want, the second from the
// cache when cached.
func (e *rcEnv) expect(o kv.ReadOptions, cached bool, want string, keys ...string) {
	e.t.Helper()
	for i := range 2 {
		got, hits := e.get(o, keys...)
		if got != want {
			e.t.Fatalf("read %d of %q: got\n%swant\n%s", i, keys, got, want)
		}
		if wantHits := int64(0); i == 1 && cached {
			wantHits = int64(len(keys))
			if hits != wantHits {
				e.t.Fatalf("read %d of %q: %d cache hits, want %d", i, keys, hits, wantHits)
			}
		} else if !cached && hits != 0 {
			e.t.Fatalf("read %d of %q: %d cache hits, want none", i, keys, hits)
		}
	}
}

func TestRowCacheHitAfterMiss(t *testing.T) {
	e := newRCEnv(t, Options{})
	e.apply("a", rcSet("f", "q", 1000, "1"), rcSet("g", "", 1000, "x"))
	e.apply("b", rcSet("f", "q", 1000, "2"))
	e.flush()
	if got, hits := e.get(kv.ReadOptions{}, "a"); got != "a: f/q@1000=1 g/@1000=x\n" || hits != 0 {
		t.Fatalf("first read: %q, %d hits", got, hits)
	}
	e.expect(kv.ReadOptions{}, true, "a: f/q@1000=1 g/@1000=x\n", "a")
	e.expect(kv.ReadOptions{}, true, "a: f/q@1000=1 g/@1000=x\nb: f/q@1000=2\n", "a", "b")
	// An absent row is not cached; a present one beside it is.
	e.expect(kv.ReadOptions{}, false, "", "zz")
	got, hits := e.get(kv.ReadOptions{}, "a", "zz")
	if got != "a: f/q@1000=1 g/@1000=x\n" || hits != 1 {
		t.Fatalf("a, zz: %q, %d hits", got, hits)
	}
	m := e.s.Metrics()
	if m.RowCacheHits < 5 || m.RowCacheEntries != 2 || m.RowCacheBytes <= 0 || m.RowCacheInserts != 2 {
		t.Fatalf("metrics %+v", m)
	}
	// A caller may change the row it got: the cache keeps its own copy.
	it := e.tbl.Read(e.ctx, kv.RowSet{Keys: [][]byte{[]byte("a")}}, kv.ReadOptions{})
	for it.Next() {
		for _, c := range it.Row().Cells {
			clear(c.Value)
			clear(c.Qualifier)
		}
	}
	it.Close()
	e.expect(kv.ReadOptions{}, true, "a: f/q@1000=1 g/@1000=x\n", "a")
}

func TestRowCacheDisabled(t *testing.T) {
	e := newRCEnv(t, Options{RowCacheSize: -1})
	e.apply("a", rcSet("f", "q", 1000, "1"))
	e.expect(kv.ReadOptions{}, false, "a: f/q@1000=1\n", "a")
}

func TestRowCacheWriteThenRead(t *testing.T) {
	e := newRCEnv(t, Options{})
	e.apply("a", rcSet("f", "q", 1000, "1"))
	e.expect(kv.ReadOptions{}, true, "a: f/q@1000=1\n", "a")
	e.apply("a", rcSet("f", "q", 2000, "2"))
	e.expect(kv.ReadOptions{}, true, "a: f/q@2000=2\n", "a")
	e.apply("a", rcSet("f", "q", 2000, "3")) // the same version again
	e.expect(kv.ReadOptions{}, true, "a: f/q@2000=3\n", "a")
	e.apply("a", rcSet("g", "r", 1000, "4"))
	e.expect(kv.ReadOptions{}, true, "a: f/q@2000=3 g/r@1000=4\n", "a")
	e.apply("a", kv.Mutation{Kind: kv.DeleteCells, Family: "f", Qualifier: []byte("q"), Start: 2000, End: 3000})
	e.expect(kv.ReadOptions{}, true, "a: g/r@1000=4\n", "a") // f keeps 1 version: 1000 is gone
	e.apply("a", rcSet("f", "q", 1000, "1"))
	e.expect(kv.ReadOptions{}, true, "a: f/q@1000=1 g/r@1000=4\n", "a")
	e.apply("a", kv.Mutation{Kind: kv.DeleteFamily, Family: "g"})
	e.expect(kv.ReadOptions{}, true, "a: f/q@1000=1\n", "a")
	e.apply("a", kv.Mutation{Kind: kv.DeleteRow})
	e.expect(kv.ReadOptions{}, false, "", "a")
	e.apply("a", rcSet("f", "q", 1000, "5"))
	e.expect(kv.ReadOptions{}, true, "a: f/q@1000=5\n", "a")
}

// TestRowCacheOldSnapshotRefused: a read at a snapshot taken before a
// write, done after the write, must not insert its (old) row: a current
// read would find it.
func TestRowCacheOldSnapshotRefused(t *testing.T) {
	e := newRCEnv(t, Options{})
	e.apply("a", rcSet("f", "q", 1000, "1"))
	e.flush()
	e.get(kv.ReadOptions{}, "b") // makes the cache (else its floor refuses the snapshot's insert)
	snap, err := e.s.Snapshot(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Release()
	e.apply("a", rcSet("f", "q", 2000, "2"))
	for range 2 {
		got, st := rcFormat(t, snap.Read(e.ctx, "t", kv.RowSet{Keys: [][]byte{[]byte("a")}}, kv.ReadOptions{}))
		if got != "a: f/q@1000=1\n" || st.CacheHits != 0 {
			t.Fatalf("snapshot read: %q, %d hits", got, st.CacheHits)
		}
	}
	if m := e.s.Metrics(); m.RowCacheRefused == 0 || m.RowCacheEntries != 0 {
		t.Fatalf("metrics %+v", m)
	}
	e.expect(kv.ReadOptions{}, true, "a: f/q@2000=2\n", "a")
}

// TestRowCacheSnapshotOlderThanEntry: a snapshot older than an entry
// reads the files, not the entry.
func TestRowCacheSnapshotOlderThanEntry(t *testing.T) {
	e := newRCEnv(t, Options{})
	e.apply("a", rcSet("f", "q", 1000, "1"))
	snap, err := e.s.Snapshot(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Release()
	e.apply("a", rcSet("f", "q", 1000, "2"))
	e.expect(kv.ReadOptions{}, true, "a: f/q@1000=2\n", "a")
	got, _ := rcFormat(t, snap.Read(e.ctx, "t", kv.RowSet{Keys: [][]byte{[]byte("a")}}, kv.ReadOptions{}))
	if got != "a: f/q@1000=1\n" {
		t.Fatalf("snapshot read: %q", got)
	}
	// A snapshot taken after the entry was made uses it.
	snap2, err := e.s.Snapshot(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer snap2.Release()
	got, st := rcFormat(t, snap2.Read(e.ctx, "t", kv.RowSet{Keys: [][]byte{[]byte("a")}}, kv.ReadOptions{}))
	if got != "a: f/q@1000=2\n" || st.CacheHits != 1 {
		t.Fatalf("second snapshot read: %q, %d hits", got, st.CacheHits)
	}
}

func TestRowCacheProjections(t *testing.T) {
	e := newRCEnv(t, Options{})
	e.apply("a", rcSet("f", "q1", 1000, "1"), rcSet("f", "q2", 1000, "2"), rcSet("g", "q1", 1000, "3"))
	col := func(f, q string) kv.Column { return kv.Column{Family: f, Qualifier: []byte(q)} }
	for range 2 {
		e.expect(kv.ReadOptions{Columns: []kv.Column{col("f", "q1")}}, true, "a: f/q1@1000=1\n", "a")
		e.expect(kv.ReadOptions{Columns: []kv.Column{col("f", "q2")}}, true, "a: f/q2@1000=2\n", "a")
		e.expect(kv.ReadOptions{Columns: []kv.Column{col("f", "q2"), col("g", "q1")}}, true, "a: f/q2@1000=2 g/q1@1000=3\n", "a")
		e.expect(kv.ReadOptions{Families: []string{"g"}}, true, "a: g/q1@1000=3\n", "a")
		e.expect(kv.ReadOptions{Families: []string{"f"}, Columns: []kv.Column{col("g", "q1")}}, false, "", "a")
		e.expect(kv.ReadOptions{}, true, "a: f/q1@1000=1 f/q2@1000=2 g/q1@1000=3\n", "a")
	}
}

func TestRowCacheBypass(t *testing.T) {
	e := newRCEnv(t, Options{}, kv.Family{Name: "f", MaxVersions: 3})
	e.apply("a", rcSet("f", "q", 1000, "1"))
	e.apply("a", rcSet("f", "q", 2000, "2"))
	e.apply("a", rcSet("f", "q", 3000, "3"))
	e.expect(kv.ReadOptions{}, true, "a: f/q@3000=3\n", "a")
	e.expect(kv.ReadOptions{MaxVersions: 3}, false, "a: f/q@3000=3 f/q@2000=2 f/q@1000=1\n", "a")
	e.expect(kv.ReadOptions{MaxTimestamp: 3000}, false, "a: f/q@2000=2\n", "a")
	e.expect(kv.ReadOptions{MinTimestamp: 2000, MaxVersions: 1}, false, "a: f/q@3000=3\n", "a")
	e.expect(kv.ReadOptions{Reverse: true}, false, "a: f/q@3000=3\n", "a")
	e.expect(kv.ReadOptions{Essential: []string{"f"}}, false, "a: f/q@3000=3\n", "a")
	// MaxTimestamp at kv.MaxTimestamp means no bound: cached.
	e.expect(kv.ReadOptions{MaxTimestamp: kv.MaxTimestamp}, true, "a: f/q@3000=3\n", "a")
	// A range read does not use the cache.
	got, st := rcFormat(t, e.tbl.Read(e.ctx, kv.RowSet{Ranges: []kv.KeyRange{{Start: []byte("a"), End: []byte("b")}}}, kv.ReadOptions{}))
	if got != "a: f/q@3000=3\n" || st.CacheHits != 0 {
		t.Fatalf("range read: %q, %d hits", got, st.CacheHits)
	}
}

func TestRowCacheTTLFamily(t *testing.T) {
	e := newRCEnv(t, Options{}, kv.Family{Name: "f"}, kv.Family{Name: "g", TTL: time.Hour})
	now := kv.Now()
	e.apply("a", rcSet("f", "q", now, "1"), rcSet("g", "q", now, "2"))
	e.expect(kv.ReadOptions{Families: []string{"f"}}, false, fmt.Sprintf("a: f/q@%d=1\n", now), "a")
}

func TestRowCacheSetFamilies(t *testing.T) {
	e := newRCEnv(t, Options{})
	e.apply("a", rcSet("f", "q", 1000, "1"), rcSet("g", "q", kv.Now(), "2"))
	want := e.mustGet()
	e.expect(kv.ReadOptions{}, true, want, "a")
	// A TTL on g hides nothing new; one on f hides f's old cell.
	if err := e.s.SetFamilies(e.ctx, "t", []kv.Family{{Name: "f", TTL: time.Hour}}); err != nil {
		t.Fatal(err)
	}
	got, hits := e.get(kv.ReadOptions{}, "a")
	if hits != 0 || got == want {
		t.Fatalf("after SetFamilies: %q, %d hits", got, hits)
	}
	e.expect(kv.ReadOptions{Families: []string{"g"}}, false, got, "a")
	if err := e.s.SetFamilies(e.ctx, "t", []kv.Family{{Name: "f", TTL: 0}}); err != nil {
		t.Fatal(err)
	}
	e.expect(kv.ReadOptions{}, true, want, "a")
	// A family added (sorting first, so the others' indexes move):
	// SetFamilies empties the table's entries; new reads cache again.
	if err := e.s.SetFamilies(e.ctx, "t", []kv.Family{{Name: "a"}}); err != nil {
		t.Fatal(err)
	}
	if m := e.s.Metrics(); m.RowCacheEntries != 0 {
		t.Fatalf("entries after SetFamilies: %d", m.RowCacheEntries)
	}
	e.expect(kv.ReadOptions{}, true, want, "a")
	e.apply("a", rcSet("a", "q", 1000, "0"))
	e.expect(kv.ReadOptions{}, true, "a: a/q@1000=0 "+want[len("a: "):], "a")
}

func (e *rcEnv) mustGet() string {
	got, _ := e.get(kv.ReadOptions{}, "a")
	return got
}

func TestRowCacheIngest(t *testing.T) {
	e := newRCEnv(t, Options{})
	e.apply("a", rcSet("f", "q", 1000, "1"))
	e.expect(kv.ReadOptions{}, true, "a: f/q@1000=1\n", "a")
	snap, err := e.s.Snapshot(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Release()
	ing, err := e.tbl.(kv.Ingester).NewIngest(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := ing.Add(kv.RowMutation{Key: []byte("b"), Require: kv.RequireAbsent, Mutations: []kv.Mutation{rcSet("f", "q", 1000, "2")}}); err != nil {
		t.Fatal(err)
	}
	if err := ing.Commit(e.ctx); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		got, _ := rcFormat(t, snap.Read(e.ctx, "t", kv.RowSet{Keys: [][]byte{[]byte("a"), []byte("b")}}, kv.ReadOptions{}))
		if got != "a: f/q@1000=1\n" {
			t.Fatalf("snapshot read: %q", got)
		}
	}
	e.expect(kv.ReadOptions{}, true, "a: f/q@1000=1\nb: f/q@1000=2\n", "a", "b")
}

func TestRowCacheDropTable(t *testing.T) {
	e := newRCEnv(t, Options{})
	e.apply("a", rcSet("f", "q", 1000, "1"))
	e.expect(kv.ReadOptions{}, true, "a: f/q@1000=1\n", "a")
	old := e.tbl
	if err := e.s.DropTable(e.ctx, "t"); err != nil {
		t.Fatal(err)
	}
	it := old.Read(e.ctx, kv.RowSet{Keys: [][]byte{[]byte("a")}}, kv.ReadOptions{})
	if it.Next() || !errors.Is(it.Err(), kv.ErrTableNotFound) {
		t.Fatalf("read of a dropped table: %v", it.Err())
	}
	it.Close()
	if m := e.s.Metrics(); m.RowCacheEntries != 0 {
		t.Fatalf("entries after drop: %d", m.RowCacheEntries)
	}
	if err := e.s.CreateTable(e.ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "f"}}}); err != nil {
		t.Fatal(err)
	}
	if e.tbl, _ = e.s.Table(e.ctx, "t"); e.tbl == nil {
		t.Fatal("no table")
	}
	e.expect(kv.ReadOptions{}, false, "", "a")
	e.apply("a", rcSet("f", "q", 1000, "new"))
	e.expect(kv.ReadOptions{}, true, "a: f/q@1000=new\n", "a")
}

func TestRowCacheClose(t *testing.T) {
	e := newRCEnv(t, Options{})
	e.apply("a", rcSet("f", "q", 1000, "1"))
	e.expect(kv.ReadOptions{}, true, "a: f/q@1000=1\n", "a")
	e.s.Close()
	it := e.tbl.Read(e.ctx, kv.RowSet{Keys: [][]byte{[]byte("a")}}, kv.ReadOptions{})
	if it.Next() || !errors.Is(it.Err(), kv.ErrClosed) {
		t.Fatalf("read after Close: %v", it.Err())
	}
	it.Close()
}

func TestRowCacheEviction(t *testing.T) {
	const budget = 64 << 10
	e := newRCEnv(t, Options{RowCacheSize: budget})
	val := string(make([]byte, 100))
	const n = 2000
	key := func(i int) string { return fmt.Sprintf("k%05d", i) }
	for i := range n {
		e.apply(key(i), rcSet("f", "q", 1000, val+fmt.Sprint(i)))
	}
	e.flush()
	for round := range 2 {
		for i := range n {
			want := fmt.Sprintf("%s: f/q@1000=%s\n", key(i), val+fmt.Sprint(i))
			if got, _ := e.get(kv.ReadOptions{}, key(i)); got != want {
				t.Fatalf("round %d: read %s: %q", round, key(i), got)
			}
		}
	}
	m := e.s.Metrics()
	if m.RowCacheBytes > budget || m.RowCacheEvictions == 0 || m.RowCacheEntries == 0 || m.RowCacheEntries >= n {
		t.Fatalf("metrics %+v", m)
	}
	// A small hot set stays cached.
	for range 3 {
		for i := range 10 {
			e.get(kv.ReadOptions{}, key(i))
		}
	}
	for i := range 10 {
		if _, hits := e.get(kv.ReadOptions{}, key(i)); hits != 1 {
			t.Fatalf("hot key %d not cached", i)
		}
	}
}

func TestRowCacheStats(t *testing.T) {
	e := newRCEnv(t, Options{})
	for _, k := range []string{"a", "b", "c"} {
		e.apply(k, rcSet("f", "q", 1000, k))
	}
	e.get(kv.ReadOptions{}, "a")
	got, hits := e.get(kv.ReadOptions{}, "a", "b", "c")
	if hits != 1 || got != "a: f/q@1000=a\nb: f/q@1000=b\nc: f/q@1000=c\n" {
		t.Fatalf("a, b, c: %q, %d hits", got, hits)
	}
	it := e.tbl.Read(e.ctx, kv.RowSet{Keys: [][]byte{[]byte("a"), []byte("b"), []byte("c")}}, kv.ReadOptions{Limit: 2})
	out, st := rcFormat(t, it)
	if st.CacheHits != 2 || st.RowsRead != 2 || out != "a: f/q@1000=a\nb: f/q@1000=b\n" {
		t.Fatalf("limit 2: %q, %+v", out, st)
	}
	m := e.s.Metrics()
	if m.RowCacheInserts != 3 || m.RowCacheEntries != 3 {
		t.Fatalf("metrics %+v", m)
	}
}
