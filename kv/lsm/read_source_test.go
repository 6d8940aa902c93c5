package lsm

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/widesql/widesql/kv"
)

// TestFileScanDifferential checks the file path of a row read (cellSource
// in read_source.go: the file's iterator called directly, the row and the
// family recognised from the block's shared-prefix lengths) against the
// memtable path, on the same mutations: rowkeys, family names and
// qualifiers that are prefixes of one another and contain zero bytes (so
// neighbouring keys share much of their row or family part), with
// versions, DeleteCells, DeleteFamily and DeleteRow tombstones. One store
// keeps everything in its memtable, the other flushes it into one file per
// family; every read shape returns the same rows from both.
//
// The variants over two families read merges of two inputs, which skip
// comparisons by the shared-prefix lengths of their inputs (mergingIter's
// lcp, iter.go): "runs" flushes the rows in two phases of disjoint rowkeys
// (each family's two files form one run), "runs+mem" leaves a third
// phase of mutations of any row in the memtable.
func TestFileScanDifferential(t *testing.T) {
	three := []kv.Family{{Name: "d", MaxVersions: 2}, {Name: "dd", MaxVersions: 1}, {Name: "e", MaxVersions: 3}}
	two := []kv.Family{{Name: "d", MaxVersions: 2}, {Name: "dd", MaxVersions: 1}}
	t.Run("one flush", func(t *testing.T) { fileScanDifferential(t, three, 1, false) })
	t.Run("runs", func(t *testing.T) { fileScanDifferential(t, two, 2, false) })
	t.Run("runs+mem", func(t *testing.T) { fileScanDifferential(t, two, 2, true) })
}

// fileScanDifferential applies random mutations to a store that keeps
// them in its memtable and to one that flushes them (in phases flushes
// phases of disjoint rows, then with mem a last phase of any row left in
// the memtable), and compares random reads of both.
func fileScanDifferential(t *testing.T, fams []kv.Family, phases int, mem bool) {
	ctx := context.Background()
	rows := [][]byte{[]byte("a"), {'a', 0}, {'a', 0, 'b'}, []byte("ab"), {'a', 0, 0}, []byte("b")}
	quals := [][]byte{nil, {0}, []byte("q"), {'q', 0}, []byte("qq")}
	sorted := slices.SortedFunc(slices.Values(rows), bytes.Compare)
	open := func() (*Store, kv.Table) {
		s, err := Open(t.TempDir(), Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: fams}); err != nil {
			t.Fatal(err)
		}
		tbl, err := s.Table(ctx, "t")
		if err != nil {
			t.Fatal(err)
		}
		return s, tbl
	}
	_, memT := open()
	file, fileT := open()
	rng := rand.New(rand.NewPCG(7, uint64(8+phases)))
	const steps = 600
	flushAt := map[int]bool{}
	for i := 1; i <= phases; i++ {
		flushAt[i*steps/phases-1] = true
	}
	if mem {
		delete(flushAt, steps-1)
		flushAt[steps*3/4-1] = true
	}
	for step := range steps {
		key := rows[rng.IntN(len(rows))]
		if !(mem && step >= steps*3/4) {
			// Phase i writes the i-th slice of the sorted rowkeys.
			phase := step * phases / steps
			lo, hi := phase*len(sorted)/phases, (phase+1)*len(sorted)/phases
			key = sorted[lo+rng.IntN(hi-lo)]
		}
		fam := fams[rng.IntN(len(fams))].Name
		q := quals[rng.IntN(len(quals))]
		ts := kv.Timestamp(1000 * (1 + rng.IntN(8)))
		var m kv.Mutation
		switch r := rng.IntN(100); {
		case r < 88:
			m = kv.Mutation{Kind: kv.SetCell, Family: fam, Qualifier: q, Timestamp: ts, Value: fmt.Appendf(nil, "v%d", step)}
		case r < 95:
			m = kv.Mutation{Kind: kv.DeleteCells, Family: fam, Qualifier: q, Start: ts, End: ts + 3000}
		case r < 98:
			m = kv.Mutation{Kind: kv.DeleteFamily, Family: fam}
		default:
			m = kv.Mutation{Kind: kv.DeleteRow}
		}
		for _, tbl := range []kv.Table{memT, fileT} {
			if err := tbl.Apply(ctx, []kv.RowMutation{{Key: key, Mutations: []kv.Mutation{m}}}); err != nil {
				t.Fatal(err)
			}
		}
		// A flush at each phase's end: one file per family, which
		// keeps the tombstones (a DeleteRow in every family's file,
		// before the row's cells). With mem, the last quarter stays in
		// the memtable.
		if flushAt[step] {
			if err := file.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	read := func(tbl kv.Table, rs kv.RowSet, o kv.ReadOptions) ([]string, kv.ReadStats) {
		it := tbl.Read(ctx, rs, o)
		defer it.Close()
		var out []string
		for it.Next() {
			out = append(out, formatRow(it.Row()))
		}
		if err := it.Err(); err != nil {
			t.Fatal(err)
		}
		return out, it.Stats()
	}
	nonEmpty := 0
	for range 400 {
		var rs kv.RowSet
		switch rng.IntN(3) {
		case 0:
			for _, k := range rows {
				if rng.IntN(2) == 0 {
					rs.Keys = append(rs.Keys, k)
				}
			}
			slices.SortFunc(rs.Keys, bytes.Compare)
		case 1:
			rs.Ranges = []kv.KeyRange{{Start: rows[rng.IntN(3)], End: rows[3+rng.IntN(3)]}}
		default:
			rs.Ranges = []kv.KeyRange{{}}
		}
		var o kv.ReadOptions
		o.MaxVersions = rng.IntN(4)
		switch rng.IntN(4) {
		case 0, 1:
			o.Families = []string{fams[rng.IntN(len(fams))].Name}
		case 2:
			o.Columns = []kv.Column{{Family: fams[rng.IntN(len(fams))].Name, Qualifier: quals[rng.IntN(len(quals))]}}
		}
		if rng.IntN(4) == 0 {
			o.MinTimestamp = kv.Timestamp(1000 * (1 + rng.IntN(8)))
		}
		o.Reverse = rng.IntN(4) == 0
		if rng.IntN(4) == 0 {
			o.Limit = int64(1 + rng.IntN(3))
		}
		want, wst := read(memT, rs, o)
		got, gst := read(fileT, rs, o)
		if !slices.Equal(got, want) {
			t.Fatalf("rows %v opts %+v: from the file:\n%v\nfrom the memtable:\n%v", rs, o, got, want)
		}
		if gst.RowsRead != wst.RowsRead {
			t.Fatalf("rows %v opts %+v: stats %+v from the file, %+v from the memtable", rs, o, gst, wst)
		}
		if len(want) > 0 {
			nonEmpty++
		}
	}
	if nonEmpty < 200 {
		t.Fatalf("only %d of 400 reads returned rows", nonEmpty)
	}
}
