package spill

import (
	"cmp"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

var rowTypes = []types.T{types.TInt8, types.TText, types.TFloat8}

func randomRows(r *rand.Rand, n int) [][]types.Datum {
	rows := make([][]types.Datum, n)
	for i := range rows {
		row := []types.Datum{types.NewInt(types.Int8, r.Int64N(1000)), types.NewText(fmt.Sprintf("s%d", r.IntN(50))), types.NewFloat(r.Float64())}
		if r.IntN(10) == 0 {
			row[1] = types.Null
		}
		rows[i] = row
	}
	return rows
}

// byAll orders rows by every column, NULLs first, so the order is total.
func byAll(a, b []types.Datum) int {
	for i := range a {
		if c := cmp.Compare(key(a[i]), key(b[i])); c != 0 {
			return c
		}
	}
	return 0
}

func key(d types.Datum) string {
	if d.IsNull() {
		return ""
	}
	return fmt.Sprintf("%020d|%s|%.17g", d.I+1<<40, d.S, d.F)
}

func drain(t *testing.T, it Iterator) [][]types.Datum {
	t.Helper()
	var out [][]types.Datum
	for {
		row, err := it.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, row)
	}
}

func TestSorter(t *testing.T) {
	for _, tc := range []struct {
		name     string
		rows     int
		budget   int64
		wantRuns int // at least
	}{
		{"in-memory", 2000, 0, 0},
		{"few runs", 2000, 64 << 10, 2},
		{"multi-pass merge", 3000, 4 << 10, MaxFanIn + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			rows := randomRows(rand.New(rand.NewPCG(1, uint64(tc.rows))), tc.rows)
			b := NewBudget(tc.budget)
			s := NewSorter(rowTypes, byAll, b, dir)
			for _, r := range rows {
				if err := s.Add(r); err != nil {
					t.Fatal(err)
				}
			}
			it, err := s.Sort()
			if err != nil {
				t.Fatal(err)
			}
			got := drain(t, it)
			want := slices.Clone(rows)
			slices.SortFunc(want, byAll)
			if len(got) != len(want) {
				t.Fatalf("got %d rows, want %d", len(got), len(want))
			}
			for i := range got {
				if byAll(got[i], want[i]) != 0 {
					t.Fatalf("row %d: got %v, want %v", i, got[i], want[i])
				}
			}
			st := s.Stats()
			if st.Runs < tc.wantRuns || st.Spilled != (tc.wantRuns > 0) {
				t.Errorf("stats %+v, want at least %d runs", st, tc.wantRuns)
			}
			if tc.budget > 0 && b.Peak() > tc.budget {
				t.Errorf("peak %d exceeds the budget %d", b.Peak(), tc.budget)
			}
			s.Close()
			if b.Used() != 0 {
				t.Errorf("budget still holds %d bytes after Close", b.Used())
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("%d spill files left after Close", len(ents))
			}
		})
	}
}

func TestBudgetError(t *testing.T) {
	b := NewBudget(64 << 10)
	s := NewSorter(rowTypes, byAll, b, t.TempDir())
	defer s.Close()
	big := []types.Datum{types.NewInt(types.Int8, 1), types.NewText(string(make([]byte, 100<<10))), types.NewFloat(0)}
	err := s.Add(big)
	if got := pgerror.CodeOf(err); got != "53200" {
		t.Fatalf("Add of a row larger than the budget: %v (code %s), want 53200", err, got)
	}
	if want := "work_mem (64kB)"; !strings.Contains(err.Error(), want) {
		t.Errorf("message %q does not name the limit %q", err, want)
	}
}

func TestPartitions(t *testing.T) {
	dir := t.TempDir()
	rows := randomRows(rand.New(rand.NewPCG(2, 2)), 1000)
	p := NewPartitions(8, rowTypes, dir)
	want := make([][][]types.Datum, 8)
	for _, r := range rows {
		i := int(r[0].I % 8)
		if err := p.Add(i, r); err != nil {
			t.Fatal(err)
		}
		want[i] = append(want[i], r)
	}
	for round := 0; round < 2; round++ { // a partition can be read twice
		for i := 0; i < p.Len(); i++ {
			it, err := p.Read(i)
			if err != nil {
				t.Fatal(err)
			}
			got := drain(t, it)
			if len(got) != len(want[i]) || int64(len(got)) != p.Rows(i) {
				t.Fatalf("partition %d: %d rows, want %d", i, len(got), len(want[i]))
			}
			for j := range got {
				if byAll(got[j], want[i][j]) != 0 {
					t.Fatalf("partition %d row %d: got %v, want %v", i, j, got[j], want[i][j])
				}
			}
		}
	}
	if st := p.Stats(); !st.Spilled || st.RowsWritten != 1000 || st.Partitions != 8 {
		t.Errorf("stats %+v", st)
	}
	p.Close()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("%d files left after Close", len(ents))
	}
}

func TestCorruptFile(t *testing.T) {
	p := NewPartitions(1, rowTypes, t.TempDir())
	defer p.Close()
	if err := p.Add(0, []types.Datum{types.NewInt(types.Int8, 7), types.NewText("x"), types.NewFloat(1)}); err != nil {
		t.Fatal(err)
	}
	rf := p.files[0]
	rf.w.Flush()
	if _, err := rf.f.WriteAt([]byte{0x05, 0x01}, 0); err != nil { // a length that runs past the end
		t.Fatal(err)
	}
	it, err := p.Read(0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := it.Next(); pgerror.CodeOf(err) != pgerror.CodeDataCorrupted {
		t.Fatalf("reading a corrupt file: %v, want XX001", err)
	}
}
