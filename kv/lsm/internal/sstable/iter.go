package sstable

import (
	"bytes"
	"sync"
)

// Iter is a cursor over the entries of a Reader, in key order. It is not
// safe for concurrent use. Positioning calls (First, Last, SeekGE, SeekLT,
// Next, Prev) return whether the iterator is positioned on an entry.
//
// Key and Value return slices into the iterator's buffers or a shared
// cached block: they are valid until the next positioning call or Close
// and must not be modified; callers copy what they keep. The block's
// buffer is recycled once no iterator holds it, so a slice kept longer
// can change under its holder.
//
// Once an error stops the iterator (Err non-nil) it stays invalid.
type Iter struct {
	r    *Reader
	idx  int // current entry of r.index (data block); -1 or len when none
	data blockIter

	dataOff    uint64 // offset of the loaded data block
	dataLoaded bool
	// ent is the loaded data block's entry, with the reference that
	// keeps its buffer from reuse (cache.go) until the iterator loads
	// another block or closes; nil when none is loaded or the block
	// came through a slot, without a reference.
	ent *cacheEntry
	err error

	ra readahead // sequential block loads read ahead (readahead.go)
}

var iterPool = sync.Pool{New: func() any { return new(Iter) }}

// NewIter returns an unpositioned iterator. It must be closed before the
// Reader is. Iterators are recycled: do not use one after Close.
func (r *Reader) NewIter() *Iter {
	it := iterPool.Get().(*Iter)
	it.r = r
	it.dataLoaded = false
	it.err = nil
	it.idx = -1
	it.data.valid, it.data.err = false, nil
	r.iters.Add(1)
	return it
}

// Valid reports whether the iterator is positioned on an entry.
func (it *Iter) Valid() bool { return it.err == nil && it.data.valid }

// Key returns the current key (see the Iter doc for its lifetime).
func (it *Iter) Key() []byte { return it.data.key }

// Value returns the current value (see the Iter doc for its lifetime).
func (it *Iter) Value() []byte { return it.data.val }

// SharedAfterNext returns how many leading bytes the current key shares
// with the key before it, when a Next that returned true moved the
// iterator here (0 when it moved to another block: a lower bound). A scan
// that checked the previous key's row prefix needs no comparison for a key
// sharing at least as many bytes. After any other positioning call the
// value is meaningless.
func (it *Iter) SharedAfterNext() int { return it.data.shared }

// Err returns the *CorruptionError or I/O error that stopped the
// iterator, or nil.
func (it *Iter) Err() error { return it.err }

// Close releases the iterator and returns Err. The iterator must not be
// used afterwards.
func (it *Iter) Close() error {
	if it.r == nil {
		return nil
	}
	err := it.err
	it.r.iters.Add(-1)
	it.r = nil
	it.err = nil
	// Drop references to blocks so pooled iterators pin no memory, then
	// the block itself, which may recycle its buffer.
	it.data.data, it.data.key, it.data.val, it.data.cb = nil, nil, nil, nil
	it.releaseBlock()
	it.ra.flush()
	it.ra = readahead{buf: it.ra.buf[:0]} // keep the buffer, forget the Reader
	iterPool.Put(it)
	return err
}

// First positions at the first entry.
func (it *Iter) First() bool {
	if it.err != nil {
		return false
	}
	if it.idx = 0; it.idx >= it.r.index.len() {
		return it.indexDone()
	}
	if it.load() && it.data.first() {
		return true
	}
	return it.skipForward()
}

// Last positions at the last entry.
func (it *Iter) Last() bool {
	if it.err != nil {
		return false
	}
	if it.idx = it.r.index.len() - 1; it.idx < 0 {
		return it.indexDone()
	}
	if it.load() && it.data.last() {
		return true
	}
	return it.skipBackward()
}

// SeekGE positions at the first entry whose key is >= key.
func (it *Iter) SeekGE(key []byte) bool {
	if it.err != nil {
		return false
	}
	if it.seekInBlock(key) {
		return it.Valid()
	}
	// Index keys separate blocks: the first >= key names the only block
	// that can hold the answer, or the answer is the next block's first.
	if it.idx = it.r.index.seekGE(key); it.idx >= it.r.index.len() {
		return it.indexDone()
	}
	if it.load() && it.data.seekGE(key) {
		return true
	}
	return it.skipForward()
}

// seekNextSteps bounds how far seekInBlock steps forward entry by entry
// before it binary-searches the block instead.
const seekNextSteps = 8

// seekInBlock answers SeekGE(key) from the loaded data block when key
// belongs to it (the index would pick the same block), without the index
// search; when the iterator is positioned below key it steps forward a
// few entries before searching the block (pebble's "try seek using
// next"): a multi-get of sorted keys, a reverse scan's re-seeks. It
// reports false, leaving the iterator as it was, when the loaded block is
// not the answer's.
func (it *Iter) seekInBlock(key []byte) bool {
	x := &it.r.index
	i := it.idx
	if !it.dataLoaded || i < 0 || i >= x.len() || x.handles[i].Offset != it.dataOff ||
		bytes.Compare(key, x.key(i)) > 0 || (i > 0 && bytes.Compare(x.key(i-1), key) >= 0) {
		return false
	}
	d := &it.data
	if d.valid && d.err == nil && bytes.Compare(d.key, key) < 0 {
		// Every entry up to the current one is below key: the answer
		// is ahead.
		for range seekNextSteps {
			if !d.next() {
				it.skipForward()
				return true
			}
			if bytes.Compare(d.key, key) >= 0 {
				return true
			}
		}
	}
	if !d.seekGE(key) {
		it.skipForward()
	}
	return true
}

