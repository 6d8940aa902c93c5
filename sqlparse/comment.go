package sqlparse

// OWNER: helper "infoschema" (COMMENT ON).

// CommentStmt is COMMENT ON TABLE t / COLUMN t.c IS 'text' | NULL.
type CommentStmt struct{}

// parseComment parses COMMENT ON; nil, nil when toks is not one.
func parseComment(src string, toks []token) (*CommentStmt, error) {
	return nil, nil
}
