// Package lsm is widesql's durable embedded engine: the kv.Store contract
// over a log-structured merge tree, in HBase's architecture (regions, a
// MemStore per region, per-family store files, compaction) built the way
// pebble builds an LSM today.
//
// # Layers
//
//	Store ─ tables ─ regions [start, end) ─┬─ memtable (google/btree of internal keys)
//	  │                                    ├─ immutable memtables being flushed
//	  │                                    └─ per family: sorted files (internal/sstable)
//	  ├─ WAL (internal/wal): one record per batch, group-committed
//	  ├─ MANIFEST-<n> + CURRENT: the whole state, rewritten atomically
//	  ├─ block cache (shared by all files)
//	  ├─ row cache: point reads' rows, until the row is written (rowcache.go)
//	  └─ background goroutine: flush, compaction, region split
//
// Every cell version and tombstone is one internal key (internal/ikey):
// row ↑, family ↑, qualifier ↑, timestamp ↓, sequence ↓, kind. Memtables,
// files and their merge all implement internalIter; a read merges the
// memtables and the files of the families it needs (other families' files
// are never opened), and rowReader assembles rows, applying visibility
// (visibility.go) at the read's sequence number.
//
// # Sequence numbers and deletes
//
// Each mutation of a batch gets its own sequence number, in order. A Set is
// visible at snapshot S iff its seq <= S and no tombstone with a seq in
// (seq, S] covers it, so deletes remove what exists when they are applied
// and a later write with an older timestamp is visible again (Bigtable
// semantics). Reads show a column's newest family-MaxVersions visible
// versions; the write path adds a GC tombstone before a DeleteCells that
// would otherwise expose versions kv/memstore drops at write time (see
// prepare.go), so both engines give identical results.
//
// # Write path
//
// Apply validates, takes commitMu, checks preconditions against the latest
// state (including committed but unsynced batches and the batch's earlier
// rows), reserves sequence numbers, appends the batch as one WAL record
// (AppendAsync), inserts its entries into the region memtables (invisible:
// above the visible sequence number), releases commitMu, waits for the
// sync, then publishes. The WAL writes frames at an offset into space
// zero-filled ahead of it (Options.WALPreallocate; internal/wal
// prealloc.go), so a group commit's fdatasync commits data and no file
// size change; replay reads a zero tail as a segment's clean end. A WAL
// failure fails the store: writes return the
// sticky error, reads go on, nothing unacknowledged becomes visible.
// Writers stall while memtables exceed MemoryBudget. A memtable is a
// google/btree of pointer-free items locating keys and values copied into
// arena chunks, so the GC scans neither. An item also holds the first 16
// bytes of its key's rowkey (unescaped) as two words, so a descent compares
// in the btree's nodes and reads the arena only between keys of one row
// (memtable.go, abbrev). Its size counts the keys, values,
// btree node slots (with the slack of half-full nodes) and the arena's
// unused tail, so MemtableSize and MemoryBudget bound its real heap cost.
//
// A failed flush or compaction (a full disk, an I/O error writing a file)
// does not fail the store: its partial files are removed, the immutable
// memtable (with its WAL segments) or the compaction's inputs stay in
// place, and the background goroutine retries with exponential backoff
// (50 ms to 5 s), the pending memtable first.
//
// # Lifecycle of data
//
//	Apply ─▶ WAL + memtable ─(MemtableSize)─▶ immutable ─▶ one file per family
//	     ─(MaxFilesPerStore)─▶ compaction: one file per region+family
//	     ─(RegionSplitSize)─▶ split: children share the parent's files,
//	                            the next compaction rewrites each half
//	                            (a child is not split again before that)
//
// A flush rotates the WAL, freezes the memtable, waits until its entries are
// acknowledged, writes the files (DeleteRow tombstones into every family's
// file, so each family store is self-contained), leaving out the cell
// versions no snapshot at or after the oldest open one can see (covered,
// beyond MaxVersions or expired, as compaction decides; tombstones are
// kept, files below may hold what they delete: flush_drop.go), records them and the
// region's flushed sequence number in the manifest, and drops WAL segments
// no memtable needs. Compaction merges all files of a store, applying
// visibility at the oldest open snapshot: shadowed versions, versions beyond
// MaxVersions, expired cells, deleted cells and (the merge covers the whole
// store, and memtables hold only newer entries) the tombstones themselves
// are dropped. Files are reference-counted by region states and open reads,
// and deleted when the last reference goes.
//
// # Bulk ingest
//
// Table implements kv.Ingester (ingest.go): rows go into sorted files built
// on the side, installed by one manifest edit under manifestMu and
// commitMu after a uniqueness check, never through the WAL or a memtable.
// Keys carry a sequence number reserved when the builder starts; the file
// records the install's own (installSeq, in the manifest), and a read at
// a lower seq does not see the file (snapRegionAt). Compaction leaves such
// a file out while an older snapshot is open, and while a memtable of its
// region holds an entry older than its install (memtable.minSeq): such an
// entry, a DeleteRow say, is older than the file's cells, and a merge that
// did not see it would count the versions it deletes against MaxVersions.
// Compaction also leaves alone files that share no row with another file
// of the store and lie inside the region. A builder may take its cells
// column by column (SetColumns once, then AddCells per row: each cell's
// key suffix is built once), which is how an autocommit COPY feeds it.
//
// # Concurrency
//
// commitMu orders commits and WAL rotation; manifestMu serializes manifest
// changes (flush and compaction installs, splits, CreateTable, DropTable);
// mu guards the table map and each region's immutable regionState pointer.
// A read takes mu only to copy region states and ref their files; it then
// iterates with no store lock held: memtables are only ever appended to,
// and entries above the read's sequence number are skipped, so the live
// btree is a consistent view. memIter copies it in chunks (8 entries,
// doubling to 256; a Get's first is 16 and stops at its row's end; a seek
// to a key within the copied entries moves within them) into a reused buffer,
// holding the memtable's RWMutex for reading only during a copy; the one
// writer (under commitMu) holds it for one batch's inserts into that
// memtable (memtable.go, memiter.go). Long scans never block writers. A
// read's buffers (row arena, merging iterators, key buffers, the snapshot's
// region and file lists, the column table) come from a pool and go back
// when it finishes, so a warm read allocates only its iterator.
//
// # Reads
//
// Each file's index block is decoded once, when the file opens, and kept
// with its Reader; a seek binary-searches it. SeekGE first tries the data
// block already loaded, stepping forward a few entries from the current
// position before searching the block, so ascending seeks (a multi-get, a
// merge) rarely start over. The point reads of one RowSet within a region
// share their file iterators (read_point.go); a key's bloom hash is
// computed once, and only when some file's range covers the key. When one
// merge input remains, rowReader reads it directly; the visibility check
// carries the last family across rows. A column that can yield no more
// cells (its versions emitted, the rest shadowed or filtered out) is left
// by a seek past its remaining versions after four more steps, in every
// merge input below the target (rowreader.go, mergingIter.seekForward): a
// hot row's unflushed versions cost one seek, not a step each. A row read
// from one file calls its sstable iterator directly, and uses the block's
// shared-prefix length to recognise a key of the same row, or the same
// family, without comparing or scanning it (read_source.go). With two
// inputs left the merge tracks how many bytes its top key shares with the
// other's and, from its inputs' prefix-compression lengths, skips the
// comparison for a key that shares more with the key before it; the row
// reader reads such a merge, or a run of files, directly with those shared
// lengths (iter.go, read_source.go). Blocks come from a segmented-LRU
// cache (probation, then protected on a hit; a protected block is found
// through its file's slot with one atomic load, no lock) and, for an
// iterator loading consecutive blocks, from one read-ahead pread of
// 64-256 KiB (sstable/cache.go, sstable/readahead.go). A cached block
// keeps its restart points' key prefixes as numbers, so a seek's binary
// search rarely decodes a key (sstable/cached_block.go). A missed block
// is read into the buffer of a block no iterator holds any more
// (sstable/block_buf.go): entries count their readers' references.
//
// A row read from one file for the newest version of each column at any
// time (every SQL scan's) is decided column by column on the key bytes
// (collectFile, rowreader_file.go): older versions are stepped over
// unparsed, and visibility's bookkeeping is left to the general loop
// (collectAll), which takes the rest of the row at its first tombstone.
//
// A point read (a RowSet of points) first asks the row cache
// (rowcache.go): the rows earlier point reads returned, each with the
// snapshot seq it was read at and the read's projection. A hit at a seq
// at or above the entry's is the row; a Get that hits takes no snapshot.
// Apply deletes a written row's entry before its batch can become
// visible and marks the row's slot, so a read racing the write cannot put
// an older row back; ingest, SetFamilies, DropTable and Close clear what
// they change. The safety argument is rowCache's comment.
// A read naming essential families (kv.ReadOptions.Essential, HBase's
// on-demand family loading) merges only the memtables and those families'
// files; Complete positions a second merge over the other families at the
// current row, mostly by forward steps, and appends its cells in family
// order (read_lazy.go).
//
// # Administration, load and optional capabilities
//
// Store implements kv.Admin and kv.Snapshotter; Table implements
// kv.MultiReader (ReadMulti: one iterator per row set, all at one pinned
// sequence number), kv.Splitter (split_keys.go: split keys sampled from the
// files' indexes) and kv.ReadVersioner (write_readseq.go). Split (admin.go) splits regions at given keys exactly
// as the background split does (splitRegionLocked: children share the
// parent's files until compaction rewrites them, memtables mutable and
// immutable are divided by key) under manifestMu, commitMu and mu, and
// saves the manifest. SetFamilies merges families by name into the
// table's immutable famSet (region.go) and, when a family is added,
// renumbers every region's per-family file lists (families sort by name)
// under manifestMu and mu; reads take the famSet with the region states,
// so MaxVersions and TTL changes apply at once, Compression and Bloom to
// files written later. Family.Bloom "none" writes files without a bloom
// block; "row" (the default) filters point reads by rowkey. Visibility
// hides cells past their family's TTL at every read and precondition;
// compaction drops them. A RowMutation's RequireColumn narrows its
// precondition to one column's live cells (prepare.go).
//
// Each region counts rows read and row mutations applied
// (internal/loadstat: a total and a rate decayed over about a minute,
// updated lazily). Apply adds a batch's count once per region touched; a
// read adds its rows per region when it leaves the region or finishes.
// Regions reports them with the region's file count and size; Rows is the
// entry count of the region's files (0 before its first flush).
//
// # On-disk layout
//
//	<dir>/LOCK               flock'ed while a Store has the directory open
//	<dir>/CURRENT            "MANIFEST-<n> <crc32c hex>\n"
//	<dir>/MANIFEST-<n>       "WSQLMAN1" | crc32c(body) u32le | len u32le | JSON body
//	<dir>/<n>.sst            sorted file of one region+family (internal/sstable);
//	                         data blocks snappy-compressed unless the family's
//	                         Compression says "none" or "zstd"
//	<dir>/wal/               WAL segments (internal/wal); each record is a batch:
//
//	  ver(1)=1 | tableID uvarint | firstSeq uvarint | nrows uvarint | row...
//	  row      = len uvarint, key, nmut uvarint, mutation...
//	  mutation = kind(1), family, qualifier, value (uvarint len + bytes each),
//	             ts, start, end (uvarints)
//
// The manifest holds tables (ID, name, families), regions (ID, range,
// flushed seq, per-family file lists with key bounds, sizes and entry
// counts), the next file, region and table numbers, the last sequence
// number and the oldest WAL segment to replay.
//
// # Recovery
//
// Open reads CURRENT and the manifest (checksummed; corruption is an error
// naming the file), opens every listed file, deletes unlisted ones, replays
// WAL segments from the manifest's lower bound into memtables (skipping
// entries at or below a region's flushed seq), cuts a torn tail off the
// last segment, and starts a new segment. Close stops background work and
// closes the WAL and files without flushing: the WAL holds the memtables.
package lsm
