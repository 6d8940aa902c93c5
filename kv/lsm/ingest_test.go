package lsm_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// ingest is the model test's bulk ingest step (kv.Ingester): a random set
// of new rows of Sets only, in key order or not, sometimes with a key
// twice or a key that has live cells (then Commit must fail and change
// nothing), sometimes under a store snapshot taken before it (which must
// not see the rows), sometimes cut short by Abort or by a crash before
// Commit (nothing may remain).
func (r *modelRun) ingest(i int) {
	r.t.Helper()
	m, spec := r.models[i], modelTables[i].spec
	var batch []kv.RowMutation
	failed := -1
	for try := 0; ; try++ {
		if try == 20 {
			return // every draw depends on garbage collection: skip
		}
		batch = batch[:0]
		n := 1 + r.g.r.IntN(24)
		old := r.g.r.IntN(3) == 0 // use the model's keys too
		for range n {
			// Mostly keys no other step uses (between the model's keys,
			// so across regions), else the model's keys: deleted rows
			// may be loaded again, live ones must be refused.
			key := r.g.key()
			if !old || r.g.r.IntN(10) < 8 {
				key = fmt.Appendf(key, ".%d.%d", r.step, r.g.r.IntN(1000))
			}
			rm := kv.RowMutation{Key: key, Require: kv.RequireAbsent}
			for range 1 + r.g.r.IntN(3) {
				rm.Mutations = append(rm.Mutations, kv.Mutation{Kind: kv.SetCell, Family: r.g.family(spec),
					Qualifier: r.g.qual(), Timestamp: r.g.ts(), Value: r.g.value(r.step)})
			}
			batch = append(batch, rm)
		}
		if r.g.r.IntN(2) == 0 { // the usual bulk load: keys in order, no repeats
			slices.SortFunc(batch, func(a, b kv.RowMutation) int { return bytes.Compare(a.Key, b.Key) })
			batch = slices.CompactFunc(batch, func(a, b kv.RowMutation) bool { return bytes.Equal(a.Key, b.Key) })
		}
		saved := m.snapshotRows()
		f, ambiguous := m.apply(batch)
		if !ambiguous {
			failed = f
			if failed < 0 {
				m.rows = saved // applied again below, once the engine agrees
			}
			break
		}
	}
	ing, err := r.tables[i].(kv.Ingester).NewIngest(r.ctx)
	if err != nil {
		r.fatalf("NewIngest: %v", err)
	}
	// A snapshot taken after the ingest started and after a later commit
	// (so at a sequence number above the one its keys carry), before it is
	// installed: it must not see the rows.
	var snap kv.Snapshot
	var snapRS kv.RowSet
	var snapOpts kv.ReadOptions
	var snapWant []kv.Row
	if r.g.r.IntN(3) == 0 {
		r.apply(1 - i)
		if snap, err = r.store.Snapshot(r.ctx); err != nil {
			r.fatalf("snapshot: %v", err)
		}
		snapRS, snapOpts = r.g.read(spec)
		snapWant = m.read(snapRS, snapOpts)
	}
	lsm.SetIngestSizes(ing, 1+r.g.r.IntN(600), int64(256+r.g.r.IntN(2048)))
	end := r.g.r.IntN(10)
	r.note("ingest %s (end %d, want failure at %d) %s", modelTables[i].name, end, failed, fmtBatch(batch))
	keep := make([]kv.RowMutation, len(batch)) // batch is scribbled over below
	for j, rm := range batch {
		keep[j] = kv.RowMutation{Key: bytes.Clone(rm.Key), Require: rm.Require}
		for _, mu := range rm.Mutations {
			mu.Qualifier, mu.Value = bytes.Clone(mu.Qualifier), bytes.Clone(mu.Value)
			keep[j].Mutations = append(keep[j].Mutations, mu)
		}
	}
	// Half the ingests give their rows as AddCells rows over the batch's
	// distinct cells (a Set of a cell set earlier in the row replaces it).
	var cols []kv.IngestColumn
	colOf := map[string]int{}
	if r.g.r.IntN(2) == 0 {
		for _, rm := range batch {
			for _, mu := range rm.Mutations {
				id := fmt.Sprintf("%s\x00%x\x00%d", mu.Family, mu.Qualifier, mu.Timestamp)
				if _, ok := colOf[id]; !ok {
					colOf[id] = len(cols)
					cols = append(cols, kv.IngestColumn{Family: mu.Family, Qualifier: bytes.Clone(mu.Qualifier), Timestamp: mu.Timestamp})
				}
			}
		}
		if err := ing.SetColumns(cols); err != nil {
			r.fatalf("SetColumns: %v", err)
		}
	}
	var addErr error
	for j := range batch {
		if cols == nil {
			addErr = ing.Add(batch[j])
		} else {
			vals := make([][]byte, len(cols))
			for _, mu := range batch[j].Mutations {
				v := mu.Value
				if v == nil {
					v = []byte{}
				}
				vals[colOf[fmt.Sprintf("%s\x00%x\x00%d", mu.Family, mu.Qualifier, mu.Timestamp)]] = v
			}
			addErr = ing.AddCells(batch[j].Key, vals)
		}
		if addErr != nil {
			break
		}
		// Add copies what it keeps.
		clear(batch[j].Key)
		for k := range batch[j].Mutations {
			clear(batch[j].Mutations[k].Value)
		}
	}
	switch {
	case end == 0:
		ing.Abort()
		failed = -2
	case end == 1:
		// A crash before Commit: the files written so far are orphans.
		r.crash(false)
		failed = -2
	default:
		err = addErr
		if err == nil {
			err = ing.Commit(r.ctx)
		}
		var ce *kv.ConditionError
		switch {
		case failed < 0 && err != nil:
			r.fatalf("ingest: %v", err)
		case failed >= 0 && !errors.As(err, &ce):
			r.fatalf("ingest: want a *kv.ConditionError (row %d %q), got %v", failed, keep[failed].Key, err)
		}
		if failed >= 0 {
			r.ingestRefused++
		} else {
			r.ingested++
			if f, _ := m.apply(keep); f >= 0 {
				r.fatalf("model refused an ingest it accepted before")
			}
		}
	}
	if snap != nil {
		if end != 1 { // a crash ended the snapshot's store
			got, err := readAll(r.ctx, snapReader{snap, modelTables[i].name}, snapRS, snapOpts)
			if err != nil {
				r.fatalf("snapshot read: %v", err)
			}
			if d, _ := diffRows(got, snapWant); d != "" {
				r.fatalf("snapshot taken before an ingest saw it:\n%s", d)
			}
		}
		snap.Release()
	}
}

