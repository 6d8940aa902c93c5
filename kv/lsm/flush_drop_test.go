package lsm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/ikey"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// dropStore is a store with one table "t" for the flush-drop tests.
type dropStore struct {
	t   *testing.T
	s   *Store
	tbl kv.Table
}

func newDropStore(t *testing.T, fams ...kv.Family) *dropStore {
	t.Helper()
	o := testOptions(vfs.NewMem())
	o.MaxFilesPerStore = 1000 // no background compaction: the tests look at the flushed files
	s, err := Open("db", o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx := context.Background()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: fams}); err != nil {
		t.Fatal(err)
	}
	tbl, err := s.Table(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	return &dropStore{t: t, s: s, tbl: tbl}
}

func (d *dropStore) apply(key string, ms ...kv.Mutation) {
	d.t.Helper()
	if err := d.tbl.Apply(context.Background(), []kv.RowMutation{{Key: []byte(key), Mutations: ms}}); err != nil {
		d.t.Fatal(err)
	}
}

func set(fam, qual string, ts kv.Timestamp, val string) kv.Mutation {
	return kv.Mutation{Kind: kv.SetCell, Family: fam, Qualifier: []byte(qual), Timestamp: ts, Value: []byte(val)}
}

// flush flushes with flushDropShadowed set to drop.
func (d *dropStore) flush(drop bool) {
	d.t.Helper()
	defer func(old bool) { flushDropShadowed = old }(flushDropShadowed)
	flushDropShadowed = drop
	if err := d.s.Flush(context.Background()); err != nil {
		d.t.Fatal(err)
	}
}

func (d *dropStore) snapshot() kv.Snapshot {
	d.t.Helper()
	sn, err := d.s.Snapshot(context.Background())
	if err != nil {
		d.t.Fatal(err)
	}
	d.t.Cleanup(sn.Release)
	return sn
}

// read returns every row, all versions a read may show, at sn (nil: now).
func (d *dropStore) read(sn kv.Snapshot) []string {
	d.t.Helper()
	ctx := context.Background()
	o := kv.ReadOptions{MaxVersions: 100}
	var it kv.RowIterator
	if sn == nil {
		it = d.tbl.Read(ctx, kv.RowSet{}, o)
	} else {
		it = sn.Read(ctx, "t", kv.RowSet{}, o)
	}
	defer it.Close()
	var out []string
	for it.Next() {
		out = append(out, formatRow(it.Row()))
	}
	if err := it.Err(); err != nil {
		d.t.Fatal(err)
	}
	return out
}

// newestFile describes the entries of the newest file of family fam, one
// "row kind@ts" per entry ("-" when the family has no file).
func (d *dropStore) newestFile(fam string) string {
	d.t.Helper()
	d.s.mu.Lock()
	tb := d.s.tables["t"]
	fs := tb.regions[0].state.files[tb.families().idx[fam]]
	var f *fileMeta
	if len(fs) > 0 {
		f = fs[len(fs)-1]
	}
	d.s.mu.Unlock()
	if f == nil {
		return "-"
	}
	it := f.reader.NewIter()
	defer it.Close()
	var out []string
	for it.First(); it.Valid(); it.Next() {
		p, err := ikey.Parse(it.Key())
		if err != nil {
			d.t.Fatal(err)
		}
		kind := map[ikey.Kind]string{ikey.KindSet: "set", ikey.KindDeleteCells: "delcells",
			ikey.KindDeleteFamily: "delfam", ikey.KindDeleteRow: "delrow"}[p.Kind]
		if p.Kind == ikey.KindSet {
			kind += fmt.Sprintf("@%d", p.TS)
		}
		out = append(out, fmt.Sprintf("%s %s", ikey.Unescape(nil, p.Row), kind))
	}
	if err := it.Err(); err != nil {
		d.t.Fatal(err)
	}
	if int64(len(out)) != f.entries {
		d.t.Fatalf("file of %s: %d entries read, %d recorded", fam, len(out), f.entries)
	}
	return strings.Join(out, ", ")
}

