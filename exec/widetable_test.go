package exec

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/memstore"
	"github.com/widesql/widesql/kv/txn"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
)

// The wide adapter is checked against a tall model: the same random tall
// mutations go to a plain memstore table and, through newWideTable, to a
// wide one; every random read (keys, partial-key and byte ranges, reverse,
// limit, projections, versions, time ranges) must return the same tall
// rows from both.

// wideKeyCol is one key column of a test table.
type wideKeyCol struct {
	typ  types.T
	desc bool
}

// wideTestDesc builds a table with the given key and four non-key columns
// over families a, d (the marker family) and z.
func wideTestDesc(key ...wideKeyCol) *planner.TableDesc {
	d := &planner.TableDesc{ID: 1, Name: "w", Layout: planner.LayoutWide, MarkerFamily: "d",
		Families: []planner.FamilyDesc{{Name: "a", MaxVersions: 3}, {Name: "d", MaxVersions: 2}, {Name: "z"}}}
	for i, k := range key {
		d.Columns = append(d.Columns, planner.ColumnDesc{ID: uint32(i + 1), Name: fmt.Sprint("k", i), Type: k.typ, KeyPos: i})
		d.Key = append(d.Key, planner.KeyColumn{Col: i, Desc: k.desc})
	}
	for i, f := range []string{"d", "a", "z", "d"} {
		d.Columns = append(d.Columns, planner.ColumnDesc{ID: uint32(len(key) + i + 1), Name: fmt.Sprint("c", i), Type: types.TInt8, Family: f, KeyPos: -1})
	}
	d.NextColumnID = uint32(len(d.Columns) + 1)
	return d
}

func wideSpec(d *planner.TableDesc) kv.TableSpec {
	return kv.TableSpec{Families: kvFamilies(d)}
}

// wideGen draws random keys, mutations and reads for one descriptor.
type wideGen struct {
	r  *rand.Rand
	d  *planner.TableDesc
	ts kv.Timestamp
}

var wideTexts = []string{"", "a", "a\x00", "ab", "b"}
var wideInts = []int64{-1, 0, 1, 300}

func (g *wideGen) value(t types.T) types.Datum {
	if t.Kind == types.Text {
		return types.NewText(wideTexts[g.r.Intn(len(wideTexts))])
	}
	return types.NewInt(t.Kind, wideInts[g.r.Intn(len(wideInts))])
}

// prefix encodes random values of the first n key columns.
func (g *wideGen) prefix(n int) []byte {
	var k []byte
	for _, kc := range g.d.Key[:n] {
		t := g.d.Columns[kc.Col].Type
		k = keyenc.AppendKey(k, g.value(t), t, kc.Desc)
	}
	return k
}

func (g *wideGen) key() []byte { return g.prefix(len(g.d.Key)) }

// bound draws a range bound: nil, a partial or full key, maybe bumped
// with PrefixEnd, extended by a byte or cut to a string prefix, or junk.
func (g *wideGen) bound() []byte {
	switch g.r.Intn(6) {
	case 0:
		return nil
	case 1:
		b := make([]byte, g.r.Intn(3))
		g.r.Read(b)
		return b
	}
	n := g.r.Intn(len(g.d.Key) + 1)
	k := g.prefix(n)
	switch g.r.Intn(4) {
	case 0:
		k = keyenc.PrefixEnd(k)
	case 1:
		k = append(k, byte(g.r.Intn(256)))
	case 2:
		if n < len(g.d.Key) {
			kc := g.d.Key[n]
			if g.d.Columns[kc.Col].Type.Kind == types.Text {
				k = keyenc.AppendStringPrefix(k, wideTexts[g.r.Intn(len(wideTexts))], kc.Desc)
			}
		}
	}
	return k
}

func (g *wideGen) nonKey() []planner.ColumnDesc { return g.d.Columns[len(g.d.Key):] }

