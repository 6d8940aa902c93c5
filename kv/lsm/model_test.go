package lsm_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// This file holds the model-based randomized test: random batches of every
// mutation kind, reads of every shape, flushes, compactions, clean restarts
// and simulated crashes on a MemFS, each step checked against refTable, a
// plain map-based model.
//
// Version GC is the one place where the contract lets an engine choose: a
// family's MaxVersions must be honored by every read, but versions beyond it
// may be dropped lazily (at flush or compaction). The difference shows only
// when the newer versions are later deleted: an engine that has not dropped
// an old version yet shows it again, one that has does not. The model marks
// every version that has been beyond its column's MaxVersions at the end of
// a row mutation as eligible (the engine may have dropped it) and, when a delete
// brings one back into view, asks the engine whether it kept it and
// follows. Everything else is exact. A read applies the family's MaxVersions
// before its own time range: a version beyond MaxVersions is never shown,
// even when the newer ones fall outside the range (the answer must not
// depend on whether a compaction has run).

// refColumn names a column of a row in the model.
type refColumn struct{ fam, qual string }

// refCell is one version in the model.
type refCell struct {
	val string
	// eligible is set once the version was beyond its column's MaxVersions
	// at the end of a row mutation: the engine may have garbage-collected it.
	eligible bool
}

type refRow map[refColumn]map[kv.Timestamp]refCell

func (r refRow) clone() refRow {
	if r == nil {
		return nil
	}
	out := make(refRow, len(r))
	for c, vs := range r {
		out[c] = maps.Clone(vs)
	}
	return out
}

// refTable is the obviously-right model of one table.
type refTable struct {
	maxVersions map[string]int // family -> MaxVersions (0 means 1)
	rows        map[string]refRow
	// Resurfaced versions the engine still showed, and those it had
	// dropped (see resolve).
	kept, dropped int
}

func newRefTable(spec kv.TableSpec) *refTable {
	m := &refTable{maxVersions: map[string]int{}, rows: map[string]refRow{}}
	for _, f := range spec.Families {
		m.maxVersions[f.Name] = max(f.MaxVersions, 1)
	}
	return m
}

// versionsDesc returns a column's timestamps, newest first.
func versionsDesc(vs map[kv.Timestamp]refCell) []kv.Timestamp {
	ts := slices.Collect(maps.Keys(vs))
	slices.SortFunc(ts, func(a, b kv.Timestamp) int { return cmp.Compare(b, a) })
	return ts
}

// presence reports whether the row certainly has a cell (some version not
// eligible for GC), and whether that is unknowable (only eligible versions).
func (r refRow) presence() (present, unknown bool) {
	for _, vs := range r {
		for _, c := range vs {
			if !c.eligible {
				return true, false
			}
			unknown = true
		}
	}
	return false, unknown
}

// apply mirrors Table.Apply. It returns the index of the failed
// precondition or -1, and ambiguous when a precondition would depend on
// whether the engine has garbage-collected a version (the batch is then not
// applied and the caller draws another).
func (m *refTable) apply(batch []kv.RowMutation) (failed int, ambiguous bool) {
	saved := map[string]refRow{}
	for _, rm := range batch {
		if _, ok := saved[string(rm.Key)]; !ok {
			saved[string(rm.Key)] = m.rows[string(rm.Key)].clone()
		}
	}
	restore := func() {
		for k, r := range saved {
			if r == nil {
				delete(m.rows, k)
			} else {
				m.rows[k] = r
			}
		}
	}
	for i, rm := range batch {
		key := string(rm.Key)
		row := m.rows[key]
		present, unknown := row.presence()
		if rm.Require != kv.NoPrecondition && unknown {
			restore()
			return -1, true
		}
		if (rm.Require == kv.RequireAbsent && present) || (rm.Require == kv.RequirePresent && !present) {
			restore()
			return i, false
		}
		if row == nil {
			row = refRow{}
		}
		for _, mu := range rm.Mutations {
			col := refColumn{mu.Family, string(mu.Qualifier)}
			switch mu.Kind {
			case kv.SetCell:
				if row[col] == nil {
					row[col] = map[kv.Timestamp]refCell{}
				}
				row[col][mu.Timestamp] = refCell{val: string(mu.Value)}
			case kv.DeleteCells:
				maps.DeleteFunc(row[col], func(ts kv.Timestamp, _ refCell) bool {
					return ts >= mu.Start && (mu.End == 0 || mu.End == kv.MaxTimestamp || ts < mu.End)
				})
			case kv.DeleteFamily:
				maps.DeleteFunc(row, func(c refColumn, _ map[kv.Timestamp]refCell) bool { return c.fam == mu.Family })
			case kv.DeleteRow:
				clear(row)
			}
			maps.DeleteFunc(row, func(_ refColumn, vs map[kv.Timestamp]refCell) bool { return len(vs) == 0 })
		}
		// Row mutation boundary: versions beyond MaxVersions become
		// eligible for GC (memstore drops them right here; an LSM engine
		// at some later flush or compaction).
		for col, vs := range row {
			for i, ts := range versionsDesc(vs) {
				if c := vs[ts]; i >= m.maxVersions[col.fam] && !c.eligible {
					c.eligible = true
					vs[ts] = c
				}
			}
		}
		if len(row) == 0 {
			delete(m.rows, key)
		} else {
			m.rows[key] = row
		}
	}
	return -1, false
}

