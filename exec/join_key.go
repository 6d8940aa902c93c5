package exec

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"strings"

	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// Join keys. A hash join matches rows whose key values are equal by
// types.Compare (SQL equality), so the hash must give equal hashes to
// values Compare calls equal even when their kinds differ: 1::int4,
// 1::int8, 1.0::numeric and 1::float8 all hash alike. appendJoinKey writes
// a normalized encoding that guarantees this; it may also give equal bytes
// to values that are not equal (numerics that round to the same float64,
// jsonb values), which is harmless because every hash match is confirmed
// with Compare (joinKeysEqual).

// evalJoinKeys evaluates keys over row into dst (len(keys) slots) and
// reports whether any key is NULL: such a row matches nothing.
func evalJoinKeys(dst []types.Datum, keys []planner.Expr, row Row, env *evalEnv) (hasNull bool, err error) {
	for i, k := range keys {
		if dst[i], err = eval(k, row, env); err != nil {
			return false, err
		}
		if dst[i].IsNull() {
			hasNull = true
		}
	}
	return hasNull, nil
}

// joinKeysEqual reports whether two non-NULL key tuples are equal.
func joinKeysEqual(a, b []types.Datum) bool {
	for i := range a {
		if types.Compare(a[i], b[i]) != 0 {
			return false
		}
	}
	return true
}

// joinHasher hashes key tuples; one per operator, not goroutine-safe.
type joinHasher struct {
	seed maphash.Seed
	buf  []byte
}

func newJoinHasher() joinHasher { return joinHasher{seed: maphash.MakeSeed()} }

// hash returns the hash of a non-NULL key tuple.
func (h *joinHasher) hash(keys []types.Datum) uint64 {
	h.buf = h.buf[:0]
	for _, d := range keys {
		h.buf = appendJoinKey(h.buf, d)
	}
	return maphash.Bytes(h.seed, h.buf)
}

// Classes of the normalized encoding: kinds that Compare can find equal
// share a class.
const (
	jkNumber   = iota + 1 // ints, floats, numeric: by float64 value
	jkString              // text, varchar, char(n) (trailing blanks dropped), unknown
	jkTimeline            // date, timestamp, timestamptz: microseconds
	jkInterval            // by PostgreSQL's total (1 mon = 30 days)
	jkArray               // element by element
	jkOther               // the kind then the raw value
)

// appendJoinKey appends d's normalized encoding (d non-NULL) to buf.
func appendJoinKey(buf []byte, d types.Datum) []byte {
	switch {
	case d.K.IsNumeric():
		// Compare matches ints with floats exactly, numerics with floats
		// through float64, and ints with numerics exactly: equal values
		// always have the same nearest float64.
		f := types.ToFloat64(d)
		switch {
		case f == 0:
			f = 0 // -0 = 0
		case math.IsNaN(f):
			f = math.NaN()
		}
		return binary.BigEndian.AppendUint64(append(buf, jkNumber), math.Float64bits(f))
	case d.K.IsString():
		s := d.S
		if d.K == types.BPChar {
			s = strings.TrimRight(s, " ")
		}
		buf = binary.AppendUvarint(append(buf, jkString), uint64(len(s)))
		return append(buf, s...)
	case d.K == types.Date || d.K == types.Timestamp || d.K == types.TimestampTZ:
		v := d.I
		if d.K == types.Date {
			// Out of the timestamp range a date equals no timestamp; its
			// day number stays distinct from other dates.
			if t, err := types.DateToTimestamp(d.I); err == nil {
				v = t
			}
		}
		return binary.BigEndian.AppendUint64(append(buf, jkTimeline), uint64(v))
	case d.K == types.Interval:
		days, micros := types.IntervalTotal(d)
		buf = binary.BigEndian.AppendUint64(append(buf, jkInterval), uint64(days))
		return binary.BigEndian.AppendUint64(buf, uint64(micros))
	case d.K == types.Array:
		a := d.ArrayValue()
		buf = binary.AppendUvarint(append(buf, jkArray), uint64(len(a.Elems)))
		for _, e := range a.Elems {
			if e.IsNull() {
				buf = append(buf, 0)
				continue
			}
			buf = appendJoinKey(buf, e)
		}
		return buf
	case d.K == types.JSONB:
		// jsonb equality is not textual ('1.0' = '1'): hash the kind only
		// and let Compare decide.
		return append(buf, jkOther, byte(d.K))
	}
	buf = append(buf, jkOther, byte(d.K))
	buf = binary.BigEndian.AppendUint64(buf, uint64(d.I))
	buf = binary.AppendUvarint(buf, uint64(len(d.S)))
	return append(buf, d.S...)
}

// joinPartition maps a key hash to one of n partitions at a recursion
// level: each level mixes the hash with its own constant (a different
// seed), so a partition that is repartitioned spreads again.
func joinPartition(h uint64, level, n int) int {
	h ^= uint64(level+1) * 0x9e3779b97f4a7c15
	// splitmix64's finalizer.
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9
	h = (h ^ (h >> 27)) * 0x94d049bb133111eb
	h ^= h >> 31
	return int(h % uint64(n))
}
