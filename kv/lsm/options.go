package lsm

import (
	"log/slog"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
	"github.com/widesql/widesql/kv/lsm/internal/wal"
)

// Options configure a Store. The zero value of every field selects its
// default.
type Options struct {
	// FS is the file system; nil means the OS file system.
	FS vfs.FS
	// MemtableSize is the per-region flush threshold in bytes; default 64 MiB.
	MemtableSize int64
	// MemoryBudget bounds all memtables together; writers stall above it
	// until a flush frees memory. Default 256 MiB.
	MemoryBudget int64
	// BlockCacheSize is the shared block cache capacity; default 128 MiB.
	// The library keeps a fixed default so that a program embedding the
	// engine, and tests opening many stores, get a footprint they can
	// predict; the server sizes it from the machine's memory instead
	// (cmd/widesql/mem.go: a quarter of it).
	BlockCacheSize int64
	// BlockSize is the target data block size of files; default 8 KiB.
	// A point read that misses the block cache reads, checksums and
	// decompresses one block per file it consults, so the block size is
	// the cost of a miss; 8 KiB (PostgreSQL's page size) costs about 2%
	// more disk than 32 KiB for a quarter of the work per miss.
	BlockSize int
	// NoSync acknowledges writes before the WAL is fsynced: a crash may
	// lose the last acknowledged writes, never half a batch.
	NoSync bool
	// RegionSplitSize splits a region whose files exceed this many bytes;
	// default 256 MiB; negative disables splitting.
	RegionSplitSize int64
	// MaxWALSize bounds the WAL that memtables keep on disk: when the
	// closed WAL segments still needed by some memtable exceed it, the
	// memtable holding the oldest one is flushed, however small (a table
	// written once, such as a catalog, would otherwise keep every later
	// segment). Default MemtableSize; lower means less disk and faster
	// recovery, higher means fewer, larger files when many regions take
	// writes at once.
	MaxWALSize int64
	// WALPreallocate is how far ahead of its write offset the WAL segment
	// is kept zero-filled and synced, so that a commit's fdatasync does
	// not also commit a file-size change (see kv/lsm/internal/wal,
	// prealloc.go). Default MemtableSize/16 between 64 KiB and 1 MiB;
	// negative turns it off. Costs up to this much disk per WAL segment,
	// plus one spare.
	WALPreallocate int64
	// RowCacheSize is the byte budget of the row cache, which answers
	// repeated point reads of unchanged rows from memory (rowcache.go);
	// default 64 MiB; negative disables it.
	RowCacheSize int64
	// PrefetchBlocks fills the block cache's free room with the blocks
	// of the store's files in the background once no file has been
	// written for a moment, never evicting (warm.go): HBase's
	// PREFETCH_BLOCKS_ON_OPEN for every family. Off by default in the
	// library, whose tests count cache misses; the server turns it on.
	PrefetchBlocks bool
	// MaxFilesPerStore triggers a compaction of a region's family store
	// holding more files; default 6.
	MaxFilesPerStore int
	// Logger receives background errors and events; nil discards them.
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.FS == nil {
		o.FS = vfs.Default
	}
	if o.MemtableSize <= 0 {
		o.MemtableSize = 64 << 20
	}
	if o.MemoryBudget <= 0 {
		o.MemoryBudget = 256 << 20
	}
	if o.MemoryBudget < o.MemtableSize {
		o.MemoryBudget = o.MemtableSize
	}
	if o.MaxWALSize <= 0 {
		o.MaxWALSize = o.MemtableSize
	}
	if o.WALPreallocate == 0 {
		o.WALPreallocate = min(max(o.MemtableSize/16, 64<<10), wal.DefaultPreallocate)
	}
	if o.BlockCacheSize <= 0 {
		o.BlockCacheSize = 128 << 20
	}
	if o.BlockSize <= 0 {
		o.BlockSize = 8 << 10
	}
	if o.RegionSplitSize == 0 {
		o.RegionSplitSize = 256 << 20
	}
	if o.RowCacheSize == 0 {
		o.RowCacheSize = 64 << 20
	}
	if o.MaxFilesPerStore <= 0 {
		o.MaxFilesPerStore = 6
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// RegionInfo describes one region of a table (kept as a name for
// callers of Store.Regions).
type RegionInfo = kv.RegionInfo

// Metrics are engine-wide counters.
type Metrics struct {
	MemtableBytes int64 // all memtables, mutable and flushing
	CacheHits     int64
	CacheMisses   int64
	CacheBytes    int64
	// PrefetchedBytes counts the bytes of blocks the background
	// prefetch has cached (Options.PrefetchBlocks), in all.
	PrefetchedBytes int64
	Flushes         int64
	Compactions     int64
	WALSyncs        int64 // batches made durable
	Files           int64 // live files

	// The row cache (rowcache.go): lookups that hit and missed (a
	// point a read looks up counts once), rows inserted and refused (a
	// write, ingest or family change raced with the read), evicted, and
	// what it holds now.
	RowCacheHits, RowCacheMisses     int64
	RowCacheInserts, RowCacheRefused int64
	RowCacheEvictions                int64
	RowCacheBytes, RowCacheEntries   int64
	// Its memory (rowcache_slab.go): of RowCacheBytes, the slabs'
	// capacity, and the bytes in them of entries no longer cached
	// (replaced, invalidated), held until their slab is retired or
	// compacted; slabs compacted to reclaim such bytes, the dead bytes
	// that freed and the live bytes it copied.
	RowCacheSlabBytes, RowCacheDeadBytes int64
	RowCacheCompactions                  int64
	RowCacheReclaimedBytes               int64
	RowCacheCopiedBytes                  int64
}