// resurfaced returns the columns of key where an eligible version is among
// the newest MaxVersions again (a delete removed newer ones).
func (m *refTable) resurfaced(key string) []refColumn {
	var cols []refColumn
	for col, vs := range m.rows[key] {
		ts := versionsDesc(vs)
		for _, t := range ts[:min(len(ts), m.maxVersions[col.fam])] {
			if vs[t].eligible {
				cols = append(cols, col)
				break
			}
		}
	}
	return cols
}

// resolve settles a resurfaced column with what the engine shows for it
// (engine holds its cells, newest first): each eligible version among the
// newest MaxVersions is kept if the engine shows it and dropped otherwise.
func (m *refTable) resolve(key string, col refColumn, engine map[kv.Timestamp]string) {
	vs := m.rows[key][col]
	for {
		ts := versionsDesc(vs)
		changed := false
		for _, t := range ts[:min(len(ts), m.maxVersions[col.fam])] {
			c := vs[t]
			if !c.eligible {
				continue
			}
			if v, ok := engine[t]; ok && v == c.val {
				c.eligible = false
				vs[t] = c
				m.kept++
			} else {
				delete(vs, t)
				m.dropped++
			}
			changed = true
			break
		}
		if !changed {
			break
		}
	}
	if len(vs) == 0 {
		delete(m.rows[key], col)
		if len(m.rows[key]) == 0 {
			delete(m.rows, key)
		}
	}
}

