package vfs

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"syscall"
)

// ErrNoSpace is the error (wrapped in *fs.PathError) a MemFS write returns
// beyond the limit set by SetSpaceLimit. It matches syscall.ENOSPC and
// ErrInjected under errors.Is.
var ErrNoSpace error = noSpaceError{}

type noSpaceError struct{}

func (noSpaceError) Error() string { return "vfs: no space left on device" }

func (noSpaceError) Is(target error) bool {
	return target == syscall.ENOSPC || target == ErrInjected
}

// Crash simulates a power loss: every file reverts to its synced content,
// every directory to its synced namespace (files and directories whose
// entries were never made durable by SyncDir disappear, unsynced renames and
// removals are undone), and every open handle returns ErrCrashed from then
// on. Injected faults and the space limit stay in force.
func (fsys *MemFS) Crash() { fsys.crash(nil) }

// CrashKeepPartial is Crash, except that each file keeps a random prefix
// (possibly empty, possibly all) of its unsynced writes, chosen with rng, as
// if the device persisted part of an in-flight write: a torn write. The
// prefix is in write order, the last write kept possibly partial: for an
// appended file, a prefix of its unsynced tail. A file truncated since its
// last sync reverts fully.
func (fsys *MemFS) CrashKeepPartial(rng *rand.Rand) { fsys.crash(rng) }

func (fsys *MemFS) crash(rng *rand.Rand) {
	fsys.mu.Lock()
	defer fsys.mu.Unlock()
	fsys.epoch++
	fsys.used = 0
	seen := map[*memNode]bool{}
	var revert func(n *memNode)
	revert = func(n *memNode) {
		if seen[n] {
			return
		}
		seen[n] = true
		if n.dir {
			n.children = make(map[string]*memNode, len(n.syncedChildren))
			for name, c := range n.syncedChildren {
				n.children[name] = c
				revert(c)
			}
			return
		}
		n.revert(rng)
		fsys.used += int64(len(n.data))
	}
	revert(fsys.root)
}

// InjectSyncError makes every later File.Sync and SyncDir fail with an
// error wrapping err and ErrInjected, without making anything durable, until
// InjectSyncError(nil) clears it.
func (fsys *MemFS) InjectSyncError(err error) {
	fsys.mu.Lock()
	defer fsys.mu.Unlock()
	fsys.syncErr = err
}

// injectedSyncErr returns the injected sync failure, if any. Callers hold
// fs.mu.
func (fsys *MemFS) injectedSyncErr(op, name string) error {
	err := fsys.syncErr
	if err == nil {
		return nil
	}
	if !errors.Is(err, ErrInjected) {
		err = fmt.Errorf("%w: %w", ErrInjected, err)
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// SetSpaceLimit caps the total size of all files at limit bytes; a write
// past it is short and returns ErrNoSpace. Removing or truncating files
// frees space. A negative limit removes the cap.
func (fsys *MemFS) SetSpaceLimit(limit int64) {
	fsys.mu.Lock()
	defer fsys.mu.Unlock()
	fsys.limit = limit
}

// FlipBit inverts bit (0-7) of the byte at offset in file name, in both its
// current and its synced content where the offset exists, so the damage is
// seen now and survives a Crash. It returns an error if the file does not
// exist or offset is beyond both.
func (fsys *MemFS) FlipBit(name string, offset int64, bit uint) error {
	if bit > 7 || offset < 0 {
		return &fs.PathError{Op: "flipbit", Path: name, Err: fs.ErrInvalid}
	}
	fsys.mu.Lock()
	defer fsys.mu.Unlock()
	n, err := fsys.file("flipbit", name)
	if err != nil {
		return err
	}
	flipped := false
	if offset < int64(len(n.data)) {
		n.data[offset] ^= 1 << bit
		flipped = true
	}
	if n.diverged && offset < int64(len(n.durable)) {
		n.durable[offset] ^= 1 << bit
		flipped = true
	}
	for _, w := range n.log { // the synced byte an unsynced write hides
		if o := int(offset) - w.off; o >= 0 && o < len(w.old) {
			w.old[o] ^= 1 << bit
		}
	}
	if !flipped {
		return &fs.PathError{Op: "flipbit", Path: name, Err: fs.ErrInvalid}
	}
	return nil
}
