package sstable

import (
	"bytes"
	"encoding/binary"
	"errors"
)

var (
	errBadRestarts = errors.New("malformed restart array")
	errBadEntry    = errors.New("malformed block entry")
)

// blockIter is a cursor over one block written by blockWriter. It never
// panics on malformed input: it stops and reports errBadRestarts or
// errBadEntry from err.
//
// key and val alias the block, keyBuf or prevKeys; they are valid until
// the next positioning call. The block must not be modified while the
// iterator uses it.
type blockIter struct {
	data        []byte
	restartsOff int // end of the entries, start of the restart array
	numRestarts int

	offset     int // current entry
	nextOffset int // entry after the current one
	key        []byte
	keyInBuf   bool // key aliases keyBuf (else the block or prevKeys)
	keyBuf     []byte
	val        []byte
	shared     int // bytes key shares with the entry before it (0 at a restart)
	valid      bool
	err        error

	cb *cachedBlock // the block's cache entry, or nil (cached_block.go)

	// prevCache holds the entries of the current restart run decoded by
	// the last prev, so that successive prevs cost O(1) each.
	prevCache []prevEntry
	prevKeys  []byte
}

type prevEntry struct {
	offset, nextOffset int
	keyEnd             int // key is prevKeys[previous keyEnd:keyEnd]
	valOff, valEnd     int
}

// init positions the iterator on a new block, unpositioned. It returns
// errBadRestarts if the restart array is malformed.
func (i *blockIter) init(data []byte) error {
	*i = blockIter{keyBuf: i.keyBuf[:0], prevCache: i.prevCache[:0], prevKeys: i.prevKeys[:0]}
	if len(data) < 4 {
		return i.fail(errBadRestarts)
	}
	n := uint64(binary.LittleEndian.Uint32(data[len(data)-4:]))
	if n*4+4 > uint64(len(data)) {
		return i.fail(errBadRestarts)
	}
	i.data = data
	i.numRestarts = int(n)
	i.restartsOff = len(data) - 4 - 4*int(n)
	if n == 0 && i.restartsOff != 0 {
		return i.fail(errBadRestarts)
	}
	return nil
}

func (i *blockIter) fail(err error) error {
	i.valid = false
	if i.err == nil {
		i.err = err
	}
	return err
}

// restart returns the offset of restart point r, or -1 if it is corrupt.
func (i *blockIter) restart(r int) int {
	off := int(binary.LittleEndian.Uint32(i.data[i.restartsOff+4*r:]))
	if off >= i.restartsOff {
		i.fail(errBadRestarts)
		return -1
	}
	return off
}

func uvarint(d []byte) (uint64, int) {
	if len(d) > 0 && d[0] < 0x80 {
		return uint64(d[0]), 1
	}
	return binary.Uvarint(d)
}

// entryHeader decodes the lengths that start an entry (d): the shared
// and unshared key lengths and the value's, p the bytes they take; ok is
// false when they are malformed. decodeAt and scanGE decode the common
// case, three one-byte lengths, inline first.
func entryHeader(d []byte) (shared, unshared, vlen uint64, p int, ok bool) {
	var n1, n2, n3 int
	if shared, n1 = uvarint(d); n1 <= 0 {
		return 0, 0, 0, 0, false
	}
	if unshared, n2 = uvarint(d[n1:]); n2 <= 0 {
		return 0, 0, 0, 0, false
	}
	if vlen, n3 = uvarint(d[n1+n2:]); n3 <= 0 {
		return 0, 0, 0, 0, false
	}
	return shared, unshared, vlen, n1 + n2 + n3, true
}

// decodeAt decodes the entry at off, which must be < restartsOff. The
// shared prefix comes from the current key, so off must be a restart
// point or the entry after the current one.
func (i *blockIter) decodeAt(off int) bool {
	d := i.data[off:i.restartsOff]
	var shared, unshared, vlen uint64
	var p int
	ok := true
	if len(d) >= 3 && d[0]|d[1]|d[2] < 0x80 {
		// Fast path: three one-byte lengths (keys and values under 128
		// bytes), decoded inline.
		shared, unshared, vlen, p = uint64(d[0]), uint64(d[1]), uint64(d[2]), 3
	} else if shared, unshared, vlen, p, ok = entryHeader(d); !ok {
		return i.fail(errBadEntry) == nil
	}
	if shared > uint64(len(i.key)) || unshared > uint64(len(d)-p) || vlen > uint64(len(d)-p)-unshared {
		return i.fail(errBadEntry) == nil
	}
	k := d[p : p+int(unshared)]
	if shared == 0 {
		i.key, i.keyInBuf = k, false
	} else {
		if !i.keyInBuf {
			i.keyBuf = append(i.keyBuf[:0], i.key[:shared]...)
		}
		i.keyBuf = append(i.keyBuf[:shared], k...)
		i.key, i.keyInBuf = i.keyBuf, true
	}
	i.shared = int(shared)
	p += int(unshared)
	i.val = d[p : p+int(vlen) : p+int(vlen)]
	i.offset = off
	i.nextOffset = off + p + int(vlen)
	i.valid = true
	return true
}

// seekRestart decodes the entry at restart point r.
func (i *blockIter) seekRestart(r int) bool {
	off := i.restart(r)
	if off < 0 {
		return false
	}
	i.key = nil // a restart entry must not share a prefix
	return i.decodeAt(off)
}

