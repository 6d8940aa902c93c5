//go:build linux

package wal

import (
	"syscall"

	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// syncData makes the records written to f durable. A file of the OS file
// system (it has Fd: vfs's osFile embeds *os.File) gets fdatasync rather
// than fsync: a segment only grows by appends, and fdatasync flushes the
// data and the metadata needed to read it back (the file size) but not
// timestamps, which saves a journal commit per sync (about 3x faster on
// ext4; PostgreSQL's default wal_sync_method on Linux). Other files (the
// test file systems) get their Sync.
func syncData(f vfs.File) error {
	if fd, ok := f.(interface{ Fd() uintptr }); ok {
		for {
			err := syscall.Fdatasync(int(fd.Fd()))
			if err != syscall.EINTR {
				return err
			}
		}
	}
	return f.Sync()
}

// startWriteback asks the kernel to start writing [off, off+n) of f to the
// device without waiting (sync_file_range(SYNC_FILE_RANGE_WRITE)), so that
// a zero fill's pages are mostly on disk before the next fdatasync, which
// would otherwise write them in a commit's critical path. A hint: it
// reports nothing, and a writeback error is still seen by that fdatasync.
// Files of other file systems are left alone.
func startWriteback(f vfs.File, off, n int64) {
	if fd, ok := f.(interface{ Fd() uintptr }); ok {
		const syncFileRangeWrite = 2 // SYNC_FILE_RANGE_WRITE
		_ = syscall.SyncFileRange(int(fd.Fd()), off, n, syncFileRangeWrite)
	}
}
