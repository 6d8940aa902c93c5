package exec

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/widesql/widesql/exec/spill"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// aggInputOp returns fixed rows.
type aggInputOp struct {
	rows []Row
	i    int
}

func (o *aggInputOp) Next(context.Context) (Row, error) {
	if o.i >= len(o.rows) {
		return nil, io.EOF
	}
	o.i++
	return o.rows[o.i-1], nil
}

func (o *aggInputOp) Close() {}

// spillPlan groups (k, v, s) rows by k with list and scalar aggregates.
func spillPlan() *planner.Aggregate {
	k := &planner.ColRef{Idx: 0, Name: "k", T: types.TInt8}
	v := &planner.ColRef{Idx: 1, Name: "v", T: types.TInt8}
	s := &planner.ColRef{Idx: 2, Name: "s", T: types.TText}
	f := &planner.ColRef{Idx: 3, Name: "f", T: types.TFloat8}
	return &planner.Aggregate{
		GroupBy: []planner.Expr{k},
		Aggs: []planner.AggCall{
			{Func: planner.AggCountStar, T: types.TInt8},
			{Func: planner.AggSum, Arg: v, T: types.TNumeric},
			{Func: planner.AggArrayAgg, Arg: v, Order: []planner.SortKey{{Expr: v, Desc: true}}, T: types.ArrayOf(types.TInt8)},
			{Func: planner.AggCount, Arg: s, Distinct: true, T: types.TInt8},
			{Func: planner.AggStringAgg, Arg: s, Extra: &planner.Const{D: types.NewText(","), T: types.TText},
				Order: []planner.SortKey{{Expr: s}, {Expr: v}}, T: types.TText},
			{Func: planner.AggPercentileCont, Arg: f, Extra: &planner.Const{D: types.NewFloat(0.5), T: types.TFloat8},
				Order: []planner.SortKey{{Expr: f}}, T: types.TFloat8},
			{Func: planner.AggVarSamp, Arg: v, T: types.TNumeric},
			{Func: planner.AggStddevPop, Arg: v, T: types.TNumeric},
		},
	}
}

func spillRows(n, groups int) []Row {
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = Row{types.NewInt(types.Int8, int64(i%groups)), types.NewInt(types.Int8, int64(i*7919%1013)),
			types.NewText(fmt.Sprintf("s%d", i%17)), types.NewFloat(float64(i%101) / 4)}
	}
	return rows
}

// runAgg aggregates rows under budget and returns the result rows keyed
// by group, and the operator's figures.
func runAgg(t testing.TB, p *planner.Aggregate, rows []Row, b *spill.Budget, dir string) (map[string]string, spill.Stats, error) {
	t.Helper()
	o := newAggOp(p, &aggInputOp{rows: rows}, &evalEnv{}, b, dir)
	defer o.Close()
	out := map[string]string{}
	for {
		r, err := o.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, spill.Stats{}, err
		}
		var sb strings.Builder
		for _, d := range r[1:] {
			sb.WriteString(d.String() + "|")
		}
		if _, dup := out[r[0].String()]; dup {
			t.Fatalf("group %s returned twice", r[0])
		}
		out[r[0].String()] = sb.String()
	}
	st, _ := o.spillStats()
	return out, st, nil
}

// TestAggSpill checks that a hash aggregation over many more groups than
// fit in work_mem spills, splits partitions again, stays within its
// budget, removes its files and returns what the in-memory one returns.
func TestAggSpill(t *testing.T) {
	rows := spillRows(20000, 3000)
	want, st, err := runAgg(t, spillPlan(), rows, spill.NewBudget(0), t.TempDir())
	if err != nil || st.Spilled {
		t.Fatalf("unlimited budget: %v, spilled %v", err, st.Spilled)
	}
	for _, limit := range []int64{64 << 10, 256 << 10} {
		t.Run(spill.FormatBytes(limit), func(t *testing.T) {
			dir := t.TempDir()
			b := spill.NewBudget(limit)
			got, st, err := runAgg(t, spillPlan(), rows, b, dir)
			if err != nil {
				t.Fatal(err)
			}
			if !st.Spilled || st.RowsWritten == 0 {
				t.Errorf("did not spill: %+v", st)
			}
			if limit == 64<<10 && st.Partitions <= aggFanout {
				t.Errorf("no partition was split again: %+v", st)
			}
			if len(got) != len(want) {
				t.Fatalf("%d groups, want %d", len(got), len(want))
			}
			for k, w := range want {
				if got[k] != w {
					t.Fatalf("group %s:\n got %s\nwant %s", k, got[k], w)
				}
			}
			if b.Peak() > limit {
				t.Errorf("peak %d exceeds the budget %d", b.Peak(), limit)
			}
			if b.Used() != 0 {
				t.Errorf("budget holds %d bytes after Close", b.Used())
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("%d spill files left after Close", len(ents))
			}
		})
	}
}

// TestAggSpillErrors checks the 53200 errors: spilling off, and one group
// larger than the budget.
func TestAggSpillErrors(t *testing.T) {
	b := spill.NewBudget(64 << 10)
	b.DisableSpill()
	if _, _, err := runAgg(t, spillPlan(), spillRows(20000, 3000), b, t.TempDir()); pgerror.CodeOf(err) != "53200" {
		t.Errorf("spill off: %v, want 53200", err)
	}
	dir := t.TempDir()
	_, _, err := runAgg(t, spillPlan(), spillRows(20000, 1), spill.NewBudget(64<<10), dir)
	if pgerror.CodeOf(err) != "53200" || !strings.Contains(err.Error(), "work_mem (64kB)") {
		t.Errorf("one big group: %v, want 53200 naming work_mem", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("%d spill files left after Close", len(ents))
	}
}

// BenchmarkAggSpill measures a spilling aggregation.
func BenchmarkAggSpill(b *testing.B) {
	rows := spillRows(20000, 3000)
	for range b.N {
		if _, _, err := runAgg(b, spillPlan(), rows, spill.NewBudget(256<<10), b.TempDir()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAggInMemory is BenchmarkAggSpill's query without a limit.
func BenchmarkAggInMemory(b *testing.B) {
	rows := spillRows(20000, 3000)
	for range b.N {
		if _, _, err := runAgg(b, spillPlan(), rows, spill.NewBudget(0), b.TempDir()); err != nil {
			b.Fatal(err)
		}
	}
}
