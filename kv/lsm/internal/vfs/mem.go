package vfs

import (
	"errors"
	"io/fs"
	"maps"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"sync"
)

// MemFS is an in-memory FS that models durability exactly, for crash and
// fault-injection tests. It is safe for concurrent use; every operation takes
// one lock.
//
// Durability model:
//   - A file's content is its synced content changed by the writes since
//     the last sync: appends (an unsynced tail) and positional writes
//     (WriteAt), which may overwrite synced bytes. File.Sync makes the whole
//     current content synced. Truncation by Create
//     of an existing name is itself unsynced until the next Sync.
//   - A directory's entries (create, rename, remove, mkdir) are durable only
//     after SyncDir of that directory: MemFS keeps a synced copy of each
//     directory's namespace. This includes directories made by MkdirAll: a
//     new directory survives a crash only after SyncDir of its parent. The
//     root directory always exists.
//   - Crash (see faults.go) reverts every file and directory to its synced
//     state and invalidates every open handle.
//
// Paths use "/"; "a/b", "/a/b" and "a//b/" name the same file.
type MemFS struct {
	mu      sync.Mutex
	root    *memNode
	epoch   uint64              // bumped by Crash; handles from older epochs are invalid
	syncErr error               // injected; fails every Sync and SyncDir while set
	limit   int64               // total bytes allowed across files; < 0: unlimited
	used    int64               // bytes currently held by files in the namespace
	locks   map[string]*memLock // see Lock; stale once epoch moves on
}

var _ FS = (*MemFS)(nil)

// memNode is a file or a directory.
type memNode struct {
	dir bool

	// Directory: current and durable namespace.
	children       map[string]*memNode
	syncedChildren map[string]*memNode

	// File: data is the current content. Unless diverged, the durable
	// content is data[:syncedLen] with the writes of log undone. After
	// Create truncated the file, diverged is set and durable holds the old
	// durable content (data then owns a fresh array, so the two never
	// alias).
	data      []byte
	syncedLen int
	diverged  bool
	durable   []byte
	// log lists the writes since the last sync, in order, once one of them
	// was a WriteAt (see memWrite); while it is empty the unsynced writes
	// are plain appends, data[syncedLen:].
	log []memWrite
}

// memWrite is an unsynced write of n bytes at off to a file prevLen bytes
// long; old holds the bytes it overwrote (those below prevLen), so that a
// crash can undo it.
type memWrite struct {
	off, n, prevLen int
	old             []byte
}

// put writes p at off, extending the file (with zeros over any gap).
func (n *memNode) put(p []byte, off int) {
	if end := off + len(p); end > len(n.data) {
		l := len(n.data)
		n.data = slices.Grow(n.data, end-l)[:end]
		clear(n.data[l:])
	}
	copy(n.data[off:], p)
}

// undo reverts w, the last write not yet undone.
func (n *memNode) undo(w memWrite) {
	copy(n.data[w.off:], w.old)
	n.data = n.data[:w.prevLen]
}

// durableContent returns a copy of the file's durable content. Callers
// check diverged first.
func (n *memNode) durableContent() []byte {
	d := slices.Clone(n.data)
	for i := len(n.log) - 1; i >= 0; i-- {
		w := n.log[i]
		copy(d[w.off:], w.old)
		d = d[:w.prevLen]
	}
	return d[:n.syncedLen:n.syncedLen]
}

// revert drops what a crash loses: every unsynced write, or with rng a
// random prefix of them (in write order, the last one possibly partial),
// as if the device persisted part of the in-flight writes.
func (n *memNode) revert(rng *rand.Rand) {
	switch {
	case n.diverged:
		n.data = n.durable
	case len(n.log) == 0 && rng != nil:
		n.data = n.data[:n.syncedLen+rng.IntN(len(n.data)-n.syncedLen+1)]
	case len(n.log) == 0:
		n.data = n.data[:n.syncedLen]
	default:
		keep, total := 0, 0
		for _, w := range n.log {
			total += w.n
		}
		if rng != nil {
			keep = rng.IntN(total + 1)
		}
		i := 0
		for i < len(n.log) && keep >= n.log[i].n {
			keep -= n.log[i].n
			i++
		}
		for j := len(n.log) - 1; j > i; j-- {
			n.undo(n.log[j])
		}
		if i < len(n.log) {
			w := n.log[i]
			part := slices.Clone(n.data[w.off : w.off+keep])
			n.undo(w)
			n.put(part, w.off)
		}
	}
	n.sync()
}

func newDir() *memNode {
	return &memNode{dir: true, children: map[string]*memNode{}, syncedChildren: map[string]*memNode{}}
}

// sync makes the file's current content durable.
func (n *memNode) sync() {
	n.syncedLen = len(n.data)
	n.diverged = false
	n.durable = nil
	n.log = nil
}

// NewMem returns an empty in-memory file system with no space limit and no
// injected faults.
func NewMem() *MemFS {
	return &MemFS{root: newDir(), limit: -1}
}

var (
	errIsDir    = errors.New("is a directory")
	errNotDir   = errors.New("not a directory")
	errNotEmpty = errors.New("directory not empty")
)

func splitPath(name string) []string {
	p := path.Clean("/" + name)
	if p == "/" {
		return nil
	}
	return strings.Split(p[1:], "/")
}

// walk returns the directory named by parts. Callers hold fs.mu.
func (fsys *MemFS) walk(op, name string, parts []string) (*memNode, error) {
	d := fsys.root
	for _, p := range parts {
		c, ok := d.children[p]
		if !ok {
			return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
		}
		if !c.dir {
			return nil, &fs.PathError{Op: op, Path: name, Err: errNotDir}
		}
		d = c
	}
	return d, nil
}

