package sqlparse

// SQL-standard function syntax. PostgreSQL's grammar gives a handful of
// functions keyword arguments; TiDB knows some of them with MySQL's
// field list and rejects the rest. They are rewritten here into plain
// calls of the function PostgreSQL itself maps them to, so the planner
// sees one form and the result column is named as in PostgreSQL:
//
//	EXTRACT(field FROM x)                  "extract"('field', x)
//	SUBSTRING(s FROM a FOR b)              substring(s, a, b)
//	SUBSTRING(s FOR b FROM a)              substring(s, a, b)
//	SUBSTRING(s FROM a)                    substring(s, a)
//	SUBSTRING(s FOR b)                     substring(s, 1, b)
//	POSITION(a IN b)                       "position"(b, a)
//	TRIM([BOTH] [chars] FROM s)            btrim(s[, chars])
//	TRIM(LEADING|TRAILING [chars] FROM s)  ltrim|rtrim(s[, chars])
//	TRIM([BOTH|LEADING|TRAILING] s[, c])   btrim|ltrim|rtrim(s[, c])
//	MOD(a, b), DIV(a, b)                   "mod"(a, b), "div"(a, b)
//	CURRENT_DATE(), SESSION_USER(), ...    42601 at "(", as PostgreSQL
//
// Quoting a name makes TiDB read the call as an ordinary function call
// instead of its own keyword syntax (EXTRACT's MySQL units, MOD as %,
// DIV as MySQL's integer division operator).
// EXTRACT's field may be any word or a string ('epoch'); the planner
// validates it. The rewrite only fires on the exact keyword shapes: any
// other token sequence is left to TiDB, whose syntax error then points at
// the user's text.

// niladic lists the SQL-standard functions PostgreSQL writes without
// parentheses; a "(" after them is a syntax error there. CURRENT_TIME,
// CURRENT_TIMESTAMP, LOCALTIME and LOCALTIMESTAMP take an optional
// precision in parentheses and are not listed.
var niladic = map[string]bool{
	"current_date": true, "current_user": true, "session_user": true, "user": true,
	"current_role": true, "current_catalog": true,
}

// nameContext are the tokens after which "word (" is a table name and a
// column list (INSERT INTO trim (a), CREATE TABLE position (a int)), not a
// call.
var nameContext = map[string]bool{
	".": true, "table": true, "into": true, "update": true, "references": true,
	"exists": true, "only": true, "join": true, "from": true, "index": true,
}

// rewriteFuncSyntax applies the rewrites above to toks.
func rewriteFuncSyntax(src string, toks []token) ([]token, error) {
	out := make([]token, 0, len(toks))
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		call := i+1 < len(toks) && toks[i+1].isOp("(") && t.kind == tkIdent && !(i > 0 && nameContext[toks[i-1].val] && toks[i-1].kind != tkString)
		if !call {
			out = append(out, t)
			continue
		}
		if niladic[t.val] {
			return nil, syntaxErrorAt(src, toks[i+1].pos, toks[i+1].end)
		}
		end := closeParen(toks, i+1)
		if end < 0 {
			out = append(out, t)
			continue
		}
		args := toks[i+2 : end]
		var repl []token
		var err error
		switch t.val {
		case "extract":
			repl, err = extractCall(src, t, args)
		case "substring":
			repl, err = substringCall(src, t, args)
		case "position":
			repl, err = positionCall(src, t, args)
		case "trim":
			repl, err = trimCall(src, t, args)
		case "mod", "div":
			t.kind = tkQIdent
		}
		if err != nil {
			return nil, err
		}
		if repl == nil {
			out = append(out, t)
			continue
		}
		out = append(out, repl...)
		out = append(out, toks[end])
		i = end
	}
	return out, nil
}

