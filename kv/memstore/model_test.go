package memstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/widesql/widesql/kv"
)

// model is the obviously-correct reference for a table: a map from key to
// an unordered list of cells, sorted only when read.
type model struct {
	versions map[string]int // family -> MaxVersions
	rows     map[string][]kv.Cell
}

func (m *model) clone() map[string][]kv.Cell {
	out := make(map[string][]kv.Cell, len(m.rows))
	for k, cells := range m.rows {
		out[k] = slices.Clone(cells)
	}
	return out
}

func sortCells(cells []kv.Cell) {
	slices.SortFunc(cells, func(a, b kv.Cell) int {
		return compareCell(&a, b.Family, b.Qualifier, b.Timestamp)
	})
}

// apply mirrors Table.Apply for a valid batch, returning the index of the
// first failed precondition or -1.
func (m *model) apply(batch []kv.RowMutation) int {
	saved := m.clone()
	for i, rm := range batch {
		key := string(rm.Key)
		cells := m.rows[key]
		if (rm.Require == kv.RequireAbsent && len(cells) > 0) || (rm.Require == kv.RequirePresent && len(cells) == 0) {
			m.rows = saved
			return i
		}
		for _, mu := range rm.Mutations {
			switch mu.Kind {
			case kv.SetCell:
				cells = slices.DeleteFunc(cells, func(c kv.Cell) bool {
					return c.Family == mu.Family && bytes.Equal(c.Qualifier, mu.Qualifier) && c.Timestamp == mu.Timestamp
				})
				cells = append(cells, kv.Cell{Family: mu.Family, Qualifier: bytes.Clone(mu.Qualifier), Timestamp: mu.Timestamp, Value: bytes.Clone(mu.Value)})
			case kv.DeleteCells:
				cells = slices.DeleteFunc(cells, func(c kv.Cell) bool {
					return c.Family == mu.Family && bytes.Equal(c.Qualifier, mu.Qualifier) &&
						c.Timestamp >= mu.Start && (mu.End == 0 || c.Timestamp < mu.End)
				})
			case kv.DeleteFamily:
				cells = slices.DeleteFunc(cells, func(c kv.Cell) bool { return c.Family == mu.Family })
			case kv.DeleteRow:
				cells = nil
			}
		}
		// GC: keep the newest MaxVersions of each column.
		sortCells(cells)
		var kept []kv.Cell
		for j, c := range cells {
			n := 0
			for _, d := range cells[:j] {
				if sameColumn(&c, &d) {
					n++
				}
			}
			if n < max(m.versions[c.Family], 1) {
				kept = append(kept, c)
			}
		}
		if len(kept) == 0 {
			delete(m.rows, key)
		} else {
			m.rows[key] = kept
		}
	}
	return -1
}

// read mirrors Table.Read, including its stats.
func (m *model) read(rs kv.RowSet, o kv.ReadOptions) ([]kv.Row, kv.ReadStats) {
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
	var st kv.ReadStats
	for _, k := range keys {
		if o.Limit > 0 && int64(len(rows)) == o.Limit {
			break
		}
		st.RowsRead++
		st.CellsRead += int64(len(m.rows[k]))
		var cells []kv.Cell
		for _, c := range m.rows[k] {
			if c.Timestamp < o.MinTimestamp || (o.MaxTimestamp != 0 && c.Timestamp >= o.MaxTimestamp) ||
				(len(o.Families) > 0 && !slices.Contains(o.Families, c.Family)) ||
				(len(o.Columns) > 0 && !slices.ContainsFunc(o.Columns, func(col kv.Column) bool {
					return col.Family == c.Family && bytes.Equal(col.Qualifier, c.Qualifier)
				})) {
				continue
			}
			n := 0
			for _, d := range cells {
				if sameColumn(&c, &d) {
					n++
				}
			}
			if n < max(o.MaxVersions, 1) {
				cells = append(cells, c)
			}
		}
		if len(cells) > 0 {
			rows = append(rows, kv.Row{Key: []byte(k), Cells: cells})
		}
	}
	return rows, st
}

// gen draws random operations over a small key and column space, so that
// rows collide, versions pile up and deletes hit.
type gen struct{ r *rand.Rand }

func (g gen) key() []byte    { return fmt.Appendf(nil, "k%02d", g.r.IntN(24)) }
func (g gen) family() string { return []string{"a", "b", "c"}[g.r.IntN(3)] }
func (g gen) qual() []byte   { return fmt.Appendf(nil, "q%d", g.r.IntN(4)) }
func (g gen) ts() kv.Timestamp {
	return kv.Timestamp(g.r.IntN(8) * 1000)
}

