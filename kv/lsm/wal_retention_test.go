package lsm

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
	"github.com/widesql/widesql/kv/lsm/internal/wal"
)

// walOnDisk returns the WAL segments in the store's wal/ directory and
// their total size, each up to its zero tail (preallocated space, not log).
func walOnDisk(t *testing.T, fs vfs.FS) (segs []uint64, bytes int64) {
	t.Helper()
	segs, err := wal.Segments(fs, "db/wal")
	if err != nil {
		t.Fatal(err)
	}
	for _, seg := range segs {
		f, err := fs.Open("db/wal/" + wal.SegmentName(seg))
		if err != nil {
			t.Fatal(err)
		}
		n, _ := f.Size()
		b := make([]byte, n)
		f.ReadAt(b, 0)
		f.Close()
		for n > 0 && b[n-1] == 0 {
			n--
		}
		bytes += n
	}
	return segs, bytes
}

// loadRows writes n rows of a 200-byte value to tbl, 100 rows a batch.
func loadRows(t *testing.T, tbl kv.Table, prefix string, n int) {
	t.Helper()
	var batch []kv.RowMutation
	for i := range n {
		batch = append(batch, kv.RowMutation{Key: fmt.Appendf(nil, "%s%08d", prefix, i), Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "f", Qualifier: []byte("q"), Timestamp: 1000, Value: make([]byte, 200)}}})
		if len(batch) == 100 || i == n-1 {
			if err := tbl.Apply(context.Background(), batch); err != nil {
				t.Fatal(err)
			}
			batch = batch[:0]
		}
	}
}

func createTable(t *testing.T, s *Store, name string) kv.Table {
	t.Helper()
	ctx := context.Background()
	if err := s.CreateTable(ctx, name, kv.TableSpec{Families: []kv.Family{{Name: "f"}}}); err != nil {
		t.Fatal(err)
	}
	tbl, err := s.Table(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// TestSmallMemtableDoesNotPinWAL: a table written once (a catalog) must not
// keep every later WAL segment on disk while a busy table flushes: once
// the pinned WAL exceeds MaxWALSize, the memtable holding the oldest
// segment is flushed too, and its row survives a restart.
func TestSmallMemtableDoesNotPinWAL(t *testing.T) {
	fs := vfs.NewMem()
	opts := testOptions(fs) // MemtableSize 1 MiB, so MaxWALSize 1 MiB
	s, err := Open("db", opts)
	if err != nil {
		t.Fatal(err)
	}
	put(t, createTable(t, s, "catalog"), "row", "v")
	loadRows(t, createTable(t, s, "big"), "k", 40_000) // ~9 MiB of WAL
	if err := s.flushNeeded(); err != nil {            // what the background does
		t.Fatal(err)
	}
	segs, total := walOnDisk(t, fs)
	s.commitMu.Lock()
	cur := s.wal.Size()
	s.commitMu.Unlock()
	// Closed segments hold at most MaxWALSize, plus what a background
	// flush running meanwhile has not removed yet.
	if closed := total - cur; closed > 2*opts.MemtableSize {
		t.Fatalf("WAL keeps %d bytes in %d closed segments %v, want <= %d", closed, len(segs)-1, segs, 2*opts.MemtableSize)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, fs)
	defer s.Close()
	tbl, _ := s.Table(context.Background(), "catalog")
	if keys := scanKeys(t, tbl, false); fmt.Sprint(keys) != "[row]" {
		t.Fatalf("catalog after restart: %v", keys)
	}
	tbl, _ = s.Table(context.Background(), "big")
	if keys := scanKeys(t, tbl, false); len(keys) != 40_000 {
		t.Fatalf("big after restart: %d rows", len(keys))
	}
}

// TestFlushEmptiesWAL: after Flush (a checkpoint) the WAL is one empty
// segment, and a restart finds every row in files.
func TestFlushEmptiesWAL(t *testing.T) {
	fs := vfs.NewMem()
	s := mustOpen(t, fs)
	put(t, createTable(t, s, "catalog"), "row", "v")
	loadRows(t, createTable(t, s, "big"), "k", 10_000)
	if err := s.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if segs, total := walOnDisk(t, fs); len(segs) != 1 || total != 0 {
		t.Fatalf("after Flush the WAL is %v, %d bytes; want one empty segment", segs, total)
	}
	if n := s.Metrics().MemtableBytes; n != 0 {
		t.Fatalf("after Flush memtables hold %d bytes", n)
	}
	s.Close()
	s = mustOpen(t, fs)
	defer s.Close()
	tbl, _ := s.Table(context.Background(), "big")
	if keys := scanKeys(t, tbl, false); len(keys) != 10_000 {
		t.Fatalf("after restart: %d rows", len(keys))
	}
}

// TestFlushReturnsUnderWrites: Flush flushes what it finds and returns,
// however fast writers refill the memtables.
func TestFlushReturnsUnderWrites(t *testing.T) {
	fs := vfs.NewMem()
	s := mustOpen(t, fs)
	defer s.Close()
	tbl := createTable(t, s, "t")
	loadRows(t, tbl, "a", 2000)
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			err := tbl.Apply(context.Background(), []kv.RowMutation{{Key: fmt.Appendf(nil, "b%08d", i), Mutations: []kv.Mutation{
				{Kind: kv.SetCell, Family: "f", Qualifier: []byte("q"), Timestamp: 1000, Value: []byte("v")}}}})
			if err != nil {
				t.Error(err) // not Fatal: this is not the test's goroutine
				return
			}
		}
	}()
	for range 3 {
		if err := s.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	stop.Store(true)
	wg.Wait()
	if n := len(scanKeys(t, tbl, false)); n < 2000 {
		t.Fatalf("%d rows", n)
	}
}

// TestReplayedWALCountsLogBytes: after a restart, the replayed segments
// count towards MaxWALSize with their log bytes only, not with the zeros
// preallocated after them (which would make the next flush come early).
func TestReplayedWALCountsLogBytes(t *testing.T) {
	fs := vfs.NewMem()
	opts := testOptions(fs)
	s, err := Open("db", opts)
	if err != nil {
		t.Fatal(err)
	}
	loadRows(t, createTable(t, s, "t"), "r", 300) // ~60 KB of log, under the 1 MiB memtable
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	logBytes := walFrameBytes(t, fs)
	s, err = Open("db", opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.mu.Lock()
	pinned := s.walPinnedLocked()
	s.mu.Unlock()
	if pinned != logBytes {
		t.Fatalf("replayed WAL pins %d bytes, its log is %d bytes", pinned, logBytes)
	}
}

// walFrameBytes returns the bytes of the frames in the store's WAL
// segments, walking their headers (4-byte checksum, 4-byte little-endian
// length) up to the first zero length: the preallocated tail.
func walFrameBytes(t *testing.T, fs vfs.FS) int64 {
	t.Helper()
	segs, err := wal.Segments(fs, "db/wal")
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, seg := range segs {
		f, err := fs.Open("db/wal/" + wal.SegmentName(seg))
		if err != nil {
			t.Fatal(err)
		}
		size, _ := f.Size()
		b := make([]byte, size)
		f.ReadAt(b, 0)
		f.Close()
		for off := 0; off+8 <= len(b); {
			l := int(binary.LittleEndian.Uint32(b[off+4:]))
			if l == 0 {
				break
			}
			off += 8 + l
			n += int64(8 + l)
		}
	}
	return n
}
