package sstable

import (
	"encoding/binary"
	"fmt"
)

// Meta describes a finished file. Smallest and Largest are owned by the
// Meta (not shared with any buffer of the Writer or Reader); treat them
// as immutable.
type Meta struct {
	Smallest, Largest []byte
	Entries           int64
	// Size is the file's size in bytes.
	Size                       int64
	RawKeyBytes, RawValueBytes int64
}

// Property names in the properties block, in the sorted order the block
// needs. Readers ignore names they do not know.
const (
	propCompression = "compression"
	propDataBlocks  = "data.blocks"
	propEntries     = "entries"
	propLargest     = "largest"
	propRawKeys     = "raw.key.size"
	propRawValues   = "raw.value.size"
	propSmallest    = "smallest"
)

// properties is the content of the properties block.
type properties struct {
	meta        Meta
	compression Compression
	dataBlocks  int64
}

// encode returns the properties block (a block with restart interval 1).
func (p *properties) encode() []byte {
	b := blockWriter{restartInterval: 1}
	num := func(v int64) []byte { return binary.AppendUvarint(nil, uint64(v)) }
	b.add([]byte(propCompression), num(int64(p.compression)))
	b.add([]byte(propDataBlocks), num(p.dataBlocks))
	b.add([]byte(propEntries), num(p.meta.Entries))
	b.add([]byte(propLargest), p.meta.Largest)
	b.add([]byte(propRawKeys), num(p.meta.RawKeyBytes))
	b.add([]byte(propRawValues), num(p.meta.RawValueBytes))
	b.add([]byte(propSmallest), p.meta.Smallest)
	return b.finish()
}

// decodeProperties parses a properties block. Meta.Size is left zero.
func decodeProperties(block []byte) (properties, error) {
	var p properties
	var it blockIter
	if err := it.init(block); err != nil {
		return p, err
	}
	for ok := it.first(); ok; ok = it.next() {
		var dst *int64
		switch name := string(it.key); name {
		case propSmallest:
			p.meta.Smallest = append([]byte(nil), it.val...)
			continue
		case propLargest:
			p.meta.Largest = append([]byte(nil), it.val...)
			continue
		case propCompression:
			c, n := binary.Uvarint(it.val)
			if n <= 0 || c > 255 {
				return p, fmt.Errorf("bad property %q", name)
			}
			p.compression = Compression(c)
			continue
		case propDataBlocks:
			dst = &p.dataBlocks
		case propEntries:
			dst = &p.meta.Entries
		case propRawKeys:
			dst = &p.meta.RawKeyBytes
		case propRawValues:
			dst = &p.meta.RawValueBytes
		default:
			continue
		}
		v, n := binary.Uvarint(it.val)
		if n <= 0 || n != len(it.val) || v > 1<<62 {
			return p, fmt.Errorf("bad property %q", it.key)
		}
		*dst = int64(v)
	}
	return p, it.err
}
