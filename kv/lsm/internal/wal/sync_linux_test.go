//go:build linux

package wal

import (
	"path/filepath"
	"testing"

	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// TestSyncDataOSFile checks that segments of the OS file system take the
// fdatasync path (their files expose Fd), that it syncs without error, and
// that its error is reported (a closed file), not lost.
func TestSyncDataOSFile(t *testing.T) {
	dir := t.TempDir()
	f, err := vfs.Default.Create(filepath.Join(dir, "x"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.(interface{ Fd() uintptr }); !ok {
		t.Fatalf("%T has no Fd: WAL syncs would fall back to fsync", f)
	}
	if _, err := f.Write([]byte("abc")); err != nil {
		t.Fatal(err)
	}
	if err := syncData(f); err != nil {
		t.Fatalf("syncData: %v", err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := syncData(f); err == nil {
		t.Fatal("syncData of a closed file succeeded")
	}
}