// SeekLT positions at the last entry whose key is < key.
func (it *Iter) SeekLT(key []byte) bool {
	if it.err != nil {
		return false
	}
	if it.idx = it.r.index.seekGE(key); it.idx >= it.r.index.len() {
		// key is above every separator: the answer is the last entry.
		if it.idx = it.r.index.len() - 1; it.idx < 0 {
			return it.indexDone()
		}
		if it.load() && it.data.last() {
			return true
		}
		return it.skipBackward()
	}
	if it.load() && it.data.seekLT(key) {
		return true
	}
	return it.skipBackward()
}

// Next moves to the next entry. It returns false at the end or if the
// iterator is not valid.
//
// A scan calls Next once per cell. The common step, to an entry of the
// same block with one-byte lengths, is decoded here rather than through
// blockIter.next and decodeAt (two calls per cell); decodeAt does the
// rest, with the same checks.
func (it *Iter) Next() bool {
	d := &it.data
	if !d.valid || it.err != nil {
		return false
	}
	off := d.nextOffset
	if off >= d.restartsOff {
		return it.nextBlock()
	}
	b := d.data[off:d.restartsOff]
	if len(b) >= 3 && b[0]|b[1]|b[2] < 0x80 {
		shared, unshared, vlen := int(b[0]), int(b[1]), int(b[2])
		if shared <= len(d.key) && unshared+vlen <= len(b)-3 {
			// Also a restart point's entry (shared 0: the key is read
			// in place) and the one after it (its key aliases the
			// block: the shared part is copied to keyBuf first), as
			// decodeAt would: two of every restart interval's
			// entries otherwise took the slow path.
			suffix := b[3 : 3+unshared]
			switch {
			case shared == 0:
				d.key, d.keyInBuf = suffix, false
			case d.keyInBuf:
				d.keyBuf = append(d.keyBuf[:shared], suffix...)
				d.key = d.keyBuf
			default:
				d.keyBuf = append(append(d.keyBuf[:0], d.key[:shared]...), suffix...)
				d.key, d.keyInBuf = d.keyBuf, true
			}
			d.shared = shared
			p := 3 + unshared
			d.val = b[p : p+vlen : p+vlen]
			d.offset = off
			d.nextOffset = off + p + vlen
			return true
		}
	}
	if d.decodeAt(off) {
		return true
	}
	return it.skipForward() // reports a malformed entry (dataErr)
}

// nextBlock is Next at the end of the data block.
func (it *Iter) nextBlock() bool {
	it.data.valid = false
	return it.skipForward()
}

// Prev moves to the previous entry. It returns false at the start or if
// the iterator is not valid.
func (it *Iter) Prev() bool {
	if !it.Valid() {
		return false
	}
	if it.data.prev() {
		return true
	}
	return it.skipBackward()
}

// load makes the block named by the current index entry the data block.
func (it *Iter) load() bool {
	h := it.r.index.handles[it.idx]
	if it.dataLoaded && h.Offset == it.dataOff {
		return true
	}
	it.dataLoaded = false
	cb, e, err := it.ra.read(it.r, h, it.idx) // readahead.go
	if err != nil {
		it.err = err
		it.data.valid = false
		it.data.data, it.data.key, it.data.val, it.data.cb = nil, nil, nil, nil
		it.releaseBlock()
		return false
	}
	// The old block is released once the data iterator has left it.
	old := it.ent
	it.ent = e
	it.dataOff, it.dataLoaded = h.Offset, true
	err = it.data.initCached(cb)
	if old != nil {
		old.release()
	}
	if err != nil {
		it.err = it.r.corrupt(int64(h.Offset), err.Error())
		return false
	}
	return true
}

// releaseBlock drops the reference to the loaded block, if any. The data
// iterator must no longer read it.
func (it *Iter) releaseBlock() {
	if it.ent != nil {
		it.ent.release()
		it.ent = nil
	}
	it.dataLoaded = false
}

// skipForward moves to the first entry of the next non-empty block after
// the data iterator ran off its block's end.
func (it *Iter) skipForward() bool {
	for {
		if it.err != nil || it.dataErr() {
			return false
		}
		if it.idx++; it.idx >= it.r.index.len() {
			return it.indexDone()
		}
		if it.load() && it.data.first() {
			return true
		}
	}
}

// skipBackward moves to the last entry of the previous non-empty block.
func (it *Iter) skipBackward() bool {
	for {
		if it.err != nil || it.dataErr() {
			return false
		}
		if it.idx--; it.idx < 0 {
			return it.indexDone()
		}
		if it.load() && it.data.last() {
			return true
		}
	}
}

// dataErr turns a data block decoding error into it.err.
func (it *Iter) dataErr() bool {
	if it.data.err == nil {
		return false
	}
	it.err = it.r.corrupt(int64(it.dataOff), it.data.err.Error())
	it.data.valid = false
	return true
}

// indexDone ends positioning when the index is exhausted.
func (it *Iter) indexDone() bool {
	it.data.valid = false
	return false
}
