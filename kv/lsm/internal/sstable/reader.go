package sstable

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// Reader reads one sstable. It is safe for concurrent use: any number of
// goroutines may create and use their own iterators.
type Reader struct {
	f         vfs.File
	name      string
	fileNum   uint64
	cache     *Cache
	footerOff uint64 // blocks end at or before this offset
	index     decodedIndex
	indexOff  int64
	bloom     []byte // bloom block; empty when the file has none
	meta      Meta
	// compression is the file's (properties): a miss reads a block
	// into its own buffer at once when it is stored uncompressed.
	compression Compression
	iters       atomic.Int64 // open iterators
	// slots has one slot per data block, with cache: the block's cache
	// entry while it is protected, for hits without the lock (cache.go).
	slots []atomic.Pointer[cacheEntry]
}

// Open reads and verifies the footer, index, bloom and properties blocks
// of f. fileNum must identify the file uniquely for the life of cache
// (which may be nil); name is used in errors. On success the Reader owns
// f and Close closes it; on error f is left open for the caller.
// Malformed bytes yield a *CorruptionError.
func Open(f vfs.File, name string, fileNum uint64, cache *Cache) (*Reader, error) {
	r := &Reader{f: f, name: name, fileNum: fileNum, cache: cache}
	size, err := f.Size()
	if err != nil {
		return nil, fmt.Errorf("sstable: %s: %w", name, err)
	}
	if size < footerLen {
		return nil, r.corrupt(0, fmt.Sprintf("file of %d bytes is shorter than the footer", size))
	}
	r.footerOff = uint64(size - footerLen)
	buf := make([]byte, footerLen)
	if err := r.readFull(buf, r.footerOff); err != nil {
		return nil, err
	}
	ft, reason := decodeFooter(buf)
	if reason != "" {
		return nil, r.corrupt(int64(r.footerOff), reason)
	}
	ib, err := r.readBlock(ft.index)
	if err != nil {
		return nil, err
	}
	r.indexOff = int64(ft.index.Offset)
	if r.bloom, err = r.readBlock(ft.bloom); err != nil {
		return nil, err
	}
	pb, err := r.readBlock(ft.props)
	if err != nil {
		return nil, err
	}
	props, err := decodeProperties(pb)
	if err != nil {
		return nil, r.corrupt(int64(ft.props.Offset), "properties: "+err.Error())
	}
	r.meta = props.meta
	r.compression = props.compression
	r.meta.Size = size
	if err := r.decodeIndex(ib); err != nil {
		return nil, err
	}
	if cache != nil {
		r.slots = make([]atomic.Pointer[cacheEntry], r.index.len())
	}
	return r, nil
}

// decodedIndex is a file's index block decoded once, when the file is
// opened: the separator keys back to back and each data block's handle.
// Seeks binary-search it directly; decoding prefix-compressed entries and
// varint handles on every seek was a fifth of a point Get.
type decodedIndex struct {
	keys    []byte
	ends    []uint32 // keys of entry i: keys[ends[i-1]:ends[i]]
	handles []blockHandle
	ab      abbrIndex // for seekGE (index_abbr.go)
}

func (x *decodedIndex) len() int { return len(x.ends) }

func (x *decodedIndex) key(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = x.ends[i-1]
	}
	return x.keys[start:x.ends[i]:x.ends[i]]
}

// decodeIndex decodes the index block b into r.index, verifying that
// every entry decodes to a handle inside the file, so iterators need not
// re-check.
func (r *Reader) decodeIndex(b []byte) error {
	var it blockIter
	if err := it.init(b); err != nil {
		return r.corrupt(r.indexOff, "index: "+err.Error())
	}
	var x decodedIndex
	for ok := it.first(); ok; ok = it.next() {
		h, ok := decodeHandleVarint(it.val)
		if !ok || !r.inBounds(h) {
			return r.corrupt(r.indexOff, "index: bad block handle")
		}
		x.keys = append(x.keys, it.key...)
		if uint64(len(x.keys)) > math.MaxUint32 {
			return r.corrupt(r.indexOff, "index: too large")
		}
		x.ends = append(x.ends, uint32(len(x.keys)))
		x.handles = append(x.handles, h)
	}
	if it.err != nil {
		return r.corrupt(r.indexOff, "index: "+it.err.Error())
	}
	// Exact-size copies: the decoded index lives as long as the file.
	r.index = decodedIndex{keys: slices.Clone(x.keys), ends: slices.Clone(x.ends), handles: slices.Clone(x.handles)}
	r.index.buildAbbr()
	return nil
}

func (r *Reader) corrupt(off int64, reason string) error {
	return &CorruptionError{File: r.name, Offset: off, Reason: reason}
}

func (r *Reader) inBounds(h blockHandle) bool {
	return h.Offset <= r.footerOff && h.Length <= r.footerOff-h.Offset &&
		trailerLen <= r.footerOff-h.Offset-h.Length
}

// readFull reads len(buf) bytes at off; a short read is corruption (the
// file is truncated), other failures are I/O errors.
func (r *Reader) readFull(buf []byte, off uint64) error {
	n, err := r.f.ReadAt(buf, int64(off))
	if n == len(buf) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return r.corrupt(int64(off), "short read: file truncated")
	}
	return fmt.Errorf("sstable: reading %s at %d: %w", r.name, off, err)
}

// readBufs recycles the buffers compressed blocks are read into.
var readBufs = sync.Pool{New: func() any { return new([]byte) }}

