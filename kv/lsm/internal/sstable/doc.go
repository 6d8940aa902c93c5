// Package sstable reads and writes immutable sorted files of (key, value)
// entries: the engine's flushed memtables and compaction outputs.
//
// # Lifecycle
//
// A Writer receives entries in strictly increasing bytes.Compare order,
// cuts them into data blocks, and on Finish appends the bloom, index and
// properties blocks and the footer, then syncs and closes the file. A
// Reader opens a finished file, verifying footer, index, bloom and
// properties up front, and hands out Iters (cursors) that read data blocks
// on demand through an optional shared Cache of uncompressed blocks.
//
// # File layout
//
//	+--------------+---------+-----+----------------+-------+-------+--------+
//	| data block 0 | trailer | ... | data block n-1 | bloom | index | props  | footer
//	+--------------+---------+-----+----------------+-------+-------+--------+
//	                                                 each with its trailer
//
// Every block is followed by a 5-byte trailer:
//
//	| type u8 (0 none, 1 snappy, 2 zstd) | crc32c(stored bytes ++ type) u32le |
//
// A zstd block is uvarint(uncompressed length) ++ zstd frame; a snappy
// block is a snappy block. A block is stored uncompressed when compression
// would not save at least 1/8 of it.
//
// Data, index and properties blocks share one encoding (uncompressed):
//
//	entry*  restart[0] u32le ... restart[n-1] u32le  n u32le
//	entry = shared uvarint | unshared uvarint | valueLen uvarint |
//	        key[shared:] | value
//
// shared is the length of the prefix the key has in common with the
// previous entry's key. Restart points (every 16th entry in data blocks,
// every entry in index and properties blocks) store the key whole
// (shared = 0); restart[i] is the block offset of the i-th restart entry,
// so seeks binary-search the restart keys, then scan at most one run. A
// block in the Cache carries its restart keys' 8-byte abbreviations
// (cached_block.go), so the binary search reads one small array; the scan
// compares only the part of each key past what it shares with the last
// one, and builds the key of the entry it stops at alone (scanGE).
//
// The index block has one entry per data block: the key is a separator k
// with lastKey(block i) <= k < firstKey(block i+1) (the last block's own
// last key for the final block), the value is the block handle as
// uvarint(offset) uvarint(length), length excluding the trailer.
//
// The bloom block is a bit array of about BloomBitsPerKey bits per
// distinct bloom key followed by one byte k, the number of probes; an
// empty bloom block means the file has no filter. See bloom.go for the
// hashing.
//
// The properties block maps names to values: compression, data.blocks,
// entries, raw.key.size, raw.value.size (uvarints) and smallest, largest
// (keys).
//
// The footer is 64 bytes, little-endian:
//
//	| index off u64 | index len u64 | bloom off u64 | bloom len u64 |
//	| props off u64 | props len u64 | version u32 | crc32c(bytes 0..51) u32 |
//	| magic u64 "widesst1" |
//
// # Errors
//
// Every block is checksummed when read; bytes that fail verification, a
// truncated file or a malformed block produce a *CorruptionError naming
// the file and the offset of the bad block, never garbage or a panic.
package sstable
