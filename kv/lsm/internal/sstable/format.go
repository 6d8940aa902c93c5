package sstable

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// Format constants. Changing any of them changes the on-disk format.
const (
	// formatVersion is written into every footer; Open rejects others.
	formatVersion = 1
	// magic ends every file ("widesst1" read as little-endian bytes).
	magic uint64 = 0x3174737365646977
	// footerLen is the fixed size of the footer at the end of the file.
	footerLen = 3*16 + 4 + 4 + 8
	// trailerLen is the size of the trailer after every block: one
	// compression-type byte and a crc32c.
	trailerLen = 5
	// dataRestartInterval is the number of entries between full keys in
	// data blocks.
	dataRestartInterval = 16
	// maxBlockLen bounds the uncompressed size of any block a reader will
	// allocate, so corrupt lengths cannot exhaust memory.
	maxBlockLen = 1 << 30
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// checksum is the crc32c of a stored block followed by its type byte.
func checksum(stored []byte, typ byte) uint32 {
	c := crc32.Update(0, crcTable, stored)
	return crc32.Update(c, crcTable, []byte{typ})
}

// ErrCorruption matches every *CorruptionError under errors.Is.
var ErrCorruption = errors.New("sstable: corruption")

// CorruptionError reports bytes in a file that fail verification: a bad
// checksum, a malformed block or footer, or a truncated file. Offset is
// the file offset of the block or footer found corrupt.
type CorruptionError struct {
	File   string
	Offset int64
	Reason string
}

// Error implements error.
func (e *CorruptionError) Error() string {
	return fmt.Sprintf("sstable: corruption in %s at offset %d: %s", e.File, e.Offset, e.Reason)
}

// Is reports whether target is ErrCorruption.
func (e *CorruptionError) Is(target error) bool { return target == ErrCorruption }

// blockHandle locates a block: Length excludes the trailer.
type blockHandle struct {
	Offset, Length uint64
}

// appendHandleVarint appends h as two uvarints (index block values).
func appendHandleVarint(dst []byte, h blockHandle) []byte {
	dst = binary.AppendUvarint(dst, h.Offset)
	return binary.AppendUvarint(dst, h.Length)
}

// decodeHandleVarint decodes a handle written by appendHandleVarint.
func decodeHandleVarint(src []byte) (blockHandle, bool) {
	off, n := binary.Uvarint(src)
	if n <= 0 {
		return blockHandle{}, false
	}
	length, m := binary.Uvarint(src[n:])
	if m <= 0 || n+m != len(src) {
		return blockHandle{}, false
	}
	return blockHandle{Offset: off, Length: length}, true
}

// footer is the fixed-size tail of every file.
type footer struct {
	index, bloom, props blockHandle
}

func (f footer) encode() []byte {
	b := make([]byte, footerLen)
	for i, h := range [3]blockHandle{f.index, f.bloom, f.props} {
		binary.LittleEndian.PutUint64(b[i*16:], h.Offset)
		binary.LittleEndian.PutUint64(b[i*16+8:], h.Length)
	}
	binary.LittleEndian.PutUint32(b[48:], formatVersion)
	binary.LittleEndian.PutUint32(b[52:], crc32.Checksum(b[:52], crcTable))
	binary.LittleEndian.PutUint64(b[56:], magic)
	return b
}

// decodeFooter parses b (footerLen bytes) and returns a reason on failure.
func decodeFooter(b []byte) (footer, string) {
	if len(b) != footerLen {
		return footer{}, "short footer"
	}
	if binary.LittleEndian.Uint64(b[56:]) != magic {
		return footer{}, "bad magic number"
	}
	if crc32.Checksum(b[:52], crcTable) != binary.LittleEndian.Uint32(b[52:]) {
		return footer{}, "footer checksum mismatch"
	}
	if v := binary.LittleEndian.Uint32(b[48:]); v != formatVersion {
		return footer{}, fmt.Sprintf("unsupported format version %d", v)
	}
	var hs [3]blockHandle
	for i := range hs {
		hs[i] = blockHandle{
			Offset: binary.LittleEndian.Uint64(b[i*16:]),
			Length: binary.LittleEndian.Uint64(b[i*16+8:]),
		}
	}
	return footer{index: hs[0], bloom: hs[1], props: hs[2]}, ""
}