// closeParen returns the index of the ")" matching the "(" at toks[open],
// or -1.
func closeParen(toks []token, open int) int {
	depth := 0
	for k := open; k < len(toks); k++ {
		switch {
		case toks[k].isOp("(") || toks[k].isOp("["):
			depth++
		case toks[k].isOp(")") || toks[k].isOp("]"):
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// splitTop returns the indexes in args of the keywords among words that
// are outside any parentheses or brackets, in order.
func splitTop(args []token, words ...string) []int {
	var at []int
	depth := 0
	for k, t := range args {
		switch {
		case t.isOp("(") || t.isOp("["):
			depth++
		case t.isOp(")") || t.isOp("]"):
			depth--
		case depth == 0:
			for _, w := range words {
				if t.is(w) {
					at = append(at, k)
				}
			}
		}
	}
	return at
}

// callTokens builds name( arg, arg, ... ) without the closing ")"; each
// argument is rewritten recursively so nested keyword forms are handled.
func callTokens(src string, name token, args ...[]token) ([]token, error) {
	out := []token{name, synthGlued("(", name)}
	for k, a := range args {
		if k > 0 {
			out = append(out, synthGlued(",", a[0]))
		}
		r, err := rewriteFuncSyntax(src, a)
		if err != nil {
			return nil, err
		}
		out = append(out, r...)
	}
	return out, nil
}

// quotedName is the call name as a quoted identifier, so TiDB parses a
// plain call rather than its keyword syntax.
func quotedName(t token, name string) token {
	return token{kind: tkQIdent, val: name, pos: t.pos, end: t.end, syn: true}
}

func extractCall(src string, name token, args []token) ([]token, error) {
	if len(args) < 3 || !args[1].is("from") || (args[0].kind != tkIdent && args[0].kind != tkString) {
		return nil, nil
	}
	field := args[0]
	field.kind, field.raw = tkString, ""
	out := []token{quotedName(name, "extract"), synthGlued("(", name), field, synthGlued(",", field)}
	rest, err := rewriteFuncSyntax(src, args[2:])
	if err != nil {
		return nil, err
	}
	return append(out, rest...), nil
}

func substringCall(src string, name token, args []token) ([]token, error) {
	at := splitTop(args, "from", "for")
	if len(at) == 0 || len(at) > 2 || at[0] == 0 {
		return nil, nil
	}
	s := args[:at[0]]
	var from, count []token
	for k, p := range at {
		end := len(args)
		if k+1 < len(at) {
			end = at[k+1]
		}
		part := args[p+1 : end]
		if len(part) == 0 {
			return nil, nil
		}
		if args[p].is("from") && from == nil {
			from = part
		} else if args[p].is("for") && count == nil {
			count = part
		} else {
			return nil, nil
		}
	}
	if from == nil {
		from = []token{{kind: tkNumber, val: "1", pos: args[at[0]].pos, end: args[at[0]].end, syn: true}}
	}
	if count == nil {
		return callTokens(src, name, s, from)
	}
	return callTokens(src, name, s, from, count)
}

func positionCall(src string, name token, args []token) ([]token, error) {
	at := splitTop(args, "in")
	if len(at) != 1 || at[0] == 0 || at[0] == len(args)-1 {
		return nil, nil
	}
	return callTokens(src, quotedName(name, "position"), args[at[0]+1:], args[:at[0]])
}

func trimCall(src string, name token, args []token) ([]token, error) {
	fn := "btrim"
	if len(args) > 0 {
		switch {
		case args[0].is("both"):
			args = args[1:]
		case args[0].is("leading"):
			fn, args = "ltrim", args[1:]
		case args[0].is("trailing"):
			fn, args = "rtrim", args[1:]
		}
	}
	if len(args) == 0 {
		return nil, nil
	}
	call := quotedName(name, fn)
	at := splitTop(args, "from")
	switch {
	case len(at) == 0:
		return callTokens(src, call, args)
	case len(at) == 1 && at[0] == len(args)-1:
		return nil, nil
	case len(at) == 1 && at[0] == 0:
		return callTokens(src, call, args[1:])
	case len(at) == 1:
		return callTokens(src, call, args[at[0]+1:], args[:at[0]])
	}
	return nil, nil
}