// cells sets some columns and always the marker, as exec's writers do:
// the marker is present exactly when the SQL row has cells, so tall row
// presence and wide marker presence agree.
func (g *wideGen) cells() []kv.Mutation {
	ms := []kv.Mutation{{Kind: kv.SetCell, Family: "d", Qualifier: planner.MarkerQualifier, Timestamp: g.ts}}
	for _, c := range g.nonKey() {
		switch g.r.Intn(3) {
		case 0:
			ts := g.ts
			if g.r.Intn(4) == 0 {
				ts = kv.Timestamp(g.r.Int63n(int64(g.ts)/1000+1) * 1000) // an older version
			}
			ms = append(ms, kv.Mutation{Kind: kv.SetCell, Family: c.Family, Qualifier: c.Qualifier(), Timestamp: ts, Value: []byte{byte(g.r.Intn(256))}})
		case 1:
			ms = append(ms, kv.Mutation{Kind: kv.DeleteCells, Family: c.Family, Qualifier: c.Qualifier()})
		}
	}
	return ms
}

func (g *wideGen) mutation() kv.RowMutation {
	rm := kv.RowMutation{Key: g.key()}
	switch g.r.Intn(7) {
	case 0, 1:
		rm.Require, rm.Mutations = kv.RequireAbsent, g.cells()
	case 2:
		rm.Require, rm.Mutations = kv.RequirePresent, g.cells()
	case 3:
		rm.Mutations = g.cells()
	case 4:
		rm.Mutations = []kv.Mutation{{Kind: kv.DeleteRow}}
		if g.r.Intn(2) == 0 {
			rm.Require = kv.RequirePresent
		}
	case 5:
		// A non-marker family: the marker stays, as in a SQL row.
		rm.Mutations = []kv.Mutation{{Kind: kv.DeleteFamily, Family: []string{"a", "z"}[g.r.Intn(2)]}}
	case 6:
		// A key move: the old row deleted and the new one rewritten.
		rm.Mutations = append([]kv.Mutation{{Kind: kv.DeleteRow}}, g.cells()...)
	}
	return rm
}

func (g *wideGen) rowSet() kv.RowSet {
	var rs kv.RowSet
	for n := g.r.Intn(4); n > 0; n-- {
		if g.r.Intn(8) == 0 {
			rs.Keys = append(rs.Keys, g.bound()) // maybe not a rowkey
		} else {
			rs.Keys = append(rs.Keys, g.key())
		}
	}
	if g.r.Intn(2) == 0 {
		for n := g.r.Intn(3); n > 0; n-- {
			rs.Ranges = append(rs.Ranges, kv.KeyRange{Start: g.bound(), End: g.bound()})
		}
	}
	return rs
}

func (g *wideGen) options() kv.ReadOptions {
	var o kv.ReadOptions
	if g.r.Intn(4) == 0 {
		for _, f := range []string{"a", "d", "z"} {
			if g.r.Intn(2) == 0 {
				o.Families = append(o.Families, f)
			}
		}
	}
	if g.r.Intn(2) == 0 {
		if g.r.Intn(2) == 0 {
			o.Columns = append(o.Columns, kv.Column{Family: "d", Qualifier: planner.MarkerQualifier})
		}
		for _, c := range g.nonKey() {
			if g.r.Intn(2) == 0 {
				o.Columns = append(o.Columns, kv.Column{Family: c.Family, Qualifier: c.Qualifier()})
			}
		}
	}
	o.MaxVersions = g.r.Intn(4)
	if g.r.Intn(5) == 0 {
		o.MinTimestamp = kv.Timestamp(g.r.Int63n(int64(g.ts)/1000+1) * 1000)
	}
	if g.r.Intn(5) == 0 {
		o.MaxTimestamp = kv.Timestamp(g.r.Int63n(int64(g.ts)/1000+2) * 1000)
	}
	if g.r.Intn(3) == 0 {
		o.Limit = int64(1 + g.r.Intn(4))
	}
	o.Reverse = g.r.Intn(2) == 0
	return o
}

