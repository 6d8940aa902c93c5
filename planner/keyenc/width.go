package keyenc

import "github.com/widesql/widesql/planner/types"

// KeyWidth returns the smallest and largest length of a key part of type t.
// max is -1 when the length is unbounded. For varchar(n) and char(n) max
// counts one byte per character (ASCII) plus the terminator; other text
// is unbounded. Seed 004 explains why fixed widths matter: an 8-byte
// BIGINT key sorts numerically and costs 8 bytes in every cell's key.
func KeyWidth(t types.T) (lo, hi int) {
	switch t.Kind {
	case types.Bool:
		return 1, 1
	case types.Int2:
		return 2, 2
	case types.Int4, types.Date, types.Float4:
		return 4, 4
	case types.Int8, types.Float8, types.Timestamp, types.TimestampTZ, types.Time:
		return 8, 8
	case types.Interval, types.UUID:
		return 16, 16
	case types.Text, types.BPChar:
		if t.Width > 0 {
			return 2, int(t.Width) + 2
		}
		return 2, -1
	case types.Bytea:
		return 2, -1
	case types.Numeric:
		return 1, -1
	}
	return 1, -1
}