// parent returns the directory holding name and name's last element.
// Callers hold fs.mu.
func (fsys *MemFS) parent(op, name string) (*memNode, string, error) {
	parts := splitPath(name)
	if len(parts) == 0 {
		return nil, "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	d, err := fsys.walk(op, name, parts[:len(parts)-1])
	if err != nil {
		return nil, "", err
	}
	return d, parts[len(parts)-1], nil
}

// file returns the existing file name. Callers hold fs.mu.
func (fsys *MemFS) file(op, name string) (*memNode, error) {
	d, base, err := fsys.parent(op, name)
	if err != nil {
		return nil, err
	}
	n, ok := d.children[base]
	if !ok {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
	}
	if n.dir {
		return nil, &fs.PathError{Op: op, Path: name, Err: errIsDir}
	}
	return n, nil
}

// Create creates name, or truncates it if it exists. The new entry is
// durable after SyncDir of its directory; the truncation after File.Sync.
func (fsys *MemFS) Create(name string) (File, error) {
	fsys.mu.Lock()
	defer fsys.mu.Unlock()
	d, base, err := fsys.parent("create", name)
	if err != nil {
		return nil, err
	}
	n, ok := d.children[base]
	switch {
	case !ok:
		n = &memNode{}
		d.children[base] = n
	case n.dir:
		return nil, &fs.PathError{Op: "create", Path: name, Err: errIsDir}
	default:
		if !n.diverged {
			n.durable = n.data[:n.syncedLen:n.syncedLen]
			if len(n.log) > 0 {
				n.durable = n.durableContent()
			}
			n.diverged = true
			n.log = nil
		}
		fsys.used -= int64(len(n.data))
		n.data = nil
	}
	return fsys.handle(n, name, true), nil
}

// Open opens an existing file for reading.
func (fsys *MemFS) Open(name string) (File, error) {
	return fsys.open("open", name, false)
}

// OpenAppend opens an existing file for reading and appending.
func (fsys *MemFS) OpenAppend(name string) (File, error) {
	return fsys.open("open", name, true)
}

func (fsys *MemFS) open(op, name string, writable bool) (File, error) {
	fsys.mu.Lock()
	defer fsys.mu.Unlock()
	n, err := fsys.file(op, name)
	if err != nil {
		return nil, err
	}
	return fsys.handle(n, name, writable), nil
}

func (fsys *MemFS) handle(n *memNode, name string, writable bool) *memFile {
	return &memFile{fs: fsys, n: n, name: name, epoch: fsys.epoch, writable: writable}
}

// Rename moves oldname to newname, replacing a file there. Open handles keep
// referring to the moved file. Durable after SyncDir of both directories.
func (fsys *MemFS) Rename(oldname, newname string) error {
	fsys.mu.Lock()
	defer fsys.mu.Unlock()
	od, obase, err := fsys.parent("rename", oldname)
	if err != nil {
		return err
	}
	n, ok := od.children[obase]
	if !ok {
		return &fs.PathError{Op: "rename", Path: oldname, Err: fs.ErrNotExist}
	}
	nd, nbase, err := fsys.parent("rename", newname)
	if err != nil {
		return err
	}
	if old, ok := nd.children[nbase]; ok {
		if old == n {
			return nil
		}
		if old.dir || n.dir {
			return &fs.PathError{Op: "rename", Path: newname, Err: errIsDir}
		}
		fsys.used -= int64(len(old.data))
	}
	delete(od.children, obase)
	nd.children[nbase] = n
	return nil
}

// Remove deletes a file or an empty directory. Durable after SyncDir.
func (fsys *MemFS) Remove(name string) error {
	fsys.mu.Lock()
	defer fsys.mu.Unlock()
	d, base, err := fsys.parent("remove", name)
	if err != nil {
		return err
	}
	n, ok := d.children[base]
	if !ok {
		return &fs.PathError{Op: "remove", Path: name, Err: fs.ErrNotExist}
	}
	if n.dir && len(n.children) > 0 {
		return &fs.PathError{Op: "remove", Path: name, Err: errNotEmpty}
	}
	fsys.used -= int64(len(n.data))
	delete(d.children, base)
	return nil
}

// MkdirAll creates dir and missing parents. Each new directory is durable
// after SyncDir of its parent.
func (fsys *MemFS) MkdirAll(dir string) error {
	fsys.mu.Lock()
	defer fsys.mu.Unlock()
	d := fsys.root
	for _, p := range splitPath(dir) {
		c, ok := d.children[p]
		if !ok {
			c = newDir()
			d.children[p] = c
		} else if !c.dir {
			return &fs.PathError{Op: "mkdir", Path: dir, Err: errNotDir}
		}
		d = c
	}
	return nil
}

// List returns the sorted names of dir's current entries.
func (fsys *MemFS) List(dir string) ([]string, error) {
	fsys.mu.Lock()
	defer fsys.mu.Unlock()
	d, err := fsys.walk("list", dir, splitPath(dir))
	if err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(d.children)), nil
}

// SyncDir makes dir's current entries durable. It fails while a sync error
// is injected.
func (fsys *MemFS) SyncDir(dir string) error {
	fsys.mu.Lock()
	defer fsys.mu.Unlock()
	d, err := fsys.walk("syncdir", dir, splitPath(dir))
	if err != nil {
		return err
	}
	if err := fsys.injectedSyncErr("syncdir", dir); err != nil {
		return err
	}
	d.syncedChildren = maps.Clone(d.children)
	return nil
}
