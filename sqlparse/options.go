package sqlparse

import "github.com/widesql/widesql/pgwire/pgerror"

// cutTableOptions removes PostgreSQL's storage parameters, WITH (name
// [= value], ...), from a CREATE TABLE and returns them. The clause is
// found at depth 0 after the table name (after the column list, or before
// AS in CREATE TABLE ... AS); a WITH after a depth-0 AS belongs to the
// query. Other statements are returned unchanged with nil options.
func cutTableOptions(src string, toks []token) ([]token, []TableOption, error) {
	i := createTableAt(toks)
	if i < 0 {
		return toks, nil, nil
	}
	depth, at := 0, -1
	for j := i + 1; j < len(toks); j++ {
		t := toks[j]
		switch {
		case t.isOp("(") || t.isOp("["):
			depth++
		case t.isOp(")") || t.isOp("]"):
			depth--
		case depth != 0:
		case t.is("as"):
			j = len(toks)
		case t.is("with") && j+1 < len(toks) && toks[j+1].isOp("("):
			if at >= 0 { // PostgreSQL's grammar has one WITH (...) clause
				return nil, nil, syntaxErrorAt(src, t.pos, t.end)
			}
			at = j
		}
	}
	if at < 0 {
		return toks, nil, nil
	}
	opts, end, err := optionList(src, toks, at+1, true)
	if err != nil {
		return nil, nil, err
	}
	if err := checkDuplicateOptions(opts); err != nil {
		return nil, nil, err
	}
	out := make([]token, 0, len(toks)-(end-at))
	out = append(append(out, toks[:at]...), toks[end:]...)
	return out, opts, nil
}

// createTableAt returns the index of TABLE in CREATE [TEMP|...] TABLE, or
// -1 for other statements.
func createTableAt(toks []token) int {
	if len(toks) < 3 || !toks[0].is("create") {
		return -1
	}
	i := 1
	for i < len(toks) && (toks[i].is("temp") || toks[i].is("temporary") || toks[i].is("unlogged") ||
		toks[i].is("global") || toks[i].is("local")) {
		i++
	}
	if i >= len(toks) || !toks[i].is("table") {
		return -1
	}
	return i
}

// optionList parses PostgreSQL's reloption_list starting at the "(" at
// toks[i] and returns the options and the index after the closing ")".
// Each element is name[.name] [= value]; a name without a value means
// "true", as in PostgreSQL. withValues false is RESET's form, where a
// value is 42601 "RESET must not include values for parameters".
func optionList(src string, toks []token, i int, withValues bool) ([]TableOption, int, error) {
	p := &utilParser{src: src, toks: toks, i: i + 1}
	var opts []TableOption
	for {
		at := p.i
		if at >= len(toks) || !(toks[at].kind == tkIdent || toks[at].kind == tkQIdent) {
			return nil, 0, p.errHere()
		}
		name := toks[at].val
		p.i++
		if p.i+1 < len(toks) && toks[p.i].isOp(".") {
			p.i++
			n, err := p.name()
			if err != nil {
				return nil, 0, err
			}
			name += "." + n
		}
		o := TableOption{Name: name, Value: "true", Pos: charPos(src, toks[at].pos)}
		if p.i < len(toks) && toks[p.i].isOp("=") {
			eq := toks[p.i]
			p.i++
			v, err := optionValue(p)
			if err != nil {
				return nil, 0, err
			}
			if !withValues {
				return nil, 0, pgerror.New(pgerror.CodeSyntaxError, "RESET must not include values for parameters").WithPosition(charPos(src, eq.pos))
			}
			o.Value = v
		}
		if !withValues {
			o.Value = ""
		}
		opts = append(opts, o)
		switch {
		case p.i < len(toks) && toks[p.i].isOp(","):
			p.i++
		case p.i < len(toks) && toks[p.i].isOp(")"):
			return opts, p.i + 1, nil
		default:
			return nil, 0, p.errHere()
		}
	}
}

// optionValue reads PostgreSQL's def_arg as the options use it: a string
// (its contents), a number with an optional sign (its text), or a bare
// word (folded unless quoted; TRUE, FALSE, ON and OFF included).
func optionValue(p *utilParser) (string, error) {
	if p.i >= len(p.toks) {
		return "", p.errHere()
	}
	t := p.toks[p.i]
	sign := ""
	if (t.isOp("-") || t.isOp("+")) && p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tkNumber {
		if t.val == "-" {
			sign = "-"
		}
		p.i++
		t = p.toks[p.i]
	}
	switch {
	case t.kind == tkNumber:
	case sign != "":
		return "", p.errHere()
	case t.kind == tkString || t.kind == tkIdent || t.kind == tkQIdent:
	default:
		return "", p.errHere()
	}
	p.i++
	return sign + t.val, nil
}

// checkDuplicateOptions rejects a name given twice, with PostgreSQL's
// SQLSTATE and text (reloptions.c reports it without a position).
func checkDuplicateOptions(opts []TableOption) error {
	for i, o := range opts {
		for _, q := range opts[:i] {
			if q.Name == o.Name {
				return pgerror.New(pgerror.CodeInvalidParameterValue, "parameter %q specified more than once", o.Name)
			}
		}
	}
	return nil
}

// parseAlterOptions recognises ALTER TABLE [IF EXISTS] [ONLY] name SET
// (options) and ALTER TABLE ... RESET (names), which TiDB cannot parse. It
// returns nil for every other statement (other ALTER TABLE forms go to
// TiDB). SET (...) combined with other subcommands is 0A000.
func parseAlterOptions(src string, toks []token) (*AlterOptions, error) {
	if len(toks) < 4 || !toks[0].is("alter") || !toks[1].is("table") {
		return nil, nil
	}
	p := &utilParser{src: src, toks: toks, i: 2}
	a := &AlterOptions{}
	if p.peek("if") && p.i+1 < len(toks) && toks[p.i+1].is("exists") {
		a.IfExists, p.i = true, p.i+2
	}
	p.accept("only")
	n, err := p.dottedName()
	if err != nil {
		return nil, nil // TiDB reports the error
	}
	if !(p.peek("set") || p.peek("reset")) || p.i+1 >= len(toks) || !toks[p.i+1].isOp("(") {
		return nil, nil
	}
	a.Table = stripPublic(n)
	set := p.peek("set")
	opts, end, err := optionList(src, toks, p.i+1, set)
	if err != nil {
		return nil, err
	}
	if end < len(toks) {
		if toks[end].isOp(",") {
			return nil, unsupported("ALTER TABLE SET/RESET (...) with other subcommands").WithPosition(charPos(src, toks[end].pos))
		}
		return nil, syntaxErrorAt(src, toks[end].pos, toks[end].end)
	}
	if !set {
		for _, o := range opts {
			a.Reset = append(a.Reset, o.Name)
		}
		return a, nil
	}
	if err := checkDuplicateOptions(opts); err != nil {
		return nil, err
	}
	a.Set = opts
	return a, nil
}