// drain reads it to the end, copying the rows.
func drain(t *testing.T, it kv.RowIterator) []kv.Row {
	t.Helper()
	defer it.Close()
	var out []kv.Row
	for it.Next() {
		r := it.Row()
		c := kv.Row{Key: bytes.Clone(r.Key)}
		for _, cell := range r.Cells {
			cell.Qualifier, cell.Value = bytes.Clone(cell.Qualifier), bytes.Clone(cell.Value)
			c.Cells = append(c.Cells, cell)
		}
		out = append(out, c)
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// multiShim gives a table a ReadMulti that reads each set on its own, so
// that the adapter's MultiReader path runs.
type multiShim struct{ kv.Table }

func (m multiShim) ReadMulti(ctx context.Context, sets []kv.RowSet, opts kv.ReadOptions) []kv.RowIterator {
	its := make([]kv.RowIterator, len(sets))
	for i, rs := range sets {
		its[i] = m.Read(ctx, rs, opts)
	}
	return its
}

// wideInners are the kv tables the adapter is tested over.
var wideInners = map[string]func(t *testing.T, d *planner.TableDesc) kv.Table{
	"memstore": func(t *testing.T, d *planner.TableDesc) kv.Table {
		return newMemTable(t, d)
	},
	"multi": func(t *testing.T, d *planner.TableDesc) kv.Table {
		return multiShim{newMemTable(t, d)}
	},
	"txn": func(t *testing.T, d *planner.TableDesc) kv.Table {
		s := memstore.New()
		if err := s.CreateTable(context.Background(), "wide", wideSpec(d)); err != nil {
			t.Fatal(err)
		}
		live, _ := s.Table(context.Background(), "wide")
		tx, err := txn.NewManager(s, txn.Options{}).Begin(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(tx.Rollback)
		return tx.Table("wide", live, kvFamilies(d))
	},
}

func newMemTable(t *testing.T, d *planner.TableDesc) kv.Table {
	t.Helper()
	s := memstore.New()
	ctx := context.Background()
	if err := s.CreateTable(ctx, "t", wideSpec(d)); err != nil {
		t.Fatal(err)
	}
	tbl, err := s.Table(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

func TestWideTableModel(t *testing.T) {
	text, i4, i8 := types.TText, types.TInt4, types.TInt8
	keys := map[string][]wideKeyCol{
		"text,int4-desc,text-desc": {{text, false}, {i4, true}, {text, true}},
		"int8,text":                {{i8, false}, {text, false}},
		"text-desc,int4":           {{text, true}, {i4, false}},
	}
	for kname, key := range keys {
		for iname, inner := range wideInners {
			t.Run(kname+"/"+iname, func(t *testing.T) {
				d := wideTestDesc(key...)
				tall := newMemTable(t, d)
				in := inner(t, d)
				wide := newWideTable(d, in)
				_, multi := in.(kv.MultiReader)
				if _, ok := wide.(kv.MultiReader); ok != multi {
					t.Fatalf("wide table over %s: MultiReader %v", iname, ok)
				}
				for seed := int64(0); seed < 12; seed++ {
					wideModelRun(t, rand.New(rand.NewSource(seed)), d, tall, wide)
				}
			})
		}
	}
}

func wideModelRun(t *testing.T, r *rand.Rand, d *planner.TableDesc, tall, wide kv.Table) {
	ctx := context.Background()
	g := &wideGen{r: r, d: d, ts: 1000}
	for step := 0; step < 60; step++ {
		g.ts += 1000
		batch := make([]kv.RowMutation, 1+r.Intn(4))
		for i := range batch {
			batch[i] = g.mutation()
		}
		errT, errW := tall.Apply(ctx, batch), wide.Apply(ctx, batch)
		var ceT, ceW *kv.ConditionError
		switch {
		case errors.As(errT, &ceT):
			if !errors.As(errW, &ceW) || ceW.Index != ceT.Index || !bytes.Equal(ceW.Key, ceT.Key) {
				t.Fatalf("step %d: tall %v at %d, wide %v (%+v)", step, errT, ceT.Index, errW, ceW)
			}
		case errT != nil || errW != nil:
			t.Fatalf("step %d: tall %v, wide %v", step, errT, errW)
		}
		for q := 0; q < 5; q++ {
			rs, opts := g.rowSet(), g.options()
			want := drain(t, tall.Read(ctx, rs, opts))
			got := drain(t, wide.Read(ctx, rs, opts))
			if mr, ok := wide.(kv.MultiReader); ok {
				rs2 := g.rowSet()
				its := mr.ReadMulti(ctx, []kv.RowSet{rs, rs2}, opts)
				got = drain(t, its[0])
				if w2, g2 := drain(t, tall.Read(ctx, rs2, opts)), drain(t, its[1]); !reflect.DeepEqual(w2, g2) {
					t.Fatalf("step %d ReadMulti set 2 %s %+v:\nwant %s\ngot  %s", step, fmtRowSet(rs2), opts, fmtRows(w2), fmtRows(g2))
				}
			}
			if !reflect.DeepEqual(want, got) {
				t.Fatalf("step %d read %s %+v:\nwant %s\ngot  %s", step, fmtRowSet(rs), opts, fmtRows(want), fmtRows(got))
			}
		}
	}
	// Clear the table for the next seed.
	all := drain(t, tall.Read(ctx, kv.RowSet{}, kv.ReadOptions{}))
	var del []kv.RowMutation
	for _, row := range all {
		del = append(del, kv.RowMutation{Key: row.Key, Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}})
	}
	if len(del) > 0 {
		if err := tall.Apply(ctx, del); err != nil {
			t.Fatal(err)
		}
		if err := wide.Apply(ctx, del); err != nil {
			t.Fatal(err)
		}
	}
	if left := drain(t, wide.Read(ctx, kv.RowSet{}, kv.ReadOptions{MaxVersions: 10})); len(left) > 0 {
		t.Fatalf("rows left after deleting all: %s", fmtRows(left))
	}
}

func fmtRowSet(rs kv.RowSet) string {
	s := fmt.Sprintf("keys %x", rs.Keys)
	for _, r := range rs.Ranges {
		s += fmt.Sprintf(" [%x, %x)", r.Start, r.End)
	}
	return s
}

func fmtRows(rows []kv.Row) string {
	var b bytes.Buffer
	for _, r := range rows {
		fmt.Fprintf(&b, "\n  %x:", r.Key)
		for _, c := range r.Cells {
			fmt.Fprintf(&b, " %s:%x@%d=%x", c.Family, c.Qualifier, c.Timestamp/1000, c.Value)
		}
	}
	return b.String()
}

// TestWideTableLayout checks the physical layout: one kv row per
// follower, the followed user's key as the qualifier prefix of each of its
// cells, and a failed precondition reported at its tall batch index.
func TestWideTableLayout(t *testing.T) {
	ctx := context.Background()
	d := wideTestDesc(wideKeyCol{typ: types.TText}, wideKeyCol{typ: types.TText})
	inner := newMemTable(t, d)
	wide := newWideTable(d, inner)
	enc := func(s string) []byte { return keyenc.AppendKey(nil, types.NewText(s), types.TText, false) }
	key := func(a, b string) []byte { return append(enc(a), enc(b)...) }
	c0 := d.Columns[2] // family d
	put := func(a, b string, v byte) kv.RowMutation {
		return kv.RowMutation{Key: key(a, b), Require: kv.RequireAbsent, Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "d", Qualifier: planner.MarkerQualifier, Timestamp: 1000},
			{Kind: kv.SetCell, Family: "d", Qualifier: c0.Qualifier(), Timestamp: 1000, Value: []byte{v}},
		}}
	}
	if err := wide.Apply(ctx, []kv.RowMutation{put("alice", "carol", 1), put("alice", "bob", 2), put("bob", "alice", 3)}); err != nil {
		t.Fatal(err)
	}
	raw := drain(t, inner.Read(ctx, kv.RowSet{}, kv.ReadOptions{}))
	q := func(l string, id uint32) []byte { return binary.AppendUvarint(enc(l), uint64(id)) }
	want := []kv.Row{
		{Key: enc("alice"), Cells: []kv.Cell{
			{Family: "d", Qualifier: q("bob", 0), Timestamp: 1000, Value: []byte{}},
			{Family: "d", Qualifier: q("bob", c0.ID), Timestamp: 1000, Value: []byte{2}},
			{Family: "d", Qualifier: q("carol", 0), Timestamp: 1000, Value: []byte{}},
			{Family: "d", Qualifier: q("carol", c0.ID), Timestamp: 1000, Value: []byte{1}},
		}},
		{Key: enc("bob"), Cells: []kv.Cell{
			{Family: "d", Qualifier: q("alice", 0), Timestamp: 1000, Value: []byte{}},
			{Family: "d", Qualifier: q("alice", c0.ID), Timestamp: 1000, Value: []byte{3}},
		}},
	}
	for i := range raw {
		for j := range raw[i].Cells {
			if raw[i].Cells[j].Value == nil {
				raw[i].Cells[j].Value = []byte{}
			}
		}
	}
	if !reflect.DeepEqual(raw, want) {
		t.Fatalf("kv rows:%s\nwant%s", fmtRows(raw), fmtRows(want))
	}

	// A new followed user of alice is not a duplicate; bob again is, and
	// the batch's earlier row (dave) counts too.
	err := wide.Apply(ctx, []kv.RowMutation{put("alice", "dave", 4), put("alice", "dave", 5)})
	var ce *kv.ConditionError
	if !errors.As(err, &ce) || ce.Index != 1 || !bytes.Equal(ce.Key, key("alice", "dave")) {
		t.Fatalf("duplicate in batch: %v", err)
	}
	err = wide.Apply(ctx, []kv.RowMutation{put("alice", "erin", 4), put("alice", "bob", 5)})
	if !errors.As(err, &ce) || ce.Index != 1 || !bytes.Equal(ce.Key, key("alice", "bob")) {
		t.Fatalf("duplicate of a stored row: %v", err)
	}
	if got := drain(t, wide.Read(ctx, kv.RowSet{}, kv.ReadOptions{})); len(got) != 3 {
		t.Fatalf("failed batches applied something: %s", fmtRows(got))
	}

	// Deleting one SQL row leaves its neighbours in the kv row.
	if err := wide.Apply(ctx, []kv.RowMutation{{Key: key("alice", "bob"), Require: kv.RequirePresent, Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}}}); err != nil {
		t.Fatal(err)
	}
	got := drain(t, wide.Read(ctx, kv.RowSet{Ranges: []kv.KeyRange{{Start: enc("alice"), End: keyenc.PrefixEnd(enc("alice"))}}}, kv.ReadOptions{Reverse: true}))
	if len(got) != 1 || !bytes.Equal(got[0].Key, key("alice", "carol")) || len(got[0].Cells) != 2 {
		t.Fatalf("alice after deleting bob: %s", fmtRows(got))
	}
	if err := wide.Apply(ctx, []kv.RowMutation{{Key: enc("alice"), Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}}}); !errors.Is(err, kv.ErrInvalidArgument) {
		t.Fatalf("partial key: %v", err)
	}
}

