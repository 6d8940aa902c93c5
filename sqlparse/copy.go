package sqlparse

import "github.com/pingcap/tidb/pkg/parser"

// CopyStmt is COPY table [(cols)] FROM STDIN / TO STDOUT [options], or
// COPY (query) TO STDOUT [options], parsed at token level. The options are
// kept as written; the planner checks them (PostgreSQL checks them at
// execution too, with its own SQLSTATEs).
type CopyStmt struct {
	Table   string     // as written, without a "public." prefix; "" for a query
	Columns []string   // the column list; nil when none was written
	Query   *Statement // COPY (query) TO: the parsed query; nil otherwise
	From    bool       // COPY ... FROM; false for TO
	// File is the file name of COPY ... FROM/TO 'file', "" for STDIN or
	// STDOUT; Program is set for FROM/TO PROGRAM 'command'. Neither is
	// allowed (the server does not touch its own files), but they parse,
	// so the planner can answer with PostgreSQL's 42501.
	File    string
	Program bool
	Options []CopyOption
	// Where is set when a WHERE clause was written (COPY FROM ... WHERE),
	// at its character position; it is not supported.
	Where int
}

// CopyOption is one option of the parenthesized list, or one of the
// pre-9.0 keywords translated to it (CSV is format csv, FORCE NOT NULL
// is force_not_null, ...).
type CopyOption struct {
	Name string // lower case
	// Value is the argument: a string's content, a number or a bare word
	// (lower-cased); HasValue is false when none was written.
	Value    string
	HasValue bool
	// List is the column list of force_quote, force_not_null and
	// force_null; Star is force_quote *. IsList is set when a
	// parenthesized list was written.
	List   []string
	IsList bool
	Star   bool
	// Pos is the 1-based character position of the option in the whole
	// query string, for errors.
	Pos int
}

// parseCopy parses a COPY statement; nil, nil when toks is not one.
func parseCopy(tp *parser.Parser, src string, toks []token) (*CopyStmt, error) {
	if !toks[0].is("copy") {
		return nil, nil
	}
	p := &utilParser{src: src, toks: toks, i: 1}
	st := &CopyStmt{}
	if p.peek("binary") { // pre-7.3 COPY BINARY t
		st.Options = append(st.Options, CopyOption{Name: "format", Value: "binary", HasValue: true, Pos: charPos(src, toks[p.i].pos)})
		p.i++
	}
	if p.i < len(toks) && toks[p.i].isOp("(") {
		end := closeParen(toks, p.i)
		if end < 0 {
			return nil, syntaxAt(src, toks, len(toks))
		}
		if end == p.i+1 {
			return nil, syntaxAt(src, toks, end)
		}
		q, err := parseOne(tp, src, toks[p.i+1:end])
		if err != nil {
			return nil, err
		}
		st.Query = &q
		p.i = end + 1
	} else {
		t, err := p.dottedName()
		if err != nil {
			return nil, err
		}
		st.Table = stripPublic(t)
		if p.i < len(toks) && toks[p.i].isOp("(") {
			if st.Columns, err = p.nameList(); err != nil {
				return nil, err
			}
		}
	}
	switch {
	case p.accept("from"):
		st.From = true
		if st.Query != nil {
			p.i--
			return nil, p.errHere()
		}
	case p.accept("to"):
	default:
		return nil, p.errHere()
	}
	switch {
	case p.accept("stdin", "stdout"):
	case p.accept("program"):
		st.Program = true
		if p.i >= len(toks) || toks[p.i].kind != tkString {
			return nil, p.errHere()
		}
		st.File = toks[p.i].val
		p.i++
	case p.i < len(toks) && toks[p.i].kind == tkString:
		st.File = toks[p.i].val
		p.i++
	default:
		return nil, p.errHere()
	}
	p.accept("with")
	if p.i < len(toks) && toks[p.i].isOp("(") {
		if err := p.copyOptionList(st); err != nil {
			return nil, err
		}
	} else if err := p.copyLegacyOptions(st); err != nil {
		return nil, err
	}
	if p.peek("where") {
		if !st.From {
			return nil, p.errHere()
		}
		st.Where = charPos(src, toks[p.i].pos)
		return st, nil // the condition is not parsed: it is rejected anyway
	}
	if p.i < len(toks) {
		return nil, p.errHere()
	}
	return st, nil
}

