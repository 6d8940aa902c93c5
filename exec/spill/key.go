package spill

import (
	"encoding/binary"
	"hash/maphash"

	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
)

// AppendKey appends to buf an encoding of row under which two rows encode
// equally exactly when DISTINCT, UNION, INTERSECT and EXCEPT count them as
// duplicates: column by column, NULL equals NULL, and equal values encode
// equally whatever their form (1.5 and 1.50, 1::int2 and 1::int8, -0 and
// 0, 'ab' and 'ab  ' in char(4)). Each value is encoded by its own kind.
// It is keyenc's order-preserving key encoding, so the bytes also sort
// rows in SQL order, NULLs last.
func AppendKey(buf []byte, row []types.Datum) []byte {
	for _, d := range row {
		if d.IsNull() {
			buf = append(buf, 2) // after every non-NULL, which starts with 1
			continue
		}
		var t types.T
		switch {
		case d.K.IsInt():
			t = types.TInt8 // one width, so 1::int2 meets 1::int8
		case d.K.IsFloat():
			t = types.TFloat8 // a float4 value is exact in float8
		case d.K == types.Array:
			t = types.ArrayOf(d.ArrayValue().Elem)
		default:
			t = types.T{Kind: d.K}
		}
		buf = append(buf, 1)
		if !keyenc.HasKeyEncoding(t) {
			// json has no equality in PostgreSQL; its text is the
			// nearest thing, length-prefixed to stay self-delimiting.
			n := len(buf)
			buf = types.AppendText(buf, d)
			s := append([]byte(nil), buf[n:]...)
			buf = binary.AppendUvarint(buf[:n], uint64(len(s)))
			buf = append(buf, s...)
			continue
		}
		buf = keyenc.AppendKey(buf, d, t, false)
	}
	return buf
}

// Hasher spreads keys over partitions. Each recursion level of a hash
// partitioning uses its own Hasher, so that keys which shared a partition
// at one level split at the next.
type Hasher struct{ seed maphash.Seed }

// NewHasher returns a Hasher with a fresh random seed.
func NewHasher() Hasher { return Hasher{seed: maphash.MakeSeed()} }

// Partition returns key's partition among n.
func (h Hasher) Partition(key []byte, n int) int {
	return int(maphash.Bytes(h.seed, key) % uint64(n))
}
