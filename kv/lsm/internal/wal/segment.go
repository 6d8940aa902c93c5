package wal

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"path"
	"strconv"

	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

const (
	// headerSize is the frame header: crc and len, 4 bytes each.
	headerSize = 8
	// MaxRecordSize is the largest payload a frame may carry. Append
	// rejects larger records; Replay treats a larger length as corruption.
	MaxRecordSize = 256 << 20
	// DefaultSegmentSize is Options.SegmentSize when zero.
	DefaultSegmentSize = 64 << 20
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// ErrClosed is returned by appends to a closed Writer.
var ErrClosed = errors.New("wal: writer closed")

// CorruptionError reports log damage that is not a torn tail. File is the
// segment's path, Offset the byte offset of the first bad frame in it.
type CorruptionError struct {
	File   string
	Offset int64
	Reason string
}

func (e *CorruptionError) Error() string {
	return fmt.Sprintf("wal: corruption in %s at offset %d: %s", e.File, e.Offset, e.Reason)
}

// appendFrame appends rec's frame to dst.
func appendFrame(dst, rec []byte) []byte {
	start := len(dst)
	dst = binary.LittleEndian.AppendUint32(dst, 0)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(rec)))
	dst = append(dst, rec...)
	crc := crc32.Checksum(dst[start+4:], crcTable)
	binary.LittleEndian.PutUint32(dst[start:], crc)
	return dst
}

// decodeFrame decodes the frame at the start of b. It returns the payload
// (aliasing b) and the frame's size, or a reason why b does not start with
// a well-formed frame.
func decodeFrame(b []byte) (rec []byte, n int, reason string) {
	if len(b) < headerSize {
		return nil, 0, fmt.Sprintf("truncated frame header (%d bytes)", len(b))
	}
	l := binary.LittleEndian.Uint32(b[4:])
	if l > MaxRecordSize {
		return nil, 0, fmt.Sprintf("record length %d exceeds %d", l, MaxRecordSize)
	}
	end := headerSize + int(l)
	if end > len(b) {
		return nil, 0, fmt.Sprintf("truncated record: length %d, %d bytes left", l, len(b)-headerSize)
	}
	if crc32.Checksum(b[4:end], crcTable) != binary.LittleEndian.Uint32(b) {
		return nil, 0, "checksum mismatch"
	}
	return b[headerSize:end], end, ""
}

// FrameSize returns the bytes a record of recLen bytes takes in a
// segment: its frame header and the record. Replay delivers records
// without their frames; a caller that measures a segment's log (not its
// preallocated zero tail) sums this over the records it was given.
func FrameSize(recLen int) int64 { return int64(headerSize + recLen) }

// SegmentName returns the file name (not path) of segment seg.
func SegmentName(seg uint64) string {
	return fmt.Sprintf("wal-%016d.log", seg)
}

// parseSegmentName returns the number of a segment file name.
func parseSegmentName(name string) (uint64, bool) {
	const prefix, suffix, digits = "wal-", ".log", 16
	if len(name) != len(prefix)+digits+len(suffix) ||
		name[:len(prefix)] != prefix || name[len(prefix)+digits:] != suffix {
		return 0, false
	}
	num := name[len(prefix) : len(prefix)+digits]
	for _, c := range []byte(num) {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	seg, err := strconv.ParseUint(num, 10, 64)
	return seg, err == nil
}

// Segments returns the numbers of the segment files in dir, ascending.
// Other files are ignored.
func Segments(fs vfs.FS, dir string) ([]uint64, error) {
	names, err := fs.List(dir)
	if err != nil {
		return nil, fmt.Errorf("wal: list segments: %w", err)
	}
	var segs []uint64
	for _, name := range names { // sorted, and fixed width sorts numerically
		if seg, ok := parseSegmentName(name); ok {
			segs = append(segs, seg)
		}
	}
	return segs, nil
}

// RemoveBefore deletes the segments numbered below seg and syncs dir. It
// stops at the first error.
func RemoveBefore(fs vfs.FS, dir string, seg uint64) error {
	segs, err := Segments(fs, dir)
	if err != nil {
		return err
	}
	removed := false
	for _, s := range segs {
		if s >= seg {
			break
		}
		if err := fs.Remove(path.Join(dir, SegmentName(s))); err != nil {
			return fmt.Errorf("wal: remove segment: %w", err)
		}
		removed = true
	}
	if removed {
		if err := fs.SyncDir(dir); err != nil {
			return fmt.Errorf("wal: sync dir after remove: %w", err)
		}
	}
	return nil
}
