package sqlparse

import "github.com/widesql/widesql/pgwire/pgerror"

// IndexStmt is CREATE [UNIQUE] INDEX or DROP INDEX, parsed at token level
// (TiDB's grammar is MySQL's: no unnamed indexes, USING before the columns,
// or DROP INDEX without ON).
type IndexStmt struct {
	Drop        bool
	Unique      bool
	IfNotExists bool     // CREATE ... IF NOT EXISTS
	IfExists    bool     // DROP ... IF EXISTS
	Name        string   // CREATE: "" when unnamed
	Names       []string // DROP: the indexes to drop
	Table       string
	Columns     []string // key columns in order; expressions are rejected
	Method      string   // USING method; "" if not written
	Partial     bool     // a WHERE predicate was given (ignored: no index is built)
}

// parseIndexStmt recognises CREATE [UNIQUE] INDEX [CONCURRENTLY]
// [[IF NOT EXISTS] name] ON [ONLY] table [USING method] (col [opts], ...)
// [INCLUDE (...)] [WITH (...)] [WHERE ...] and DROP INDEX [CONCURRENTLY]
// [IF EXISTS] name [, ...] [CASCADE | RESTRICT]. It returns nil for other
// statements.
func parseIndexStmt(src string, toks []token) (*IndexStmt, error) {
	if len(toks) < 2 {
		return nil, nil
	}
	p := &utilParser{src: src, toks: toks, i: 1}
	st := &IndexStmt{}
	switch {
	case toks[0].is("drop") && p.accept("index"):
		st.Drop = true
		p.accept("concurrently")
		if p.peek("if") {
			p.i++
			if !p.accept("exists") {
				return nil, p.errHere()
			}
			st.IfExists = true
		}
		for {
			n, err := p.dottedName()
			if err != nil {
				return nil, err
			}
			st.Names = append(st.Names, stripPublic(n))
			if p.i < len(toks) && toks[p.i].isOp(",") {
				p.i++
				continue
			}
			break
		}
		if p.peek("cascade") {
			return nil, unsupported("DROP INDEX ... CASCADE").WithPosition(charPos(src, toks[p.i].pos))
		}
		p.accept("restrict")
		_, err := p.done(nil)
		return st, err
	case toks[0].is("create"):
		st.Unique = p.accept("unique")
		if !p.accept("index") {
			return nil, nil
		}
	default:
		return nil, nil
	}
	p.accept("concurrently")
	if p.peek("if") {
		p.i++
		if !p.accept("not") || !p.accept("exists") {
			return nil, p.errHere()
		}
		st.IfNotExists = true
	}
	if !p.peek("on") {
		n, err := p.name()
		if err != nil {
			return nil, err
		}
		st.Name = n
	} else if st.IfNotExists {
		return nil, p.errHere()
	}
	if !p.accept("on") {
		return nil, p.errHere()
	}
	p.accept("only")
	t, err := p.dottedName()
	if err != nil {
		return nil, err
	}
	st.Table = stripPublic(t)
	if p.accept("using") {
		if st.Method, err = p.name(); err != nil {
			return nil, err
		}
	}
	if p.i >= len(toks) || !toks[p.i].isOp("(") {
		return nil, p.errHere()
	}
	p.i++
	for {
		if p.i < len(toks) && toks[p.i].isOp("(") {
			return nil, unsupported("indexes on expressions").WithPosition(charPos(src, toks[p.i].pos))
		}
		c, err := p.name()
		if err != nil {
			return nil, err
		}
		if p.i < len(toks) && toks[p.i].isOp("(") {
			return nil, unsupported("indexes on expressions").WithPosition(charPos(src, toks[p.i-1].pos))
		}
		st.Columns = append(st.Columns, c)
		// Collation, operator class, ASC/DESC and NULLS FIRST/LAST do not
		// matter for an index that is not built.
		for p.i < len(toks) && !toks[p.i].isOp(",") && !toks[p.i].isOp(")") {
			p.i++
		}
		if p.i >= len(toks) {
			return nil, p.errHere()
		}
		p.i++
		if toks[p.i-1].isOp(")") {
			break
		}
	}
	for p.i < len(toks) {
		switch {
		case p.accept("include"), p.accept("with"):
			if err := p.skipParens(); err != nil {
				return nil, err
			}
		case p.accept("nulls"):
			p.accept("not")
			if !p.accept("distinct") {
				return nil, p.errHere()
			}
		case p.accept("where"):
			if p.i >= len(toks) {
				return nil, p.errHere()
			}
			st.Partial = true
			p.i = len(toks)
		default:
			return nil, p.errHere()
		}
	}
	return st, nil
}

// skipParens skips a parenthesized group starting at the current token.
func (p *utilParser) skipParens() error {
	if p.i >= len(p.toks) || !p.toks[p.i].isOp("(") {
		return p.errHere()
	}
	depth := 0
	for ; p.i < len(p.toks); p.i++ {
		if p.toks[p.i].isOp("(") {
			depth++
		} else if p.toks[p.i].isOp(")") {
			if depth--; depth == 0 {
				p.i++
				return nil
			}
		}
	}
	return pgerror.New(pgerror.CodeSyntaxError, "syntax error at end of input").WithPosition(charPos(p.src, p.toks[len(p.toks)-1].end))
}

// stripPublic removes a "public." schema qualifier.
func stripPublic(n string) string {
	if len(n) > 7 && n[:7] == "public." {
		return n[7:]
	}
	return n
}
