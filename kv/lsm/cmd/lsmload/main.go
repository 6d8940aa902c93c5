// Command lsmload loads many rows into the lsm engine and reports resident
// memory as it goes, to show that memtable and block cache limits bound
// memory however much data is written (issue 3, "Memory").
//
//	go run ./kv/lsm/cmd/lsmload --rows 10000000 --dir /tmp/lsmload
//
// Each row looks like a widesql row: an order-preserving (bigint, timestamp
// DESC) rowkey and three cells in family "d" plus the row marker.
package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm"
)

func main() {
	rows := flag.Int("rows", 10_000_000, "rows to load")
	batch := flag.Int("batch", 1000, "rows per Apply")
	dir := flag.String("dir", "", "data directory (required; emptied first)")
	memtable := flag.Int64("memtable-size", 64<<20, "per-region memtable flush threshold, bytes")
	budget := flag.Int64("memory-budget", 256<<20, "all memtables together, bytes")
	cache := flag.Int64("block-cache-size", 128<<20, "block cache, bytes")
	memLimit := flag.Int64("memory-limit", 0, "Go soft memory limit, bytes (0: none), as cmd/widesql sets by default")
	sync := flag.Bool("sync", false, "fsync every batch")
	flag.Parse()
	if *dir == "" {
		log.Fatal("--dir is required")
	}
	if err := os.RemoveAll(*dir); err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	if *memLimit > 0 {
		debug.SetMemoryLimit(*memLimit)
	}
	st, err := lsm.Open(*dir, lsm.Options{MemtableSize: *memtable, MemoryBudget: *budget, BlockCacheSize: *cache, NoSync: !*sync})
	if err != nil {
		log.Fatal(err)
	}
	if err := st.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "d", MaxVersions: 1}}}); err != nil {
		log.Fatal(err)
	}
	t, err := st.Table(ctx, "t")
	if err != nil {
		log.Fatal(err)
	}
	start := time.Now()
	peak := int64(0)
	ts := kv.Now()
	b := make([]kv.RowMutation, 0, *batch)
	for i := 0; i < *rows; i++ {
		key := rowKey(int64(i/100), int64(i%100))
		b = append(b, kv.RowMutation{Key: key, Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "d", Qualifier: []byte{0}, Timestamp: ts},
			{Kind: kv.SetCell, Family: "d", Qualifier: []byte{1}, Timestamp: ts, Value: binary.AppendVarint(nil, int64(i))},
			{Kind: kv.SetCell, Family: "d", Qualifier: []byte{2}, Timestamp: ts, Value: binary.BigEndian.AppendUint64(nil, uint64(i)*2654435761)},
			{Kind: kv.SetCell, Family: "d", Qualifier: []byte{3}, Timestamp: ts, Value: fmt.Appendf(nil, "event-%012d-payload", i)},
		}})
		if len(b) == *batch || i == *rows-1 {
			if err := t.Apply(ctx, b); err != nil {
				log.Fatal(err)
			}
			b = b[:0]
		}
		if (i+1)%1_000_000 == 0 || i == *rows-1 {
			rss := rssBytes()
			peak = max(peak, rss)
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			fmt.Printf("rows=%d elapsed=%s rss=%dMiB heap_inuse=%dMiB disk=%dMiB\n",
				i+1, time.Since(start).Round(time.Millisecond), rss>>20, ms.HeapInuse>>20, dirSize(*dir)>>20)
		}
	}
	load := time.Since(start)
	start = time.Now()
	it := t.Read(ctx, kv.RowSet{}, kv.ReadOptions{})
	n := 0
	for it.Next() {
		n++
	}
	if err := it.Err(); err != nil {
		log.Fatal(err)
	}
	it.Close()
	peak = max(peak, rssBytes())
	fmt.Printf("loaded %d rows in %s (%.0f rows/s); full scan %d rows in %s; peak rss %d MiB; disk %d MiB\n",
		*rows, load.Round(time.Millisecond), float64(*rows)/load.Seconds(), n, time.Since(start).Round(time.Millisecond), peak>>20, dirSize(*dir)>>20)
	if err := st.Close(); err != nil {
		log.Fatal(err)
	}
}

// rowKey is the order-preserving encoding of (bigint, timestamp DESC), as
// planner/keyenc writes it.
func rowKey(user, seq int64) []byte {
	k := binary.BigEndian.AppendUint64(nil, uint64(user)^1<<63)
	ts := uint64(1_700_000_000_000_000+seq*1000) ^ 1<<63
	return binary.BigEndian.AppendUint64(k, ^ts)
}

// rssBytes reads VmRSS from /proc/self/status.
func rssBytes() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); strings.HasPrefix(line, "VmRSS:") {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(line, "VmRSS:")), "%d", &kb)
			return kb << 10
		}
	}
	return 0
}

func dirSize(dir string) int64 {
	var n int64
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && !e.IsDir() {
			n += info.Size()
		} else if e.IsDir() {
			n += dirSize(dir + "/" + e.Name())
		}
	}
	return n
}