func checkRows(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got %v\nwant %v", what, got, want)
	}
}

// TestFlushDropHotColumn: a hot row's versions, with snapshots open
// before some of them, flushed with and without the drop: every read at
// every snapshot is the same as before the flush and as with the no-drop
// reference, and the files hold exactly the versions a snapshot can see.
func TestFlushDropHotColumn(t *testing.T) {
	fams := []kv.Family{{Name: "a", MaxVersions: 1}, {Name: "b", MaxVersions: 3}}
	type result struct {
		before, after [][]string // reads at snap1, snap2, now
		a, b          string     // the flushed files
	}
	run := func(drop bool) result {
		d := newDropStore(t, fams...)
		var snaps []kv.Snapshot
		for i := 1; i <= 200; i++ {
			ts := kv.Timestamp(i * 1000)
			d.apply("hot", set("a", "q", ts, fmt.Sprint("a", i)), set("b", "q", ts, fmt.Sprint("b", i)))
			if i == 50 || i == 120 {
				snaps = append(snaps, d.snapshot())
			}
		}
		d.apply("cold", set("a", "q", 7000, "c"))
		snaps = append(snaps, nil)
		var r result
		for _, sn := range snaps {
			r.before = append(r.before, d.read(sn))
		}
		d.flush(drop)
		for _, sn := range snaps {
			r.after = append(r.after, d.read(sn))
		}
		r.a, r.b = d.newestFile("a"), d.newestFile("b")
		return r
	}
	got, ref := run(true), run(false)
	for i := range got.before {
		checkRows(t, fmt.Sprint("read ", i, " before/after the flush"), got.after[i], got.before[i])
		checkRows(t, fmt.Sprint("read ", i, " drop/no-drop"), got.after[i], ref.after[i])
	}
	// The oldest snapshot sees versions 1..50: family a keeps the newest
	// (50), b the newest three (48..50); versions 51..200 are above it.
	var wantA, wantB []string
	for i := 200; i >= 1; i-- {
		if i >= 50 {
			wantA = append(wantA, fmt.Sprintf("hot set@%d", i*1000))
		}
		if i >= 48 {
			wantB = append(wantB, fmt.Sprintf("hot set@%d", i*1000))
		}
	}
	wantA = append([]string{"cold set@7000"}, wantA...)
	checkRows(t, "file a", strings.Split(got.a, ", "), wantA)
	checkRows(t, "file b", strings.Split(got.b, ", "), wantB)
	if n := strings.Count(ref.a, ",") + 1; n != 201 {
		t.Errorf("no-drop file a holds %d entries, want 201", n)
	}
}

// TestFlushDropNoSnapshot: with no snapshot open, a flush keeps only the
// live versions; releasing the snapshots lets the next flush drop what
// they needed.
func TestFlushDropNoSnapshot(t *testing.T) {
	d := newDropStore(t, kv.Family{Name: "a", MaxVersions: 1}, kv.Family{Name: "b", MaxVersions: 3})
	sn := d.snapshot()
	for i := 1; i <= 10; i++ {
		d.apply("r", set("a", "q", kv.Timestamp(i*1000), "x"), set("b", "q", kv.Timestamp(i*1000), "x"))
	}
	atSnap := d.read(sn)
	d.flush(true)
	if got := d.newestFile("a"); strings.Count(got, ",")+1 != 10 {
		t.Errorf("a snapshot older than every entry: file a %s, want all 10", got)
	}
	checkRows(t, "snapshot", d.read(sn), atSnap)
	sn.Release()
	for i := 11; i <= 20; i++ {
		d.apply("r", set("a", "q", kv.Timestamp(i*1000), "x"), set("b", "q", kv.Timestamp(i*1000), "x"))
	}
	want := d.read(nil)
	d.flush(true)
	if got := d.newestFile("a"); got != "r set@20000" {
		t.Errorf("file a: %s", got)
	}
	if got := d.newestFile("b"); got != "r set@20000, r set@19000, r set@18000" {
		t.Errorf("file b: %s", got)
	}
	checkRows(t, "now", d.read(nil), want)
}

