package exec

import (
	"time"

	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// COPY TO output: each value's text output (the same as on the wire),
// escaped for the text format or quoted for CSV, as PostgreSQL's
// CopyAttributeOutText and CopyAttributeOutCSV do.

// encodeCopyRow appends one row and its newline to dst.
func encodeCopyRow(dst []byte, f *planner.CopyFormat, row Row, loc *time.Location) []byte {
	var val []byte
	for j, d := range row {
		if j > 0 {
			dst = append(dst, f.Delimiter)
		}
		if d.IsNull() {
			dst = append(dst, f.Null...)
			continue
		}
		val = types.AppendTextIn(val[:0], d, loc)
		force := f.ForceQuote != nil && f.ForceQuote[j]
		dst = appendCopyValue(dst, f, val, force, len(row) == 1)
	}
	return append(dst, '\n')
}

// appendCopyValue appends one non-NULL value. In CSV a value is quoted
// when forced, when it equals the NULL string, when it holds the
// delimiter, the quote, CR or LF, or when it is a lone \. in a one-column
// row (it would read as the end-of-data marker).
func appendCopyValue(dst []byte, f *planner.CopyFormat, v []byte, force, single bool) []byte {
	if !f.CSV {
		for _, c := range v {
			switch c {
			case '\\':
				dst = append(dst, '\\', '\\')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\v':
				dst = append(dst, '\\', 'v')
			default:
				if c == f.Delimiter {
					dst = append(dst, '\\')
				}
				dst = append(dst, c)
			}
		}
		return dst
	}
	quote := force || string(v) == f.Null || single && string(v) == `\.`
	for _, c := range v {
		if quote {
			break
		}
		quote = c == f.Delimiter || c == f.Quote || c == '\n' || c == '\r'
	}
	if !quote {
		return append(dst, v...)
	}
	dst = append(dst, f.Quote)
	for _, c := range v {
		if c == f.Quote || c == f.Escape {
			dst = append(dst, f.Escape)
		}
		dst = append(dst, c)
	}
	return append(dst, f.Quote)
}
