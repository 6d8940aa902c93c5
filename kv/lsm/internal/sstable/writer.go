package sstable

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// WriterOptions configure a Writer. The zero value is usable.
type WriterOptions struct {
	// BlockSize is the target uncompressed size of a data block; a block
	// is cut once it reaches this size. Default 32 KiB.
	BlockSize int
	// Compression applies to data and index blocks.
	Compression Compression
	// BloomBitsPerKey sizes the bloom filter. Default (0) is 10; a
	// negative value writes no filter (MayContain then always says true).
	BloomBitsPerKey int
	// BloomKey extracts the bloom key from a key. It must return a
	// prefix of key (equal for keys a reader will probe together, such
	// as the cells of one row), determined by at most two bytes past it:
	// a key that starts with the first len(BloomKey(a))+2 bytes of a key
	// a has a's bloom key. A prefix ended by a two-byte terminator, or
	// followed by one, qualifies (ikey.BloomKey, the row prefix ending in
	// 00 01). The Writer relies on it to skip BloomKey for a key that
	// shares that much with the previous key, unless the previous bloom
	// key was empty. The result is read before Add returns and not
	// retained. nil means the whole key.
	BloomKey func(key []byte) []byte
}

const defaultBlockSize = 32 << 10

// writeBufSize is how much a Writer gathers before it writes to its
// file: a few large writes instead of one per block, which is a system
// call per 10-30 KiB when blocks compress.
const writeBufSize = 256 << 10

// Writer writes one sstable. It is not safe for concurrent use.
type Writer struct {
	f    vfs.File
	name string
	opts WriterOptions

	data, index blockWriter
	offset      uint64 // bytes written so far
	dataBlocks  int64
	scratch     []byte // compression output, reused
	wbuf        []byte // blocks not yet written to f (writeBufSize)
	sep         []byte
	handleBuf   []byte

	pending     blockHandle // last flushed data block, not yet indexed
	havePending bool

	lastKey      []byte
	bloomHashes  [][]uint64 // in chunks of bloomChunk: growing never copies
	nHashes      int
	lastBloomKey []byte

	meta     Meta
	err      error // sticky I/O error
	finished bool
}

// NewWriter returns a Writer that writes to f, which must be empty. name
// is used only in errors. The Writer owns f: Finish closes it.
func NewWriter(f vfs.File, name string, opts WriterOptions) *Writer {
	if opts.BlockSize <= 0 {
		opts.BlockSize = defaultBlockSize
	}
	if opts.BloomBitsPerKey == 0 {
		opts.BloomBitsPerKey = 10
	}
	return &Writer{
		f:     f,
		name:  name,
		opts:  opts,
		data:  blockWriter{restartInterval: dataRestartInterval},
		index: blockWriter{restartInterval: 1},
	}
}

// errFinished is returned by Add and Finish after Finish.
var errFinished = errors.New("sstable: writer already finished")

// Add appends an entry. key must be greater than every key added before
// (bytes.Compare); otherwise Add returns an error and the Writer stays
// usable. Add copies key and value; the caller may reuse them.
//
// The prefix key shares with the previous key is found once and serves
// the order check, the block's prefix compression and the copy of the
// last key (only the bytes after it are copied).
func (w *Writer) Add(key, value []byte) error {
	if w.finished {
		return errFinished
	}
	if w.err != nil {
		return w.err
	}
	shared := 0
	if w.meta.Entries > 0 {
		shared = commonPrefix(key, w.lastKey)
		// key > lastKey iff they differ at shared with key's byte above,
		// or lastKey is a proper prefix of key.
		if shared == len(key) || (shared < len(w.lastKey) && key[shared] < w.lastKey[shared]) {
			return fmt.Errorf("sstable: %s: key %q added after %q: keys must increase", w.name, key, w.lastKey)
		}
	}
	if w.havePending {
		w.sep = separator(w.sep, w.lastKey, key)
		w.addIndexEntry(w.sep)
	}
	if w.opts.BloomBitsPerKey > 0 && (len(w.lastBloomKey) == 0 || shared < len(w.lastBloomKey)+2) {
		// A key sharing the last bloom key and two bytes more with the
		// previous key has that bloom key (WriterOptions.BloomKey): the
		// other cells of a row cost nothing here. An empty bloom key
		// (the first key, or a malformed one) is never assumed.
		bk := key
		if w.opts.BloomKey != nil {
			bk = w.opts.BloomKey(key)
		}
		if w.nHashes == 0 || !bytes.Equal(bk, w.lastBloomKey) {
			w.addBloomHash(bloomHash(bk))
			w.lastBloomKey = append(w.lastBloomKey[:0], bk...)
		}
	}
	if w.meta.Entries == 0 {
		w.meta.Smallest = append([]byte(nil), key...)
	}
	w.meta.Entries++
	w.meta.RawKeyBytes += int64(len(key))
	w.meta.RawValueBytes += int64(len(value))
	w.data.addShared(key, value, shared)
	w.lastKey = append(w.lastKey[:shared], key[shared:]...)
	if w.data.estimatedSize() >= w.opts.BlockSize {
		w.flushData()
	}
	return w.err
}

// bloomChunk is the number of hashes in a chunk of Writer.bloomHashes.
const bloomChunk = 4096

// addBloomHash records the hash of a new bloom key.
func (w *Writer) addBloomHash(h uint64) {
	if w.nHashes%bloomChunk == 0 {
		w.bloomHashes = append(w.bloomHashes, make([]uint64, 0, bloomChunk))
	}
	c := &w.bloomHashes[len(w.bloomHashes)-1]
	*c = append(*c, h)
	w.nHashes++
}