// read mirrors Table.Read: the visible versions (never eligible ones once
// resolved), then the family and column projection, the time range and the
// read's MaxVersions, in key order or reverse, up to Limit non-empty rows.
func (m *refTable) read(rs kv.RowSet, o kv.ReadOptions) []kv.Row {
	var keys []string
	for k := range m.rows {
		in := rs.IsFull() || slices.ContainsFunc(rs.Keys, func(b []byte) bool { return string(b) == k })
		for _, r := range rs.Ranges {
			in = in || (k >= string(r.Start) && (r.End == nil || k < string(r.End)))
		}
		if in {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	if o.Reverse {
		slices.Reverse(keys)
	}
	var rows []kv.Row
	for _, k := range keys {
		if o.Limit > 0 && int64(len(rows)) == o.Limit {
			break
		}
		cols := slices.SortedFunc(maps.Keys(m.rows[k]), func(a, b refColumn) int {
			return cmp.Or(strings.Compare(a.fam, b.fam), strings.Compare(a.qual, b.qual))
		})
		var cells []kv.Cell
		for _, col := range cols {
			if (len(o.Families) > 0 && !slices.Contains(o.Families, col.fam)) ||
				(len(o.Columns) > 0 && !slices.ContainsFunc(o.Columns, func(c kv.Column) bool {
					return c.Family == col.fam && string(c.Qualifier) == col.qual
				})) {
				continue
			}
			vs := m.rows[k][col]
			n := 0
			for _, ts := range versionsDesc(vs) {
				if vs[ts].eligible || ts < o.MinTimestamp || (o.MaxTimestamp != 0 && o.MaxTimestamp != kv.MaxTimestamp && ts >= o.MaxTimestamp) || n == max(o.MaxVersions, 1) {
					continue
				}
				n++
				cells = append(cells, kv.Cell{Family: col.fam, Qualifier: []byte(col.qual), Timestamp: ts, Value: []byte(vs[ts].val)})
			}
		}
		if len(cells) > 0 {
			rows = append(rows, kv.Row{Key: []byte(k), Cells: cells})
		}
	}
	return rows
}

// readAll drains a read into owned rows.
func readAll(ctx context.Context, tbl kv.Table, rs kv.RowSet, o kv.ReadOptions) ([]kv.Row, error) {
	it := tbl.Read(ctx, rs, o)
	defer it.Close()
	var rows []kv.Row
	for it.Next() {
		rows = append(rows, cloneRow(it.Row()))
	}
	return rows, it.Err()
}

func cloneRow(r kv.Row) kv.Row {
	out := kv.Row{Key: bytes.Clone(r.Key), Cells: make([]kv.Cell, len(r.Cells))}
	for i, c := range r.Cells {
		out.Cells[i] = kv.Cell{Family: c.Family, Qualifier: bytes.Clone(c.Qualifier), Timestamp: c.Timestamp, Value: bytes.Clone(c.Value)}
	}
	return out
}

func equalRow(a, b kv.Row) bool {
	return bytes.Equal(a.Key, b.Key) && slices.EqualFunc(a.Cells, b.Cells, func(x, y kv.Cell) bool {
		return x.Family == y.Family && bytes.Equal(x.Qualifier, y.Qualifier) && x.Timestamp == y.Timestamp && bytes.Equal(x.Value, y.Value)
	})
}

// rowLines renders rows one cell per line, for comparison and diffs.
func rowLines(rows []kv.Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, fmt.Sprintf("row %q", r.Key))
		for _, c := range r.Cells {
			v := string(c.Value)
			if len(v) > 24 {
				v = fmt.Sprintf("%s...(%d bytes)", v[:16], len(v))
			}
			out = append(out, fmt.Sprintf("  %s:%q@%d = %q", c.Family, c.Qualifier, c.Timestamp, v))
		}
	}
	return out
}

