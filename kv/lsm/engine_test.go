package lsm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// TestVisibility checks the visibility rules on hand-built rows of one
// column: entries in key order, the snapshot, and the live timestamps.
func TestVisibility(t *testing.T) {
	set := func(ts int64, seq uint64) []byte {
		return ikey.Append(nil, []byte("r"), "f", []byte("q"), ts, seq, ikey.KindSet)
	}
	del := func(seq uint64, kind ikey.Kind) []byte {
		fam, qual := "f", []byte("q")
		switch kind {
		case ikey.KindDeleteRow:
			fam, qual = "", nil
		case ikey.KindDeleteFamily:
			qual = nil
		}
		return ikey.Append(nil, []byte("r"), fam, qual, ikey.TombstoneTS, seq, kind)
	}
	type ent struct {
		k, v []byte
	}
	cases := []struct {
		name    string
		entries []ent
		snap    uint64
		max     int
		want    []int64
	}{
		{"newest seq wins a timestamp", []ent{{set(2000, 5), nil}, {set(2000, 3), nil}}, 10, 3, []int64{2000}},
		{"snapshot hides later writes", []ent{{set(3000, 9), nil}, {set(2000, 3), nil}}, 5, 3, []int64{2000}},
		{"max versions", []ent{{set(3000, 1), nil}, {set(2000, 2), nil}, {set(1000, 3), nil}}, 10, 2, []int64{3000, 2000}},
		{"delete row then set", []ent{{del(4, ikey.KindDeleteRow), nil}, {set(1000, 5), nil}, {set(2000, 3), nil}}, 10, 3, []int64{1000}},
		{"tombstone after snapshot ignored", []ent{{del(8, ikey.KindDeleteFamily), nil}, {set(1000, 5), nil}}, 6, 3, []int64{1000}},
		{"family delete", []ent{{del(8, ikey.KindDeleteFamily), nil}, {set(1000, 5), nil}, {set(0, 9), nil}}, 10, 3, []int64{0}},
		{"cells delete range", []ent{{del(8, ikey.KindDeleteCells), ikey.AppendRange(nil, 1000, 3000)}, {set(3000, 1), nil}, {set(2000, 2), nil}, {set(1000, 9), nil}}, 10, 3, []int64{3000, 1000}},
		{"open-ended range", []ent{{del(8, ikey.KindDeleteCells), ikey.AppendRange(nil, 0, 0)}, {set(int64(kv.MaxTimestamp), 1), nil}}, 10, 3, nil},
	}
	for _, c := range cases {
		fams := []famInfo{{name: "f", esc: ikey.AppendEscaped(nil, []byte("f")), maxVersions: c.max}}
		v := visibility{snap: c.snap, fams: fams}
		v.resetRow()
		var got []int64
		for _, e := range c.entries {
			p, err := ikey.Parse(e.k)
			if err != nil {
				t.Fatal(err)
			}
			verdict, err := v.step(&p, e.v)
			if err != nil {
				t.Fatal(err)
			}
			if verdict == live {
				got = append(got, p.TS)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: live %v, want %v", c.name, got, c.want)
		}
	}
}

func put(t testing.TB, tbl kv.Table, key string, val string) {
	t.Helper()
	err := tbl.Apply(context.Background(), []kv.RowMutation{{Key: []byte(key), Mutations: []kv.Mutation{
		{Kind: kv.SetCell, Family: "f", Qualifier: []byte("q"), Timestamp: 1000, Value: []byte(val)}}}})
	if err != nil {
		t.Fatal(err)
	}
}

func scanKeys(t testing.TB, tbl kv.Table, reverse bool) []string {
	t.Helper()
	it := tbl.Read(context.Background(), kv.RowSet{}, kv.ReadOptions{Reverse: reverse})
	defer it.Close()
	var keys []string
	for it.Next() {
		keys = append(keys, string(it.Row().Key))
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return keys
}

// TestSplitAndScan loads enough rows to split regions, then checks full
// scans in both directions across regions, memtables and files, before and
// after a restart and a full compaction.
func TestSplitAndScan(t *testing.T) {
	ctx := context.Background()
	fs := vfs.NewMem()
	opts := Options{FS: fs, MemtableSize: 16 << 10, RegionSplitSize: 32 << 10, BlockSize: 512}
	s, err := Open("db", opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "f"}}, SplitKeys: [][]byte{[]byte("k5")}}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	const n = 2000
	for _, i := range rand.New(rand.NewPCG(1, 2)).Perm(n) {
		put(t, tbl, fmt.Sprintf("k%05d", i), fmt.Sprintf("%0200d", i))
	}
	check := func(what string) {
		t.Helper()
		fwd, rev := scanKeys(t, tbl, false), scanKeys(t, tbl, true)
		if len(fwd) != n || len(rev) != n {
			t.Fatalf("%s: %d rows forward, %d reverse; want %d", what, len(fwd), len(rev), n)
		}
		for i := range fwd {
			if fwd[i] != fmt.Sprintf("k%05d", i) || rev[n-1-i] != fwd[i] {
				t.Fatalf("%s: row %d is %q / %q", what, i, fwd[i], rev[n-1-i])
			}
		}
	}
	check("loaded")
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	regions, _ := s.Regions(ctx, "t")
	if len(regions) < 3 {
		t.Errorf("no split: %d regions", len(regions))
	}
	check("compacted")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open("db", opts); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tbl, _ = s.Table(ctx, "t")
	check("reopened")
}

// TestTornWALTail crashes with part of the unsynced WAL tail kept; the
// store must reopen with every acknowledged (synced) write.
func TestTornWALTail(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(20) {
		fs := vfs.NewMem()
		s, err := Open("db", Options{FS: fs})
		if err != nil {
			t.Fatal(err)
		}
		s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "f"}}})
		tbl, _ := s.Table(ctx, "t")
		for i := range 50 {
			put(t, tbl, fmt.Sprintf("k%03d", i), "v")
		}
		fs.CrashKeepPartial(rand.New(rand.NewPCG(seed, 7)))
		s.Close()
		if s, err = Open("db", Options{FS: fs}); err != nil {
			t.Fatalf("seed %d: reopen: %v", seed, err)
		}
		tbl, _ = s.Table(ctx, "t")
		if got := len(scanKeys(t, tbl, false)); got != 50 {
			t.Fatalf("seed %d: %d rows after crash, want 50", seed, got)
		}
		put(t, tbl, "after", "v")
		s.Close()
	}
}