func (g gen) mutation() kv.Mutation {
	switch n := g.r.IntN(20); {
	case n < 13:
		return kv.Mutation{Kind: kv.SetCell, Family: g.family(), Qualifier: g.qual(), Timestamp: g.ts(), Value: fmt.Appendf(nil, "v%d", g.r.IntN(1000))}
	case n < 17:
		start, end := g.ts(), g.ts()
		if end < start {
			start, end = end, start
		}
		if g.r.IntN(3) == 0 {
			end = 0
		}
		return kv.Mutation{Kind: kv.DeleteCells, Family: g.family(), Qualifier: g.qual(), Start: start, End: end}
	case n < 19:
		return kv.Mutation{Kind: kv.DeleteFamily, Family: g.family()}
	default:
		return kv.Mutation{Kind: kv.DeleteRow}
	}
}

func (g gen) batch() []kv.RowMutation {
	batch := make([]kv.RowMutation, 1+g.r.IntN(4))
	for i := range batch {
		batch[i] = kv.RowMutation{Key: g.key(), Require: kv.Precondition(max(0, g.r.IntN(6)-3))}
		for range 1 + g.r.IntN(4) {
			batch[i].Mutations = append(batch[i].Mutations, g.mutation())
		}
	}
	return batch
}

func (g gen) read() (kv.RowSet, kv.ReadOptions) {
	var rs kv.RowSet
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
	var o kv.ReadOptions
	if g.r.IntN(3) == 0 {
		o.Families = []string{g.family(), g.family()}
	}
	if g.r.IntN(4) == 0 {
		o.Columns = []kv.Column{{Family: g.family(), Qualifier: g.qual()}, {Family: g.family(), Qualifier: g.qual()}}
	}
	o.MaxVersions = g.r.IntN(5)
	if g.r.IntN(3) == 0 {
		o.MinTimestamp, o.MaxTimestamp = g.ts(), g.ts()
	}
	o.Limit = int64(max(0, g.r.IntN(10)-4))
	o.Reverse = g.r.IntN(2) == 0
	return rs, o
}

func drain(t *testing.T, it kv.RowIterator) ([]kv.Row, kv.ReadStats) {
	t.Helper()
	defer it.Close()
	var rows []kv.Row
	for it.Next() {
		r := it.Row()
		cells := make([]kv.Cell, len(r.Cells))
		copy(cells, r.Cells) // slices alias immutable rows; headers are reused
		rows = append(rows, kv.Row{Key: bytes.Clone(r.Key), Cells: cells})
	}
	if err := it.Err(); err != nil {
		t.Fatalf("read: %v", err)
	}
	return rows, it.Stats()
}

func TestModel(t *testing.T) {
	for _, fill := range []int{1, 3, defaultFillSize} {
		t.Run(fmt.Sprintf("fill=%d", fill), func(t *testing.T) { testModel(t, fill) })
	}
}

func testModel(t *testing.T, fill int) {
	ctx := context.Background()
	s := New()
	spec := kv.TableSpec{Families: []kv.Family{{Name: "a", MaxVersions: 3}, {Name: "b", MaxVersions: 1}, {Name: "c"}}}
	if err := s.CreateTable(ctx, "t", spec); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	tbl.(*Table).fillSize = fill // exercise resuming seeks
	m := &model{versions: map[string]int{"a": 3, "b": 1}, rows: map[string][]kv.Cell{}}
	g := gen{rand.New(rand.NewPCG(1, 2))}
	for step := range 2000 {
		if g.r.IntN(2) == 0 {
			batch := g.batch()
			failed := m.apply(batch)
			err := tbl.Apply(ctx, batch)
			var ce *kv.ConditionError
			switch {
			case failed < 0 && err != nil:
				t.Fatalf("step %d: apply %v: %v", step, batch, err)
			case failed >= 0 && (!errors.As(err, &ce) || ce.Index != failed || !bytes.Equal(ce.Key, batch[failed].Key)):
				t.Fatalf("step %d: apply %v: want condition failure at %d, got %v", step, batch, failed, err)
			}
			// The caller may reuse its slices.
			for i := range batch {
				for j := range batch[i].Mutations {
					clear(batch[i].Mutations[j].Value)
					clear(batch[i].Mutations[j].Qualifier)
				}
				clear(batch[i].Key)
			}
		}
		rs, o := g.read()
		if g.r.IntN(10) == 0 {
			rs = kv.RowSet{}
		}
		want, wantStats := m.read(rs, o)
		got, gotStats := drain(t, tbl.Read(ctx, rs, o))
		if fmt.Sprint(got) != fmt.Sprint(want) || gotStats != wantStats {
			t.Fatalf("step %d: read %+v %+v\ngot  %v %+v\nwant %v %+v", step, rs, o, got, gotStats, want, wantStats)
		}
	}
	// The full contents, all versions, agree at the end.
	want, _ := m.read(kv.RowSet{}, kv.ReadOptions{MaxVersions: 100})
	got, _ := drain(t, tbl.Read(ctx, kv.RowSet{}, kv.ReadOptions{MaxVersions: 100}))
	if fmt.Sprint(got) != fmt.Sprint(want) || len(got) == 0 {
		t.Fatalf("final contents differ:\ngot  %v\nwant %v", got, want)
	}
	t.Logf("final: %d rows", len(got))
}
