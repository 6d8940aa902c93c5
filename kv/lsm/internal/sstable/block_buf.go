package sstable

import "sync"

// Block buffers: a missed block is read or decompressed into a buffer
// from blockBufs, and its cache entry's last release (cacheEntry.release)
// puts the buffer back. At a working set far above the cache, each miss
// evicts a block about the size of the one it reads, so the new block
// mostly takes the evicted one's buffer: no 8 KiB allocation, zeroing and
// collector work per miss (a fifth of a missing point read's CPU). A
// buffer returns only once nothing can read it (see Cache); one the pool
// drops is freed by the garbage collector as before.
var blockBufs = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledBlockBuf bounds the buffers kept: an odd large block's buffer
// would otherwise hold far more memory than the small block that reuses
// it is charged for.
const maxPooledBlockBuf = 64 << 10

// poisonReleased, set only by tests, makes a buffer's last release fill
// it with 0xdb, so a read of a released block reads garbage at once
// rather than when another miss reuses the buffer.
var poisonReleased = false

// getBlockBuf returns a holder whose buffer has length n; the holder goes
// to newCacheEntry with the block made in it.
func getBlockBuf(n int) *[]byte {
	bp := blockBufs.Get().(*[]byte)
	if cap(*bp) < n {
		// Leave room for the next block of about the same size.
		*bp = make([]byte, n, n+n/16)
	}
	*bp = (*bp)[:n]
	return bp
}

// putBlockBuf returns bp, from getBlockBuf, to the pool.
func putBlockBuf(bp *[]byte) {
	if cap(*bp) > maxPooledBlockBuf {
		return
	}
	if poisonReleased {
		b := (*bp)[:cap(*bp)]
		for i := range b {
			b[i] = 0xdb
		}
	}
	*bp = (*bp)[:0]
	blockBufs.Put(bp)
}

// ownedCopy returns a copy of b in a buffer of its own: from getBlockBuf,
// with its holder, unless b is too large to pool.
func ownedCopy(b []byte) ([]byte, *[]byte) {
	if len(b) > maxPooledBlockBuf {
		return append([]byte(nil), b...), nil
	}
	bp := getBlockBuf(len(b))
	return (*bp)[:copy(*bp, b)], bp
}
