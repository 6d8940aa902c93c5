package lsm

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/widesql/widesql/kv"
)

// The tests of what a read reuses from one read to the next (readBufs:
// the snapshot's slices, the column table, the family mask, the scan's
// sort scratch; RowSet.Spans' buffer): each checks that a read on reused
// state sees exactly what a read on fresh state sees, and that released
// state holds nothing alive.

// reuseStore is a store with table "t" (families a, b; three regions,
// three flushed files per family and region, and a memtable) and table
// "u" (family a; one region, one file), and the rows it wrote.
func reuseStore(t *testing.T) (*Store, kv.Table, kv.Table) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(t.TempDir(), Options{NoSync: true, BlockSize: 512})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	spec := kv.TableSpec{Families: []kv.Family{{Name: "a"}, {Name: "b"}},
		SplitKeys: [][]byte{[]byte("k100"), []byte("k200")}}
	if err := s.CreateTable(ctx, "t", spec); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTable(ctx, "u", kv.TableSpec{Families: []kv.Family{{Name: "a"}}}); err != nil {
		t.Fatal(err)
	}
	tt, _ := s.Table(ctx, "t")
	tu, _ := s.Table(ctx, "u")
	for round := range 4 {
		var batch []kv.RowMutation
		for i := round; i < 300; i += 4 {
			m := kv.RowMutation{Key: fmt.Appendf(nil, "k%03d", i)}
			for q := range 3 {
				for _, fam := range []string{"a", "b"} {
					m.Mutations = append(m.Mutations, kv.Mutation{Kind: kv.SetCell, Family: fam,
						Qualifier: fmt.Appendf(nil, "q%d", q), Timestamp: kv.Timestamp(1000 * (1 + round)),
						Value: fmt.Appendf(nil, "%s%d.%d", fam, i, q)})
				}
			}
			batch = append(batch, m)
		}
		if err := tt.Apply(ctx, batch); err != nil {
			t.Fatal(err)
		}
		if round == 0 {
			if err := tu.Apply(ctx, []kv.RowMutation{{Key: []byte("x"), Mutations: []kv.Mutation{
				{Kind: kv.SetCell, Family: "a", Qualifier: []byte("q"), Timestamp: 1000, Value: []byte("u")}}}}); err != nil {
				t.Fatal(err)
			}
		}
		if round < 3 {
			if err := s.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	return s, tt, tu
}

// fileRefs returns the refs of every file of tables t and u.
func fileRefs(s *Store, tables ...kv.Table) map[*fileMeta]int32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := map[*fileMeta]int32{}
	for _, h := range tables {
		for _, r := range h.(*Table).t.regions {
			for _, fs := range r.state.files {
				for _, f := range fs {
					m[f] = f.refs.Load()
				}
			}
		}
	}
	return m
}

// TestAcquireIntoReuse checks that a snapshot taken into a released one
// (readBufs.snap) equals a fresh one, whatever the released one held, and
// that release leaves it holding no file, memtable or region, and every
// ref given back.
func TestAcquireIntoReuse(t *testing.T) {
	s, tt, tu := reuseStore(t)
	before := fileRefs(s, tt, tu)
	full := []kv.Span{{}}
	point := []kv.Span{{Start: []byte("k150"), Point: true}}
	two := []kv.Span{{Start: []byte("k050"), Point: true}, {Start: []byte("k250"), Point: true}}
	type read struct {
		h    kv.Table
		sp   []kv.Span
		mask []bool
	}
	reads := []read{
		{tt, full, nil}, {tu, full, nil}, {tt, point, []bool{false, true}}, {tt, two, nil},
		{tt, full, []bool{true, false}}, {tu, point, nil}, {tt, full, nil},
	}
	var rs readSnap // reused by every read
	for i, r := range reads {
		tb := r.h.(*Table).t
		s.mu.Lock()
		seq := s.visibleSeq.Load()
		got := s.acquireInto(&rs, tb, r.sp, r.mask, seq)
		want := s.acquireLocked(tb, r.sp, r.mask, seq)
		s.mu.Unlock()
		if got != &rs {
			t.Fatalf("read %d: acquireInto returned another snapshot", i)
		}
		if got.seq != want.seq || len(got.regions) != len(want.regions) {
			t.Fatalf("read %d: seq %d, %d regions; want seq %d, %d regions", i, got.seq, len(got.regions), want.seq, len(want.regions))
		}
		for j := range want.regions {
			g, w := got.regions[j], want.regions[j]
			if g.r != w.r || g.st != w.st || !slices.Equal(g.files, w.files) {
				t.Fatalf("read %d region %d: got %p %p %d files, want %p %p %d files", i, j, g.r, g.st, len(g.files), w.r, w.st, len(w.files))
			}
		}
		s.release(want)
		s.release(got)
		for j, r := range rs.regions[:cap(rs.regions)] {
			if r.r != nil || r.st != nil || len(r.files) != 0 || slices.ContainsFunc(r.files[:cap(r.files)], func(f *fileMeta) bool { return f != nil }) {
				t.Fatalf("read %d: released region slot %d still holds its region, state or files", i, j)
			}
		}
	}
	if after := fileRefs(s, tt, tu); !mapsEqual(before, after) {
		t.Fatalf("file refs changed: before %v, after %v", before, after)
	}
	s.mu.Lock()
	n := len(s.snapshots)
	s.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d snapshots still registered", n)
	}
}