// BenchmarkWideTableScan reads 10,000 SQL rows held in 100 kv rows, three
// columns each over two families, against the same rows stored tall.
func BenchmarkWideTableScan(b *testing.B) {
	ctx := context.Background()
	d := wideTestDesc(wideKeyCol{typ: types.TText}, wideKeyCol{typ: types.TText})
	for _, layout := range []string{"tall", "wide"} {
		s := memstore.New()
		if err := s.CreateTable(ctx, "t", wideSpec(d)); err != nil {
			b.Fatal(err)
		}
		t, _ := s.Table(ctx, "t")
		if layout == "wide" {
			t = newWideTable(d, t)
		}
		for i := 0; i < 100; i++ {
			var batch []kv.RowMutation
			for j := 0; j < 100; j++ {
				k := keyenc.AppendKey(nil, types.NewText(fmt.Sprintf("user%03d", i)), types.TText, false)
				k = keyenc.AppendKey(k, types.NewText(fmt.Sprintf("user%03d", j)), types.TText, false)
				ms := []kv.Mutation{{Kind: kv.SetCell, Family: "d", Qualifier: planner.MarkerQualifier, Timestamp: 1000}}
				for _, c := range d.Columns[2:5] {
					ms = append(ms, kv.Mutation{Kind: kv.SetCell, Family: c.Family, Qualifier: c.Qualifier(), Timestamp: 1000, Value: []byte("value")})
				}
				batch = append(batch, kv.RowMutation{Key: k, Mutations: ms})
			}
			if err := t.Apply(ctx, batch); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(layout, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				it := t.Read(ctx, kv.RowSet{}, kv.ReadOptions{})
				n := 0
				for it.Next() {
					n += len(it.Row().Cells)
				}
				if err := it.Err(); err != nil || n != 40000 {
					b.Fatal(n, err)
				}
				it.Close()
			}
		})
	}
}