// diffRows returns "" when got and want agree, else the first difference
// with a few lines of context, and the keys (%q-quoted) of the rows where
// it is.
func diffRows(got, want []kv.Row) (diff string, keys []string) {
	if slices.EqualFunc(got, want, equalRow) {
		return "", nil
	}
	g, w := rowLines(got), rowLines(want)
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	// The rows where the difference is, on either side.
	for _, lines := range [][]string{g, w} {
		for j := min(i, len(lines)-1); j >= 0; j-- {
			if k, ok := strings.CutPrefix(lines[j], "row "); ok {
				if !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
				break
			}
		}
	}
	lo := max(0, i-3)
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at line %d (got %d lines, want %d):\n", i, len(g), len(w))
	for j := lo; j < i+4; j++ {
		gl, wl := "<end>", "<end>"
		if j < len(g) {
			gl = g[j]
		}
		if j < len(w) {
			wl = w[j]
		}
		mark := "  "
		if gl != wl {
			mark = "!="
		}
		fmt.Fprintf(&b, "%s got  %s\n   want %s\n", mark, gl, wl)
		if j >= len(g) && j >= len(w) {
			break
		}
	}
	return b.String(), keys
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// closeWithin closes s on the way out of a test, without hanging the test
// binary when a failure left the store wedged.
func closeWithin(t *testing.T, s *lsm.Store) {
	done := make(chan error, 1)
	go func() { done <- s.Close() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Errorf("Store.Close did not return within 10s")
	}
}

// modelTables are the tables of the model test: families with MaxVersions
// 1 and 3 (and the default), one table pre-split into three regions.
var modelTables = []struct {
	name string
	spec kv.TableSpec
}{
	{"t1", kv.TableSpec{Families: []kv.Family{{Name: "a", MaxVersions: 1}, {Name: "b", MaxVersions: 3}, {Name: "c"}}}},
	{"t2", kv.TableSpec{
		Families:  []kv.Family{{Name: "x", MaxVersions: 3}, {Name: "y", MaxVersions: 1, Compression: "snappy"}},
		SplitKeys: [][]byte{[]byte("k16"), []byte("k32")},
	}},
}

// modelOptions are tiny, so that flushes, compactions, region splits and
// row cache evictions happen within a few hundred steps.
func modelOptions(fs vfs.FS) lsm.Options {
	return lsm.Options{
		FS:               fs,
		MemtableSize:     4 << 10,
		BlockSize:        256,
		BlockCacheSize:   16 << 10,
		RegionSplitSize:  16 << 10,
		MaxFilesPerStore: 4,
		RowCacheSize:     64 << 10, // about a kilobyte per shard: rows are evicted
		Logger:           discardLogger(),
	}
}

// modelGen draws operations over a small key and column space, so that rows
// collide, versions pile up and deletes hit.
type modelGen struct {
	r    *rand.Rand
	keys []string
}

func newModelGen(seed uint64) *modelGen {
	g := &modelGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	for i := range 48 {
		g.keys = append(g.keys, fmt.Sprintf("k%02d", i))
	}
	// Prefixes of each other, and bytes at both ends of the range.
	g.keys = append(g.keys, "k", "k1", "k16\x00", "k3\xff", "\x00", "\xff\xfe")
	return g
}

func (g *modelGen) key() []byte { return []byte(g.keys[g.r.IntN(len(g.keys))]) }

func (g *modelGen) family(spec kv.TableSpec) string {
	return spec.Families[g.r.IntN(len(spec.Families))].Name
}

func (g *modelGen) qual() []byte {
	if g.r.IntN(20) == 0 {
		return []byte{}
	}
	return fmt.Appendf(nil, "q%d", g.r.IntN(4))
}

func (g *modelGen) ts() kv.Timestamp {
	if g.r.IntN(30) == 0 {
		return kv.MaxTimestamp
	}
	return kv.Timestamp(g.r.IntN(12) * 1000)
}

func (g *modelGen) value(step int) []byte {
	n := g.r.IntN(160)
	if g.r.IntN(25) == 0 {
		n = 1500 + g.r.IntN(1000)
	}
	v := fmt.Appendf(nil, "v%d.%d.", step, g.r.IntN(1000))
	for len(v) < n {
		v = append(v, byte('a'+len(v)%26))
	}
	return v
}

func (g *modelGen) mutation(spec kv.TableSpec, step int) kv.Mutation {
	switch n := g.r.IntN(20); {
	case n < 13:
		return kv.Mutation{Kind: kv.SetCell, Family: g.family(spec), Qualifier: g.qual(), Timestamp: g.ts(), Value: g.value(step)}
	case n < 17:
		start, end := g.ts(), g.ts()
		if end < start {
			start, end = end, start
		}
		if g.r.IntN(3) == 0 {
			end = 0
		}
		return kv.Mutation{Kind: kv.DeleteCells, Family: g.family(spec), Qualifier: g.qual(), Start: start, End: end}
	case n < 19:
		return kv.Mutation{Kind: kv.DeleteFamily, Family: g.family(spec)}
	default:
		return kv.Mutation{Kind: kv.DeleteRow}
	}
}

func (g *modelGen) batch(spec kv.TableSpec, step int) []kv.RowMutation {
	batch := make([]kv.RowMutation, 1+g.r.IntN(4))
	for i := range batch {
		batch[i] = kv.RowMutation{Key: g.key(), Require: kv.Precondition(max(0, g.r.IntN(7)-4))}
		for range 1 + g.r.IntN(4) {
			batch[i].Mutations = append(batch[i].Mutations, g.mutation(spec, step))
		}
	}
	return batch
}

func (g *modelGen) read(spec kv.TableSpec) (kv.RowSet, kv.ReadOptions) {
	var rs kv.RowSet
	if g.r.IntN(6) > 0 {
		for range g.r.IntN(4) {
			rs.Keys = append(rs.Keys, g.key())
		}
		for range g.r.IntN(3) {
			r := kv.KeyRange{Start: g.key(), End: g.key()}
			if g.r.IntN(4) == 0 {
				r.Start = nil
			}
			if g.r.IntN(4) == 0 {
				r.End = nil
			}
			rs.Ranges = append(rs.Ranges, r)
		}
	}
	var o kv.ReadOptions
	if g.r.IntN(3) == 0 {
		o.Families = []string{g.family(spec), g.family(spec)}
	}
	if g.r.IntN(4) == 0 {
		o.Columns = []kv.Column{{Family: g.family(spec), Qualifier: g.qual()}, {Family: g.family(spec), Qualifier: g.qual()}}
	}
	o.MaxVersions = g.r.IntN(5)
	if g.r.IntN(3) == 0 {
		o.MinTimestamp, o.MaxTimestamp = g.ts(), g.ts()
		if g.r.IntN(4) == 0 {
			o.MaxTimestamp = 0
		}
	}
	o.Limit = int64(max(0, g.r.IntN(10)-5))
	o.Reverse = g.r.IntN(2) == 0
	return rs, o
}

// get is a point read: one key, sometimes projected.
func (g *modelGen) get(spec kv.TableSpec) (kv.RowSet, kv.ReadOptions) {
	rs := kv.RowSet{Keys: [][]byte{g.key()}}
	var o kv.ReadOptions
	if g.r.IntN(2) == 0 {
		o.Columns = []kv.Column{{Family: g.family(spec), Qualifier: g.qual()}}
	}
	o.MaxVersions = g.r.IntN(4)
	return rs, o
}

// modelRun is one seeded run: the store on a MemFS and the model beside it.
type modelRun struct {
	t      *testing.T
	ctx    context.Context
	seed   uint64
	step   int
	g      *modelGen
	mem    *vfs.MemFS
	proc   *procFS
	store  *lsm.Store
	tables []kv.Table
	models []*refTable
	ops    []string // every operation, for the history printed on failure

	ingested, ingestRefused int // bulk ingests committed, and refused as expected
}

const modelDir = "db"

func (r *modelRun) fatalf(format string, args ...any) {
	r.t.Helper()
	r.t.Fatalf("seed %d step %d: %s\nrecent operations (oldest first):\n  %s", r.seed, r.step,
		fmt.Sprintf(format, args...), strings.Join(r.ops[max(0, len(r.ops)-12):], "\n  "))
}

// history lists the writes to the rows with these keys (as %q prints them)
// and every flush, compaction and restart, oldest first.
func (r *modelRun) history(i int, keys []string) string {
	if len(keys) == 0 {
		return ""
	}
	var out []string
	for _, op := range r.ops {
		_, rest, _ := strings.Cut(op, ": ")
		isWrite := strings.HasPrefix(rest, "apply "+modelTables[i].name+" ")
		hit := slices.ContainsFunc(keys, func(k string) bool { return strings.Contains(rest, "["+k+" ") })
		if isWrite && hit || !strings.HasPrefix(rest, "apply") && !strings.HasPrefix(rest, "read") &&
			!strings.HasPrefix(rest, "get") && !strings.HasPrefix(rest, "snapshot") {
			out = append(out, op)
		}
	}
	return fmt.Sprintf("history of rows %s in %s, with flushes, compactions and restarts:\n  %s\n",
		strings.Join(keys, " "), modelTables[i].name, strings.Join(out, "\n  "))
}

func (r *modelRun) note(format string, args ...any) {
	r.ops = append(r.ops, fmt.Sprintf("%d: ", r.step)+fmt.Sprintf(format, args...))
}

func (r *modelRun) open() {
	r.t.Helper()
	r.proc = &procFS{inner: r.mem}
	s, err := lsm.Open(modelDir, modelOptions(r.proc))
	if err != nil {
		r.fatalf("open: %v", err)
	}
	r.store = s
	r.tables = r.tables[:0]
	for _, mt := range modelTables {
		tbl, err := s.Table(r.ctx, mt.name)
		if err != nil {
			r.fatalf("table %s after open: %v", mt.name, err)
		}
		r.tables = append(r.tables, tbl)
	}
}

// check compares one read of table i with the model.
func (r *modelRun) check(i int, rs kv.RowSet, o kv.ReadOptions, what string) {
	r.t.Helper()
	got, err := readAll(r.ctx, r.tables[i], rs, o)
	if err != nil {
		r.fatalf("%s: read %s %+v %+v: %v", what, modelTables[i].name, rs, o, err)
	}
	if d, keys := diffRows(got, r.models[i].read(rs, o)); d != "" {
		r.fatalf("%s: read %s rowset %q options %+v:\n%s%s", what, modelTables[i].name, fmtRowSet(rs), o, d, r.history(i, keys))
	}
}

// checkAll compares every version of every table with the model.
func (r *modelRun) checkAll(what string) {
	r.t.Helper()
	for i := range r.tables {
		r.check(i, kv.RowSet{}, kv.ReadOptions{MaxVersions: 100}, what)
		r.check(i, kv.RowSet{}, kv.ReadOptions{MaxVersions: 100, Reverse: true}, what)
	}
}

func fmtRowSet(rs kv.RowSet) string {
	var parts []string
	for _, k := range rs.Keys {
		parts = append(parts, fmt.Sprintf("%q", k))
	}
	for _, rg := range rs.Ranges {
		parts = append(parts, fmt.Sprintf("[%q,%q)", rg.Start, rg.End))
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// apply draws a batch for table i, applies it to both and settles
// resurfaced versions.
func (r *modelRun) apply(i int) {
	r.t.Helper()
	m, spec := r.models[i], modelTables[i].spec
	var batch []kv.RowMutation
	failed := -1
	for {
		batch = r.g.batch(spec, r.step)
		f, ambiguous := m.apply(batch)
		if !ambiguous {
			failed = f
			break
		}
	}
	r.note("apply %s %s", modelTables[i].name, fmtBatch(batch))
	err := r.tables[i].Apply(r.ctx, batch)
	var ce *kv.ConditionError
	switch {
	case failed < 0 && err != nil:
		r.fatalf("apply: %v", err)
	case failed >= 0 && (!errors.As(err, &ce) || ce.Index != failed || !bytes.Equal(ce.Key, batch[failed].Key)):
		r.fatalf("apply: want a *kv.ConditionError at row mutation %d, got %v", failed, err)
	}
	// Apply copies what it keeps: scribble over the caller's slices.
	for j := range batch {
		for k := range batch[j].Mutations {
			clear(batch[j].Mutations[k].Value)
			clear(batch[j].Mutations[k].Qualifier)
		}
		clear(batch[j].Key)
	}
	for key := range m.rows {
		for _, col := range m.resurfaced(key) {
			rs := kv.RowSet{Keys: [][]byte{[]byte(key)}}
			o := kv.ReadOptions{Columns: []kv.Column{{Family: col.fam, Qualifier: []byte(col.qual)}}, MaxVersions: 100}
			rows, err := readAll(r.ctx, r.tables[i], rs, o)
			if err != nil {
				r.fatalf("read resurfaced column %q %s:%q: %v", key, col.fam, col.qual, err)
			}
			shown := map[kv.Timestamp]string{}
			for _, row := range rows {
				for _, c := range row.Cells {
					shown[c.Timestamp] = string(c.Value)
				}
			}
			m.resolve(key, col, shown)
		}
	}
}

func fmtBatch(batch []kv.RowMutation) string {
	var b strings.Builder
	for _, rm := range batch {
		fmt.Fprintf(&b, "[%q req=%d", rm.Key, rm.Require)
		for _, mu := range rm.Mutations {
			switch mu.Kind {
			case kv.SetCell:
				fmt.Fprintf(&b, " set %s:%q@%d(%dB)", mu.Family, mu.Qualifier, mu.Timestamp, len(mu.Value))
			case kv.DeleteCells:
				fmt.Fprintf(&b, " delcells %s:%q[%d,%d)", mu.Family, mu.Qualifier, mu.Start, mu.End)
			case kv.DeleteFamily:
				fmt.Fprintf(&b, " delfam %s", mu.Family)
			case kv.DeleteRow:
				b.WriteString(" delrow")
			}
		}
		b.WriteString("]")
	}
	return b.String()
}

// snapshotRead opens an iterator, then applies a batch and maybe flushes
// and compacts, and requires the iterator to see exactly the state at Read.
func (r *modelRun) snapshotRead(i int) {
	r.t.Helper()
	rs, o := r.g.read(modelTables[i].spec)
	want := r.models[i].read(rs, o)
	it := r.tables[i].Read(r.ctx, rs, o)
	var got []kv.Row
	if it.Next() {
		got = append(got, cloneRow(it.Row()))
	}
	r.note("snapshot read %s %s %+v (then write)", modelTables[i].name, fmtRowSet(rs), o)
	r.apply(i)
	if r.g.r.IntN(2) == 0 {
		r.note("flush+compact under an open iterator")
		if err := r.store.Flush(r.ctx); err != nil {
			r.fatalf("flush: %v", err)
		}
		if err := r.store.Compact(r.ctx); err != nil {
			r.fatalf("compact: %v", err)
		}
	}
	for it.Next() {
		got = append(got, cloneRow(it.Row()))
	}
	err := it.Err()
	it.Close()
	if err != nil {
		r.fatalf("snapshot read: %v", err)
	}
	if d, keys := diffRows(got, want); d != "" {
		r.fatalf("snapshot read %s %s %+v saw later writes:\n%s%s", modelTables[i].name, fmtRowSet(rs), o, d, r.history(i, keys))
	}
}

func (r *modelRun) restart() {
	r.t.Helper()
	r.note("restart")
	old := r.tables[0]
	if err := r.store.Close(); err != nil {
		r.fatalf("close: %v", err)
	}
	// A closed store's handles fail with kv.ErrClosed.
	err := old.Apply(r.ctx, []kv.RowMutation{{Key: []byte("k00"), Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}}})
	if !errors.Is(err, kv.ErrClosed) {
		r.fatalf("Apply on a closed store: got %v, want kv.ErrClosed", err)
	}
	it := old.Read(r.ctx, kv.RowSet{}, kv.ReadOptions{})
	if it.Next() || !errors.Is(it.Err(), kv.ErrClosed) {
		r.fatalf("Read on a closed store: got %v, want kv.ErrClosed", it.Err())
	}
	it.Close()
	r.open()
}

// crash kills the simulated process, drops everything not synced (or, with
// partial, a random part of it), and opens the store again. With NoSync
// false every acknowledged batch must survive, so the model is unchanged.
func (r *modelRun) crash(partial bool) {
	r.t.Helper()
	r.note("crash (partial=%v)", partial)
	r.proc.kill()
	if partial {
		r.mem.CrashKeepPartial(r.g.r)
	} else {
		r.mem.Crash()
	}
	closeWithin(r.t, r.store) // the dead process's store: it can touch nothing; its error means nothing
	r.open()
}

// modelSeeds adds random seeds to TestModel, for a soak:
// go test ./kv/lsm -run TestModel -model.seeds=50. A failure names its seed;
// rerun it with -run 'TestModel/seed=N$' -model.seed=N.
var (
	modelSeeds = flag.Int("model.seeds", 0, "extra random seeds for TestModel")
	modelSeed  = flag.Uint64("model.seed", 0, "also run TestModel with this seed")
)

func TestModel(t *testing.T) {
	seeds, steps := []uint64{1, 2, 3, 4}, 3000
	if testing.Short() {
		seeds, steps = []uint64{1, 2}, 600
	}
	for range *modelSeeds {
		seeds = append(seeds, rand.Uint64())
	}
	if *modelSeed != 0 {
		seeds = append(seeds, *modelSeed)
	}
	split := false
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			if testModel(t, seed, steps) {
				split = true
			}
		})
	}
	if !t.Failed() && !testing.Short() && !split {
		t.Errorf("no seed split table t1 into more than one region: RegionSplitSize is not exercised")
	}
}

