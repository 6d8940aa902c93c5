package bench

import (
	"context"
	"fmt"

	"github.com/widesql/widesql/kv"
)

// Engine is one storage engine under benchmark. Rows are those of rows.go:
// a rowkey and cells of family Family. An Engine is used by one goroutine.
type Engine interface {
	// Apply writes the rows as one batch.
	Apply(ctx context.Context, rows []kv.Row) error
	// Get reads the latest version of every cell of one row and returns the
	// number of cells.
	Get(ctx context.Context, key []byte) (int, error)
	// Scan reads up to limit rows (0: no limit) from start (nil: the
	// first row) in key order, and returns the rows and cells read.
	Scan(ctx context.Context, start []byte, limit int) (rows, cells int, err error)
	// Flush writes the memtable to files and compacts every file into one
	// sorted run, so that reads come from files.
	Flush(ctx context.Context) error
	// Flushes returns the number of memtable flushes since Open.
	Flushes() int64
	// Close closes the engine; it is safe to call more than once.
	Close() error
}

// Config is what both engines are given; zero fields take the defaults
// below.
type Config struct {
	MemtableSize   int64 // bytes of one memtable
	BlockCacheSize int64 // bytes of block cache
	BlockSize      int   // target bytes of a data block, before compression
	Sync           bool  // fsync the WAL before a write returns
	// Compression of data blocks: "" or "none", "snappy" or "zstd". ""
	// is none for both engines, although kv/lsm's own default is snappy.
	Compression string
}

// Defaults.
const (
	DefaultMemtableSize   = 64 << 20
	DefaultBlockCacheSize = 64 << 20
	DefaultBlockSize      = 4 << 10
	// ColdCacheSize is the block cache of the cold-read benchmarks: far
	// smaller than the fixture's data blocks (about 10 MB).
	ColdCacheSize = 1 << 20
)

func (c Config) withDefaults() Config {
	if c.MemtableSize == 0 {
		c.MemtableSize = DefaultMemtableSize
	}
	if c.BlockCacheSize == 0 {
		c.BlockCacheSize = DefaultBlockCacheSize
	}
	if c.BlockSize == 0 {
		c.BlockSize = DefaultBlockSize
	}
	return c
}

// Engine names, in the order benchmarks run them.
const (
	Widesql = "widesql"
	Pebble  = "pebble"
)

// Engines lists the engine names.
var Engines = []string{Widesql, Pebble}

// Open opens the named engine on dir, creating it if needed.
func Open(name, dir string, cfg Config) (Engine, error) {
	cfg = cfg.withDefaults()
	switch name {
	case Widesql:
		return openWidesql(dir, cfg)
	case Pebble:
		return openPebble(dir, cfg)
	}
	return nil, fmt.Errorf("bench: unknown engine %q", name)
}
