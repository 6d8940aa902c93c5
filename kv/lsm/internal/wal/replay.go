package wal

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"path"

	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// Replay calls fn(seg, rec) for every record of the segments numbered from
// or above in dir, in log order. rec is valid only during the call. An error
// from fn stops the replay and is returned as is.
//
// Zero bytes from a frame boundary to the end of a segment, in any segment,
// are its clean end: space preallocated and never written (see
// prealloc.go). A torn tail at the end of the last segment (a partial frame,
// or a frame whose checksum fails, with no valid frame after it, zeros
// after it or not) ends the replay without error. lastValid is the offset in the last segment where
// its valid frames end: its size if it is intact, 0 if there are no
// segments. Any other damage returns *CorruptionError, with no records from
// the damaged frame onward delivered.
//
// Replay holds one segment in memory at a time.
func Replay(fs vfs.FS, dir string, from uint64, fn func(seg uint64, rec []byte) error) (lastValid int64, err error) {
	all, err := Segments(fs, dir)
	if err != nil {
		return 0, err
	}
	var segs []uint64
	for _, s := range all {
		if s >= from {
			segs = append(segs, s)
		}
	}
	var buf []byte
	for i, seg := range segs {
		name := path.Join(dir, SegmentName(seg))
		buf, err = readFile(fs, name, buf)
		if err != nil {
			return 0, err
		}
		last := i == len(segs)-1
		off := 0
		for off < len(buf) {
			rec, n, reason := decodeFrame(buf[off:])
			if reason != "" {
				if allZero(buf[off:]) {
					break // preallocated, never written
				}
				if last && !validFrameAfter(buf, off) {
					return int64(off), nil // torn tail
				}
				if !last {
					reason += " (not in the last segment)"
				} else {
					reason += " (followed by a valid frame)"
				}
				return 0, &CorruptionError{File: name, Offset: int64(off), Reason: reason}
			}
			if err := fn(seg, rec); err != nil {
				return 0, err
			}
			off += n
		}
		lastValid = int64(off)
	}
	return lastValid, nil
}

// allZero reports whether b holds only zero bytes.
func allZero(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b) != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// validFrameAfter reports whether a well-formed frame with a valid checksum
// starts anywhere in buf after off. Any offset is tried, since the damage
// may have hit the bad frame's length. A checksum is computed only where
// the length fits, so a zeroed tail is scanned in linear time.
func validFrameAfter(buf []byte, off int) bool {
	for p := off + 1; p+headerSize <= len(buf); p++ {
		l := binary.LittleEndian.Uint32(buf[p+4:])
		if l == 0 && binary.LittleEndian.Uint32(buf[p:]) == 0 {
			continue // zeros never checksum: skip a zero tail fast
		}
		if l > MaxRecordSize || int(l) > len(buf)-p-headerSize {
			continue
		}
		end := p + headerSize + int(l)
		if crc32.Checksum(buf[p+4:end], crcTable) == binary.LittleEndian.Uint32(buf[p:]) {
			return true
		}
	}
	return false
}

// readFile reads the file name into buf, growing it as needed.
func readFile(fs vfs.FS, name string, buf []byte) ([]byte, error) {
	f, err := fs.Open(name)
	if err != nil {
		return buf, fmt.Errorf("wal: open segment: %w", err)
	}
	defer f.Close()
	size, err := f.Size()
	if err != nil {
		return buf, fmt.Errorf("wal: stat %s: %w", name, err)
	}
	if int64(cap(buf)) < size {
		buf = make([]byte, size)
	}
	buf = buf[:size]
	if n, err := f.ReadAt(buf, 0); n != len(buf) || (err != nil && err != io.EOF) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return buf, fmt.Errorf("wal: read %s: %d of %d bytes: %w", name, n, size, err)
	}
	return buf, nil
}

// TruncateSegment cuts segment seg in dir to its first size bytes, durably:
// it writes the prefix to a temporary file, syncs it, renames it over the
// segment and syncs dir. Use it after Replay with lastValid to drop a torn
// tail before starting a new segment. It does nothing if the segment is no
// longer than size, or holds only zeros after size (a preallocated tail,
// which Replay reads as a clean end in any segment).
func TruncateSegment(fs vfs.FS, dir string, seg uint64, size int64) error {
	name := path.Join(dir, SegmentName(seg))
	buf, err := readFile(fs, name, nil)
	if err != nil {
		return err
	}
	if int64(len(buf)) <= size || (size >= 0 && allZero(buf[size:])) {
		return nil
	}
	if size < 0 {
		return fmt.Errorf("wal: truncate %s to %d bytes", name, size)
	}
	tmp := name + ".tmp"
	f, err := fs.Create(tmp)
	if err != nil {
		return fmt.Errorf("wal: truncate: %w", err)
	}
	_, err = f.Write(buf[:size])
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = fs.Rename(tmp, name)
	}
	if err == nil {
		err = fs.SyncDir(dir)
	}
	if err != nil {
		fs.Remove(tmp)
		return fmt.Errorf("wal: truncate %s: %w", name, err)
	}
	return nil
}
