// Package sqltest reads widesql's SQL test files and runs them through any
// client: the end-to-end suites in tests/ run them over pgwire with pgx and
// lib/pq, exec runs them in-process, and both can point at a real
// PostgreSQL to check the expectations.
//
// The SQL test file format, a dialect of sqllogictest:
//
//	# a comment; comments directly above a record may carry markers:
//	# widesql-only        (skip this record against PostgreSQL)
//	# postgres-only: why  (skip this record against widesql)
//	statement ok
//	CREATE TABLE t (a INT, b TEXT, PRIMARY KEY (a))
//
//	statement count 2
//	INSERT INTO t VALUES (1, 'x'), (2, NULL)
//
//	statement error 23505 duplicate key
//	INSERT INTO t VALUES (1, 'y')
//
//	query rowsort
//	SELECT a, b FROM t
//	----
//	1  x
//	2  NULL
//
//	query error 42P01
//	SELECT * FROM nosuch
//
// Records are separated by blank lines; the SQL may span several lines.
// `statement error` and `query error` take a SQLSTATE and optionally a
// substring of the message. `query` options: rowsort (compare rows in sorted
// order) and colnames (the first expected line holds the column names).
// Expected values are separated by two or more spaces or a tab; a result
// with one column is compared line for line, spaces and all. NULL stands for
// null and (empty) for the empty string. A line `# file: widesql-only`
// anywhere makes the whole file widesql-only. A line `# include: name`
// runs the records of another file (a shared schema, without query
// results) at that point; name is relative to the file's directory.
package sqltest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

type RecordKind int

const (
	StatementOK RecordKind = iota
	StatementCount
	StatementError
	QueryRows
	QueryError
)

// record is one test case in a SQL file.
type record struct {
	line     int // 1-based line of the header, for messages
	kind     RecordKind
	sql      string
	count    int64  // StatementCount
	code     string // StatementError, QueryError: SQLSTATE
	message  string // StatementError, QueryError: optional message substring
	rowsort  bool
	colnames bool
	expected []string // QueryRows: the lines after ----
	resultAt [2]int   // QueryRows: 0-based line range [from, to) of expected, for -rewrite
	onlyOnWS bool     // # widesql-only
	onlyOnPG bool     // # postgres-only
	src      string   // the included file the record comes from; "" for the file's own
}

// pos names where a record of f was written, for messages.
func (r *record) pos(f *File) string {
	if r.src != "" {
		return r.src + ":" + strconv.Itoa(r.line)
	}
	return f.Path + ":" + strconv.Itoa(r.line)
}

// File is a parsed test file.
type File struct {
	Path string
	// WidesqlOnly is set by a `# file: widesql-only` line: the file does
	// not run against PostgreSQL.
	WidesqlOnly bool
	lines       []string
	records     []*record
}

var fieldSepRE = regexp.MustCompile(`\t+| {2,}`)

func ParseFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f := &File{Path: path, lines: strings.Split(strings.TrimRight(string(data), "\n"), "\n")}
	var wsOnly, pgOnly bool
	for i := 0; i < len(f.lines); i++ {
		line := strings.TrimRight(f.lines[i], " \t\r")
		switch {
		case line == "":
			wsOnly, pgOnly = false, false
			continue
		case strings.HasPrefix(line, "#"):
			switch text := strings.TrimSpace(strings.TrimPrefix(line, "#")); {
			case text == "file: widesql-only":
				f.WidesqlOnly = true
			case strings.HasPrefix(text, "include: "):
				if err := f.include(strings.TrimSpace(strings.TrimPrefix(text, "include: "))); err != nil {
					return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
				}
			case strings.HasPrefix(text, "widesql-only"):
				wsOnly = true
			case strings.HasPrefix(text, "postgres-only"):
				pgOnly = true
			}
			continue
		}
		r := &record{line: i + 1, onlyOnWS: wsOnly, onlyOnPG: pgOnly}
		wsOnly, pgOnly = false, false
		if err := r.parseHeader(line); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		var sqlLines []string
		for i++; i < len(f.lines); i++ {
			l := strings.TrimRight(f.lines[i], " \t\r")
			if l == "" || l == "----" {
				break
			}
			sqlLines = append(sqlLines, l)
		}
		r.sql = strings.Join(sqlLines, "\n")
		if r.sql == "" {
			return nil, fmt.Errorf("%s:%d: record has no SQL", path, r.line)
		}
		hasResult := i < len(f.lines) && strings.TrimSpace(f.lines[i]) == "----"
		if hasResult != (r.kind == QueryRows) {
			return nil, fmt.Errorf("%s:%d: only `query` records (and all of them) have a ---- result block", path, r.line)
		}
		if hasResult {
			r.resultAt[0] = i + 1
			for i++; i < len(f.lines); i++ {
				l := strings.TrimRight(f.lines[i], " \t\r")
				if l == "" {
					break
				}
				r.expected = append(r.expected, l)
			}
			r.resultAt[1] = i
		}
		f.records = append(f.records, r)
	}
	return f, nil
}

