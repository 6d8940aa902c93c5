package lsm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// sstOnDisk counts the .sst files in the store's directory.
func sstOnDisk(t *testing.T, fs vfs.FS) int {
	t.Helper()
	names, err := fs.List("db")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, name := range names {
		if strings.HasSuffix(name, ".sst") {
			n++
		}
	}
	return n
}

// TestDirectoryLock: a second Open of an open directory fails with
// ErrLocked; Close releases the lock.
func TestDirectoryLock(t *testing.T) {
	fs := vfs.NewMem()
	s := mustOpen(t, fs)
	if _, err := Open("db", testOptions(fs)); !errors.Is(err, ErrLocked) {
		t.Fatalf("second Open: %v, want ErrLocked", err)
	}
	s.Close()
	s = mustOpen(t, fs)
	s.Close()
}

// TestDirectoryLockOS: the lock holds on the OS file system too (flock).
func TestDirectoryLockOS(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(dir, Options{})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("second Open: %v, want ErrLocked naming the directory", err)
	}
	s.Close()
	if s, err = Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
}

// TestCompactionDeletesReplacedFiles: the inputs of a compaction are
// deleted as soon as the last read using them finishes, without a reopen.
func TestCompactionDeletesReplacedFiles(t *testing.T) {
	ctx := context.Background()
	fs := vfs.NewMem()
	s := mustOpen(t, fs)
	defer s.Close()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "f"}}}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	for i := range 4 {
		put(t, tbl, fmt.Sprintf("k%d", i), "v")
		if err := s.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := sstOnDisk(t, fs); n != 4 {
		t.Fatalf("%d files after 4 flushes", n)
	}
	// A read open across the compaction keeps its files.
	it := tbl.Read(ctx, kv.RowSet{}, kv.ReadOptions{})
	if !it.Next() {
		t.Fatal("no row")
	}
	if err := s.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	if n := sstOnDisk(t, fs); n != 5 {
		t.Fatalf("%d files during a read, want 4 read + 1 new", n)
	}
	rows := 1
	for it.Next() {
		rows++
	}
	if err := it.Close(); err != nil || rows != 4 {
		t.Fatalf("read across compaction: %d rows, %v", rows, err)
	}
	if n, live := sstOnDisk(t, fs), s.Metrics().Files; n != 1 || live != 1 {
		t.Fatalf("%d files on disk, %d live after the read closed; want 1", n, live)
	}
}

// TestNoObsoleteFilesAfterSplits: after flushes, compactions and region
// splits (children share their parent's files until rewritten), the
// directory holds exactly the live files.
func TestNoObsoleteFilesAfterSplits(t *testing.T) {
	ctx := context.Background()
	fs := vfs.NewMem()
	o := testOptions(fs)
	o.MemtableSize, o.RegionSplitSize, o.MaxFilesPerStore = 32<<10, 64<<10, 2
	s, err := Open("db", o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "f", Compression: "none"}, {Name: "g"}}}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	val := strings.Repeat("x", 200)
	for round := range 6 {
		var batch []kv.RowMutation
		for i := range 300 {
			batch = append(batch, kv.RowMutation{Key: fmt.Appendf(nil, "k%05d", (i*7919+round)%3000), Mutations: []kv.Mutation{
				{Kind: kv.SetCell, Family: "f", Qualifier: []byte("a"), Timestamp: 1000, Value: []byte(val)},
				{Kind: kv.SetCell, Family: "g", Qualifier: []byte("b"), Timestamp: 1000, Value: []byte(val)}}})
		}
		if err := tbl.Apply(ctx, batch); err != nil {
			t.Fatal(err)
		}
		if err := s.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if err := s.compactNeeded(ctx, round%2 == 1); err != nil {
			t.Fatal(err)
		}
	}
	regions, err := s.Regions(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	if len(regions) < 2 {
		t.Fatalf("%d regions: the test wants splits", len(regions))
	}
	if err := s.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	// Background flushes and compactions may be writing a file: wait for
	// the directory to settle.
	var n int
	var live int64
	for range 200 {
		if n, live = sstOnDisk(t, fs), s.Metrics().Files; int64(n) == live {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%d files on disk, %d live", n, live)
}

// TestFlushAndCompactionRetryAfterDiskFull: a flush or a compaction that
// fails on a full disk leaves no partial file, does not fail the store
// (reads and, once there is space, writes go on without a restart), and
// succeeds when retried.
func TestFlushAndCompactionRetryAfterDiskFull(t *testing.T) {
	ctx := context.Background()
	fs := vfs.NewMem()
	s := mustOpen(t, fs)
	defer s.Close()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "f"}}}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	for i := range 3 {
		put(t, tbl, fmt.Sprintf("a%d", i), "v")
		if err := s.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	put(t, tbl, "b", "v")
	before := sstOnDisk(t, fs)

	fs.SetSpaceLimit(1) // every write fails
	if err := s.Flush(ctx); !errors.Is(err, vfs.ErrNoSpace) {
		t.Fatalf("Flush on a full disk: %v, want ErrNoSpace", err)
	}
	if err := s.Compact(ctx); !errors.Is(err, vfs.ErrNoSpace) {
		t.Fatalf("Compact on a full disk: %v, want ErrNoSpace", err)
	}
	if n := sstOnDisk(t, fs); n != before {
		t.Fatalf("%d files after failed flush and compaction, want %d: partial files left", n, before)
	}
	if got := scanKeys(t, tbl, false); len(got) != 4 {
		t.Fatalf("rows during the failure: %v", got)
	}

	fs.SetSpaceLimit(-1)
	put(t, tbl, "c", "v") // writable without a restart
	if err := s.Flush(ctx); err != nil {
		t.Fatalf("Flush with space again: %v", err)
	}
	if err := s.Compact(ctx); err != nil {
		t.Fatalf("Compact with space again: %v", err)
	}
	if got := scanKeys(t, tbl, false); len(got) != 5 {
		t.Fatalf("rows after the retries: %v", got)
	}
	if m := s.Metrics(); m.MemtableBytes != 0 || m.Files != 1 {
		t.Fatalf("after retries: %d memtable bytes, %d files; want 0 and 1", m.MemtableBytes, m.Files)
	}
	s.Close()
	s = mustOpen(t, fs)
	tbl, _ = s.Table(ctx, "t")
	if got := scanKeys(t, tbl, false); len(got) != 5 {
		t.Fatalf("rows after reopen: %v", got)
	}
}

