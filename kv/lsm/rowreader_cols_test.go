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

// TestProjectedReadsDifferential checks reads with a column projection,
// which collectOf matches with the sorted column table (buildCols,
// wantedCol) once a read is past its first rows and whose cells then
// point at the table's qualifiers, against the reference: the unprojected
// read of every version, filtered with kv.ReadOptions.Selects and cut to
// MaxVersions per column. The rows have three families, qualifiers with
// 0x00 bytes and qualifiers that are prefixes of one another, columns
// missing from some rows, several versions in the memtable and files,
// deletes, and values large enough to make the arena grow within a row;
// the projections list several families' columns, duplicates, unknown
// families and qualifiers, with time ranges, MaxVersions, Families,
// Essential families completed, Reverse and Limit.
func TestProjectedReadsDifferential(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { projectedDifferential(t, seed) })
	}
}

func projectedDifferential(t *testing.T, seed uint64) {
	after := colsAfter
	defer func() { colsAfter = after }()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, 7))
	s, err := Open(t.TempDir(), Options{NoSync: true, MaxFilesPerStore: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fams := []kv.Family{{Name: "a", MaxVersions: 1}, {Name: "b", MaxVersions: 3}, {Name: "c\x00", MaxVersions: 2}}
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: fams}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	quals := [][]byte{nil, {0}, {0, 0}, {0, 1}, {0, 0xff}, []byte("q"), []byte("q\x00"), []byte("q\x00r"), []byte("qq"), {1}, {0xff}}
	famNames := []string{"a", "b", "c\x00"}
	const nrows = 60
	row := func(i int) []byte { return fmt.Appendf(nil, "r%03d\x00", i) }
	for step := range 6 {
		var batch []kv.RowMutation
		for i := range nrows {
			if rng.IntN(3) == 0 {
				continue
			}
			var muts []kv.Mutation
			// A row of its own column set: some rows share one,
			// as a tall table's.
			set := rng.Uint32()
			if i%2 == 0 {
				set = 0x5a5a5a5a
			}
			for f, fam := range famNames {
				for q, qual := range quals {
					if set>>((f*11+q)%32)&1 == 0 || rng.IntN(4) == 0 {
						continue
					}
					v := make([]byte, rng.IntN(3)*rng.IntN(700))
					for j := range v {
						v[j] = byte(rng.Uint32())
					}
					muts = append(muts, kv.Mutation{Kind: kv.SetCell, Family: fam, Qualifier: qual,
						Timestamp: kv.Timestamp(1000 * (1 + rng.IntN(8))), Value: v})
				}
			}
			switch rng.IntN(12) {
			case 0:
				muts = append(muts, kv.Mutation{Kind: kv.DeleteRow})
			case 1:
				muts = append(muts, kv.Mutation{Kind: kv.DeleteFamily, Family: famNames[rng.IntN(3)]})
			case 2:
				muts = append(muts, kv.Mutation{Kind: kv.DeleteCells, Family: famNames[rng.IntN(3)],
					Qualifier: quals[rng.IntN(len(quals))], Start: 2000, End: kv.Timestamp(1000 * (3 + rng.IntN(6)) * rng.IntN(2))})
			}
			if len(muts) > 0 {
				batch = append(batch, kv.RowMutation{Key: row(i), Mutations: muts})
			}
		}
		if err := tbl.Apply(ctx, batch); err != nil {
			t.Fatal(err)
		}
		if step%2 == 0 {
			if err := s.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}

	all := readProjected(t, tbl, kv.RowSet{Ranges: []kv.KeyRange{{}}}, kv.ReadOptions{MaxVersions: 100})
	tabled := 0
	for range 300 {
		var o kv.ReadOptions
		for range 1 + rng.IntN(12) {
			fam := famNames[rng.IntN(3)]
			if rng.IntN(15) == 0 {
				fam = "zz" // no such family
			}
			q := quals[rng.IntN(len(quals))]
			if rng.IntN(15) == 0 {
				q = []byte("nope")
			}
			o.Columns = append(o.Columns, kv.Column{Family: fam, Qualifier: q})
		}
		if rng.IntN(4) == 0 {
			o.Families = []string{famNames[rng.IntN(3)], famNames[rng.IntN(3)]}
		}
		if rng.IntN(3) == 0 {
			o.MinTimestamp = kv.Timestamp(1000 * rng.IntN(5))
		}
		if rng.IntN(3) == 0 {
			o.MaxTimestamp = kv.Timestamp(1000 * (3 + rng.IntN(6)))
		}
		o.MaxVersions = rng.IntN(4)
		if rng.IntN(3) == 0 {
			o.Essential = []string{famNames[rng.IntN(3)]}
		}
		rs := kv.RowSet{Ranges: []kv.KeyRange{{}}}
		switch rng.IntN(4) {
		case 0:
			o.Reverse = true
		case 1:
			o.Limit = int64(1 + rng.IntN(6))
		case 2:
			lo := row(rng.IntN(nrows))
			rs = kv.RowSet{Ranges: []kv.KeyRange{{Start: lo}}}
		}
		got := readProjected(t, tbl, rs, o)
		colsAfter = 1 << 30
		plain := readProjected(t, tbl, rs, o)
		colsAfter = after
		if !rowsEqual(got, plain) {
			t.Fatalf("read %+v of %+v, with the column table and without:\n%s", o, rs, rowsDiff(got, plain))
		}
		if want := projectRef(all, rs, &o); !rowsEqual(got, want) {
			t.Fatalf("read %+v of %+v, and the reference:\n%s", o, rs, rowsDiff(got, want))
		}
		if int64(len(got)) > colsAfter {
			tabled++
		}
	}
	if tabled < 100 {
		t.Fatalf("only %d reads went past colsAfter rows", tabled)
	}
}

// readProjected reads rs with o, completing every row, and copies the rows.
func readProjected(t *testing.T, tbl kv.Table, rs kv.RowSet, o kv.ReadOptions) []kv.Row {
	t.Helper()
	return collectRows(t, tbl.Read(context.Background(), rs, o))
}

// collectRows reads it to the end, completing each row, and closes it;
// the rows are copies.
func collectRows(t *testing.T, it kv.RowIterator) []kv.Row {
	t.Helper()
	defer it.Close()
	var rows []kv.Row
	for it.Next() {
		if err := kv.CompleteRow(it); err != nil {
			t.Fatal(err)
		}
		r := it.Row()
		c := kv.Row{Key: bytes.Clone(r.Key)}
		for _, cell := range r.Cells {
			cell.Qualifier, cell.Value = bytes.Clone(cell.Qualifier), bytes.Clone(cell.Value)
			c.Cells = append(c.Cells, cell)
		}
		rows = append(rows, c)
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// projectRef applies rs's range, o's projection, time range, MaxVersions,
// Reverse and Limit to all (every live version of every row, in order).
func projectRef(all []kv.Row, rs kv.RowSet, o *kv.ReadOptions) []kv.Row {
	// A read with Essential families and others skips the rows with no
	// cell in the essential ones (kv/lazy.go; lazyMasks).
	var ess, lazy bool
	for _, f := range []string{"a", "b", "c\x00"} {
		selected := len(o.Families) == 0 || slices.Contains(o.Families, f)
		selected = selected && slices.ContainsFunc(o.Columns, func(c kv.Column) bool { return c.Family == f })
		if selected && slices.Contains(o.Essential, f) {
			ess = true
		} else if selected {
			lazy = true
		}
	}
	skipLazyOnly := ess && lazy && !o.Reverse
	var out []kv.Row
	for _, r := range all {
		if len(rs.Ranges) > 0 && bytes.Compare(r.Key, rs.Ranges[0].Start) < 0 {
			continue
		}
		var cells []kv.Cell
		n := 0
		for i, c := range r.Cells {
			if !o.Selects(&c) {
				continue
			}
			if i > 0 && len(cells) > 0 {
				last := cells[len(cells)-1]
				if last.Family == c.Family && bytes.Equal(last.Qualifier, c.Qualifier) {
					if n >= max(o.MaxVersions, 1) {
						continue
					}
					n++
					cells = append(cells, c)
					continue
				}
			}
			n = 1
			cells = append(cells, c)
		}
		if skipLazyOnly && !slices.ContainsFunc(cells, func(c kv.Cell) bool { return slices.Contains(o.Essential, c.Family) }) {
			continue
		}
		if len(cells) > 0 {
			out = append(out, kv.Row{Key: r.Key, Cells: cells})
		}
	}
	if o.Reverse {
		slices.Reverse(out)
	}
	if o.Limit > 0 && int64(len(out)) > o.Limit {
		out = out[:o.Limit]
	}
	return out
}

func rowsEqual(a, b []kv.Row) bool {
	return slices.EqualFunc(a, b, func(x, y kv.Row) bool {
		return bytes.Equal(x.Key, y.Key) && slices.EqualFunc(x.Cells, y.Cells, func(c, d kv.Cell) bool {
			return c.Family == d.Family && bytes.Equal(c.Qualifier, d.Qualifier) && c.Timestamp == d.Timestamp && bytes.Equal(c.Value, d.Value)
		})
	})
}

// rowsDiff shows the first row where a and b differ, values as lengths.
func rowsDiff(a, b []kv.Row) string {
	show := func(rows []kv.Row, i int) string {
		if i >= len(rows) {
			return fmt.Sprintf("(%d rows)", len(rows))
		}
		s := fmt.Sprintf("%q:", rows[i].Key)
		for _, c := range rows[i].Cells {
			s += fmt.Sprintf(" %q/%x@%d(%d)", c.Family, c.Qualifier, c.Timestamp, len(c.Value))
		}
		return s
	}
	i := 0
	for i < len(a) && i < len(b) && rowsEqual(a[i:i+1], b[i:i+1]) {
		i++
	}
	return fmt.Sprintf("row %d:\n%s\n%s", i, show(a, i), show(b, i))
}