// snapshotRows copies the model's rows.
func (m *refTable) snapshotRows() map[string]refRow {
	out := make(map[string]refRow, len(m.rows))
	for k, r := range m.rows {
		out[k] = r.clone()
	}
	return out
}

// snapReader reads one table of a snapshot as a kv.Table (reads only).
type snapReader struct {
	snap  kv.Snapshot
	table string
}

func (s snapReader) Read(ctx context.Context, rs kv.RowSet, o kv.ReadOptions) kv.RowIterator {
	return s.snap.Read(ctx, s.table, rs, o)
}
func (s snapReader) Apply(context.Context, []kv.RowMutation) error { return errors.ErrUnsupported }
func (s snapReader) AtomicBatches() bool                           { return true }

// TestIngestLarge ingests many rows in key order and out of it, across
// regions, and checks the rows, a duplicate, the conflict with live rows
// and that the rows survive a crash right after Commit.
func TestIngestLarge(t *testing.T) {
	ctx := context.Background()
	mem := vfs.NewMem()
	opts := lsm.Options{FS: mem, MemtableSize: 64 << 10, Logger: discardLogger(), MaxFilesPerStore: 3}
	s, err := lsm.Open("db", opts)
	if err != nil {
		t.Fatal(err)
	}
	spec := kv.TableSpec{Families: []kv.Family{{Name: "a"}, {Name: "b"}}, SplitKeys: [][]byte{[]byte("r03000")}}
	if err := s.CreateTable(ctx, "t", spec); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	key := func(i int) []byte { return []byte(fmt.Sprintf("r%05d", i)) }
	row := func(i int) kv.RowMutation {
		return kv.RowMutation{Key: key(i), Require: kv.RequireAbsent, Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "a", Qualifier: []byte("x"), Timestamp: 1000, Value: []byte(fmt.Sprint(i))},
			{Kind: kv.SetCell, Family: "b", Qualifier: []byte("y"), Timestamp: 1000, Value: bytes.Repeat([]byte{'v'}, 50)},
		}}
	}
	ingest := func(keys []int, chunk int) error {
		b, err := tbl.(kv.Ingester).NewIngest(ctx)
		if err != nil {
			t.Fatal(err)
		}
		lsm.SetIngestSizes(b, chunk, 32<<10)
		for _, i := range keys {
			if err := b.Add(row(i)); err != nil {
				b.Abort()
				return err
			}
		}
		return b.Commit(ctx)
	}
	count := func() int {
		rows, err := readAll(ctx, tbl, kv.RowSet{}, kv.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return len(rows)
	}
	var sorted []int
	for i := range 5000 {
		sorted = append(sorted, 2*i) // even keys, in order
	}
	if err := ingest(sorted, 1<<20); err != nil {
		t.Fatal(err)
	}
	var shuffled []int
	for i := range 5000 {
		shuffled = append(shuffled, (i*7919)%5000*2+1) // odd keys, scattered
	}
	if err := ingest(shuffled, 16<<10); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 10000 {
		t.Fatalf("after two ingests: %d rows, want 10000", n)
	}
	// A key already there, a key twice: nothing applied.
	var ce *kv.ConditionError
	if err := ingest([]int{20001, 20002, 4}, 1<<20); !errors.As(err, &ce) || string(ce.Key) != "r00004" {
		t.Fatalf("ingest of an existing key: got %v", err)
	}
	if err := ingest([]int{20005, 20003, 20005}, 1<<20); !errors.As(err, &ce) || string(ce.Key) != "r20005" {
		t.Fatalf("ingest of a key twice: got %v", err)
	}
	if n := count(); n != 10000 {
		t.Fatalf("after failed ingests: %d rows, want 10000", n)
	}
	// Deleted rows may be loaded again.
	del := []kv.RowMutation{{Key: key(10), Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}}}
	if err := tbl.Apply(ctx, del); err != nil {
		t.Fatal(err)
	}
	if err := ingest([]int{10}, 1<<20); err != nil {
		t.Fatalf("ingest of a deleted key: %v", err)
	}
	// Compaction leaves the non-overlapping ingested files alone.
	before := s.Metrics().Compactions
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	regions, _ := s.Regions(ctx, "t")
	t.Logf("regions %d, files %d, compactions %d", len(regions), s.Metrics().Files, s.Metrics().Compactions-before)
	mem.Crash()
	s2, err := lsm.Open("db", opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	tbl, _ = s2.Table(ctx, "t")
	if n := count(); n != 10000 {
		t.Fatalf("after a crash: %d rows, want 10000", n)
	}
	rows, _ := readAll(ctx, tbl, kv.RowSet{Keys: [][]byte{key(4243)}}, kv.ReadOptions{})
	if len(rows) != 1 || len(rows[0].Cells) != 2 || string(rows[0].Cells[0].Value) != "4243" {
		t.Fatalf("row 4243 after a crash: %+v", rows)
	}
}

