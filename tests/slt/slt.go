// Package slt reads and runs SQLite's sqllogictest files
// (https://sqlite.org/sqllogictest), so widesql can be checked with the
// same corpus format as other SQL engines, and the same files can be run
// against PostgreSQL to confirm their expected answers.
//
// Records, separated by blank lines:
//
//	statement ok | statement error [message substring]
//	<sql>
//
//	query <types> [nosort|rowsort|valuesort] [label]
//	<sql>
//	----
//	<one value per line>  or  <n> values hashing to <md5>
//
//	hash-threshold <n>     results with more than n values are compared by hash
//	skipif <engine>        the next record does not run on engine
//	onlyif <engine>        the next record runs only on engine
//	halt                   stop reading the file (a halt under onlyif/skipif
//	                       applies only to that engine)
//
// <types> has one letter per column: I integer, R real (printed %.3f), T
// text. Values print as the sqllogictest reference does: NULL, (empty) for
// an empty string, and each byte outside printable ASCII as '@'. Queries
// with the same label must return the same values. Lines starting with '#'
// are comments. The engine names are "widesql" and "postgresql".
package slt

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Kind is a record's kind.
type Kind int

// Record kinds.
const (
	Statement Kind = iota
	Query
	HashThreshold
	Halt
)

// SortMode is how a query's values are ordered before comparing.
type SortMode int

// Sort modes.
const (
	NoSort SortMode = iota
	RowSort
	ValueSort
)

// Record is one record of a file.
type Record struct {
	Line      int // 1-based line of the header
	Kind      Kind
	SQL       string
	WantError bool   // statement error
	ErrorText string // statement error: optional message substring
	Types     string // query: one of I, R, T per column
	Sort      SortMode
	Label     string
	Expected  []string // query: expected values, one per line
	// ExpectedHash is set instead of Expected when the file gives
	// "<n> values hashing to <md5>".
	ExpectedCount int
	ExpectedHash  string
	Threshold     int      // hash-threshold
	resultAt      [2]int   // 0-based line range [from, to) of the result lines
	SkipIf        []string // engines that skip this record
	OnlyIf        []string // when non-empty, the only engines that run it
}

// Runs reports whether r runs on engine.
func (r *Record) Runs(engine string) bool {
	for _, e := range r.SkipIf {
		if e == engine {
			return false
		}
	}
	if len(r.OnlyIf) == 0 {
		return true
	}
	for _, e := range r.OnlyIf {
		if e == engine {
			return true
		}
	}
	return false
}

// File is a parsed sqllogictest file.
type File struct {
	Path    string
	Records []*Record
	lines   []string
}

// ParseFile reads a sqllogictest file.
func ParseFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		lines = append(lines, strings.TrimRight(sc.Text(), " \t\r"))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	recs, err := parse(lines)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	return &File{Path: path, Records: recs, lines: lines}, nil
}

func parse(lines []string) ([]*Record, error) {
	var recs []*Record
	var skip, only []string
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		errf := func(format string, args ...any) error {
			return fmt.Errorf("%d: %s", i+1, fmt.Sprintf(format, args...))
		}
		switch fields[0] {
		case "skipif", "onlyif":
			if len(fields) < 2 {
				return nil, errf("%s needs an engine name", fields[0])
			}
			if fields[0] == "skipif" {
				skip = append(skip, fields[1])
			} else {
				only = append(only, fields[1])
			}
			continue
		}
		r := &Record{Line: i + 1, SkipIf: skip, OnlyIf: only}
		skip, only = nil, nil
		switch fields[0] {
		case "halt":
			r.Kind = Halt
			recs = append(recs, r)
			continue
		case "hash-threshold":
			if len(fields) != 2 {
				return nil, errf("hash-threshold needs a number")
			}
			n, err := strconv.Atoi(fields[1])
			if err != nil || n < 0 {
				return nil, errf("bad hash-threshold %q", fields[1])
			}
			r.Kind, r.Threshold = HashThreshold, n
			recs = append(recs, r)
			continue
		case "statement":
			if len(fields) < 2 || (fields[1] != "ok" && fields[1] != "error") {
				return nil, errf("statement must be followed by ok or error")
			}
			r.Kind = Statement
			r.WantError = fields[1] == "error"
			r.ErrorText = strings.Join(fields[2:], " ")
		case "query":
			if len(fields) < 2 {
				return nil, errf("query needs column types")
			}
			r.Kind, r.Types = Query, fields[1]
			for _, c := range r.Types {
				if c != 'I' && c != 'R' && c != 'T' {
					return nil, errf("bad column type %q in %q", c, r.Types)
				}
			}
			if len(fields) > 2 {
				switch fields[2] {
				case "nosort":
				case "rowsort":
					r.Sort = RowSort
				case "valuesort":
					r.Sort = ValueSort
				default:
					return nil, errf("unknown sort mode %q", fields[2])
				}
			}
			if len(fields) > 3 {
				r.Label = fields[3]
			}
		default:
			return nil, errf("unknown record %q", line)
		}
		var sql []string
		for i++; i < len(lines) && lines[i] != "" && lines[i] != "----"; i++ {
			sql = append(sql, lines[i])
		}
		r.SQL = strings.Join(sql, "\n")
		if r.SQL == "" {
			return nil, errf("record has no SQL")
		}
		if r.Kind == Query {
			if i >= len(lines) || lines[i] != "----" {
				return nil, errf("query has no ---- result block")
			}
			r.resultAt[0] = i + 1
			for i++; i < len(lines) && lines[i] != ""; i++ {
				r.Expected = append(r.Expected, lines[i])
			}
			r.resultAt[1] = i
			if len(r.Expected) == 1 {
				var n int
				var h string
				if k, _ := fmt.Sscanf(r.Expected[0], "%d values hashing to %s", &n, &h); k == 2 {
					r.ExpectedCount, r.ExpectedHash, r.Expected = n, h, nil
				}
			}
		}
		recs = append(recs, r)
	}
	return recs, nil
}
