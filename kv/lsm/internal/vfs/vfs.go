// Package vfs is the file system seen by the storage engine: the OS, or an
// in-memory file system that can simulate a crash (dropping everything not
// synced) and inject faults (failed syncs, a full disk, flipped bits), so
// durability is tested without a real power cut.
package vfs

import (
	"errors"
	"io"
)

// ErrInjected is returned by operations that an injected fault fails.
var ErrInjected = errors.New("vfs: injected fault")

// File is an open file. Reads at offsets are safe for concurrent use;
// writes are appends by one writer.
//
// The files of Default and MemFS opened for writing (Create) also implement
// io.WriterAt: the WAL writes at offsets into space it zero-filled ahead of
// time, so that a sync does not also commit a file-size change. Concurrent
// WriteAt calls on disjoint ranges are safe. Other implementations may omit
// it; callers then append.
type File interface {
	io.Writer
	io.ReaderAt
	io.Closer
	// Sync makes everything written so far durable.
	Sync() error
	// Size returns the file's current size.
	Size() (int64, error)
}

// FS is a file system. Paths use "/" and are joined with path.Join by
// callers; implementations may map them to the OS.
type FS interface {
	// Create creates or truncates a file for writing.
	Create(name string) (File, error)
	// Open opens an existing file for reading.
	Open(name string) (File, error)
	// OpenAppend opens an existing file for appending (WAL recovery).
	OpenAppend(name string) (File, error)
	// Rename atomically replaces newname with oldname.
	Rename(oldname, newname string) error
	// Remove deletes a file.
	Remove(name string) error
	// MkdirAll creates a directory and its parents.
	MkdirAll(dir string) error
	// List returns the names (not paths) of the entries of dir, sorted.
	List(dir string) ([]string, error)
	// SyncDir makes the directory's entries (creations, renames, removals)
	// durable.
	SyncDir(dir string) error
}
