package exec

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
)

// COPY FROM input: PostgreSQL's text and CSV formats, read from chunks
// that do not align with lines.

// codeBadCopyFormat is PostgreSQL's bad_copy_file_format.
const codeBadCopyFormat = "22P04"

// lineReader splits COPY input into lines. A line ends at the first
// newline, carriage return or CR LF outside a CSV quoted field and not
// escaped by a backslash in text format; the first line's terminator is
// the one every line must use, as in PostgreSQL.
type lineReader struct {
	f     *planner.CopyFormat
	table string // for error contexts
	buf   []byte // input not yet returned as lines
	scan  int    // bytes of buf already scanned (no terminator among them)
	// Scan state at buf[scan]: after a backslash (text), inside quotes
	// (CSV).
	esc, inQuote bool
	eol          string // "\n", "\r\n" or "\r" once the first line ended
	line         int    // number of the last line returned (1-based)
}

// add appends a chunk of input.
func (r *lineReader) add(data []byte) {
	if r.scan == 0 && len(r.buf) == 0 {
		r.buf = append(r.buf[:0], data...)
		return
	}
	r.buf = append(r.buf, data...)
}

// next returns the next complete line, without its terminator, valid until
// the next call; ok is false when more input is needed. At eof the rest of
// the input is the last line. Errors are the terminator mismatches.
func (r *lineReader) next(eof bool) (line []byte, ok bool, err error) {
	b := r.buf
	i := r.scan
	for ; i < len(b); i++ {
		c := b[i]
		if !r.f.CSV {
			if r.esc {
				r.esc = false
				continue
			}
			if c == '\\' {
				r.esc = true
				continue
			}
		} else if r.inQuote {
			if c == r.f.Escape && r.f.Escape != r.f.Quote {
				if i+1 >= len(b) && !eof {
					break // the escaped byte has not arrived
				}
				if i+1 < len(b) && (b[i+1] == r.f.Quote || b[i+1] == r.f.Escape) {
					i++
					continue
				}
			}
			if c == r.f.Quote {
				r.inQuote = false
			}
			continue
		} else if c == r.f.Quote {
			r.inQuote = true
			continue
		}
		if c != '\n' && c != '\r' {
			continue
		}
		term := "\n"
		if c == '\r' {
			if i+1 >= len(b) && !eof {
				break // CR or CR LF: wait for the next byte
			}
			term = "\r"
			if i+1 < len(b) && b[i+1] == '\n' {
				term = "\r\n"
			}
		}
		if r.eol == "" {
			r.eol = term
		} else if term != r.eol {
			r.line++
			return nil, false, r.eolError(term)
		}
		r.line++
		line = b[:i]
		r.buf = b[i+len(term):]
		r.scan = 0
		return line, true, nil
	}
	r.scan = i
	if !eof || len(b) == 0 {
		return nil, false, nil
	}
	if r.f.CSV && r.inQuote {
		r.line++
		return nil, false, copyError(pgerror.New(codeBadCopyFormat, "unterminated CSV quoted field"), r.table, r.line, "", b, true)
	}
	r.line++
	r.buf, r.scan = nil, 0
	return b, true, nil
}

// eolError is PostgreSQL's complaint about a line terminator that differs
// from the first line's.
func (r *lineReader) eolError(term string) error {
	cr := term == "\r" || term == "\r\n" && r.eol == "\n"
	var e *pgerror.Error
	switch {
	case cr && r.f.CSV:
		e = pgerror.New(codeBadCopyFormat, "unquoted carriage return found in data").WithHint("Use quoted CSV field to represent carriage return.")
	case cr:
		e = pgerror.New(codeBadCopyFormat, "literal carriage return found in data").WithHint("Use \"\\r\" to represent carriage return.")
	case r.f.CSV:
		e = pgerror.New(codeBadCopyFormat, "unquoted newline found in data").WithHint("Use quoted CSV field to represent newline.")
	default:
		e = pgerror.New(codeBadCopyFormat, "literal newline found in data").WithHint("Use \"\\n\" to represent newline.")
	}
	return copyError(e, r.table, r.line, "", nil, false)
}

// copyField is one field of a line: its value, or NULL.
type copyField struct {
	val    string
	null   bool
	quoted bool // CSV: some of it was quoted
}

