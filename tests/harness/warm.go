package main

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Warming the servers' files (--warm-files).
//
// This machine pages out file pages that have not been touched for about
// a minute: a DAMON scheme (kdamond, action "pageout", minimum age 12
// aggregation intervals of 5 s) runs on it, and there is no swap, so only
// the OS page cache is reclaimed. PostgreSQL with its default 128 MB
// shared_buffers keeps most of kv in the page cache, so between its turns
// the table drifts back to disk: its filtered scan measured 72 ms in one
// run and 370–420 ms in another of the same tree, read from disk. widesql
// keeps its block and row caches in process memory, which the scheme
// cannot page out. On a database server without such reclaim both
// servers' files stay cached, so before each timed run the harness reads
// the server's data files once, untimed: both start every run with their
// files in the page cache, as they would there.

// warmDirs returns the directories whose files warm reads for s: the
// relation files of PostgreSQL (base/ and global/; not its WAL) and
// widesql's data directory (its wal/ skipped by warmFiles).
func warmDirs(s *server) []string {
	if s.pg != nil {
		return []string{filepath.Join(s.dataDir, "base"), filepath.Join(s.dataDir, "global")}
	}
	return []string{s.dataDir}
}

// warmFiles reads every regular file under dirs to the end, skipping
// directories named wal or pg_wal, and returns the bytes read. Files that
// vanish meanwhile (a compaction's inputs, a dropped relation) are
// skipped: the server owns the directory and keeps working in it.
func warmFiles(ctx context.Context, dirs ...string) (int64, error) {
	buf := make([]byte, 1<<20)
	var total int64
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if d.IsDir() {
				if path != dir && (d.Name() == "wal" || d.Name() == "pg_wal") {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			n, err := readAll(path, buf)
			total += n
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		})
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// readAll reads path to the end into buf, over and over, and returns the
// bytes read.
func readAll(path string, buf []byte) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var total int64
	for {
		n, err := f.Read(buf)
		total += int64(n)
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// warm is the part of runAlternating's hook that warms s's files before a
// timed run; a failure to read is logged, not fatal: the run is then
// measured as the machine has it.
func (h *harness) warm(ctx context.Context, s *server) {
	if !h.cfg.warmFiles {
		return
	}
	start := time.Now()
	n, err := warmFiles(ctx, warmDirs(s)...)
	if err != nil {
		logf("  %-10s warming its files: %v (measured as it is)", s.name, err)
		return
	}
	if d := time.Since(start); d > time.Second {
		logf("  %-10s warmed %s of files in %.1f s", s.name, humanBytes(n), d.Seconds())
	}
}