// include appends the records of another file, named relative to f's
// directory: a schema several files share (`# include: shop_schema.inc`).
// Its records must not hold expected results, which -rewrite could not
// write back.
func (f *File) include(name string) error {
	inc, err := ParseFile(filepath.Join(filepath.Dir(f.Path), name))
	if err != nil {
		return err
	}
	for _, r := range inc.records {
		if r.kind == QueryRows {
			return fmt.Errorf("included %s: line %d has expected results", name, r.line)
		}
		if r.src == "" {
			r.src = inc.Path
		}
		f.records = append(f.records, r)
	}
	return nil
}

func (r *record) parseHeader(line string) error {
	fields := strings.Fields(line)
	errorArgs := func() error {
		if len(fields) < 3 {
			return fmt.Errorf("%q needs a SQLSTATE", line)
		}
		r.code = fields[2]
		if len(r.code) != 5 {
			return fmt.Errorf("%q: SQLSTATE must have 5 characters", line)
		}
		r.message = strings.Join(fields[3:], " ")
		return nil
	}
	switch {
	case len(fields) == 2 && fields[0] == "statement" && fields[1] == "ok":
		r.kind = StatementOK
	case len(fields) == 3 && fields[0] == "statement" && fields[1] == "count":
		n, err := strconv.ParseInt(fields[2], 10, 64)
		if err != nil {
			return fmt.Errorf("bad count in %q", line)
		}
		r.kind, r.count = StatementCount, n
	case len(fields) >= 2 && fields[0] == "statement" && fields[1] == "error":
		r.kind = StatementError
		return errorArgs()
	case len(fields) >= 2 && fields[0] == "query" && fields[1] == "error":
		r.kind = QueryError
		return errorArgs()
	case fields[0] == "query":
		r.kind = QueryRows
		for _, opt := range fields[1:] {
			switch opt {
			case "rowsort":
				r.rowsort = true
			case "colnames":
				r.colnames = true
			default:
				return fmt.Errorf("unknown query option %q", opt)
			}
		}
	default:
		return fmt.Errorf("unknown record header %q", line)
	}
	return nil
}

// splitExpected splits an expected line into values; ncols is the number of
// columns the result actually has.
func splitExpected(line string, ncols int) []string {
	if ncols == 1 {
		return []string{line}
	}
	return fieldSepRE.Split(strings.TrimSpace(line), -1)
}

// formatRows renders rows (header included when non-nil) as aligned lines.
// A single column is written verbatim.
func formatRows(rows [][]string) []string {
	var widths []int
	for _, row := range rows {
		for i, v := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len(v))
		}
	}
	var out []string
	for _, row := range rows {
		var b strings.Builder
		for i, v := range row {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(v)
			if i < len(row)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-len(v)))
			}
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	return out
}

// rewriteResults writes f back with the expected lines of each record in
// results replaced.
func (f *File) rewriteResults(results map[*record][]string) error {
	var edits []Edit
	for _, r := range f.records {
		if got, ok := results[r]; ok && r.src == "" {
			edits = append(edits, Edit{From: r.resultAt[0], To: r.resultAt[1], Lines: got})
		}
	}
	return WriteEdited(f.Path, f.lines, edits)
}

// Edit replaces the 0-based line range [From, To) with Lines.
type Edit struct {
	From, To int
	Lines    []string
}

// WriteEdited writes lines to path with edits (in ascending, disjoint
// order) applied: how test files record actual results with -rewrite.
func WriteEdited(path string, lines []string, edits []Edit) error {
	var out []string
	next := 0
	for _, e := range edits {
		out = append(out, lines[next:e.From]...)
		out = append(out, e.Lines...)
		next = e.To
	}
	out = append(out, lines[next:]...)
	return os.WriteFile(path, []byte(strings.Join(out, "\n")+"\n"), 0o644)
}
