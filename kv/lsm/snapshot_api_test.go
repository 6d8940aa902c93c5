package lsm

import (
	"context"
	"testing"

	"github.com/widesql/widesql/kv/internal/kvtest"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// TestSnapshot runs the kv.Snapshotter conformance test with a flush and a
// full compaction between its steps: a registered snapshot keeps what it
// reads.
func TestSnapshot(t *testing.T) {
	s := mustOpen(t, vfs.NewMem())
	defer s.Close()
	ctx := context.Background()
	kvtest.RunSnapshot(t, s, func(t *testing.T) {
		if err := s.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if err := s.Compact(ctx); err != nil {
			t.Fatal(err)
		}
	})
}
