package tests

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestCheckpoint writes rows to a durable server, runs CHECKPOINT and
// requires that the table's data is now in files (widesql.regions counts
// them), that the write-ahead log shrank, and that the rows survive a
// SIGKILL and restart, when the log can no longer hold them alone.
func TestCheckpoint(t *testing.T) {
	if *pgURL != "" {
		t.Skip("reads widesql.regions and the data directory: widesql only")
	}
	ctx := context.Background()
	dir := t.TempDir()
	s := startDiskServer(t, dir)
	conn := connectTo(t, s)
	for _, q := range []string{
		"CREATE TABLE ckpt (k INT PRIMARY KEY, v TEXT)",
		"INSERT INTO ckpt SELECT g, repeat('x', 200) FROM generate_series(1, 5000) AS g",
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	files := func() int {
		var n int
		if err := conn.QueryRow(ctx, "SELECT sum(files) FROM widesql.regions WHERE table_name = 'ckpt'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := files(); n != 0 {
		t.Fatalf("before CHECKPOINT: %d files, want 0 (the rows are in the memtable)", n)
	}
	walBefore := dirSize(t, filepath.Join(dir, "wal"))

	tag, err := conn.Exec(ctx, "CHECKPOINT")
	if err != nil {
		t.Fatal(err)
	}
	if tag.String() != "CHECKPOINT" {
		t.Fatalf("tag %q, want CHECKPOINT", tag)
	}
	if n := files(); n == 0 {
		t.Fatal("after CHECKPOINT: no files")
	}
	walAfter := dirSize(t, filepath.Join(dir, "wal"))
	t.Logf("WAL: %d bytes before CHECKPOINT, %d after", walBefore, walAfter)
	if walAfter >= walBefore {
		t.Fatalf("WAL is %d bytes after CHECKPOINT, %d before: it should have shrunk", walAfter, walBefore)
	}

	// CHECKPOINT is allowed in a transaction block, as in PostgreSQL.
	for _, q := range []string{"BEGIN", "CHECKPOINT", "COMMIT"} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	conn.Close(ctx)

	s.kill(t)
	s = startDiskServer(t, dir)
	conn = connectTo(t, s)
	defer conn.Close(ctx)
	var n, sum int64
	if err := conn.QueryRow(ctx, "SELECT count(*), sum(k) FROM ckpt").Scan(&n, &sum); err != nil {
		t.Fatal(err)
	}
	if n != 5000 || sum != 5000*5001/2 {
		t.Fatalf("after restart: count %d sum %d, want 5000 and %d", n, sum, 5000*5001/2)
	}
}

// dirSize is the total size of the regular files under dir.
func dirSize(t *testing.T, dir string) int64 {
	t.Helper()
	var total int64
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			total += info.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return total
}
