//go:build !linux

package wal

import "github.com/widesql/widesql/kv/lsm/internal/vfs"

// syncData makes the records written to f durable (see sync_linux.go).
func syncData(f vfs.File) error { return f.Sync() }

// startWriteback is a Linux hint (see sync_linux.go); nothing here.
func startWriteback(vfs.File, int64, int64) {}