// TestFlushDropKeepsSnapshotVersions fails if the drop decides at the
// newest sequence number rather than the oldest snapshot: the snapshot's
// version of a column, a newer timestamp or the same one written after
// it, must stay.
func TestFlushDropKeepsSnapshotVersions(t *testing.T) {
	d := newDropStore(t, kv.Family{Name: "a"})
	d.apply("newer-ts", set("a", "q", 1000, "old"))
	d.apply("same-ts", set("a", "q", 1000, "old"))
	sn := d.snapshot()
	d.apply("newer-ts", set("a", "q", 2000, "new"))
	d.apply("same-ts", set("a", "q", 1000, "new"))
	d.flush(true)
	checkRows(t, "at the snapshot", d.read(sn), []string{
		`"newer-ts": a/"q"@1000="old"`,
		`"same-ts": a/"q"@1000="old"`,
	})
	checkRows(t, "now", d.read(nil), []string{
		`"newer-ts": a/"q"@2000="new"`,
		`"same-ts": a/"q"@1000="new"`,
	})
}

// TestFlushDropOutOfOrderTimestamps: versions are ordered by timestamp,
// not by write order; a rewrite of a timestamp hides the older write.
func TestFlushDropOutOfOrderTimestamps(t *testing.T) {
	d := newDropStore(t, kv.Family{Name: "a", MaxVersions: 2})
	for _, ts := range []kv.Timestamp{5e6, 1e6, 3e6, 4e6} {
		d.apply("r", set("a", "q", ts, fmt.Sprint("v", ts)))
	}
	d.apply("r", set("a", "q", 4e6, "v4000b")) // hides the first 4000
	sn := d.snapshot()
	// Above the snapshot: kept, whatever their timestamps.
	for _, ts := range []kv.Timestamp{2e6, 9e6, 5e5} {
		d.apply("r", set("a", "q", ts, fmt.Sprint("v", ts)))
	}
	atSnap, now := d.read(sn), d.read(nil)
	d.flush(true)
	checkRows(t, "at the snapshot", d.read(sn), atSnap)
	checkRows(t, "now", d.read(nil), now)
	checkRows(t, "snapshot rows", atSnap, []string{`"r": a/"q"@5000000="v5000000" a/"q"@4000000="v4000b"`})
	if got, want := d.newestFile("a"), "r set@9000000, r set@5000000, r set@4000000, r set@2000000, r set@500000"; got != want {
		t.Errorf("file a: %s, want %s", got, want)
	}
}

// TestFlushDropTombstones: tombstones are written (the files below hold
// cells they delete), the memtable cells they cover are not, in every
// family's file for DeleteRow.
func TestFlushDropTombstones(t *testing.T) {
	d := newDropStore(t, kv.Family{Name: "a", MaxVersions: 3}, kv.Family{Name: "b", MaxVersions: 3})
	for _, r := range []string{"cells", "fam", "row"} {
		d.apply(r, set("a", "q", 100e3, "file"), set("b", "q", 100e3, "file"))
	}
	d.flush(true)
	for _, r := range []string{"cells", "fam", "row"} {
		d.apply(r, set("a", "q", 200e3, "mem"), set("b", "q", 200e3, "mem"))
	}
	d.apply("cells", kv.Mutation{Kind: kv.DeleteCells, Family: "a", Qualifier: []byte("q"), Start: 0, End: 300e3})
	d.apply("fam", kv.Mutation{Kind: kv.DeleteFamily, Family: "b"})
	d.apply("row", kv.Mutation{Kind: kv.DeleteRow})
	d.apply("row", set("a", "q", 50e3, "after")) // an older timestamp after the delete: visible
	want := []string{
		`"cells": b/"q"@200000="mem" b/"q"@100000="file"`,
		`"fam": a/"q"@200000="mem" a/"q"@100000="file"`,
		`"row": a/"q"@50000="after"`,
	}
	checkRows(t, "before the flush", d.read(nil), want)
	d.flush(true)
	checkRows(t, "after the flush", d.read(nil), want)
	if got, w := d.newestFile("a"), "cells delcells, fam set@200000, row delrow, row set@50000"; got != w {
		t.Errorf("file a: %s, want %s", got, w)
	}
	if got, w := d.newestFile("b"), "cells set@200000, fam delfam, row delrow"; got != w {
		t.Errorf("file b: %s, want %s", got, w)
	}
	if err := d.s.Compact(context.Background()); err != nil {
		t.Fatal(err)
	}
	checkRows(t, "after a compaction", d.read(nil), want)
}

