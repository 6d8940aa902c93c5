package sstable

import (
	"encoding/binary"
	"math/bits"
)

// A bloom block is the filter's bit array followed by one byte holding
// the number of probes k. Bit j lives in byte j/8 at bit j%8. Probe i for
// a key with 64-bit hash h sets bit fastrange32(h1 + i*h2, nbits), where
// h1 and h2 are the low and high halves of h (double hashing).

// bloomHash is MurmurHash64A with a fixed seed. It is part of the
// on-disk format: changing it invalidates every filter.
func bloomHash(key []byte) uint64 {
	const m = 0xc6a4a7935bd1e995
	const r = 47
	h := uint64(0x8445d61a4e774912) ^ uint64(len(key))*m
	for len(key) >= 8 {
		k := binary.LittleEndian.Uint64(key)
		k *= m
		k ^= k >> r
		k *= m
		h ^= k
		h *= m
		key = key[8:]
	}
	if len(key) > 0 {
		var t uint64
		for j := len(key) - 1; j >= 0; j-- {
			t = t<<8 | uint64(key[j])
		}
		h ^= t
		h *= m
	}
	h ^= h >> r
	h *= m
	h ^= h >> r
	return h
}

// bloomProbe maps x uniformly onto [0, n) without a division.
func bloomProbe(x uint32, n uint32) uint32 {
	hi, _ := bits.Mul32(x, n)
	return hi
}

// buildBloom returns a bloom block for n key hashes, given in chunks, at
// bitsPerKey bits per key. It returns nil when there are no hashes.
func buildBloom(chunks [][]uint64, n int, bitsPerKey int) []byte {
	if n == 0 || bitsPerKey <= 0 {
		return nil
	}
	// k = bitsPerKey * ln 2 minimizes the false positive rate.
	k := max(1, min(30, bitsPerKey*69/100))
	nbits := max(64, uint64(n)*uint64(bitsPerKey))
	nbits = min(nbits, 1<<32-8) // probes are 32-bit
	nbits = (nbits + 7) &^ 7
	filter := make([]byte, nbits/8+1)
	filter[len(filter)-1] = byte(k)
	nb := uint32(nbits)
	for _, hashes := range chunks {
		for _, h := range hashes {
			h1, h2 := uint32(h), uint32(h>>32)|1
			for range k {
				b := bloomProbe(h1, nb)
				filter[b/8] |= 1 << (b % 8)
				h1 += h2
			}
		}
	}
	return filter
}

// bloomMayContain reports whether a bloom block may contain a key with
// hash h. A malformed or empty filter answers true.
func bloomMayContain(filter []byte, h uint64) bool {
	if len(filter) < 2 {
		return true
	}
	k := int(filter[len(filter)-1])
	if k == 0 || k > 30 {
		return true
	}
	n := uint32((len(filter) - 1) * 8)
	h1, h2 := uint32(h), uint32(h>>32)|1
	for range k {
		b := bloomProbe(h1, n)
		if filter[b/8]&(1<<(b%8)) == 0 {
			return false
		}
		h1 += h2
	}
	return true
}
