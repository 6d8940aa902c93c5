package sstable

import (
	"bytes"
	"encoding/binary"
)

// Abbreviated index search. A point read of a large file binary-searches
// an index of thousands of separators (a 64 MiB file of 8 KiB blocks has
// ~10,000), and with the files of a 10^7-row table far larger than the
// CPU caches every probe of the plain search missed twice: once for the
// entry's end offset and once for its key bytes, which bytes.Compare then
// walked through the bytes all of a file's keys share (tenant and
// so on). That search was 5-9% of a server's CPU at 10^7 rows.
//
// So the decoded index also keeps, for every separator, the 8 bytes after
// the prefix common to the whole file as a big-endian number. A seek
// compares the key's prefix once, then binary-searches the dense []uint64
// (one probe, one load, no call), and compares whole keys only among the
// entries whose 8 bytes equal the key's (a few neighbours at most). Numbers
// order as their bytes do, so the search is exact: an entry with a smaller
// number sorts before the key, one with a larger number after it; keys
// shorter than prefix+8 are padded with zeros, which is why equal numbers
// still need the full comparison.

// abbrIndex is the abbreviated form of a decodedIndex.
type abbrIndex struct {
	prefix []byte   // bytes every separator of the file starts with
	abbr   []uint64 // abbr[i]: separator i's 8 bytes after prefix, zero-padded
}

// abbrevAt returns the 8 bytes of b from off as a big-endian number,
// zero-padded.
func abbrevAt(b []byte, off int) uint64 {
	if len(b) >= off+8 {
		return binary.BigEndian.Uint64(b[off:])
	}
	var buf [8]byte
	if off < len(b) {
		copy(buf[:], b[off:])
	}
	return binary.BigEndian.Uint64(buf[:])
}

// buildAbbr fills x.ab from x's separators (sorted, as an index's are).
func (x *decodedIndex) buildAbbr() {
	n := x.len()
	if n == 0 {
		x.ab = abbrIndex{}
		return
	}
	// In sorted keys the prefix common to all is the first and last's.
	first, last := x.key(0), x.key(n-1)
	p := 0
	for p < len(first) && p < len(last) && first[p] == last[p] {
		p++
	}
	ab := abbrIndex{prefix: first[:p:p], abbr: make([]uint64, n)}
	for i := range n {
		ab.abbr[i] = abbrevAt(x.key(i), p)
	}
	x.ab = ab
}

// seekGE returns the first entry whose separator is >= key, or len().
func (x *decodedIndex) seekGE(key []byte) int {
	n := len(x.ab.abbr)
	if n == 0 {
		return x.seekGEFull(key, 0, x.len())
	}
	p := len(x.ab.prefix)
	if len(key) < p {
		// key is below every separator unless it is above the prefix.
		if bytes.Compare(key, x.ab.prefix[:len(key)]) <= 0 {
			return 0
		}
		return n
	}
	if c := bytes.Compare(key[:p], x.ab.prefix); c != 0 {
		if c < 0 {
			return 0
		}
		return n
	}
	k := abbrevAt(key, p)
	abbr := x.ab.abbr
	lo, hi := 0, n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if abbr[mid] < k {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	// Entries before lo sort below key, entries from the first number
	// above k on sort above it; whole keys decide among those equal to k
	// (several when the 8 bytes stop short of where separators differ,
	// as an escaped rowkey's zero bytes can make them).
	if lo == n || abbr[lo] != k {
		return lo
	}
	end := lo + 1
	for hi := n; end < hi; {
		mid := int(uint(end+hi) >> 1)
		if abbr[mid] <= k {
			end = mid + 1
		} else {
			hi = mid
		}
	}
	return x.seekGEFull(key, lo, end)
}

// seekGEFull returns the first entry in [lo, hi) whose separator is >=
// key, or hi, comparing whole keys; entries before lo must sort below key
// and entries from hi on above it.
func (x *decodedIndex) seekGEFull(key []byte, lo, hi int) int {
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if bytes.Compare(x.key(mid), key) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
