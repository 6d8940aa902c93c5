package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Source says where the read benchmarks find their rows.
type Source string

// Sources.
const (
	// Memtable: FixtureRows rows written to a store whose memtable holds
	// them all; nothing was flushed.
	Memtable Source = "memtable"
	// Files: the rows flushed and compacted into one sorted run, every
	// block in the block cache (warmed by a full scan).
	Files Source = "files"
	// Cold: the same files opened afresh with a ColdCacheSize block
	// cache, so most reads miss it (the OS page cache still holds the
	// files: reads are not from the device).
	Cold Source = "cold"
)

// Fixtures are the loaded stores shared by the benchmarks of one process,
// built on first use under one temporary directory. Fixtures are safe for
// concurrent use; the engines they return are not.
type Fixtures struct {
	base Config
	root string

	mu   sync.Mutex
	open map[string]Engine // engine/source -> open store
	cold map[string]string // engine -> directory of closed, compacted files
	seq  int
}

// NewFixtures returns an empty set of fixtures whose stores use base
// (zero fields: defaults).
func NewFixtures(base Config) (*Fixtures, error) {
	root, err := os.MkdirTemp("", "widesql-bench-")
	if err != nil {
		return nil, err
	}
	return &Fixtures{base: base, root: root, open: map[string]Engine{}, cold: map[string]string{}}, nil
}

// Config returns the base configuration.
func (f *Fixtures) Config() Config { return f.base.withDefaults() }

// TempDir returns a new empty directory under the fixtures' root.
func (f *Fixtures) TempDir(label string) (string, error) {
	f.mu.Lock()
	f.seq++
	dir := filepath.Join(f.root, fmt.Sprintf("%s-%d", label, f.seq))
	f.mu.Unlock()
	return dir, os.MkdirAll(dir, 0o755)
}

// Reader returns an open store holding the FixtureRows rows at source
// Memtable or Files. The store stays open until Close.
func (f *Fixtures) Reader(engine string, src Source) (Engine, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := engine + "/" + string(src)
	if e, ok := f.open[id]; ok {
		return e, nil
	}
	cfg := f.base
	if src == Memtable {
		// Large enough that 100k rows never reach a flush.
		cfg.MemtableSize = 512 << 20
	}
	e, err := f.build(engine, string(src), cfg, src == Files)
	if err != nil {
		return nil, err
	}
	if src == Memtable {
		if n := e.Flushes(); n > 0 {
			e.Close()
			return nil, fmt.Errorf("bench: %s memtable fixture flushed %d times", engine, n)
		}
	}
	if src == Files {
		if _, _, err := e.Scan(context.Background(), nil, 0); err != nil { // warm the cache
			e.Close()
			return nil, err
		}
	}
	f.open[id] = e
	return e, nil
}

// OpenCold opens afresh, with a ColdCacheSize block cache, a store of the
// FixtureRows rows flushed and compacted. The caller closes it.
func (f *Fixtures) OpenCold(engine string) (Engine, error) {
	f.mu.Lock()
	dir, ok := f.cold[engine]
	if !ok {
		e, err := f.build(engine, "cold", f.base, true)
		if err != nil {
			f.mu.Unlock()
			return nil, err
		}
		if err := e.Close(); err != nil {
			f.mu.Unlock()
			return nil, err
		}
		dir = f.dirOf(engine, "cold")
		f.cold[engine] = dir
	}
	f.mu.Unlock()
	cfg := f.base
	cfg.BlockCacheSize = ColdCacheSize
	return Open(engine, dir, cfg)
}

func (f *Fixtures) dirOf(engine, label string) string {
	return filepath.Join(f.root, "fixture-"+engine+"-"+label)
}

// build loads FixtureRows rows into a new store, and flushes and compacts
// them when flush is set.
func (f *Fixtures) build(engine, label string, cfg Config, flush bool) (Engine, error) {
	ctx := context.Background()
	e, err := Open(engine, f.dirOf(engine, label), cfg)
	if err != nil {
		return nil, err
	}
	if err := Load(ctx, e, FixtureRows); err != nil {
		e.Close()
		return nil, err
	}
	if flush {
		if err := e.Flush(ctx); err != nil {
			e.Close()
			return nil, err
		}
	}
	return e, nil
}

// Load writes fixture rows 0..n-1 in batches of 1000 rows.
func Load(ctx context.Context, e Engine, n int) error {
	m := NewRowMaker(1)
	var key []byte
	for i := 0; i < n; {
		m.Reset()
		for ; i < n && len(m.Rows()) < 1000; i++ {
			key = AppendFixtureKey(key[:0], i)
			m.Make(key)
		}
		if err := e.Apply(ctx, m.Rows()); err != nil {
			return err
		}
	}
	return nil
}

// Close closes every open store and removes the fixtures' directory.
func (f *Fixtures) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var first error
	for id, e := range f.open {
		if err := e.Close(); err != nil && first == nil {
			first = fmt.Errorf("bench: closing %s: %w", id, err)
		}
	}
	f.open = nil
	if err := os.RemoveAll(f.root); err != nil && first == nil {
		first = err
	}
	return first
}
