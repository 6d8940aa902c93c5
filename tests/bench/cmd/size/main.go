// Command size loads the same rows into widesql (through kv, encoded as
// widesql's executor encodes them) and into a throwaway PostgreSQL 15, and
// prints widesql's bytes on disk after flush and compaction against
// PostgreSQL's table plus primary-key index.
//
// The table, as SQL:
//
//	CREATE TABLE events (
//	    user_id BIGINT, ts TIMESTAMP, n INTEGER, x DOUBLE PRECISION, s TEXT,
//	    PRIMARY KEY (user_id, ts))
//
// and, in widesql, rowkey (user_id, ts DESC) with family d holding the row
// marker (qualifier 00, empty) and n, x, s at qualifiers 03, 04, 05.
//
//	go run ./cmd/size [-rows 1000000] [-compression none,snappy,zstd] [-pg=false]
package main

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
	"github.com/widesql/widesql/tests/bench"
)

func main() {
	rows := flag.Int("rows", 1_000_000, "rows to load")
	comps := flag.String("compression", "none,snappy,zstd", "widesql family compressions to measure")
	pg := flag.Bool("pg", true, "also measure a throwaway PostgreSQL (needs root and the postgres user)")
	withPebble := flag.Bool("pebble", true, "also measure Pebble on the same cells (one key per cell, as in the benchmarks)")
	pgPort := flag.Int("pgport", 55433, "loopback port of the throwaway PostgreSQL")
	flag.Parse()
	ctx := context.Background()

	fmt.Printf("size of %d rows of events(user_id BIGINT, ts TIMESTAMP, n INTEGER, x DOUBLE PRECISION, s TEXT, PRIMARY KEY (user_id, ts)), %s\n\n",
		*rows, time.Now().UTC().Format(time.DateTime))
	var pgBytes int64
	if *pg {
		r, err := measurePostgres(ctx, *rows, *pgPort)
		if err != nil {
			fail(err)
		}
		pgBytes = r.table + r.index
		fmt.Printf("PostgreSQL %s: table %s + primary key %s = %s (after REINDEX: index %s; heap main fork %s)\n",
			r.version, mib(r.table), mib(r.index), mib(pgBytes), mib(r.reindexed), mib(r.heap))
	}
	for _, c := range strings.Split(*comps, ",") {
		if c == "none" {
			c = ""
		}
		r, err := measureEngine(ctx, bench.Widesql, *rows, c)
		if err != nil {
			fail(err)
		}
		name := c
		if name == "" {
			name = "none"
		}
		line := fmt.Sprintf("widesql%s compression=%s: %s on disk after a reopen (%s in %d .sst files; live files %s in %d; directory before the reopen %s; load %s, flush+compact %s)",
			standIn(), name, mib(r.total), mib(r.sst), r.files, mib(r.live), r.liveFiles, mib(r.beforeReopen),
			r.load.Round(time.Millisecond), r.compact.Round(time.Millisecond))
		if pgBytes > 0 {
			line += fmt.Sprintf("; widesql/PostgreSQL = %.2f", float64(r.total)/float64(pgBytes))
		}
		fmt.Println(line)
		if *withPebble {
			r, err := measureEngine(ctx, bench.Pebble, *rows, c)
			if err != nil {
				fail(err)
			}
			line := fmt.Sprintf("  pebble compression=%s: %s on disk after a reopen (%s in %d .sst files)", name, mib(r.total), mib(r.sst), r.files)
			if pgBytes > 0 {
				line += fmt.Sprintf("; pebble/PostgreSQL = %.2f", float64(r.total)/float64(pgBytes))
			}
			fmt.Println(line)
		}
	}
}

func standIn() string {
	if bench.StandIn != "" {
		return " (" + bench.StandIn + " standing in for kv/lsm: nothing on disk)"
	}
	return ""
}

// event is one row of the table.
type event struct {
	user, ts int64 // ts in microseconds
	n        int32
	x        float64
	s        string
}

var words = strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike " +
	"november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu")

