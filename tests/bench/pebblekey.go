package bench

import (
	"bytes"
	"encoding/binary"

	"github.com/cockroachdb/pebble/v2"
)

// A kv cell becomes one Pebble key, so both engines hold the same shape of
// data (a Pebble user row of three cells is three keys):
//
//	+--------------------+-------+--------+-------+-----------+-------+--------+
//	| rowkey, 00 -> 00FF | 00 01 | family | 00 01 | qualifier | 00 01 | ^ts BE |
//	+--------------------+-------+--------+-------+-----------+-------+--------+
//	|<------ prefix (Split) ---->|<----------------- suffix ----------------->|
//
// Each variable part is escaped and terminated as planner/keyenc does for
// text, so bytes.Compare of two cell keys orders them by rowkey, family,
// qualifier and then timestamp descending (the kv order), and the first
// 00 01 in a key ends the rowkey. The Comparer's Split returns that
// prefix, so Pebble's bloom filters and SeekPrefixGE work on rows, as
// widesql's filters do.

// rowComparer is bytes.Compare with the rowkey as the prefix.
var rowComparer = func() *pebble.Comparer {
	c := *pebble.DefaultComparer
	c.Name = "widesql.bench.rowkey.v1"
	c.Split = splitRowKey
	c.ImmediateSuccessor = func(dst, a []byte) []byte {
		if n := len(a); n >= 2 && a[n-2] == 0 && a[n-1] == 1 {
			// The next rowkey after r is r+"\x00".
			return append(append(dst, a[:n-2]...), 0x00, 0xFF, 0x00, 0x01)
		}
		return append(append(dst, a...), 0x00)
	}
	return &c
}()

var terminator = []byte{0x00, 0x01}

// splitRowKey returns the length of the escaped, terminated rowkey at the
// start of key, or len(key) for a key without one (index separators).
func splitRowKey(key []byte) int {
	if i := bytes.Index(key, terminator); i >= 0 {
		return i + 2
	}
	return len(key)
}

// appendEscaped appends b with 00 escaped as 00 FF, then the terminator.
func appendEscaped(dst, b []byte) []byte {
	for {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			break
		}
		dst = append(dst, b[:i+1]...)
		dst = append(dst, 0xFF)
		b = b[i+1:]
	}
	dst = append(dst, b...)
	return append(dst, terminator...)
}

// unescape returns the escaped part at the start of b, unescaped into
// dst, and what follows its terminator.
func unescape(dst, b []byte) (out, rest []byte) {
	for {
		i := bytes.IndexByte(b, 0)
		if i < 0 || i+1 >= len(b) {
			return append(dst, b...), nil // not a cell key
		}
		dst = append(dst, b[:i]...)
		if b[i+1] == 0x01 {
			return dst, b[i+2:]
		}
		dst = append(dst, 0)
		b = b[i+2:]
	}
}

// appendRowPrefix appends the Pebble prefix of a rowkey.
func appendRowPrefix(dst, rowkey []byte) []byte { return appendEscaped(dst, rowkey) }

// appendCellKey appends the Pebble key of one cell.
func appendCellKey(dst, rowkey []byte, family string, qualifier []byte, ts int64) []byte {
	dst = appendEscaped(dst, rowkey)
	dst = appendEscaped(dst, []byte(family))
	dst = appendEscaped(dst, qualifier)
	return binary.BigEndian.AppendUint64(dst, ^uint64(ts))
}

// cellSuffix splits the suffix of a cell key into its parts. Family and
// qualifier alias suffix unless they hold an escaped zero, in which case
// they are unescaped into buf.
func cellSuffix(buf, suffix []byte) (family, qualifier []byte, ts int64, _ []byte) {
	if len(suffix) < 8 {
		return nil, nil, 0, buf
	}
	body := suffix[:len(suffix)-8]
	ts = int64(^binary.BigEndian.Uint64(suffix[len(suffix)-8:]))
	family, body = splitEscaped(&buf, body)
	qualifier, _ = splitEscaped(&buf, body)
	return family, qualifier, ts, buf
}

// splitEscaped returns the first escaped part of b and the rest, aliasing
// b when the part has no escaped zero.
func splitEscaped(buf *[]byte, b []byte) (part, rest []byte) {
	i := bytes.Index(b, terminator)
	if i < 0 {
		return b, nil
	}
	if bytes.IndexByte(b[:i], 0) < 0 {
		return b[:i], b[i+2:]
	}
	start := len(*buf)
	*buf, rest = unescape(*buf, b)
	return (*buf)[start:], rest
}
