// Package keyenc encodes SQL values into bytes for a wide-column store.
//
// Two encodings live here:
//
//   - The key encoding (AppendKey, DecodeKey) is order-preserving: for
//     composite keys built by appending one column after another,
//     bytes.Compare of two encodings equals the SQL order of the tuples,
//     column by column, with a DESC column inverting its order. Rowkeys in
//     HBase/Bigtable-model stores are compared as raw bytes, so this is what
//     makes range scans and ORDER BY on the key free.
//   - The value encoding (AppendValue, DecodeValue) is compact and carries no
//     order: it is what a non-key column stores in its cell. The column's type
//     comes from the catalog, so neither encoding carries a type tag.
//
// # Key encoding, per column (ASC)
//
//	smallint   2 bytes  big-endian two's complement, sign bit flipped
//	integer    4 bytes  "
//	bigint     8 bytes  "
//	timestamp  8 bytes  " (microseconds since 1970-01-01)
//	boolean    1 byte   0x00 false, 0x01 true
//	float8     8 bytes  IEEE 754 bits big-endian; positives: sign bit
//	                    flipped; negatives: all bits flipped; -0 is written
//	                    as 0; every NaN as the canonical quiet NaN, which
//	                    then sorts after +Infinity, as in PostgreSQL
//	text, varchar, bytea
//	           variable, self-delimiting:
//
//	    +-----------------------------+------+------+
//	    | data bytes, 0x00 -> 00 FF   |  00  |  01  |
//	    +-----------------------------+------+------+
//	                                   terminator
//
//	  "ab"      61 62 00 01
//	  "ab\x00"  61 62 00 FF 00 01
//	  "abc"     61 62 63 00 01
//
//	  A string sorts before its extensions because its terminator 00 01 is
//	  smaller than anything that can follow a data byte in a longer string:
//	  a data byte 01..FF or an escaped zero 00 FF.
//
// The types added with issue 4 (docs/ARCHITECTURE.md has the table):
//
//	real       4 bytes  float8's scheme on the float32 bits
//	date       4 bytes  days since 1970, sign flipped; ±infinity the extremes
//	time, timestamptz
//	           8 bytes  microseconds, sign flipped
//	interval   16 bytes total days with 30-day months, then µs in the day
//	uuid       16 bytes raw
//	char(n)    as text with trailing spaces stripped
//	numeric    tag, exponent, two digits per byte, 00 (appendNumericKey)
//	jsonb      kind tag, counts, elements (appendJSONKey)
//	arrays     01 elem | 02 (NULL) ..., 00
//
// Equal values encode equally (1.5 and 1.50, '1 mon' and '30 days', 'ab'
// and 'ab  ' in char(4)), as a unique key requires, so such keys decode
// to one canonical form; see numericFromKey and intervalFromKey. json has
// no key encoding (HasKeyEncoding).
//
// The ints are fixed-width by declared type, so a smallint key column costs
// two bytes. Values must already have the column's type (the executor casts
// before encoding).
//
// # DESC
//
// A DESC column is its ASC encoding with every byte inverted (x -> ^x), the
// generalisation of HBase's "Long.MAX_VALUE - ts" reverse-timestamp trick:
//
//	"ab" DESC  9E 9D FF FE         (terminator 00 01 -> FF FE,
//	                                escaped zero 00 FF -> FF 00)
//
// Inversion keeps the column self-delimiting (the decoder looks for FF FE
// instead of 00 01), and because no column encoding is a proper prefix of
// another encoding of the same type, two different values first differ at
// some byte, which inversion flips. So bytes.Compare of concatenations is
// the column-by-column comparison with DESC columns reversed.
//
//	key (a INT ASC, b TEXT DESC) = (5, 'x')
//	  80 00 00 05 | 87 FF FE
//
// # NULL
//
// Keys never contain NULL: the executor rejects NULL key columns with 23502
// before encoding, and AppendKey panics on NULL. In a value, NULL is the
// absence of the cell and is never encoded.
//
// # Prefix scans
//
// For LIKE 'abc%' on a text key column, AppendStringPrefix appends the
// column's encoding without its terminator; every string starting with the
// prefix has an encoding starting with those bytes, in ASC and DESC alike.
// The scan span is [k, PrefixEnd(k)) where k is the whole key prefix (the
// equality columns before it plus the string prefix).
//
// # Value encoding
//
//	smallint, integer, bigint, timestamp   zigzag varint (1-10 bytes)
//	float8                                 8 bytes IEEE 754 big-endian
//	boolean                                1 byte, 0x00 or 0x01
//	text, varchar, bytea                   the raw bytes (the cell's length
//	                                       delimits them)
package keyenc
