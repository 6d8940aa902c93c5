package sstable

import (
	"encoding/binary"
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
	shared := 0
	if b.entries == b.restartInterval || b.count == 0 {
		b.restarts = append(b.restarts, uint32(len(b.buf)))
		b.entries = 0
	} else {
		n := min(len(key), len(b.lastKey))
		for shared < n && key[shared] == b.lastKey[shared] {
			shared++
		}
	}
	b.buf = binary.AppendUvarint(b.buf, uint64(shared))
	b.buf = binary.AppendUvarint(b.buf, uint64(len(key)-shared))
	b.buf = binary.AppendUvarint(b.buf, uint64(len(value)))
	b.buf = append(b.buf, key[shared:]...)
	b.buf = append(b.buf, value...)
	b.lastKey = append(b.lastKey[:0], key...)
	b.entries++
	b.count++
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
