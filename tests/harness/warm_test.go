package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestWarmFiles: every regular file under the directories is read to the
// end, WAL directories are skipped, and a directory that does not exist
// (a PostgreSQL without global/) is not an error.
func TestWarmFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string, n int) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("MANIFEST", 100)
	write("t1/d/000001.sst", 3<<20+17) // more than one read buffer
	write("t1/p/000002.sst", 0)
	write("wal/000003.log", 1<<20)
	write("base/1/wal/x", 5) // a directory named wal is skipped wherever it is
	write("pg_wal/000000010000000000000001", 1<<20)
	got, err := warmFiles(context.Background(), dir, filepath.Join(dir, "missing"))
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(100 + 3<<20 + 17); got != want {
		t.Fatalf("warmFiles read %d bytes, want %d", got, want)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := warmFiles(ctx, dir); err == nil {
		t.Fatal("warmFiles with a cancelled context: no error")
	}
}