// splitText splits a text-format line at unescaped delimiters and decodes
// the backslash escapes of each field. A field whose raw text is the NULL
// marker is NULL.
func splitText(f *planner.CopyFormat, line []byte, out []copyField, scratch []byte) ([]copyField, []byte) {
	out = out[:0]
	start := 0
	for i := 0; i <= len(line); i++ {
		if i < len(line) && line[i] == '\\' {
			i++
			continue
		}
		if i < len(line) && line[i] != f.Delimiter {
			continue
		}
		raw := line[start:min(i, len(line))]
		start = i + 1
		if string(raw) == f.Null {
			out = append(out, copyField{null: true})
			continue
		}
		if !strings.ContainsRune(string(raw), '\\') {
			out = append(out, copyField{val: string(raw)})
			continue
		}
		scratch = unescapeText(scratch[:0], raw)
		out = append(out, copyField{val: string(scratch)})
	}
	return out, scratch
}

// unescapeText decodes \b \f \n \r \t \v, \digits (octal, up to three),
// \xhh (hex, up to two) and \c (c itself).
func unescapeText(dst, raw []byte) []byte {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' || i+1 >= len(raw) {
			dst = append(dst, c)
			continue
		}
		i++
		c = raw[i]
		switch c {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'v':
			dst = append(dst, '\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := int(c - '0')
			for k := 0; k < 2 && i+1 < len(raw) && raw[i+1] >= '0' && raw[i+1] <= '7'; k++ {
				i++
				v = v*8 + int(raw[i]-'0')
			}
			dst = append(dst, byte(v))
		case 'x':
			if i+1 < len(raw) && hexVal(raw[i+1]) >= 0 {
				i++
				v := hexVal(raw[i])
				if i+1 < len(raw) && hexVal(raw[i+1]) >= 0 {
					i++
					v = v*16 + hexVal(raw[i])
				}
				dst = append(dst, byte(v))
			} else {
				dst = append(dst, 'x')
			}
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// splitCSV splits a CSV line as PostgreSQL's CopyReadAttributesCSV does:
// quoted parts may hold delimiters and (already joined) newlines, the
// escape character escapes a quote or itself inside quotes, and an
// unquoted field equal to the NULL string is NULL. ok is false for an
// unterminated quoted field.
func splitCSV(f *planner.CopyFormat, line []byte, out []copyField, scratch []byte) ([]copyField, []byte, bool) {
	out = out[:0]
	i := 0
	for {
		start := i
		scratch = scratch[:0]
		quoted := false
	field:
		for i < len(line) {
			c := line[i]
			i++
			switch {
			case c == f.Delimiter:
				i--
				break field
			case c == f.Quote:
				quoted = true
				for {
					if i >= len(line) {
						return out, scratch, false
					}
					c = line[i]
					i++
					if c == f.Escape && i < len(line) && (line[i] == f.Escape || line[i] == f.Quote) {
						scratch = append(scratch, line[i])
						i++
						continue
					}
					if c == f.Quote {
						break
					}
					scratch = append(scratch, c)
				}
			default:
				scratch = append(scratch, c)
			}
		}
		fld := copyField{val: string(scratch), quoted: quoted}
		if !quoted && string(line[start:i]) == f.Null {
			fld = copyField{null: true, val: string(scratch)}
		}
		out = append(out, fld)
		if i >= len(line) {
			return out, scratch, true
		}
		i++ // the delimiter
	}
}

// copyError adds PostgreSQL's COPY error context to err: "COPY t, line
// n[, column c: "value"]", or the raw line when raw is set. It goes into
// the message, in parentheses, since errors carry no separate CONTEXT
// (Where) field.
func copyError(err error, table string, line int, column string, value []byte, raw bool) error {
	e := *pgerror.Flatten(err)
	ctx := fmt.Sprintf("COPY %s, line %d", table, line)
	switch {
	case column != "":
		ctx += fmt.Sprintf(", column %s: %s", column, displayValue(value, true))
	case raw:
		ctx += ": " + displayValue(value, false)
	}
	e.Where = ctx
	return &e
}

// displayValue quotes a value or line for an error context, shortened as
// PostgreSQL does past 100 bytes; a NULL column value shows as null input.
func displayValue(v []byte, column bool) string {
	if column && v == nil {
		return "null input"
	}
	s := string(v)
	if len(s) > 100 {
		n := 100
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "..."
	}
	return `"` + s + `"`
}