// testModel runs one seed and reports whether table t1 (not pre-split) ended
// with more than one region.
func testModel(t *testing.T, seed uint64, steps int) bool {
	r := &modelRun{t: t, ctx: context.Background(), seed: seed, g: newModelGen(seed), mem: vfs.NewMem()}
	r.proc = &procFS{inner: r.mem}
	s, err := lsm.Open(modelDir, modelOptions(r.proc))
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	for _, mt := range modelTables {
		if err := s.CreateTable(r.ctx, mt.name, mt.spec); err != nil {
			t.Fatalf("create %s: %v", mt.name, err)
		}
		r.models = append(r.models, newRefTable(mt.spec))
	}
	r.store = s
	for _, mt := range modelTables {
		tbl, err := s.Table(r.ctx, mt.name)
		if err != nil {
			t.Fatal(err)
		}
		r.tables = append(r.tables, tbl)
	}
	r.restart() // the tables themselves must survive a restart
	defer func() {
		if p := recover(); p != nil {
			panic(p) // the store may hold its locks: do not Close it
		}
		closeWithin(t, r.store)
	}()

	for r.step = 0; r.step < steps; r.step++ {
		i := r.g.r.IntN(len(modelTables))
		spec := modelTables[i].spec
		switch n := r.g.r.IntN(100); {
		case n < 45:
			r.apply(i)
		case n < 50:
			r.ingest(i)
		case n < 70:
			rs, o := r.g.read(spec)
			r.note("read %s %s %+v", modelTables[i].name, fmtRowSet(rs), o)
			r.check(i, rs, o, "read")
		case n < 82:
			rs, o := r.g.get(spec)
			r.note("get %s %s %+v", modelTables[i].name, fmtRowSet(rs), o)
			r.check(i, rs, o, "get")
			// The same Get again: the row cache answers it from the
			// row the first one read, when that one could be cached.
			r.check(i, rs, o, "get again")
		case n < 86:
			r.snapshotRead(i)
		case n < 90:
			r.note("flush")
			if err := r.store.Flush(r.ctx); err != nil {
				r.fatalf("flush: %v", err)
			}
			r.checkAll("after flush")
		case n < 93:
			r.note("compact")
			if err := r.store.Compact(r.ctx); err != nil {
				r.fatalf("compact: %v", err)
			}
			r.checkAll("after compact")
		case n < 95:
			r.restart()
			r.checkAll("after restart")
		case n < 97:
			r.crash(false)
			r.checkAll("after crash")
		default:
			r.crash(true)
			r.checkAll("after crash keeping a torn tail")
		}
		// Every step ends with a read of the whole of one table.
		r.check(r.g.r.IntN(len(modelTables)), kv.RowSet{}, kv.ReadOptions{MaxVersions: 3}, "end of step")
	}
	r.checkAll("final")
	names, err := r.store.ListTables(r.ctx)
	if err != nil || !slices.Equal(names, []string{"t1", "t2"}) {
		t.Fatalf("seed %d: ListTables = %q, %v", seed, names, err)
	}
	regions := map[string]int{}
	for _, mt := range modelTables {
		infos, err := r.store.Regions(r.ctx, mt.name)
		if err != nil {
			t.Fatalf("seed %d: Regions(%s): %v", seed, mt.name, err)
		}
		regions[mt.name] = len(infos)
	}
	if regions["t2"] < 3 {
		t.Errorf("seed %d: table t2 pre-split at 2 keys has %d regions", seed, regions["t2"])
	}
	rows, kept, dropped := 0, 0, 0
	for _, m := range r.models {
		rows, kept, dropped = rows+len(m.rows), kept+m.kept, dropped+m.dropped
	}
	t.Logf("seed %d: %d steps, %d rows at the end, regions %v; resurfaced old versions: %d kept, %d garbage-collected; ingests: %d committed, %d refused",
		seed, steps, rows, regions, kept, dropped, r.ingested, r.ingestRefused)
	return regions["t1"] > 1
}

