package lsm_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// TestLazyFamiliesDifferential checks on-demand family loading
// (kv.ReadOptions.Essential and Complete) against plain reads of the same
// snapshot: random mutations of every kind over four families (one with a
// TTL, one keeping versions) in a table of two regions, spread over
// memtables and several files of each family (flushes, compactions, a
// split), then reads of every forward shape with the hint, completing a
// random subset of the rows, with writes, flushes and a split applied
// while the reads are open. A completed row must equal the plain read's
// row; a row left alone must be the plain row's essential cells; the rows
// returned must be the plain rows with an essential cell.
func TestLazyFamiliesDifferential(t *testing.T) {
	seeds := 6
	if testing.Short() {
		seeds = 2
	}
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { testLazyFamilies(t, seed) })
	}
}

var lazySpec = kv.TableSpec{
	Families: []kv.Family{
		{Name: "a"},
		{Name: "d", MaxVersions: 2},
		{Name: "p"},
		{Name: "z", TTL: time.Hour},
	},
	SplitKeys: [][]byte{[]byte("k20")},
}

func testLazyFamilies(t *testing.T, seed uint64) {
	ctx := context.Background()
	opts := modelOptions(vfs.NewMem())
	opts.MaxFilesPerStore = 6
	s, err := lsm.Open(modelDir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer closeWithin(t, s)
	if err := s.CreateTable(ctx, "t", lazySpec); err != nil {
		t.Fatal(err)
	}
	tbl, err := s.Table(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	g := &lazyGen{r: rand.New(rand.NewPCG(seed, 77)), now: kv.Now()}
	apply := func(step int) {
		if err := tbl.Apply(ctx, g.batch(step)); err != nil {
			t.Fatalf("apply: %v", err)
		}
	}
	split := false
	for step := range 600 {
		apply(step)
		switch {
		case step%97 == 96:
			if err := s.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		case step == 400:
			if err := s.Split(ctx, "t", [][]byte{[]byte("k40")}); err != nil {
				t.Fatal(err)
			}
			split = true
		}
		if step%20 != 19 {
			continue
		}
		rs, o := g.read()
		// Both iterators take their snapshots now; writes, flushes and
		// a split then happen while they are read.
		var plain, lazy kv.RowIterator
		if g.r.IntN(3) == 0 {
			sn, err := s.Snapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			plain, lazy = sn.Read(ctx, "t", rs, withoutHint(o)), sn.Read(ctx, "t", rs, o)
			defer sn.Release()
		} else {
			plain, lazy = tbl.Read(ctx, rs, withoutHint(o)), tbl.Read(ctx, rs, o)
		}
		want, err := collectRows(plain, nil, nil)
		if err != nil {
			t.Fatalf("plain read: %v", err)
		}
		interfere := func() {
			apply(step)
			if g.r.IntN(8) == 0 {
				if err := s.Flush(ctx); err != nil {
					t.Fatal(err)
				}
			}
		}
		completed := map[string]bool{}
		got, err := collectRows(lazy, func() bool {
			if g.r.IntN(3) == 0 {
				interfere()
			}
			return g.r.IntN(2) == 0
		}, completed)
		if err != nil {
			t.Fatalf("lazy read: %v", err)
		}
		if lazyApplies(o) {
			want = essentialRows(want, o)
		}
		if len(got) != len(want) {
			t.Fatalf("seed %d step %d rowset %q options %+v: %d rows, want %d\ngot:\n%s\nwant:\n%s",
				seed, step, fmtRowSet(rs), o, len(got), len(want), rowLines(got), rowLines(want))
		}
		for i := range got {
			w := want[i]
			if lazyApplies(o) && !completed[string(got[i].Key)] {
				w = onlyFamilies(w, o.Essential)
			}
			if !equalRow(got[i], w) {
				t.Fatalf("seed %d step %d rowset %q options %+v completed %v:\ngot:\n%s\nwant:\n%s",
					seed, step, fmtRowSet(rs), o, completed[string(got[i].Key)], rowLines(got[i:i+1]), rowLines([]kv.Row{w}))
			}
		}
	}
	// The reads above met several regions and files of each family.
	regions, err := s.Regions(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	for _, r := range regions {
		files += r.Files
	}
	if !split || len(regions) < 3 || files < 2*len(lazySpec.Families) {
		t.Fatalf("split %v, %d regions, %d files: the test lost its coverage", split, len(regions), files)
	}
}

func withoutHint(o kv.ReadOptions) kv.ReadOptions {
	if lazyApplies(o) {
		// Rows without essential cells are skipped by the hinted read:
		// they must not count against the plain read's limit.
		o.Limit = 0
	}
	o.Essential = nil
	return o
}

// lazyApplies reports whether kv/lsm honours o's hint: a forward read
// selecting at least one essential and one other family.
func lazyApplies(o kv.ReadOptions) bool {
	if len(o.Essential) == 0 || o.Reverse {
		return false
	}
	ess, lazy := false, false
	for _, f := range lazySpec.Families {
		sel := len(o.Families) == 0 || slices.Contains(o.Families, f.Name)
		if len(o.Columns) > 0 {
			sel = sel && slices.ContainsFunc(o.Columns, func(c kv.Column) bool { return c.Family == f.Name })
		}
		if !sel {
			continue
		}
		if slices.Contains(o.Essential, f.Name) {
			ess = true
		} else {
			lazy = true
		}
	}
	return ess && lazy
}

// essentialRows keeps the rows with a cell in o.Essential, up to o.Limit.
func essentialRows(rows []kv.Row, o kv.ReadOptions) []kv.Row {
	var out []kv.Row
	for _, r := range rows {
		if o.Limit > 0 && int64(len(out)) == o.Limit {
			break
		}
		if len(onlyFamilies(r, o.Essential).Cells) > 0 {
			out = append(out, r)
		}
	}
	return out
}

func onlyFamilies(r kv.Row, fams []string) kv.Row {
	out := kv.Row{Key: r.Key}
	for _, c := range r.Cells {
		if slices.Contains(fams, c.Family) {
			out.Cells = append(out.Cells, c)
		}
	}
	return out
}

// collectRows reads it to the end, copying its rows. complete, when set,
// is asked for each row whether to complete it (and may write to the
// table meanwhile); completed records the keys of the rows completed.
func collectRows(it kv.RowIterator, complete func() bool, completed map[string]bool) ([]kv.Row, error) {
	defer it.Close()
	var rows []kv.Row
	for it.Next() {
		if complete != nil && complete() {
			if err := kv.CompleteRow(it); err != nil {
				return nil, err
			}
			if err := kv.CompleteRow(it); err != nil { // a second call does nothing
				return nil, err
			}
			completed[string(it.Row().Key)] = true
		}
		rows = append(rows, cloneRow(it.Row()))
	}
	return rows, it.Err()
}

// lazyGen draws mutations and reads over a small key space.
type lazyGen struct {
	r   *rand.Rand
	now kv.Timestamp
}

func (g *lazyGen) key() []byte { return fmt.Appendf(nil, "k%02d", g.r.IntN(60)) }

func (g *lazyGen) family() string { return lazySpec.Families[g.r.IntN(len(lazySpec.Families))].Name }

func (g *lazyGen) qual() []byte { return fmt.Appendf(nil, "q%d", g.r.IntN(3)) }

// ts is a timestamp within the last two hours, so that about half the
// cells of family z are past its TTL; none is within minutes of it.
func (g *lazyGen) ts() kv.Timestamp {
	return g.now - kv.Timestamp(7+15*g.r.IntN(8))*60*1_000_000
}

func (g *lazyGen) batch(step int) []kv.RowMutation {
	batch := make([]kv.RowMutation, 1+g.r.IntN(4))
	for i := range batch {
		batch[i].Key = g.key()
		for range 1 + g.r.IntN(4) {
			var m kv.Mutation
			switch n := g.r.IntN(24); {
			case n < 17:
				m = kv.Mutation{Kind: kv.SetCell, Family: g.family(), Qualifier: g.qual(), Timestamp: g.ts(),
					Value: fmt.Appendf(nil, "v%d.%d", step, g.r.IntN(1000))}
			case n < 20:
				start, end := g.ts(), g.ts()
				if end < start {
					start, end = end, start
				}
				if g.r.IntN(3) == 0 {
					end = 0
				}
				m = kv.Mutation{Kind: kv.DeleteCells, Family: g.family(), Qualifier: g.qual(), Start: start, End: end}
			case n < 22:
				m = kv.Mutation{Kind: kv.DeleteFamily, Family: g.family()}
			default:
				m = kv.Mutation{Kind: kv.DeleteRow}
			}
			batch[i].Mutations = append(batch[i].Mutations, m)
		}
	}
	return batch
}

func (g *lazyGen) read() (kv.RowSet, kv.ReadOptions) {
	var rs kv.RowSet
	switch g.r.IntN(3) {
	case 0: // a full scan
	case 1:
		for range 1 + g.r.IntN(5) {
			rs.Keys = append(rs.Keys, g.key())
		}
		slices.SortFunc(rs.Keys, func(a, b []byte) int { return slices.Compare(a, b) })
		rs.Keys = slices.CompactFunc(rs.Keys, slices.Equal)
	default:
		for range 1 + g.r.IntN(2) {
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
	for range 1 + g.r.IntN(2) {
		o.Essential = append(o.Essential, g.family())
	}
	if g.r.IntN(3) == 0 {
		o.Families = []string{g.family(), g.family(), g.family()}
	}
	if g.r.IntN(4) == 0 {
		for range 3 {
			o.Columns = append(o.Columns, kv.Column{Family: g.family(), Qualifier: g.qual()})
		}
	}
	o.MaxVersions = g.r.IntN(4)
	if g.r.IntN(4) == 0 {
		o.MinTimestamp, o.MaxTimestamp = g.ts(), g.ts()
		if o.MaxTimestamp < o.MinTimestamp {
			o.MinTimestamp, o.MaxTimestamp = o.MaxTimestamp, o.MinTimestamp
		}
		if g.r.IntN(3) == 0 {
			o.MaxTimestamp = 0
		}
	}
	o.Limit = int64(max(0, g.r.IntN(10)-6))
	o.Reverse = g.r.IntN(8) == 0
	return rs, o
}