// EstimatedSize is the approximate size the file would have if finished
// now.
func (w *Writer) EstimatedSize() int64 {
	bloom := w.nHashes * max(w.opts.BloomBitsPerKey, 0) / 8
	return int64(w.offset) + int64(w.data.estimatedSize()+w.index.estimatedSize()+bloom+footerLen)
}

func (w *Writer) flushData() {
	h := w.writeBlock(w.data.finish(), w.opts.Compression)
	w.data.reset()
	w.pending, w.havePending = h, true
	w.dataBlocks++
}

func (w *Writer) addIndexEntry(key []byte) {
	w.handleBuf = appendHandleVarint(w.handleBuf[:0], w.pending)
	w.index.add(key, w.handleBuf)
	w.havePending = false
}

// writeBlock compresses raw per c, writes it with its trailer and returns
// its handle. raw may be modified (the trailer is appended to it).
//
// When the block's worst-case stored size fits in wbuf, it is compressed
// straight into wbuf's free tail (flushing wbuf first if needed), so the
// compressed bytes are never copied; larger blocks go through scratch.
func (w *Writer) writeBlock(raw []byte, c Compression) blockHandle {
	if w.err != nil {
		return blockHandle{}
	}
	bound := compressBound(c, len(raw))
	if bound < 0 || bound+trailerLen > writeBufSize {
		return w.writeBlockScratch(raw, c)
	}
	bound += trailerLen
	if len(w.wbuf)+bound > writeBufSize {
		w.flushBuf()
		if w.err != nil {
			return blockHandle{}
		}
	}
	if w.wbuf == nil {
		w.wbuf = make([]byte, 0, writeBufSize)
	}
	start := len(w.wbuf)
	dst := w.wbuf[start:start]
	stored, typ := compressBlock(c, raw, &dst)
	if typ != NoCompression && len(stored) > 0 && &stored[0] == &w.wbuf[start : start+1][0] {
		w.wbuf = w.wbuf[:start+len(stored)] // compressed in place
	} else {
		w.wbuf = append(w.wbuf, stored...)
	}
	n := len(stored)
	w.wbuf = append(w.wbuf, byte(typ))
	w.wbuf = binary.LittleEndian.AppendUint32(w.wbuf, checksum(w.wbuf[start:start+n], byte(typ)))
	h := blockHandle{Offset: w.offset, Length: uint64(n)}
	w.offset += uint64(n + trailerLen)
	return h
}

// writeBlockScratch is writeBlock for a block that may not fit in wbuf:
// it is compressed into scratch and written from there.
func (w *Writer) writeBlockScratch(raw []byte, c Compression) blockHandle {
	stored, typ := compressBlock(c, raw, &w.scratch)
	n := len(stored)
	var t [trailerLen]byte
	t[0] = byte(typ)
	binary.LittleEndian.PutUint32(t[1:], checksum(stored, byte(typ)))
	out := append(stored, t[:]...)
	if typ != NoCompression {
		w.scratch = out[:0]
	}
	w.write(out)
	if w.err != nil {
		return blockHandle{}
	}
	h := blockHandle{Offset: w.offset, Length: uint64(n)}
	w.offset += uint64(len(out))
	return h
}

// write writes b to the file through wbuf, which it copies b into; a
// failure is the sticky error.
func (w *Writer) write(b []byte) {
	if len(w.wbuf)+len(b) > writeBufSize {
		w.flushBuf()
	}
	if len(b) >= writeBufSize {
		if _, err := w.f.Write(b); err != nil && w.err == nil {
			w.err = fmt.Errorf("sstable: writing %s: %w", w.name, err)
		}
		return
	}
	if w.wbuf == nil {
		w.wbuf = make([]byte, 0, writeBufSize)
	}
	w.wbuf = append(w.wbuf, b...)
}

// flushBuf writes what wbuf holds.
func (w *Writer) flushBuf() {
	if len(w.wbuf) == 0 {
		return
	}
	if _, err := w.f.Write(w.wbuf); err != nil && w.err == nil {
		w.err = fmt.Errorf("sstable: writing %s: %w", w.name, err)
	}
	w.wbuf = w.wbuf[:0]
}

// Finish writes the remaining data block, the bloom, index and properties
// blocks and the footer, then syncs and closes the file. It closes the
// file even on error. The returned Meta is owned by the caller.
func (w *Writer) Finish() (Meta, error) {
	if w.finished {
		return Meta{}, errFinished
	}
	w.finished = true
	if !w.data.empty() {
		w.flushData()
	}
	if w.havePending {
		w.addIndexEntry(w.lastKey)
	}
	var ft footer
	ft.bloom = w.writeBlock(buildBloom(w.bloomHashes, w.nHashes, w.opts.BloomBitsPerKey), NoCompression)
	ft.index = w.writeBlock(w.index.finish(), w.opts.Compression)
	if w.meta.Entries > 0 {
		w.meta.Largest = append([]byte(nil), w.lastKey...)
	}
	props := properties{meta: w.meta, compression: w.opts.Compression, dataBlocks: w.dataBlocks}
	ft.props = w.writeBlock(props.encode(), NoCompression)
	if w.err == nil {
		w.write(ft.encode())
		w.offset += footerLen
	}
	if w.err == nil {
		w.flushBuf()
	}
	w.wbuf = nil
	if w.err == nil {
		if err := w.f.Sync(); err != nil {
			w.err = fmt.Errorf("sstable: syncing %s: %w", w.name, err)
		}
	}
	if err := w.f.Close(); err != nil && w.err == nil {
		w.err = fmt.Errorf("sstable: closing %s: %w", w.name, err)
	}
	if w.err != nil {
		return Meta{}, w.err
	}
	w.meta.Size = int64(w.offset)
	return w.meta, nil
}