// TestRestartNewestWins is a focused form of a model-test failure: one batch
// per step writes a new value to rows in all three regions of a pre-split
// table, with a clean restart every few steps. Each read must show the
// latest value everywhere.
func TestRestartNewestWins(t *testing.T) {
	ctx := context.Background()
	mem := vfs.NewMem()
	s, err := lsm.Open(modelDir, modelOptions(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { closeWithin(t, s) }()
	if err := s.CreateTable(ctx, "t2", modelTables[1].spec); err != nil {
		t.Fatal(err)
	}
	keys := []string{"k05", "k16", "k16\x00", "k20", "k40"}
	steps := 2000
	if testing.Short() {
		steps = 300
	}
	for step := range steps {
		tbl, err := s.Table(ctx, "t2")
		if err != nil {
			t.Fatal(err)
		}
		var batch []kv.RowMutation
		for _, k := range keys {
			batch = append(batch, kv.RowMutation{Key: []byte(k), Mutations: []kv.Mutation{
				{Kind: kv.SetCell, Family: "y", Qualifier: []byte("q"), Timestamp: 1000, Value: fmt.Appendf(nil, "%d %0100d", step, 0)},
			}})
		}
		if err := tbl.Apply(ctx, batch); err != nil {
			t.Fatal(err)
		}
		rows, err := readAll(ctx, tbl, kv.RowSet{}, kv.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var stale []string
		for _, r := range rows {
			if v := string(r.Cells[0].Value); !strings.HasPrefix(v, fmt.Sprintf("%d ", step)) {
				stale = append(stale, fmt.Sprintf("%q has the value of step %s", r.Key, v[:strings.IndexByte(v, ' ')]))
			}
		}
		if len(rows) != len(keys) || len(stale) > 0 {
			infos, _ := s.Regions(context.Background(), "t2")
			t.Fatalf("step %d (restart every 7 steps): %d rows, %s\nregions %+v", step, len(rows), strings.Join(stale, ", "), infos)
		}
		if step%7 == 6 {
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if s, err = lsm.Open(modelDir, modelOptions(mem)); err != nil {
				t.Fatal(err)
			}
		}
	}
}
