package sqlparse

import (
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// CommentStmt is COMMENT ON TABLE t / COLUMN t.c IS 'text' | NULL.
// Names are as written, folded unless quoted; Schema is "" when the
// table is not qualified. PostgreSQL drops the comment for NULL and for
// the empty string alike, so Text == "" means "no comment".
type CommentStmt struct {
	Column bool // COMMENT ON COLUMN; else COMMENT ON TABLE
	Schema string
	Table  string
	Col    string // the column of COMMENT ON COLUMN
	Text   string
}

// commentObjects are the other object kinds PostgreSQL's COMMENT ON
// accepts; widesql reports them as unsupported rather than as a syntax
// error.
var commentObjects = map[string]bool{
	"access": true, "aggregate": true, "cast": true, "collation": true, "constraint": true,
	"conversion": true, "database": true, "domain": true, "event": true, "extension": true,
	"foreign": true, "function": true, "index": true, "large": true, "materialized": true,
	"operator": true, "policy": true, "procedure": true, "publication": true, "role": true,
	"routine": true, "rule": true, "schema": true, "sequence": true, "server": true,
	"statistics": true, "subscription": true, "tablespace": true, "text": true, "transform": true,
	"trigger": true, "type": true, "view": true, "procedural": true, "language": true,
}

// parseComment parses COMMENT ON; nil, nil when toks is not one.
func parseComment(src string, toks []token) (*CommentStmt, error) {
	if len(toks) < 2 || !toks[0].is("comment") || !toks[1].is("on") {
		return nil, nil
	}
	p := &utilParser{src: src, toks: toks, i: 2}
	st := &CommentStmt{}
	switch {
	case p.accept("table"):
	case p.accept("column"):
		st.Column = true
	case p.i < len(toks) && toks[p.i].kind == tkIdent && commentObjects[toks[p.i].val]:
		return nil, unsupported("COMMENT ON " + strings.ToUpper(toks[p.i].val)).WithPosition(charPos(src, toks[p.i].pos))
	default:
		return nil, p.errHere()
	}
	at := p.i
	parts, err := p.nameParts()
	if err != nil {
		return nil, err
	}
	if st.Column {
		switch len(parts) {
		case 1:
			return nil, pgerror.New(pgerror.CodeSyntaxError, "column name must be qualified").WithPosition(charPos(src, toks[at].pos))
		case 2, 3:
			st.Col, parts = parts[len(parts)-1], parts[:len(parts)-1]
		default:
			return nil, crossDatabase(src, toks[at].pos, parts[:len(parts)-1])
		}
	}
	switch len(parts) {
	case 1:
		st.Table = parts[0]
	case 2:
		st.Schema, st.Table = parts[0], parts[1]
	default:
		return nil, crossDatabase(src, toks[at].pos, parts)
	}
	if !p.accept("is") {
		return nil, p.errHere()
	}
	switch {
	case p.accept("null"):
	case p.i < len(toks) && toks[p.i].kind == tkString:
		st.Text = toks[p.i].val
		p.i++
	default:
		return nil, p.errHere()
	}
	if p.i < len(toks) {
		return nil, p.errHere()
	}
	return st, nil
}

// nameParts reads name[.name...], each part folded unless quoted.
func (p *utilParser) nameParts() ([]string, error) {
	n, err := p.name()
	if err != nil {
		return nil, err
	}
	parts := []string{n}
	for p.i < len(p.toks) && p.toks[p.i].isOp(".") {
		p.i++
		if n, err = p.name(); err != nil {
			return nil, err
		}
		parts = append(parts, n)
	}
	return parts, nil
}

// crossDatabase is PostgreSQL's error for a relation name with a catalog
// (and more) in front.
func crossDatabase(src string, pos int, parts []string) error {
	name := parts[0]
	for _, p := range parts[1:] {
		name += "." + p
	}
	return pgerror.New(pgerror.CodeFeatureNotSupported, "cross-database references are not implemented: %q", name).
		WithPosition(charPos(src, pos))
}