// TestFlushDropTTL: expired cells are not written; a family left with
// none gets no file.
func TestFlushDropTTL(t *testing.T) {
	d := newDropStore(t, kv.Family{Name: "a", MaxVersions: 5}, kv.Family{Name: "e", TTL: time.Hour})
	now := kv.Now()
	old := now - kv.Timestamp(2*time.Hour/time.Microsecond)
	d.apply("r", set("a", "q", old, "old"), set("a", "q", now, "new"), set("e", "q", old, "old"))
	want := d.read(nil)
	d.flush(true)
	checkRows(t, "now", d.read(nil), want)
	if got := d.newestFile("a"); got != fmt.Sprintf("r set@%d, r set@%d", now, old) {
		t.Errorf("file a: %s (no TTL: both kept)", got)
	}
	if got := d.newestFile("e"); got != "-" {
		t.Errorf("file e: %s, want none", got)
	}
}

// TestFlushDropDifferential runs random writes, deletes, snapshots and
// flushes on two stores, one flushing with the drop and one without, and
// compares every read at every open snapshot.
func TestFlushDropDifferential(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { flushDropDifferential(t, seed) })
	}
}

func flushDropDifferential(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	fams := []kv.Family{{Name: "a", MaxVersions: 1}, {Name: "b", MaxVersions: 3}, {Name: "c", MaxVersions: 2, TTL: time.Hour}}
	stores := []*dropStore{newDropStore(t, fams...), newDropStore(t, fams...)} // drop, reference
	now := int64(kv.Now()) / 1000 * 1000
	ts := func() kv.Timestamp { return kv.Timestamp(now - int64(rng.IntN(40))*120_000_000) }
	rows := []string{"r0", "r1", "r2"}
	quals := []string{"", "q"}
	var snaps [][]kv.Snapshot // per open snapshot, one per store
	compare := func(when string) {
		checkRows(t, when+": now", stores[0].read(nil), stores[1].read(nil))
		for i, sn := range snaps {
			checkRows(t, fmt.Sprint(when, ": snapshot ", i), stores[0].read(sn[0]), stores[1].read(sn[1]))
		}
	}
	for step := range 600 {
		key, fam, q := rows[rng.IntN(len(rows))], fams[rng.IntN(len(fams))].Name, quals[rng.IntN(len(quals))]
		var m kv.Mutation
		switch r := rng.IntN(100); {
		case r < 85:
			m = set(fam, q, ts(), fmt.Sprint("v", step))
		case r < 94:
			a, b := ts(), ts()
			if a > b {
				a, b = b, a
			}
			if rng.IntN(4) == 0 {
				b = 0
			}
			m = kv.Mutation{Kind: kv.DeleteCells, Family: fam, Qualifier: []byte(q), Start: a, End: b}
		case r < 98:
			m = kv.Mutation{Kind: kv.DeleteFamily, Family: fam}
		default:
			m = kv.Mutation{Kind: kv.DeleteRow}
		}
		for _, d := range stores {
			d.apply(key, m)
		}
		switch rng.IntN(40) {
		case 0:
			stores[0].flush(true)
			stores[1].flush(false)
			compare(fmt.Sprint("step ", step))
		case 1:
			snaps = append(snaps, []kv.Snapshot{stores[0].snapshot(), stores[1].snapshot()})
		case 2, 3:
			if len(snaps) > 0 {
				i := rng.IntN(len(snaps))
				snaps[i][0].Release()
				snaps[i][1].Release()
				snaps = slices.Delete(snaps, i, i+1)
			}
		}
	}
	stores[0].flush(true)
	stores[1].flush(false)
	compare("end")
	var n [2]int64
	for i, d := range stores {
		d.s.mu.Lock()
		for _, fs := range d.s.tables["t"].regions[0].state.files {
			for _, f := range fs {
				n[i] += f.entries
			}
		}
		d.s.mu.Unlock()
	}
	if n[0] >= n[1] {
		t.Errorf("the drop wrote %d entries, the reference %d", n[0], n[1])
	}
	t.Logf("entries written: %d with the drop, %d without", n[0], n[1])
}

