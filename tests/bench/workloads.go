package bench

import (
	"context"
	"os"
	"testing"
)

// BatchRows is the number of rows in one write batch; each row has three
// cells.
const BatchRows = 100

// ScanRows is the length of the short scans.
const ScanRows = 100

// Workload is one benchmark run identically on every engine.
type Workload struct {
	// Name is the benchmark's name without the engine, in go test's
	// syntax: "Get/source=memtable".
	Name string
	// Target is the largest acceptable widesql/pebble time ratio (issue 3);
	// 0 means none.
	Target float64
	// Run runs the workload on the named engine.
	Run func(b *testing.B, f *Fixtures, engine string)
}

// Workloads lists every workload, in the order they run.
var Workloads = []Workload{
	{"BatchWrite/sync=false", 1.5, func(b *testing.B, f *Fixtures, e string) { BatchWrite(b, f, e, false) }},
	{"BatchWrite/sync=true", 0, func(b *testing.B, f *Fixtures, e string) { BatchWrite(b, f, e, true) }},
	{"Get/source=memtable", 1.5, func(b *testing.B, f *Fixtures, e string) { Get(b, f, e, Memtable) }},
	{"Get/source=files", 1.5, func(b *testing.B, f *Fixtures, e string) { Get(b, f, e, Files) }},
	{"Get/source=cold", 1.5, func(b *testing.B, f *Fixtures, e string) { Get(b, f, e, Cold) }},
	{"Scan100", 1.5, Scan100},
	{"FullScan", 0, FullScan},
}

// BatchWrite writes batches of BatchRows rows at random keys into a store
// that starts empty, with or without an fsync per batch. Flushes and
// compactions run in the background as they fall due.
func BatchWrite(b *testing.B, f *Fixtures, engine string, sync bool) {
	ctx := context.Background()
	dir, err := f.TempDir("write-" + engine)
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	cfg := f.base
	cfg.Sync = sync
	e, err := Open(engine, dir, cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	m := NewRowMaker(2)
	var key []byte
	b.ReportAllocs()
	for b.Loop() {
		m.Reset()
		for range BatchRows {
			key = m.RandomKey(key[:0])
			m.Make(key)
		}
		if err := e.Apply(ctx, m.Rows()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*BatchRows), "ns/row")
}

// Get reads whole rows (three cells) at random keys of the fixture.
func Get(b *testing.B, f *Fixtures, engine string, src Source) {
	ctx := context.Background()
	var e Engine
	var err error
	if src == Cold {
		if StandIn != "" {
			b.Skipf("%s has no files", StandIn)
		}
		e, err = f.OpenCold(engine)
		if err == nil {
			defer e.Close()
		}
	} else {
		e, err = f.Reader(engine, src)
	}
	if err != nil {
		b.Fatal(err)
	}
	m := NewRowMaker(3)
	var key []byte
	b.ReportAllocs()
	for b.Loop() {
		key = AppendFixtureKey(key[:0], m.IntN(FixtureRows))
		n, err := e.Get(ctx, key)
		if n != 3 || err != nil {
			b.Fatalf("get %x: %d cells, %v", key, n, err)
		}
	}
}

// Scan100 reads ScanRows consecutive rows from a random fixture row, from
// files.
func Scan100(b *testing.B, f *Fixtures, engine string) {
	ctx := context.Background()
	e, err := f.Reader(engine, Files)
	if err != nil {
		b.Fatal(err)
	}
	m := NewRowMaker(4)
	var key []byte
	b.ReportAllocs()
	for b.Loop() {
		key = AppendFixtureKey(key[:0], m.IntN(FixtureRows-RowsPerUser))
		rows, cells, err := e.Scan(ctx, key, ScanRows)
		if rows != ScanRows || cells != 3*ScanRows || err != nil {
			b.Fatalf("scan from %x: %d rows, %d cells, %v", key, rows, cells, err)
		}
	}
}

// FullScan reads every fixture row from files.
func FullScan(b *testing.B, f *Fixtures, engine string) {
	ctx := context.Background()
	e, err := f.Reader(engine, Files)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		rows, cells, err := e.Scan(ctx, nil, 0)
		if rows != FixtureRows || cells != 3*FixtureRows || err != nil {
			b.Fatalf("full scan: %d rows, %d cells, %v", rows, cells, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*FixtureRows), "ns/row")
}