// readBlock returns the uncompressed contents of the block at h, verified
// against its checksum, read alone and not cached: the caller owns it.
func (r *Reader) readBlock(h blockHandle) ([]byte, error) {
	// The block is the caller's for good: its buffer, pooled or not,
	// is left to the garbage collector.
	b, _, err := r.readAlone(h)
	return b, err
}

// readMissed reads the block at h alone (after a cache miss) and returns
// its entry, with a reference the caller must release; with useCache the
// entry is cached (with the Reader's slot for it, or nil).
func (r *Reader) readMissed(h blockHandle, useCache bool, slot *atomic.Pointer[cacheEntry]) (*cacheEntry, error) {
	block, bp, err := r.readAlone(h)
	if err != nil {
		return nil, err
	}
	e := newCacheEntry(block, bp)
	if useCache {
		e = r.cache.setBlock(r.fileNum, h.Offset, e, slot)
	}
	return e, nil
}

// readAlone reads and verifies the block at h and returns it uncompressed,
// in a getBlockBuf buffer whose holder it returns, or (a large block) in a
// buffer of its own and a nil holder.
func (r *Reader) readAlone(h blockHandle) ([]byte, *[]byte, error) {
	if !r.inBounds(h) {
		return nil, nil, r.corrupt(int64(h.Offset), "block handle out of range")
	}
	n := int(h.Length) + trailerLen
	if h.Length > maxBlockLen {
		return nil, nil, r.corrupt(int64(h.Offset), "block too large")
	}
	// A block stored uncompressed is read into its own buffer at once;
	// a compressed one into a pooled scratch buffer, and decompressed out
	// of it straight into its own.
	if n <= maxPooledBlockBuf && r.storedUncompressed(h) {
		bp := getBlockBuf(n)
		block, dbp, err := r.verify(*bp, h)
		if err != nil || dbp != nil {
			putBlockBuf(bp)
			return block, dbp, err
		}
		return block, bp, nil
	}
	pb := readBufs.Get().(*[]byte)
	buf := *pb
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	block, dbp, err := r.verify(buf, h)
	if err == nil && dbp == nil {
		// Stored uncompressed after all: buf is scratch.
		block, dbp = ownedCopy(block)
	}
	*pb = buf[:0]
	readBufs.Put(pb)
	if err != nil {
		return nil, nil, err
	}
	return block, dbp, nil
}

// storedUncompressed guesses whether the block at h is stored
// uncompressed, from its file's compression: a file written with
// compression stores a block uncompressed only when compression did not
// pay. A wrong guess costs a copy.
func (r *Reader) storedUncompressed(h blockHandle) bool {
	return r.compression == NoCompression
}

// verify reads the block at h into buf, checks its trailer and returns it
// uncompressed, as check does.
func (r *Reader) verify(buf []byte, h blockHandle) ([]byte, *[]byte, error) {
	if err := r.readFull(buf, h.Offset); err != nil {
		return nil, nil, err
	}
	return r.check(buf, h)
}

// check verifies buf, the h.Length+trailerLen bytes of the block at h,
// against its trailer and returns it uncompressed: buf itself and a nil
// holder when the block is stored uncompressed, else a block in a
// getBlockBuf buffer and its holder.
func (r *Reader) check(buf []byte, h blockHandle) ([]byte, *[]byte, error) {
	stored, typ := buf[:h.Length:h.Length], buf[h.Length]
	want := uint32(buf[h.Length+1]) | uint32(buf[h.Length+2])<<8 |
		uint32(buf[h.Length+3])<<16 | uint32(buf[h.Length+4])<<24
	if checksum(stored, typ) != want {
		return nil, nil, r.corrupt(int64(h.Offset), "block checksum mismatch")
	}
	block, bp, err := decompressBlock(typ, stored)
	if err != nil {
		return nil, nil, r.corrupt(int64(h.Offset), "decompressing block: "+err.Error())
	}
	return block, bp, nil
}

// entryFrom verifies buf, the stored bytes of the block at h in a buffer
// the caller reuses (a read-ahead or warming piece), and returns a new
// cache entry for it (newCacheEntry) owning its own copy.
func (r *Reader) entryFrom(buf []byte, h blockHandle) (*cacheEntry, error) {
	block, bp, err := r.check(buf, h)
	if err != nil {
		return nil, err
	}
	if bp == nil {
		// Stored uncompressed: buf is scratch.
		block, bp = ownedCopy(block)
	}
	return newCacheEntry(block, bp), nil
}

// Meta returns the file's metadata. Its slices are shared: do not modify.
func (r *Reader) Meta() Meta { return r.meta }

// MayContain reports whether the file may hold an entry whose bloom key
// (WriterOptions.BloomKey of its key) is bloomKey. False is definite.
func (r *Reader) MayContain(bloomKey []byte) bool {
	return bloomMayContain(r.bloom, bloomHash(bloomKey))
}

// BloomHash is the hash MayContainHash takes: a read probing several
// files for one key hashes it once.
func BloomHash(bloomKey []byte) uint64 { return bloomHash(bloomKey) }

// MayContainHash is MayContain for a key whose BloomHash is h.
func (r *Reader) MayContainHash(h uint64) bool { return bloomMayContain(r.bloom, h) }

// Close closes the file. All iterators must be closed first; if some are
// not, Close still closes the file and returns an error.
func (r *Reader) Close() error {
	err := r.f.Close()
	if n := r.iters.Load(); n != 0 {
		return fmt.Errorf("sstable: %s closed with %d open iterators", r.name, n)
	}
	if err != nil {
		return fmt.Errorf("sstable: closing %s: %w", r.name, err)
	}
	return nil
}
