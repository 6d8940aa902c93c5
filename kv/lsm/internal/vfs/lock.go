package vfs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// ErrLocked is returned by Lock when another holder has the lock.
var ErrLocked = errors.New("vfs: locked by another process")

// Locker is an optional capability of an FS: an exclusive, advisory lock
// on a file, held until the returned Closer is closed or the process
// exits. The engine locks its directory with it so that two processes
// never open one store.
type Locker interface {
	// Lock creates name if needed and locks it; it fails at once with an
	// error wrapping ErrLocked if the lock is held.
	Lock(name string) (io.Closer, error)
}

var (
	_ Locker = osFS{}
	_ Locker = (*MemFS)(nil)
)

// Lock takes flock(LOCK_EX|LOCK_NB) on name: the kernel drops it when the
// process dies, so a crash never leaves a stale lock.
func (osFS) Lock(name string) (io.Closer, error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("lock %s: %w", name, ErrLocked)
		}
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	return f, nil // closing the file releases the lock
}

// Lock locks name in the in-memory file system. Crash releases every lock,
// as the death of the process holding them would.
func (fsys *MemFS) Lock(name string) (io.Closer, error) {
	fsys.mu.Lock()
	defer fsys.mu.Unlock()
	if fsys.locks == nil {
		fsys.locks = map[string]*memLock{}
	}
	if l := fsys.locks[name]; l != nil && l.epoch == fsys.epoch {
		return nil, fmt.Errorf("lock %s: %w", name, ErrLocked)
	}
	l := &memLock{fsys: fsys, name: name, epoch: fsys.epoch}
	fsys.locks[name] = l
	return l, nil
}

type memLock struct {
	fsys  *MemFS
	name  string
	epoch uint64
}

func (l *memLock) Close() error {
	l.fsys.mu.Lock()
	defer l.fsys.mu.Unlock()
	if l.fsys.locks[l.name] == l {
		delete(l.fsys.locks, l.name)
	}
	return nil
}
