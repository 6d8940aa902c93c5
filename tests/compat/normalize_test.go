package compat

import (
	"regexp"
	"strings"
)

// normalize applies the documented normalisations (see doc.go) to a
// transcript. It is applied to PostgreSQL's and widesql's alike.
func normalize(client, tr string) string {
	switch client {
	case "psql":
		tr = psqlTimingRE.ReplaceAllString(tr, "Time: N ms")
		tr = psqlOwners(tr)
	case "jdbc":
		tr = jdbcStatsRE.ReplaceAllString(tr, "$1=<stat>")
		tr = jdbcRemarksRE.ReplaceAllStringFunc(tr, func(m string) string {
			return "REMARKS=" + withoutDesignSummary(strings.TrimPrefix(m, "REMARKS="))
		})
	}
	return tr
}

var (
	psqlTimingRE = regexp.MustCompile(`(?m)^Time: [0-9.,]+ ms.*$`)
	jdbcStatsRE  = regexp.MustCompile(`\b(CARDINALITY|PAGES)=[A-Za-z]+:[0-9.E-]+`)
	// A REMARKS value runs up to the next " LABEL=" of the row.
	jdbcRemarksRE = regexp.MustCompile(`REMARKS=(?:null|String:(?:[^ \n]| [^A-Z\n]| [A-Z_]+[^A-Z_=\n])*)`)
)

// withoutDesignSummary removes widesql's design-summary lines ("rowkey (...")
// from a rendered JDBC description value ("null" or "String:text", lines
// separated by a literal \n); an empty description becomes null.
func withoutDesignSummary(v string) string {
	text, ok := strings.CutPrefix(v, "String:")
	if !ok {
		return v
	}
	var kept []string
	for _, line := range strings.Split(text, `\n`) {
		if !strings.HasPrefix(line, "rowkey (") {
			kept = append(kept, line)
		}
	}
	if len(kept) == 0 {
		return "null"
	}
	return "String:" + strings.Join(kept, `\n`)
}

// psqlOwners replaces the Owner column of psql's unaligned listings with
// <owner>: after a header line with an "Owner" field, each row with the
// header's field count gets that field replaced, until a line that is not
// such a row.
func psqlOwners(tr string) string {
	lines := strings.Split(tr, "\n")
	col, fields := -1, 0
	for i, line := range lines {
		parts := strings.Split(line, "|")
		if col >= 0 && len(parts) == fields {
			parts[col] = "<owner>"
			lines[i] = strings.Join(parts, "|")
			continue
		}
		col = -1
		for k, p := range parts {
			if p == "Owner" && len(parts) > 1 {
				col, fields = k, len(parts)
			}
		}
	}
	return strings.Join(lines, "\n")
}