// memUsage is the bytes of the files of db and db/wal.
func memUsage(t *testing.T, fs vfs.FS) int64 {
	var n int64
	for _, dir := range []string{"db", "db/wal"} {
		names, _ := fs.List(dir)
		for _, name := range names {
			f, err := fs.Open(dir + "/" + name)
			if err != nil {
				continue // a directory
			}
			sz, _ := f.Size()
			f.Close()
			n += sz
		}
	}
	return n
}

// retryLog counts the background's "will retry" errors.
type retryLog struct{ n atomic.Int64 }

func (h *retryLog) Enabled(context.Context, slog.Level) bool { return true }
func (h *retryLog) Handle(_ context.Context, r slog.Record) error {
	if strings.Contains(r.Message, "will retry") {
		h.n.Add(1)
	}
	return nil
}
func (h *retryLog) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *retryLog) WithGroup(string) slog.Handler      { return h }

// TestBackgroundFlushRetries: a background flush that fails on a full
// disk (the WAL still has room) is retried by itself, with backoff, once
// space is back; nothing is lost and no restart is needed.
func TestBackgroundFlushRetries(t *testing.T) {
	ctx := context.Background()
	fs := vfs.NewMem()
	o := testOptions(fs)
	logs := &retryLog{}
	o.MemtableSize, o.MemoryBudget, o.Logger = 64<<10, 1<<20, slog.New(logs)
	s, err := Open("db", o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "f", Compression: "none"}}}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	val := strings.Repeat("v", 1000)
	i := 0
	for ; s.Metrics().MemtableBytes < 56<<10; i++ {
		put(t, tbl, fmt.Sprintf("k%04d", i), val)
	}
	fs.SetSpaceLimit(memUsage(t, fs) + 16<<10) // the WAL fits, the flush does not
	for ; s.Metrics().MemtableBytes < 64<<10; i++ {
		put(t, tbl, fmt.Sprintf("k%04d", i), val)
	}
	deadline := time.Now().Add(10 * time.Second)
	for logs.n.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the background flush did not fail twice on a full disk")
		}
		time.Sleep(5 * time.Millisecond)
	}
	fs.SetSpaceLimit(-1)
	for s.Metrics().Flushes == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no flush within 10s of space returning")
		}
		time.Sleep(5 * time.Millisecond)
	}
	put(t, tbl, "z", "v")
	if got := scanKeys(t, tbl, false); len(got) != i+1 {
		t.Fatalf("%d rows after the retried flush, want %d", len(got), i+1)
	}
}