// events calls fn with rows in arrival order: time advances 100 ms and
// a bit per row, and each row belongs to a random one of 10,000 users, so
// (user_id, ts) is unique and both stores see keys arrive out of order.
func events(n int, fn func(event) error) error {
	r := rand.New(rand.NewPCG(42, 42))
	ts := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	for range n {
		ts += 100_000 + r.Int64N(1000)
		s := words[r.IntN(len(words))] + " " + words[r.IntN(len(words))] + " " + words[r.IntN(len(words))]
		if err := fn(event{user: 1 + r.Int64N(10_000), ts: ts, n: r.Int32N(100_000), x: r.Float64() * 1000, s: s}); err != nil {
			return err
		}
	}
	return nil
}

type widesqlSize struct {
	total, sst    int64 // in the directory after Close
	files         int
	live          int64 // the live files, as the engine lists them
	beforeReopen  int64 // the directory after the loading store's Close
	liveFiles     int
	load, compact time.Duration
}

// marker is the qualifier of the row-marker cell every widesql row has.
var marker = []byte{0}

func measureEngine(ctx context.Context, engine string, n int, compression string) (widesqlSize, error) {
	var res widesqlSize
	dir, err := os.MkdirTemp("", "widesql-size-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	e, err := bench.Open(engine, dir, bench.Config{Compression: compression})
	if err != nil {
		return res, err
	}
	defer e.Close()

	ts := kv.Now()
	batch := make([]kv.Row, 0, 1000)
	var buf []byte
	flush := func() error {
		err := e.Apply(ctx, batch)
		batch, buf = batch[:0], nil // the rows alias buf: start afresh
		return err
	}
	start := time.Now()
	err = events(n, func(ev event) error {
		if buf == nil {
			buf = make([]byte, 0, 64<<10)
		}
		k0 := len(buf)
		buf = bench.AppendKey(buf, ev.user, ev.ts)
		v0 := len(buf)
		buf = keyenc.AppendValue(buf, types.NewInt(types.Int4, int64(ev.n)), types.TInt4)
		v1 := len(buf)
		buf = keyenc.AppendValue(buf, types.NewFloat(ev.x), types.TFloat8)
		v2 := len(buf)
		buf = append(buf, ev.s...)
		v3 := len(buf)
		if cap(buf) < v3 { // cannot happen: rows are far smaller than the arena
			panic("arena overflow")
		}
		batch = append(batch, kv.Row{Key: buf[k0:v0], Cells: []kv.Cell{
			{Family: bench.Family, Qualifier: marker, Timestamp: ts},
			{Family: bench.Family, Qualifier: bench.QualInt, Timestamp: ts, Value: buf[v0:v1]},
			{Family: bench.Family, Qualifier: bench.QualDouble, Timestamp: ts, Value: buf[v1:v2]},
			{Family: bench.Family, Qualifier: bench.QualText, Timestamp: ts, Value: buf[v2:v3]},
		}})
		if len(batch) == cap(batch) || cap(buf)-len(buf) < 256 {
			return flush()
		}
		return nil
	})
	if err == nil && len(batch) > 0 {
		err = flush()
	}
	if err != nil {
		return res, err
	}
	res.load = time.Since(start)
	start = time.Now()
	if err := e.Flush(ctx); err != nil {
		return res, err
	}
	res.compact = time.Since(start)
	if lb, ok := e.(interface{ LiveBytes() (int64, int, error) }); ok {
		if res.live, res.liveFiles, err = lb.LiveBytes(); err != nil {
			return res, err
		}
	}
	if err := e.Close(); err != nil {
		return res, err
	}
	res.beforeReopen, err = dirBytes(dir)
	if err != nil {
		return res, err
	}
	// Reopen and close: Open removes files no manifest lists, which is
	// what the directory holds in steady state.
	if e, err = bench.Open(engine, dir, bench.Config{Compression: compression}); err != nil {
		return res, err
	}
	if err := e.Close(); err != nil {
		return res, err
	}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		res.total += info.Size()
		if strings.HasSuffix(path, ".sst") {
			res.sst += info.Size()
			res.files++
		}
		return nil
	})
	return res, err
}

func dirBytes(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			n += info.Size()
		}
		return err
	})
	return n, err
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "size:", err)
	os.Exit(1)
}
