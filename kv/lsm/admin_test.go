package lsm

import (
	"context"
	"fmt"
	"testing"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/internal/kvtest"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

func TestRegionLoad(t *testing.T) {
	s := mustOpen(t, vfs.NewMem())
	defer s.Close()
	kvtest.RunRegionLoad(t, s)
}

func TestMultiRead(t *testing.T) {
	s := mustOpen(t, vfs.NewMem())
	defer s.Close()
	ctx := context.Background()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "f"}}}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	kvtest.RunMultiRead(t, tbl)
}

// TestBloomNone: a family with Bloom "none" writes files without a bloom
// block (every probe says "maybe"); "row" (and "") write one, which rules
// out absent rows. SetFamilies changes it for files written later.
func TestBloomNone(t *testing.T) {
	s := mustOpen(t, vfs.NewMem())
	defer s.Close()
	ctx := context.Background()
	spec := kv.TableSpec{Families: []kv.Family{{Name: "a", Bloom: "none"}, {Name: "b", Bloom: "row"}, {Name: "c"}}}
	if err := s.CreateTable(ctx, "t", spec); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	write := func(prefix string) {
		var batch []kv.RowMutation
		for i := range 50 {
			rm := kv.RowMutation{Key: fmt.Appendf(nil, "%s%03d", prefix, i)}
			for _, f := range []string{"a", "b", "c"} {
				rm.Mutations = append(rm.Mutations, kv.Mutation{Kind: kv.SetCell, Family: f, Qualifier: []byte("q"), Timestamp: 1000})
			}
			batch = append(batch, rm)
		}
		if err := tbl.Apply(ctx, batch); err != nil {
			t.Fatal(err)
		}
		if err := s.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// filtered reports, per family, whether the newest file rules out some
	// of 100 absent rows.
	filtered := func() string {
		s.mu.Lock()
		defer s.mu.Unlock()
		tb := s.tables["t"]
		out := ""
		for fi, f := range tb.families().fams {
			files := tb.regions[0].state.files[fi]
			newest := files[len(files)-1]
			rules := false
			for i := range 100 {
				rules = rules || !newest.reader.MayContain(keyPrefix(fmt.Sprintf("absent%03d", i)))
			}
			out += fmt.Sprintf("%s:%v ", f.name, rules)
		}
		return out
	}
	write("k")
	if got, want := filtered(), "a:false b:true c:true "; got != want {
		t.Fatalf("bloom filters: %s, want %s", got, want)
	}
	if err := s.SetFamilies(ctx, "t", []kv.Family{{Name: "a"}, {Name: "b", Bloom: "none"}}); err != nil {
		t.Fatal(err)
	}
	write("m")
	if got, want := filtered(), "a:true b:false c:true "; got != want {
		t.Fatalf("bloom filters after SetFamilies: %s, want %s", got, want)
	}
}

func keyPrefix(row string) []byte { return ikey.RowPrefix(nil, []byte(row)) }

// TestAdminPersists: Split with data in the memtable, in an immutable
// memtable and in files, and SetFamilies adding a family that sorts
// first (which renumbers every region's file lists), keep every row
// through flush, compaction and restart.
func TestAdminPersists(t *testing.T) {
	fs := vfs.NewMem()
	s := mustOpen(t, fs)
	ctx := context.Background()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "m", MaxVersions: 2}}}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	put := func(fam string, from, to int, ts kv.Timestamp) {
		t.Helper()
		var batch []kv.RowMutation
		for i := from; i < to; i++ {
			batch = append(batch, kv.RowMutation{Key: fmt.Appendf(nil, "k%03d", i), Mutations: []kv.Mutation{
				{Kind: kv.SetCell, Family: fam, Qualifier: []byte("q"), Timestamp: ts, Value: fmt.Appendf(nil, "%s%d", fam, ts)}}})
		}
		if err := tbl.Apply(ctx, batch); err != nil {
			t.Fatal(err)
		}
	}
	check := func(stage string, wantRegions int) {
		t.Helper()
		it := tbl.Read(ctx, kv.RowSet{}, kv.ReadOptions{MaxVersions: 5})
		defer it.Close()
		n := 0
		for it.Next() {
			r := it.Row()
			want := fmt.Sprintf("%s: [a:a3000 m:m2000 m:m1000]", r.Key)
			if int(r.Key[1]-'0')*100+int(r.Key[2]-'0')*10+int(r.Key[3]-'0') >= 50 {
				want = fmt.Sprintf("%s: [m:m2000 m:m1000]", r.Key)
			}
			got := fmt.Sprintf("%s: [", r.Key)
			for i, c := range r.Cells {
				if i > 0 {
					got += " "
				}
				got += fmt.Sprintf("%s:%s", c.Family, c.Value)
			}
			if got += "]"; got != want {
				t.Errorf("%s: %s, want %s", stage, got, want)
			}
			n++
		}
		if it.Err() != nil || n != 100 {
			t.Fatalf("%s: %d rows, err %v", stage, n, it.Err())
		}
		regions, err := s.Regions(ctx, "t")
		if err != nil || len(regions) != wantRegions {
			t.Fatalf("%s: %d regions, err %v", stage, len(regions), err)
		}
	}
	put("m", 0, 100, 1000)
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	put("m", 0, 100, 2000)
	// Freeze the memtable as a failed flush leaves it: Split divides it.
	r0 := s.tables["t"].regions[0]
	if _, err := s.freeze(r0); err != nil {
		t.Fatal(err)
	}
	if err := s.Split(ctx, "t", [][]byte{[]byte("k050"), []byte("k020"), []byte("k020")}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetFamilies(ctx, "t", []kv.Family{{Name: "a"}}); err != nil {
		t.Fatal(err)
	}
	put("a", 0, 50, 3000)
	check("split", 3)
	var err error
	if s, err = restart(s, fs); err != nil {
		t.Fatal(err)
	}
	tbl, _ = s.Table(ctx, "t")
	check("restarted", 3)
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	check("compacted", 3)
	if s, err = restart(s, fs); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tbl, _ = s.Table(ctx, "t")
	check("restarted after compaction", 3)
}

