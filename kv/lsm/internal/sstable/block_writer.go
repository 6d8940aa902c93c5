package sstable

import (
	"encoding/binary"
	"math/bits"
)

// blockWriter builds one block of prefix-compressed entries:
//
//	entry:   shared uvarint | unshared uvarint | valueLen uvarint |
//	         key[shared:] | value
//	trailer: restart[0] u32 | ... | restart[n-1] u32 | n u32
//
// Every restartInterval-th entry is a restart point with shared == 0, so
// its key can be read in place; restart[i] is that entry's offset.
type blockWriter struct {
	restartInterval int
	buf             []byte
	restarts        []uint32
	lastKey         []byte
	entries         int // entries since the last restart
	count           int // entries in the block
}

// add appends an entry; keys must be added in increasing order (the
// Writer checks). add copies key and value.
func (b *blockWriter) add(key, value []byte) {
	shared := commonPrefix(key, b.lastKey)
	b.addShared(key, value, shared)
	b.lastKey = append(b.lastKey[:shared], key[shared:]...)
}

// addShared appends an entry whose key shares its first shared bytes with
// the previous key added (0 for the first); it does not track the last
// key itself, so a block is built with add or with addShared, not both.
// The data block of a Writer uses it: the Writer finds the shared prefix
// anyway for its order check. addShared copies key and value.
func (b *blockWriter) addShared(key, value []byte, shared int) {
	if b.entries == b.restartInterval || b.count == 0 {
		b.restarts = append(b.restarts, uint32(len(b.buf)))
		b.entries = 0
		shared = 0
	}
	unshared := len(key) - shared
	if shared < 0x80 && unshared < 0x80 && len(value) < 0x80 {
		// The usual entry: three one-byte uvarints.
		b.buf = append(b.buf, byte(shared), byte(unshared), byte(len(value)))
	} else {
		b.buf = binary.AppendUvarint(b.buf, uint64(shared))
		b.buf = binary.AppendUvarint(b.buf, uint64(unshared))
		b.buf = binary.AppendUvarint(b.buf, uint64(len(value)))
	}
	b.buf = append(b.buf, key[shared:]...)
	b.buf = append(b.buf, value...)
	b.entries++
	b.count++
}

// commonPrefix returns the length of the longest common prefix of a and
// b, comparing 8 bytes at a time.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// estimatedSize is the size finish would return.
func (b *blockWriter) estimatedSize() int {
	return len(b.buf) + 4*len(b.restarts) + 4
}

// empty reports whether no entry has been added since the last reset.
func (b *blockWriter) empty() bool { return b.count == 0 }

// finish appends the restart array and returns the block. The result
// aliases the writer's buffer: it is valid until the next reset.
func (b *blockWriter) finish() []byte {
	for _, r := range b.restarts {
		b.buf = binary.LittleEndian.AppendUint32(b.buf, r)
	}
	b.buf = binary.LittleEndian.AppendUint32(b.buf, uint32(len(b.restarts)))
	return b.buf
}

// reset empties the block, keeping its buffers.
func (b *blockWriter) reset() {
	b.buf = b.buf[:0]
	b.restarts = b.restarts[:0]
	b.lastKey = b.lastKey[:0]
	b.entries = 0
	b.count = 0
}

// separator returns a short key k with a <= k < b, given a < b, appended
// to dst[:0]. It is used as the index key between two data blocks.
func separator(dst, a, b []byte) []byte {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	if n >= len(a) {
		return append(dst[:0], a...) // a is a prefix of b
	}
	// Here a[n] < b[n] because a < b.
	if a[n] < 0xff && a[n]+1 < b[n] {
		dst = append(dst[:0], a[:n+1]...)
		dst[n]++
		return dst
	}
	// a[:n+1] < b, so bumping any later byte of a stays below b.
	for i := n + 1; i < len(a); i++ {
		if a[i] < 0xff {
			dst = append(dst[:0], a[:i+1]...)
			dst[i]++
			return dst
		}
	}
	return append(dst[:0], a...)
}