// TestIngestAfterDeleteRowCrash is a focused form of a model-test failure:
// a row deleted (the DeleteRow still in a memtable) and then loaded again by
// a bulk ingest must keep the ingested cells through a crash and a full
// compaction. The ingested file's install sequence number must survive the
// restart: without it, compaction merges the file while the replayed
// DeleteRow sits in a memtable, counts the deleted older version against
// MaxVersions 1, and drops the ingested one.
func TestIngestAfterDeleteRowCrash(t *testing.T) {
	ctx := context.Background()
	mem := vfs.NewMem()
	proc := &procFS{inner: mem}
	opts := lsm.Options{FS: proc, Logger: discardLogger()}
	s, err := lsm.Open(modelDir, opts)
	if err != nil {
		t.Fatal(err)
	}
	spec := kv.TableSpec{Families: []kv.Family{{Name: "y", MaxVersions: 1}}}
	if err := s.CreateTable(ctx, "t", spec); err != nil {
		t.Fatal(err)
	}
	tbl, err := s.Table(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	set := func(ts uint64, v string) kv.Mutation {
		return kv.Mutation{Kind: kv.SetCell, Family: "y", Qualifier: []byte("q"), Timestamp: kv.Timestamp(ts), Value: []byte(v)}
	}
	if err := tbl.Apply(ctx, []kv.RowMutation{{Key: []byte("k"), Mutations: []kv.Mutation{set(10000, "old")}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Apply(ctx, []kv.RowMutation{{Key: []byte("k"), Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}}}); err != nil {
		t.Fatal(err)
	}
	ing, err := tbl.(kv.Ingester).NewIngest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := ing.Add(kv.RowMutation{Key: []byte("k"), Require: kv.RequireAbsent, Mutations: []kv.Mutation{set(3000, "loaded")}}); err != nil {
		t.Fatal(err)
	}
	if err := ing.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		rows, err := readAll(ctx, tbl, kv.RowSet{}, kv.ReadOptions{MaxVersions: 3})
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if len(rows) != 1 || len(rows[0].Cells) != 1 || string(rows[0].Cells[0].Value) != "loaded" {
			t.Fatalf("%s: rows %+v, want k with y:q@3000 = loaded", when, rows)
		}
	}
	check("after ingest")
	if err := s.Compact(ctx); err != nil { // leaves the ingested file alone
		t.Fatal(err)
	}
	check("after compact")

	proc.kill()
	mem.Crash()
	closeWithin(t, s)
	proc = &procFS{inner: mem}
	opts.FS = proc
	if s, err = lsm.Open(modelDir, opts); err != nil {
		t.Fatal(err)
	}
	defer func() { closeWithin(t, s) }()
	if tbl, err = s.Table(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	check("after crash")
	if err := s.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	check("after crash and compact")
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	check("after flush and compact")
}

// TestIngestRowPrefix checks ingest's one-pass row prefix against
// ikey.RowPrefix on rows of zeros, 0x01 and 0xff bytes (what escaping
// is about) and on keyenc-shaped rows, appended after existing bytes.
func TestIngestRowPrefix(t *testing.T) {
	rows := [][]byte{{}, {0}, {0, 0}, {1}, {0, 1}, {0xff, 0}, []byte("plain"),
		{0x80, 0, 0, 1, 0x80, 0, 0, 0, 0, 0, 0, 2}}
	for n := range 300 {
		r := make([]byte, n%23)
		for i := range r {
			r[i] = []byte{0, 1, 0xff, 'a'}[(n*7+i*i)%4]
		}
		rows = append(rows, r)
	}
	for _, r := range rows {
		for _, dst := range [][]byte{nil, []byte("xy"), make([]byte, 3, 64)} {
			want := ikey.RowPrefix(slices.Clone(dst), r)
			if got := lsm.AppendRowPrefix(slices.Clone(dst), r); !bytes.Equal(got, want) {
				t.Fatalf("appendRowPrefix(%x, %x) = %x, want %x", dst, r, got, want)
			}
		}
	}
}