// TestAdminConcurrent runs Split and SetFamilies (adding families that
// sort before and after the others) against concurrent writes, reads,
// flushes and compactions, then checks every row's last value. Run it
// with -race.
func TestAdminConcurrent(t *testing.T) {
	s := mustOpen(t, vfs.NewMem())
	defer s.Close()
	ctx := context.Background()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "m"}}}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	const writers, rows, rounds = 4, 200, 30
	done := make(chan error, writers+2)
	for w := range writers {
		go func() {
			for i := range rounds {
				var batch []kv.RowMutation
				for k := w; k < rows; k += writers {
					batch = append(batch, kv.RowMutation{Key: fmt.Appendf(nil, "k%04d", k), Mutations: []kv.Mutation{
						{Kind: kv.SetCell, Family: "m", Qualifier: []byte("q"), Timestamp: kv.Timestamp(1000 * (i + 1)), Value: fmt.Appendf(nil, "%d", i)}}})
				}
				if err := tbl.Apply(ctx, batch); err != nil {
					done <- err
					return
				}
				it := tbl.Read(ctx, kv.RowSet{}, kv.ReadOptions{Families: []string{"m"}})
				for it.Next() {
				}
				it.Close()
				if err := it.Err(); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	go func() {
		for i := range rounds {
			fam := fmt.Sprintf("%c%d", "az"[i%2], i)
			if err := s.SetFamilies(ctx, "t", []kv.Family{{Name: fam}, {Name: "m", MaxVersions: 1 + i%3}}); err != nil {
				done <- err
				return
			}
			if err := s.Split(ctx, "t", [][]byte{fmt.Appendf(nil, "k%04d", (i*37)%rows)}); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	go func() {
		for range rounds / 3 {
			if err := s.Flush(ctx); err != nil {
				done <- err
				return
			}
			if err := s.Compact(ctx); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for range writers + 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	it := tbl.Read(ctx, kv.RowSet{}, kv.ReadOptions{})
	defer it.Close()
	n := 0
	for it.Next() {
		r := it.Row()
		if len(r.Cells) != 1 || string(r.Cells[0].Value) != fmt.Sprint(rounds-1) {
			t.Fatalf("row %s: %v", r.Key, r.Cells)
		}
		n++
	}
	if it.Err() != nil || n != rows {
		t.Fatalf("%d rows, err %v", n, it.Err())
	}
}