// nameList reads ( name [, name ...] ).
func (p *utilParser) nameList() ([]string, error) {
	p.i++ // (
	var out []string
	for {
		n, err := p.name()
		if err != nil {
			return nil, err
		}
		out = append(out, n)
		if p.i < len(p.toks) && p.toks[p.i].isOp(",") {
			p.i++
			continue
		}
		if p.i < len(p.toks) && p.toks[p.i].isOp(")") {
			p.i++
			return out, nil
		}
		return nil, p.errHere()
	}
}

// copyOptionList reads ( name [arg] [, ...] ): arg is a string, a number,
// a bare word, *, or a parenthesized list of names.
func (p *utilParser) copyOptionList(st *CopyStmt) error {
	p.i++ // (
	for {
		if p.i >= len(p.toks) || p.toks[p.i].kind != tkIdent && p.toks[p.i].kind != tkQIdent {
			return p.errHere()
		}
		o := CopyOption{Name: p.toks[p.i].val, Pos: charPos(p.src, p.toks[p.i].pos)}
		p.i++
		if p.i >= len(p.toks) {
			return p.errHere()
		}
		switch t := p.toks[p.i]; {
		case t.isOp(",") || t.isOp(")"):
		case t.isOp("("):
			list, err := p.nameList()
			if err != nil {
				return err
			}
			o.List, o.IsList = list, true
		case t.isOp("*"):
			o.Star = true
			p.i++
		case t.isOp("-") || t.isOp("+"):
			if p.i+1 >= len(p.toks) || p.toks[p.i+1].kind != tkNumber {
				return p.errHere()
			}
			o.Value, o.HasValue = t.val+p.toks[p.i+1].val, true
			if t.val == "+" {
				o.Value = p.toks[p.i+1].val
			}
			p.i += 2
		case t.kind == tkString || t.kind == tkNumber || t.kind == tkIdent || t.kind == tkQIdent:
			o.Value, o.HasValue = t.val, true
			p.i++
		default:
			return p.errHere()
		}
		st.Options = append(st.Options, o)
		if p.i < len(p.toks) && p.toks[p.i].isOp(",") {
			p.i++
			continue
		}
		if p.i < len(p.toks) && p.toks[p.i].isOp(")") {
			p.i++
			return nil
		}
		return p.errHere()
	}
}

// copyLegacyOptions reads the options of the pre-9.0 syntax, which psql's
// \copy still sends: BINARY, FREEZE, DELIMITER [AS] 'c', NULL [AS] 'x',
// CSV, HEADER, QUOTE [AS] 'q', ESCAPE [AS] 'e', FORCE QUOTE cols | *,
// FORCE NOT NULL cols, FORCE NULL cols, ENCODING 'name'.
func (p *utilParser) copyLegacyOptions(st *CopyStmt) error {
	for p.i < len(p.toks) && !p.peek("where") {
		t := p.toks[p.i]
		o := CopyOption{Pos: charPos(p.src, t.pos)}
		p.i++
		str := func() error {
			p.accept("as")
			if p.i >= len(p.toks) || p.toks[p.i].kind != tkString {
				return p.errHere()
			}
			o.Value, o.HasValue = p.toks[p.i].val, true
			p.i++
			return nil
		}
		var err error
		switch {
		case t.is("binary"):
			o.Name, o.Value, o.HasValue = "format", "binary", true
		case t.is("csv"):
			o.Name, o.Value, o.HasValue = "format", "csv", true
		case t.is("freeze"), t.is("header"):
			o.Name = t.val
		case t.is("delimiter"), t.is("null"), t.is("quote"), t.is("escape"), t.is("encoding"):
			o.Name = t.val
			err = str()
		case t.is("force"):
			switch {
			case p.accept("quote"):
				o.Name = "force_quote"
			case p.accept("not"):
				if !p.accept("null") {
					return p.errHere()
				}
				o.Name = "force_not_null"
			case p.accept("null"):
				o.Name = "force_null"
			default:
				return p.errHere()
			}
			if o.Name == "force_quote" && p.i < len(p.toks) && p.toks[p.i].isOp("*") {
				o.Star = true
				p.i++
				break
			}
			o.IsList = true
			for {
				n, err := p.name()
				if err != nil {
					return err
				}
				o.List = append(o.List, n)
				if p.i >= len(p.toks) || !p.toks[p.i].isOp(",") {
					break
				}
				p.i++
			}
		default:
			p.i--
			return p.errHere()
		}
		if err != nil {
			return err
		}
		st.Options = append(st.Options, o)
	}
	return nil
}