// restartKey returns the full key stored at restart point r (in place),
// or nil and false if it is malformed.
func (i *blockIter) restartKey(r int) ([]byte, bool) {
	off := i.restart(r)
	if off < 0 {
		return nil, false
	}
	d := i.data[off:i.restartsOff]
	// Fast path: a restart entry's shared length is 0, and keys and
	// values under 128 bytes have one-byte lengths. The binary search
	// over restart points reads a key per probe.
	if len(d) >= 3 && d[0] == 0 && d[1] < 0x80 && d[2] < 0x80 {
		if n := int(d[1]); n <= len(d)-3 {
			return d[3 : 3+n], true
		}
	}
	shared, n1 := uvarint(d)
	unshared, n2 := uvarint(d[max(n1, 0):])
	_, n3 := uvarint(d[max(n1, 0)+max(n2, 0):])
	p := n1 + n2 + n3
	if n1 <= 0 || n2 <= 0 || n3 <= 0 || shared != 0 || unshared > uint64(len(d)-p) {
		i.fail(errBadEntry)
		return nil, false
	}
	return d[p : p+int(unshared)], true
}

// searchRestarts returns the number of restart points whose key is below
// target, i.e. the index of the first restart key >= target.
func (i *blockIter) searchRestarts(target []byte) (int, bool) {
	if i.cb != nil {
		return i.searchAbbr(target)
	}
	lo, hi := 0, i.numRestarts
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		k, ok := i.restartKey(mid)
		if !ok {
			return 0, false
		}
		if bytes.Compare(k, target) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, true
}

func (i *blockIter) first() bool {
	i.valid = false
	if i.err != nil || i.numRestarts == 0 {
		return false
	}
	return i.seekRestart(0)
}

func (i *blockIter) last() bool {
	i.valid = false
	if i.err != nil || i.numRestarts == 0 || !i.seekRestart(i.numRestarts-1) {
		return false
	}
	for i.nextOffset < i.restartsOff {
		if !i.decodeAt(i.nextOffset) {
			return false
		}
	}
	return true
}

func (i *blockIter) next() bool {
	if !i.valid {
		return false
	}
	if i.nextOffset >= i.restartsOff {
		i.valid = false
		return false
	}
	return i.decodeAt(i.nextOffset)
}

// seekGE positions at the first entry >= target.
func (i *blockIter) seekGE(target []byte) bool {
	i.valid = false
	if i.err != nil || i.numRestarts == 0 {
		return false
	}
	r, ok := i.searchRestarts(target)
	if !ok {
		return false
	}
	if r == 0 {
		return i.seekRestart(0)
	}
	off := i.restart(r - 1)
	if off < 0 {
		return false
	}
	return i.scanGE(off, target)
}

// scanGE positions at the first entry >= target at or after the restart
// point at off, without materializing the keys it passes. The entries are
// sorted, so with m the length of the common prefix of target and the
// last key passed (which is below target):
//
//   - an entry sharing more than m bytes with the key before it agrees
//     with that key at byte m, so it is below target too, with the same
//     m: it is passed without reading its key;
//   - an entry sharing shared <= m bytes starts with target[:shared], so
//     comparing its unshared suffix with target[shared:] decides it, and
//     its full key, if it is the answer, is target[:shared] + suffix.
//
// Neither rule assumes the writer stored the longest shared prefix. The
// checks are decodeAt's: a malformed entry stops the iterator with
// errBadEntry.
func (i *blockIter) scanGE(off int, target []byte) bool {
	m, prevLen := 0, 0
	for off < i.restartsOff {
		d := i.data[off:i.restartsOff]
		var shared, unshared, vlen uint64
		var p int
		ok := true
		if len(d) >= 3 && d[0]|d[1]|d[2] < 0x80 {
			shared, unshared, vlen, p = uint64(d[0]), uint64(d[1]), uint64(d[2]), 3
		} else if shared, unshared, vlen, p, ok = entryHeader(d); !ok {
			return i.fail(errBadEntry) == nil
		}
		if shared > uint64(prevLen) || unshared > uint64(len(d)-p) || vlen > uint64(len(d)-p)-unshared {
			return i.fail(errBadEntry) == nil
		}
		next := off + p + int(unshared) + int(vlen)
		if int(shared) <= m {
			suffix := d[p : p+int(unshared)]
			rest := target[shared:]
			if bytes.Compare(suffix, rest) >= 0 {
				if shared == 0 {
					i.key, i.keyInBuf = suffix, false
				} else {
					i.keyBuf = append(append(i.keyBuf[:0], target[:shared]...), suffix...)
					i.key, i.keyInBuf = i.keyBuf, true
				}
				i.shared = int(shared)
				p += int(unshared)
				i.val = d[p : p+int(vlen) : p+int(vlen)]
				i.offset, i.nextOffset = off, next
				i.valid = true
				return true
			}
			m = int(shared) + commonPrefix(suffix, rest)
		}
		prevLen = int(shared + unshared)
		off = next
	}
	return false
}

// seekLT positions at the last entry < target.
func (i *blockIter) seekLT(target []byte) bool {
	i.valid = false
	if i.err != nil || i.numRestarts == 0 {
		return false
	}
	r, ok := i.searchRestarts(target)
	if !ok || r == 0 || !i.seekRestart(r-1) {
		return false
	}
	// Entries from restart r on are >= target; stop before them.
	limit := i.restartsOff
	if r < i.numRestarts {
		if limit = i.restart(r); limit < 0 {
			return false
		}
	}
	for i.nextOffset < limit {
		prev := i.offset
		if !i.decodeAt(i.nextOffset) {
			return false
		}
		if bytes.Compare(i.key, target) >= 0 {
			return i.scanTo(r-1, prev)
		}
	}
	return true
}

// scanTo decodes forward from restart point r to the entry at off.
func (i *blockIter) scanTo(r, off int) bool {
	if !i.seekRestart(r) {
		return false
	}
	for i.offset < off {
		if !i.next() {
			return i.fail(errBadEntry) == nil
		}
	}
	if i.offset != off {
		return i.fail(errBadEntry) == nil
	}
	return true
}