// BenchmarkFlushHotRows flushes a memtable that holds 10k rows of ten
// 100-byte fields and 50k zipfian single-field updates (YCSB's usertable
// and workload A's writes), with and without the drop, and reports what
// the flush wrote; then times a Get of the hottest row read from the
// flushed file (no compaction runs), the shape of a YCSB read.
func BenchmarkFlushHotRows(b *testing.B) {
	for _, drop := range []bool{false, true} {
		b.Run(fmt.Sprint("drop=", drop), func(b *testing.B) {
			defer func(old bool) { flushDropShadowed = old }(flushDropShadowed)
			flushDropShadowed = drop
			ctx := context.Background()
			s, tbl := openBenchTable(b, Options{})
			defer s.Close()
			const rows = 10000
			key := func(i uint64) []byte { return fmt.Appendf(nil, "user%010d", i*2654435761%(1<<32)) }
			vr := rand.New(rand.NewPCG(3, 4))
			val := func() []byte { // incompressible, as YCSB's fields nearly are
				v := make([]byte, 100)
				for i := range v {
					v[i] = byte(vr.Uint32())
				}
				return v
			}
			var batch []kv.RowMutation
			for i := range uint64(rows) {
				var ms []kv.Mutation
				for f := range 10 {
					ms = append(ms, kv.Mutation{Kind: kv.SetCell, Family: "f", Qualifier: fmt.Appendf(nil, "field%d", f), Value: val(), Timestamp: 1000})
				}
				batch = append(batch, kv.RowMutation{Key: key(i), Mutations: ms})
				if len(batch) == 100 {
					if err := tbl.Apply(ctx, batch); err != nil {
						b.Fatal(err)
					}
					batch = batch[:0]
				}
			}
			zipf := rand.NewZipf(rand.New(rand.NewPCG(1, 2)), 1.1, 1, rows-1)
			for i := range 50000 {
				m := kv.Mutation{Kind: kv.SetCell, Family: "f", Qualifier: fmt.Appendf(nil, "field%d", i%10),
					Value: val(), Timestamp: kv.Timestamp(2000 + i*1000)}
				if err := tbl.Apply(ctx, []kv.RowMutation{{Key: key(zipf.Uint64()), Mutations: []kv.Mutation{m}}}); err != nil {
					b.Fatal(err)
				}
			}
			start := time.Now()
			if err := s.Flush(ctx); err != nil {
				b.Fatal(err)
			}
			took := time.Since(start)
			var size, entries int64
			s.mu.Lock()
			for _, fs := range s.tables["t"].regions[0].state.files {
				for _, f := range fs {
					size, entries = size+f.size, entries+f.entries
				}
			}
			s.mu.Unlock()
			hot := [][]byte{key(0)}
			b.ResetTimer()
			for b.Loop() {
				it := tbl.Read(ctx, kv.RowSet{Keys: hot}, kv.ReadOptions{})
				if !it.Next() || len(it.Row().Cells) != 10 {
					b.Fatal("hot row missing")
				}
				it.Close()
			}
			b.ReportMetric(float64(size), "file-bytes")
			b.ReportMetric(float64(entries), "file-entries")
			b.ReportMetric(float64(took.Microseconds()), "flush-us")
		})
	}
}
