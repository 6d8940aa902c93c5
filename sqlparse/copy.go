package sqlparse

import "github.com/pingcap/tidb/pkg/parser"

// OWNER: helper "copy" (COPY statements).

// CopyStmt is COPY table [(cols)] FROM STDIN / TO STDOUT [options], or
// COPY (query) TO STDOUT [options].
type CopyStmt struct{}

// parseCopy parses a COPY statement; nil, nil when toks is not one.
func parseCopy(p *parser.Parser, src string, toks []token) (*CopyStmt, error) {
	return nil, nil
}
