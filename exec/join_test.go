package exec

import (
	"context"
	"fmt"
	"io"
	"math/rand"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/widesql/widesql/exec/spill"
	"github.com/widesql/widesql/kv/memstore"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// The join executors are tested on plans built by hand: Values inputs,
// ColRef keys, BinOp conditions, run by an executor whose session's
// settings are changed through SET, and checked against a naive nested
// loop over the same data.

var allJoinKinds = []planner.JoinKind{
	planner.InnerJoin, planner.LeftJoin, planner.RightJoin,
	planner.FullJoin, planner.SemiJoin, planner.AntiJoin,
}

// joinEnv is an engine and session whose temporary files go to dir.
type joinEnv struct {
	sess *Session
	dir  string
}

func newJoinEnv(t testing.TB, sets ...string) *joinEnv {
	t.Helper()
	ctx := context.Background()
	eng, err := Open(ctx, memstore.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	eng.SetTempDir(dir)
	s, err := newSession(eng, map[string]string{"user": "test", "database": "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	for _, sql := range sets {
		joinRunStatement(t, s, sql)
	}
	return &joinEnv{sess: s, dir: dir}
}

// joinRunStatement runs one statement through the session as a client would.
func joinRunStatement(t testing.TB, s *Session, sql string) {
	t.Helper()
	ctx := context.Background()
	stmts, err := s.Parse(ctx, sql)
	if err != nil || len(stmts) != 1 {
		t.Fatalf("%s: %v", sql, err)
	}
	s.StartQuery(1)
	prep, err := s.Prepare(ctx, stmts[0], nil)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	p, err := prep.Bind(ctx, nil, nil, nil)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	for err == nil {
		_, err = p.Next(ctx)
	}
	p.Close()
	if err != io.EOF {
		t.Fatalf("%s: %v", sql, err)
	}
	if err := s.EndQuery(ctx, false); err != nil {
		t.Fatal(err)
	}
}

func (e *joinEnv) executor() *executor {
	return &executor{eng: e.sess.eng, env: &evalEnv{sess: e.sess}}
}

// spillFiles returns the files in the spill directory.
func (e *joinEnv) spillFiles(t testing.TB) []string {
	t.Helper()
	ents, err := os.ReadDir(e.dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range ents {
		names = append(names, d.Name())
	}
	return names
}

// Test data: left rows (id int8, k int4, a int4) and right rows (id int8,
// k int8, b int4, pad text). k has duplicates and NULLs (-1 below); the
// condition is a <> b.
type joinLRow struct{ id, k, a int64 }
type joinRRow struct {
	id, k, b int64
	pad      string
}

func genJoinData(r *rand.Rand, nl, nr, keys int) ([]joinLRow, []joinRRow) {
	return genJoinData2(r, nl, nr, keys, keys)
}

// genJoinData2 draws left keys among lkeys values and right keys among
// rkeys.
func genJoinData2(r *rand.Rand, nl, nr, lkeys, rkeys int) ([]joinLRow, []joinRRow) {
	key := func(keys int) int64 {
		if r.Intn(20) == 0 {
			return -1 // NULL
		}
		return int64(r.Intn(keys))
	}
	ls := make([]joinLRow, nl)
	for i := range ls {
		ls[i] = joinLRow{int64(i), key(lkeys), int64(r.Intn(4))}
	}
	rs := make([]joinRRow, nr)
	for i := range rs {
		rs[i] = joinRRow{int64(i), key(rkeys), int64(r.Intn(4)), strings.Repeat("x", r.Intn(30))}
	}
	return ls, rs
}

func joinIntConst(k types.Kind, v int64) planner.Expr {
	if v < 0 {
		return &planner.Const{D: types.Null, T: types.T{Kind: k}}
	}
	return &planner.Const{D: types.NewInt(k, v), T: types.T{Kind: k}}
}

func joinLeftValues(ls []joinLRow) *planner.Values {
	v := &planner.Values{Cols: []planner.ResultColumn{
		{Name: "id", T: types.TInt8}, {Name: "k", T: types.TInt4}, {Name: "a", T: types.TInt4}}}
	for _, l := range ls {
		v.Rows = append(v.Rows, []planner.Expr{joinIntConst(types.Int8, l.id), joinIntConst(types.Int4, l.k), joinIntConst(types.Int4, l.a)})
	}
	return v
}

func joinRightValues(rs []joinRRow) *planner.Values {
	v := &planner.Values{Cols: []planner.ResultColumn{
		{Name: "id", T: types.TInt8}, {Name: "k", T: types.TInt8}, {Name: "b", T: types.TInt4}, {Name: "pad", T: types.TText}}}
	for _, r := range rs {
		v.Rows = append(v.Rows, []planner.Expr{joinIntConst(types.Int8, r.id), joinIntConst(types.Int8, r.k), joinIntConst(types.Int4, r.b),
			&planner.Const{D: types.NewText(r.pad), T: types.TText}})
	}
	return v
}

func jcol(i int, t types.T) *planner.ColRef { return &planner.ColRef{Idx: i, T: t} }

// aNEb is the condition l.a <> r.b over the combined row.
var aNEb = &planner.BinOp{Op: planner.OpNE, L: jcol(2, types.TInt4), R: jcol(3+2, types.TInt4), T: types.TBool}

// kEQk is l.k = r.k over the combined row, for nested loops.
var kEQk = &planner.BinOp{Op: planner.OpEQ, L: jcol(1, types.TInt4), R: jcol(3+1, types.TInt8), T: types.TBool}

func joinCols(kind planner.JoinKind, l, r planner.Plan) []planner.ResultColumn {
	if kind == planner.SemiJoin || kind == planner.AntiJoin {
		return l.Columns()
	}
	return append(slices.Clone(l.Columns()), r.Columns()...)
}

func hashJoinPlan(kind planner.JoinKind, ls []joinLRow, rs []joinRRow, on planner.Expr) *planner.HashJoin {
	l, r := joinLeftValues(ls), joinRightValues(rs)
	return &planner.HashJoin{Kind: kind, Left: l, Right: r,
		LeftKeys: []planner.Expr{jcol(1, types.TInt4)}, RightKeys: []planner.Expr{jcol(1, types.TInt8)},
		On: on, Cols: joinCols(kind, l, r)}
}

func nestLoopPlan(kind planner.JoinKind, ls []joinLRow, rs []joinRRow, on planner.Expr) *planner.NestedLoopJoin {
	l, r := joinLeftValues(ls), joinRightValues(rs)
	return &planner.NestedLoopJoin{Kind: kind, Left: l, Right: r, On: on, Cols: joinCols(kind, l, r)}
}

// joinReference is a naive nested loop over the test data; match decides
// a pair. It returns the expected rows in joinRowString form, sorted.
func joinReference(kind planner.JoinKind, ls []joinLRow, rs []joinRRow, match func(l joinLRow, r joinRRow) bool) []string {
	nullR := joinRRow{-2, -2, -2, ""}
	ln := func(l joinLRow) string { return fmt.Sprintf("%s|%s|%s", jnum(l.id), jnum(l.k), jnum(l.a)) }
	rn := func(r joinRRow) string {
		if r.id == -2 {
			return "N|N|N|N"
		}
		return fmt.Sprintf("%s|%s|%s|%s", jnum(r.id), jnum(r.k), jnum(r.b), r.pad)
	}
	var out []string
	rMatched := make([]bool, len(rs))
	for _, l := range ls {
		matched := false
		for j, r := range rs {
			if !match(l, r) {
				continue
			}
			matched, rMatched[j] = true, true
			if kind != planner.SemiJoin && kind != planner.AntiJoin {
				out = append(out, ln(l)+"|"+rn(r))
			}
		}
		switch {
		case matched && kind == planner.SemiJoin, !matched && kind == planner.AntiJoin:
			out = append(out, ln(l))
		case !matched && (kind == planner.LeftJoin || kind == planner.FullJoin):
			out = append(out, ln(l)+"|"+rn(nullR))
		}
	}
	if kind == planner.RightJoin || kind == planner.FullJoin {
		for j, r := range rs {
			if !rMatched[j] {
				out = append(out, "N|N|N|"+rn(r))
			}
		}
	}
	slices.Sort(out)
	return out
}

func jnum(v int64) string {
	if v < 0 {
		return "N"
	}
	return fmt.Sprint(v)
}

func joinKeyMatch(l joinLRow, r joinRRow) bool   { return l.k >= 0 && l.k == r.k }
func joinKeyOnMatch(l joinLRow, r joinRRow) bool { return joinKeyMatch(l, r) && l.a != r.b }
func joinRowString(r Row) string {
	var b []byte
	for i, d := range r {
		if i > 0 {
			b = append(b, '|')
		}
		if d.IsNull() {
			b = append(b, 'N')
			continue
		}
		b = types.AppendText(b, d)
	}
	return string(b)
}

// runJoin runs a join plan to the end and returns its rows, sorted, and
// its spill figures.
func runJoin(t testing.TB, e *joinEnv, p planner.Plan) (rows []string, st spill.Stats, peak int64) {
	t.Helper()
	op, err := e.executor().build(p)
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	var out []string
	for {
		r, err := op.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(r) != len(p.Columns()) {
			t.Fatalf("row %v has %d columns, want %d", r, len(r), len(p.Columns()))
		}
		out = append(out, joinRowString(r))
	}
	slices.Sort(out)
	st, peak = op.(spiller).spillStats()
	return out, st, peak
}

func joinDiffRows(t *testing.T, what string, got, want []string) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	t.Errorf("%s: got %d rows, want %d", what, len(got), len(want))
	for i, j, n := 0, 0, 0; (i < len(got) || j < len(want)) && n < 10; n++ {
		switch {
		case j >= len(want) || (i < len(got) && got[i] < want[j]):
			t.Errorf("  extra   %s", got[i])
			i++
		case i >= len(got) || want[j] < got[i]:
			t.Errorf("  missing %s", want[j])
			j++
		default:
			i, j, n = i+1, j+1, n-1
		}
	}
}

// TestJoinsInMemory checks every join kind of both executors, with and
// without a residual condition, on data with duplicate and NULL keys.
func TestJoinsInMemory(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	e := newJoinEnv(t)
	for _, size := range []struct{ nl, nr, keys int }{{0, 0, 5}, {0, 7, 5}, {7, 0, 5}, {1, 1, 1}, {50, 40, 10}, {300, 200, 60}} {
		ls, rs := genJoinData(r, size.nl, size.nr, size.keys)
		for _, kind := range allJoinKinds {
			name := fmt.Sprintf("%s/%dx%d", kind, size.nl, size.nr)
			got, st, _ := runJoin(t, e, hashJoinPlan(kind, ls, rs, nil))
			joinDiffRows(t, "hash "+name, got, joinReference(kind, ls, rs, joinKeyMatch))
			if st.Spilled {
				t.Errorf("hash %s spilled", name)
			}
			got, _, _ = runJoin(t, e, hashJoinPlan(kind, ls, rs, aNEb))
			joinDiffRows(t, "hash on "+name, got, joinReference(kind, ls, rs, joinKeyOnMatch))

			got, _, _ = runJoin(t, e, nestLoopPlan(kind, ls, rs, kEQk))
			joinDiffRows(t, "nestloop "+name, got, joinReference(kind, ls, rs, joinKeyMatch))
			on := &planner.BinOp{Op: planner.OpAnd, L: kEQk, R: aNEb, T: types.TBool}
			got, st, _ = runJoin(t, e, nestLoopPlan(kind, ls, rs, on))
			joinDiffRows(t, "nestloop on "+name, got, joinReference(kind, ls, rs, joinKeyOnMatch))
			if st.Spilled {
				t.Errorf("nestloop %s spilled", name)
			}
			if size.nl*size.nr <= 2500 {
				got, _, _ = runJoin(t, e, nestLoopPlan(kind, ls, rs, nil))
				joinDiffRows(t, "cross "+name, got, joinReference(kind, ls, rs, func(joinLRow, joinRRow) bool { return true }))
			}
		}
	}
	if f := e.spillFiles(t); len(f) != 0 {
		t.Errorf("spill files written in memory: %v", f)
	}
}

// TestHashJoinSpill joins 20k x 20k rows in 64kB of work_mem, which
// partitions the build side and repartitions its partitions, and compares
// with the in-memory join; and smaller joins compared with the reference.
func TestHashJoinSpill(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	r := rand.New(rand.NewSource(2))
	mem := newJoinEnv(t, "SET work_mem = '1GB'")
	small := newJoinEnv(t, "SET work_mem = '64kB'")
	for _, size := range []struct {
		nl, nr, lkeys, rkeys int
		reference            bool
	}{
		{20000, 20000, 8000, 8000, false},
		{4000, 4000, 1000, 1000, true},
		{5, 4000, 1000, 1000, true},  // most probe partitions empty
		{4000, 4000, 1000, 40, true}, // some build partitions empty
	} {
		ls, rs := genJoinData2(r, size.nl, size.nr, size.lkeys, size.rkeys)
		for _, kind := range allJoinKinds {
			for _, on := range []planner.Expr{nil, aNEb} {
				name := fmt.Sprintf("%s/%dx%d/on=%v", kind, size.nl, size.nr, on != nil)
				got, st, peak := runJoin(t, small, hashJoinPlan(kind, ls, rs, on))
				if !st.Spilled || st.RowsWritten < int64(len(rs)/2) {
					t.Errorf("%s: want a spill, got %+v", name, st)
				}
				if size.nr == 20000 && st.Partitions <= minJoinPartitions {
					t.Errorf("%s: want repartitioning, got %+v", name, st)
				}
				if peak > 64<<10 {
					t.Errorf("%s: peak memory %d over work_mem", name, peak)
				}
				match := joinKeyMatch
				if on != nil {
					match = joinKeyOnMatch
				}
				if size.reference {
					joinDiffRows(t, "spilled vs reference "+name, got, joinReference(kind, ls, rs, match))
					continue
				}
				want, st, _ := runJoin(t, mem, hashJoinPlan(kind, ls, rs, on))
				if st.Spilled {
					t.Fatalf("%s: spilled in 1GB", name)
				}
				joinDiffRows(t, "spilled vs in-memory "+name, got, want)
			}
		}
	}
	if f := small.spillFiles(t); len(f) != 0 {
		t.Errorf("spill files left behind: %v", f)
	}
}

// TestNestLoopSpill runs the block nested loop: the right side over
// work_mem goes to a file scanned once per block of left rows.
func TestNestLoopSpill(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	ls, rs := genJoinData(r, 1000, 2000, 300)
	small := newJoinEnv(t, "SET work_mem = '64kB'")
	on := &planner.BinOp{Op: planner.OpAnd, L: kEQk, R: aNEb, T: types.TBool}
	for _, kind := range allJoinKinds {
		got, st, peak := runJoin(t, small, nestLoopPlan(kind, ls, rs, on))
		if !st.Spilled || st.RowsWritten != int64(len(rs)) {
			t.Errorf("%s: want the right side spilled, got %+v", kind, st)
		}
		if peak > 64<<10 {
			t.Errorf("%s: peak memory %d over work_mem", kind, peak)
		}
		joinDiffRows(t, "nestloop spilled "+kind.String(), got, joinReference(kind, ls, rs, joinKeyOnMatch))
	}
	if f := small.spillFiles(t); len(f) != 0 {
		t.Errorf("spill files left behind: %v", f)
	}
}

// TestJoinNoSpill checks that with widesql.spill off a join over work_mem
// fails with 53200 naming work_mem, and leaves no file; and that a hash
// join whose build side is one huge key fails the same way.
func TestJoinNoSpill(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	ls, rs := genJoinData(r, 100, 3000, 500)
	e := newJoinEnv(t, "SET work_mem = '64kB'", "SET widesql.spill = off")
	for _, p := range []planner.Plan{hashJoinPlan(planner.InnerJoin, ls, rs, nil), nestLoopPlan(planner.InnerJoin, ls, rs, kEQk)} {
		op, err := e.executor().build(p)
		if err != nil {
			t.Fatal(err)
		}
		_, err = op.Next(context.Background())
		op.Close()
		if pgerror.CodeOf(err) != "53200" || !strings.Contains(err.Error(), "work_mem (64kB)") {
			t.Errorf("%T: got %v, want 53200 naming work_mem", p, err)
		}
	}
	if f := e.spillFiles(t); len(f) != 0 {
		t.Errorf("spill files written: %v", f)
	}

	// With spilling on, one key with more rows than work_mem holds cannot
	// be split by repartitioning: after the depth limit, 53200 too.
	for i := range rs {
		rs[i].k = 7
	}
	e = newJoinEnv(t, "SET work_mem = '64kB'")
	op, err := e.executor().build(hashJoinPlan(planner.InnerJoin, ls, rs, nil))
	if err != nil {
		t.Fatal(err)
	}
	_, err = op.Next(context.Background())
	op.Close()
	if pgerror.CodeOf(err) != "53200" {
		t.Errorf("skewed key: got %v, want 53200", err)
	}
	if f := e.spillFiles(t); len(f) != 0 {
		t.Errorf("spill files left behind: %v", f)
	}
}

// TestJoinEarlyClose closes spilled joins after a few rows (a LIMIT above
// them): their files must go.
func TestJoinEarlyClose(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	ls, rs := genJoinData(r, 3000, 3000, 1000)
	e := newJoinEnv(t, "SET work_mem = '64kB'")
	for _, p := range []planner.Plan{hashJoinPlan(planner.FullJoin, ls, rs, nil), nestLoopPlan(planner.LeftJoin, ls, rs, kEQk)} {
		op, err := e.executor().build(p)
		if err != nil {
			t.Fatal(err)
		}
		for range 10 {
			if _, err := op.Next(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		if len(e.spillFiles(t)) == 0 {
			t.Errorf("%T: no spill files while running", p)
		}
		op.Close()
		if f := e.spillFiles(t); len(f) != 0 {
			t.Errorf("%T: spill files left after Close: %v", p, f)
		}
	}
}

// TestJoinCancel checks that a canceled context stops a long join with
// 57014.
func TestJoinCancel(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	ls, rs := genJoinData(r, 3000, 3000, 3)
	e := newJoinEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, p := range []planner.Plan{hashJoinPlan(planner.InnerJoin, ls, rs, aNEb), nestLoopPlan(planner.InnerJoin, ls, rs, nil)} {
		op, err := e.executor().build(p)
		if err != nil {
			t.Fatal(err)
		}
		for err == nil {
			_, err = op.Next(ctx)
		}
		op.Close()
		if pgerror.CodeOf(err) != pgerror.CodeQueryCanceled {
			t.Errorf("%T: got %v, want 57014", p, err)
		}
	}
}

// TestHashJoinMixedKeys joins keys of different kinds that are equal as
// SQL values: int2/int4/int8, numeric with any scale, floats; and
// multi-column keys.
func TestHashJoinMixedKeys(t *testing.T) {
	dec := func(s string) types.Datum {
		d, _, err := apd.NewFromString(s)
		if err != nil {
			t.Fatal(err)
		}
		return types.NewNumeric(d)
	}
	lvals := []types.Datum{types.NewInt(types.Int2, 1), types.NewInt(types.Int4, 2), types.NewInt(types.Int8, 3),
		types.NewInt(types.Int8, 0), types.NewInt(types.Int8, 5), types.Null}
	rvals := []types.Datum{dec("1.00"), dec("2"), types.NewFloat(3), types.NewFloat(-0.0), dec("5.5"), types.Null}
	values := func(ds []types.Datum, t types.T, y func(i int) string) *planner.Values {
		v := &planner.Values{Cols: []planner.ResultColumn{{Name: "x", T: t}, {Name: "y", T: types.TText}}}
		for i, d := range ds {
			v.Rows = append(v.Rows, []planner.Expr{&planner.Const{D: d, T: t}, &planner.Const{D: types.NewText(y(i)), T: types.TText}})
		}
		return v
	}
	l := values(lvals, types.TInt8, func(i int) string { return fmt.Sprint(i % 2) })
	r := values(rvals, types.TNumeric, func(int) string { return "1" })
	p := &planner.HashJoin{Kind: planner.InnerJoin, Left: l, Right: r,
		LeftKeys: []planner.Expr{jcol(0, types.TInt8)}, RightKeys: []planner.Expr{jcol(0, types.TNumeric)},
		Cols: joinCols(planner.InnerJoin, l, r)}
	got, _, _ := runJoin(t, newJoinEnv(t), p)
	want := []string{"0|1|0|1", "1|0|1.00|1", "2|1|2|1", "3|0|3|1"}
	joinDiffRows(t, "mixed", got, want)

	// Two-column keys: (x, y) = (x, y).
	p.LeftKeys = append(p.LeftKeys, jcol(1, types.TText))
	p.RightKeys = append(p.RightKeys, jcol(1, types.TText))
	got, _, _ = runJoin(t, newJoinEnv(t), p)
	want = []string{"0|1|0|1", "2|1|2|1"}
	joinDiffRows(t, "two keys", got, want)
}

// TestJoinKeyHash checks that values equal by types.Compare hash alike.
func TestJoinKeyHash(t *testing.T) {
	dec := func(s string) types.Datum {
		d, _, err := apd.NewFromString(s)
		if err != nil {
			t.Fatal(err)
		}
		return types.NewNumeric(d)
	}
	groups := [][]types.Datum{
		{types.NewInt(types.Int2, 7), types.NewInt(types.Int4, 7), types.NewInt(types.Int8, 7), dec("7.000"), dec("7"), types.NewFloat(7), types.NewFloat4(7)},
		{types.NewFloat(0), types.NewFloat(-0.0), dec("0.0"), dec("-0"), types.NewInt(types.Int4, 0)},
		{dec("NaN"), types.NewFloat(jnan())},
		{types.NewText("ab"), types.NewBPChar("ab  ")},
		{types.NewInterval(1, 0, 0), types.NewInterval(0, 30, 0), types.NewInterval(0, 29, 24*3600*1e6)},
		{types.NewDate(1), types.NewTimestamp(24 * 3600 * 1e6), types.NewTimestampTZ(24 * 3600 * 1e6)},
	}
	h := newJoinHasher()
	for _, g := range groups {
		for _, d := range g[1:] {
			if types.Compare(g[0], d) != 0 {
				t.Fatalf("test data: %v and %v differ", g[0], d)
			}
			if h.hash([]types.Datum{g[0]}) != h.hash([]types.Datum{d}) {
				t.Errorf("%s (%d) and %s (%d) hash differently", types.AppendText(nil, g[0]), g[0].K, types.AppendText(nil, d), d.K)
			}
		}
	}
}

func jnan() float64 { var z float64; return z / z }

// BenchmarkHashJoin joins 100k x 100k rows on a key with ten matches per
// row, in memory and spilled under the default work_mem.
func BenchmarkHashJoin(b *testing.B) {
	r := rand.New(rand.NewSource(7))
	ls, rs := genJoinData(r, 100000, 100000, 10000)
	for _, bc := range []struct{ name, set string }{{"mem", "SET work_mem = '1GB'"}, {"spill4MB", "SET work_mem = '4MB'"}} {
		b.Run(bc.name, func(b *testing.B) {
			e := newJoinEnv(b, bc.set)
			p := hashJoinPlan(planner.InnerJoin, ls, rs, nil)
			b.ResetTimer()
			for range b.N {
				op, err := e.executor().build(p)
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for {
					_, err := op.Next(context.Background())
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				op.Close()
				b.ReportMetric(float64(n), "rows/op")
			}
		})
	}
}
