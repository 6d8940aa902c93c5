package lsm_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// TestNoSplitWhileRewritePending loads a table by bulk ingest while a
// snapshot older than the ingest is open, so compaction must leave the
// ingested file alone, and then compacts again and again. The region over
// RegionSplitSize splits once; its children share the file, which extends
// past each child's range until compaction rewrites it, and must not
// split again while they wait: counting the shared file as theirs, every
// pass split every child (a bulk load ended with thousands of regions).
// Once the snapshot closes, the rewrite and the normal splits happen.
func TestNoSplitWhileRewritePending(t *testing.T) {
	ctx := context.Background()
	s, err := lsm.Open("db", lsm.Options{FS: vfs.NewMem(), MemtableSize: 64 << 10,
		RegionSplitSize: 32 << 10, BlockSize: 512, Logger: discardLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: []kv.Family{{Name: "f"}}}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	snap, err := s.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const n = 4000
	b, err := tbl.(kv.Ingester).NewIngest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		err := b.Add(kv.RowMutation{Key: fmt.Appendf(nil, "r%05d", i), Require: kv.RequireAbsent,
			Mutations: []kv.Mutation{{Kind: kv.SetCell, Family: "f", Qualifier: []byte("q"), Timestamp: 1000,
				Value: fmt.Appendf(nil, "%0100d", i)}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	regions := func() int {
		t.Helper()
		rs, err := s.Regions(ctx, "t")
		if err != nil {
			t.Fatal(err)
		}
		return len(rs)
	}
	count := func() int {
		t.Helper()
		rows, err := readAll(ctx, tbl, kv.RowSet{}, kv.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return len(rows)
	}
	for range 6 {
		if err := s.Compact(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// One split (the loaded region, which held its file) and no more.
	if got := regions(); got > 2 {
		t.Fatalf("%d regions while the rewrite waits for the snapshot; want at most 2", got)
	}
	if got := count(); got != n {
		t.Fatalf("%d rows, want %d", got, n)
	}
	snap.Release()
	for range 6 {
		if err := s.Compact(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// ~440 KB of rows in 32 KiB regions: the splits resume, each
	// region's own bytes deciding.
	if got := regions(); got < 4 || got > 64 {
		t.Fatalf("%d regions after the rewrite; want 4..64", got)
	}
	if got := count(); got != n {
		t.Fatalf("%d rows after the rewrite, want %d", got, n)
	}
}