func mapsEqual(a, b map[*fileMeta]int32) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestAppendRunsScratch checks that appendRuns gives the same runs with
// a scratch slice left with other files as with none, and returns the
// scratch empty and cleared.
func TestAppendRunsScratch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	mk := func(lo, hi int) *fileMeta {
		return &fileMeta{smallest: fmt.Appendf(nil, "%04d", lo), largest: fmt.Appendf(nil, "%04d", hi)}
	}
	var scratch []*fileMeta
	for range 200 {
		files := make([]*fileMeta, 1+rng.IntN(8))
		for i := range files {
			lo := rng.IntN(1000)
			files[i] = mk(lo, lo+rng.IntN(300))
		}
		// Dirty the scratch as a buggy caller would leave it.
		scratch = append(scratch[:0], mk(0, 9999), mk(5, 6))
		want, _ := appendRuns(nil, files, nil)
		var got []runIter
		got, scratch = appendRuns(nil, files, scratch)
		if len(scratch) != 0 || slices.ContainsFunc(scratch[:cap(scratch)], func(f *fileMeta) bool { return f != nil }) {
			t.Fatalf("scratch returned with files: %d, %v", len(scratch), scratch[:cap(scratch)])
		}
		if len(got) != len(want) {
			t.Fatalf("%d runs, want %d", len(got), len(want))
		}
		for i := range want {
			if !slices.Equal(got[i].files, want[i].files) {
				t.Fatalf("run %d: %v, want %v", i, got[i].files, want[i].files)
			}
		}
	}
}

// TestReadReuseMatchesFresh runs reads of different shapes one after the
// other, so that each starts on the buffers the one before left in the
// pool (a column table, a family mask, a snapshot of other regions and
// files), and checks every answer against the rows of a full read
// filtered here.
func TestReadReuseMatchesFresh(t *testing.T) {
	_, tt, tu := reuseStore(t)
	ctx := context.Background()
	all := readRows(t, tt.Read(ctx, kv.RowSet{}, kv.ReadOptions{}))
	if len(all) != 300 {
		t.Fatalf("%d rows, want 300", len(all))
	}
	// want filters all: rows lo..hi-1 with the cells whose "fam/qual"
	// keep accepts.
	want := func(lo, hi int, keep func(fq string) bool) []string {
		var out []string
		for _, row := range all[lo:hi] {
			key, cells, _ := strings.Cut(row, ":")
			s := key + ":"
			for _, c := range strings.Fields(cells) {
				if keep(c[:strings.IndexByte(c, '@')]) {
					s += " " + c
				}
			}
			if s != key+":" {
				out = append(out, s)
			}
		}
		return out
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 400 {
		lo := rng.IntN(290)
		hi := lo + 1 + rng.IntN(min(120, 300-lo))
		rs := kv.RowSet{Ranges: []kv.KeyRange{{Start: fmt.Appendf(nil, "k%03d", lo), End: fmt.Appendf(nil, "k%03d", hi)}}}
		var opts kv.ReadOptions
		keep := func(string) bool { return true }
		switch rng.IntN(5) {
		case 0: // every family
		case 1:
			opts.Families = []string{"b"}
			keep = func(fq string) bool { return fq[0] == 'b' }
		case 2:
			opts.Columns = []kv.Column{{Family: "a", Qualifier: []byte("q1")}, {Family: "b", Qualifier: []byte("q2")}, {Family: "a", Qualifier: []byte("q0")}}
			keep = func(fq string) bool { return fq == "a/q0" || fq == "a/q1" || fq == "b/q2" }
		case 3:
			opts.Columns = []kv.Column{{Family: "b", Qualifier: []byte("q0")}}
			keep = func(fq string) bool { return fq == "b/q0" }
		case 4: // another table in between
			if got := readRows(t, tu.Read(ctx, kv.RowSet{}, kv.ReadOptions{Columns: []kv.Column{{Family: "a", Qualifier: []byte("q")}}})); len(got) != 1 || got[0] != "x: a/q@1000=u" {
				t.Fatalf("read %d of u: %q", i, got)
			}
			continue
		}
		got := readRows(t, tt.Read(ctx, rs, opts))
		if w := want(lo, hi, keep); !slices.Equal(got, w) {
			t.Fatalf("read %d [%d, %d) %+v:\n got %q\nwant %q", i, lo, hi, opts, got, w)
		}
	}
}

// TestReadReuseBytes guards the column table's bytes: a read's cells
// point at its qualifiers, so reusing them must not change a row of
// the read that built them while it runs.
func TestReadReuseBytes(t *testing.T) {
	_, tt, _ := reuseStore(t)
	ctx := context.Background()
	opts := kv.ReadOptions{Columns: []kv.Column{{Family: "a", Qualifier: []byte("q1")}}}
	it := tt.Read(ctx, kv.RowSet{}, opts)
	defer it.Close()
	for n := 0; it.Next(); n++ {
		row := it.Row()
		// A second read with other columns, between two rows of the first.
		other := readRows(t, tt.Read(ctx, kv.RowSet{Keys: [][]byte{[]byte("k007")}},
			kv.ReadOptions{Columns: []kv.Column{{Family: "b", Qualifier: []byte("q2")}}}))
		if len(other) != 1 || !strings.HasSuffix(other[0], "b7.2") {
			t.Fatalf("other read: %q", other)
		}
		if len(row.Cells) != 1 || !bytes.Equal(row.Cells[0].Qualifier, []byte("q1")) || row.Cells[0].Family != "a" {
			t.Fatalf("row %d: %+v", n, row.Cells)
		}
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
}
