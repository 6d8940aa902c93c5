package sstable

import (
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
)

// Compression selects how a Writer compresses blocks. The value is also
// the type byte in each block trailer.
type Compression uint8

// Compression types.
const (
	NoCompression Compression = iota
	// Snappy is the snappy block format (written by s2 in its
	// snappy-compatible mode).
	Snappy
	// Zstd is a zstd frame at the default level, preceded by the uvarint
	// uncompressed length.
	Zstd
)

// String returns the name accepted by CompressionByName.
func (c Compression) String() string {
	switch c {
	case NoCompression:
		return "none"
	case Snappy:
		return "snappy"
	case Zstd:
		return "zstd"
	}
	return fmt.Sprintf("compression(%d)", uint8(c))
}

// CompressionByName maps "", "none", "snappy" and "zstd" to a Compression.
func CompressionByName(s string) (Compression, error) {
	switch s {
	case "", "none":
		return NoCompression, nil
	case "snappy":
		return Snappy, nil
	case "zstd":
		return Zstd, nil
	}
	return 0, fmt.Errorf("sstable: unknown compression %q", s)
}

// zstd encoders and decoders are expensive to build and safe for
// concurrent EncodeAll/DecodeAll, so one of each is shared, built lazily.
var (
	zstdEncoder = sync.OnceValue(func() *zstd.Encoder {
		e, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true))
		if err != nil {
			panic(err) // only invalid options fail
		}
		return e
	})
	zstdDecoder = sync.OnceValue(func() *zstd.Decoder {
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecodeAllCapLimit(true))
		if err != nil {
			panic(err)
		}
		return d
	})
)

// compressBlock compresses raw into *buf (reusing and updating its
// capacity) and returns the bytes to store with the type actually used:
// NoCompression and raw itself when c is NoCompression or compression
// saves less than 1/8 of the block.
func compressBlock(c Compression, raw []byte, buf *[]byte) ([]byte, Compression) {
	dst := *buf
	defer func() { *buf = dst[:0] }()
	switch c {
	case Snappy:
		dst = s2.EncodeSnappy(dst[:cap(dst)], raw)
	case Zstd:
		dst = binary.AppendUvarint(dst[:0], uint64(len(raw)))
		dst = zstdEncoder().EncodeAll(raw, dst)
	default:
		return raw, NoCompression
	}
	if len(dst) > len(raw)-len(raw)/8 {
		return raw, NoCompression
	}
	return dst, c
}

// compressBound is the most bytes compressBlock can return for a block
// of n bytes with c (the block itself when compression does not pay), or
// -1 if n is too large to compress.
func compressBound(c Compression, n int) int {
	switch c {
	case Snappy:
		m := s2.MaxEncodedLen(n)
		if m < 0 {
			return -1
		}
		return max(m, n)
	case Zstd:
		// zstd's worst case (ZSTD_COMPRESSBOUND) is n + n/256 + a little,
		// after the uvarint length; an encoder that needs more grows
		// its output, which writeBlock notices.
		return n + n>>7 + 128 + binary.MaxVarintLen64
	}
	return n
}

// decompressBlock returns the uncompressed form of a stored block of type
// typ. For NoCompression it returns stored itself and a nil holder;
// otherwise a block made in a buffer from getBlockBuf, whose holder it
// returns for newCacheEntry. The error is a reason for a CorruptionError.
func decompressBlock(typ byte, stored []byte) ([]byte, *[]byte, error) {
	switch Compression(typ) {
	case NoCompression:
		return stored, nil, nil
	case Snappy:
		n, err := s2.DecodedLen(stored)
		if err != nil {
			return nil, nil, err
		}
		if n > maxBlockLen {
			return nil, nil, fmt.Errorf("snappy block claims %d bytes", n)
		}
		bp := getBlockBuf(n)
		out, err := s2.Decode(*bp, stored)
		if err != nil {
			putBlockBuf(bp)
			return nil, nil, err
		}
		return out, bp, nil
	case Zstd:
		n, k := binary.Uvarint(stored)
		if k <= 0 || n > maxBlockLen {
			return nil, nil, fmt.Errorf("bad zstd block length")
		}
		bp := getBlockBuf(int(n))
		out, err := zstdDecoder().DecodeAll(stored[k:], (*bp)[:0])
		if err == nil && uint64(len(out)) != n {
			err = fmt.Errorf("zstd block decoded to %d bytes, want %d", len(out), n)
		}
		if err != nil {
			putBlockBuf(bp)
			return nil, nil, err
		}
		return out, bp, nil
	}
	return nil, nil, fmt.Errorf("unknown compression type %d", typ)
}
