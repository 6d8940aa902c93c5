package sqlparse

import "github.com/widesql/widesql/pgwire/pgerror"

// Array and set-returning-function syntax the TiDB parser does not know,
// rewritten before the FROM-clause rewrites (fromsyntax.go) into forms it
// parses:
//
//	a[i]                       pg_subscript(a, i)
//	a[i:j], a[:j], a[i:]       pg_slice(a, i, j); a missing bound is 0 or the int4 maximum
//	(expr).field               pg_field(expr, 'field')
//	ARRAY(SELECT ...)          (SELECT coalesce(array_agg(pg_array_sub.c), '{}') AS "array"
//	                            FROM (SELECT ...) AS pg_array_sub(c))
//	... UNION [ALL] VALUES (..), (..)
//	                           ... UNION [ALL] (SELECT .. UNION ALL SELECT ..)
//	VALUES (..), (..) at the start of a statement
//	                           SELECT .. AS column1, .. UNION ALL SELECT ..
//	FROM [LATERAL] f(args) [WITH ORDINALITY] [[AS] alias [(c1, ...)]]
//	                           FROM (SELECT pg_from_func('[ordinality]', f(args))) AS alias [(c1, ...)]
//
// The subscript operand is the primary expression before "[" (a name, a
// parenthesized expression, a call, a literal); "[" after ARRAY, after a
// cast's type name or directly followed by "]" is type or array syntax
// and kept. A function in FROM gets its own name as alias when it has
// none, as in PostgreSQL; the planner (planner/build_srf.go) makes it a
// ProjectSet, lateral when its arguments read earlier FROM items.

// PgFromFunc marks a function call in FROM; see above.
const PgFromFunc = "pg_from_func"

// rewriteSRFSyntax applies the rewrites above.
func rewriteSRFSyntax(src string, toks []token) ([]token, error) {
	toks, err := rewriteSubscripts(src, toks)
	if err != nil {
		return nil, err
	}
	if toks, err = rewriteValuesOperands(src, toks); err != nil {
		return nil, err
	}
	toks = rewriteArraySubqueries(toks)
	return rewriteFromFuncs(toks), nil
}

// word is a synthetic unquoted word that later passes recognize as the
// keyword or name it spells.
func word(val string, at token) token {
	return token{kind: tkIdent, val: val, pos: at.pos, end: at.end, syn: true}
}

// rewriteSubscripts rewrites a[i], a[i:j] and (expr).field.
func rewriteSubscripts(src string, toks []token) ([]token, error) {
	out := make([]token, 0, len(toks)+8)
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.isOp("[") && isSubscript(out, toks, i):
			end := closeBracket(toks, i)
			if end < 0 {
				return nil, syntaxErrorAt(src, t.pos, t.end)
			}
			s, _ := operandStart(out)
			inner, err := rewriteSubscripts(src, toks[i+1:end])
			if err != nil {
				return nil, err
			}
			colon := -1
			for k, depth := 0, 0; k < len(inner); k++ {
				switch {
				case inner[k].isOp("(") || inner[k].isOp("["):
					depth++
				case inner[k].isOp(")") || inner[k].isOp("]"):
					depth--
				case depth == 0 && inner[k].isOp(":"):
					colon = k
				}
			}
			operand := append([]token(nil), out[s:]...)
			out = append(out[:s], word("pg_subscript", t), synthGlued("(", t))
			out = append(out, operand...)
			out = append(out, synthGlued(",", t))
			if colon >= 0 {
				out[s] = word("pg_slice", t)
				lo, hi := inner[:colon], inner[colon+1:]
				if len(lo) == 0 {
					lo = []token{{kind: tkNumber, val: "0", pos: t.pos, end: t.end, syn: true}}
				}
				if len(hi) == 0 {
					hi = []token{{kind: tkNumber, val: "2147483647", pos: t.pos, end: t.end, syn: true}}
				}
				out = append(out, lo...)
				out = append(out, synthGlued(",", t))
				out = append(out, hi...)
			} else {
				if len(inner) == 0 {
					return nil, syntaxErrorAt(src, toks[end].pos, toks[end].end)
				}
				out = append(out, inner...)
			}
			out = append(out, synthGlued(")", toks[end]))
			i = end
		case t.isOp(".") && len(out) > 0 && out[len(out)-1].isOp(")") && i+1 < len(toks) &&
			(toks[i+1].kind == tkIdent || toks[i+1].kind == tkQIdent):
			s, ok := operandStart(out)
			if !ok {
				out = append(out, t)
				continue
			}
			f := toks[i+1]
			operand := append([]token(nil), out[s:]...)
			out = append(out[:s], word("pg_field", t), synthGlued("(", t))
			out = append(out, operand...)
			out = append(out, synthGlued(",", t), token{kind: tkString, val: f.val, pos: f.pos, end: f.end, syn: true},
				synthGlued(")", f))
			i++
		case t.is("cardinality") && i+1 < len(toks) && toks[i+1].isOp("("):
			t.kind = tkQIdent // a TiDB keyword; quoted, an ordinary call
			out = append(out, t)
		default:
			out = append(out, t)
		}
	}
	return out, nil
}

// isSubscript reports whether the "[" at toks[i] subscripts the operand
// that ends out.
func isSubscript(out, toks []token, i int) bool {
	if len(out) == 0 || i+1 < len(toks) && toks[i+1].isOp("]") {
		return false
	}
	if p := out[len(out)-1]; p.is("array") {
		return false
	}
	s, ok := operandStart(out)
	if !ok {
		return false
	}
	// a type name: x::int[3], CAST(x AS int[3])
	return s == 0 || !(out[s-1].isOp("::") || out[s-1].is("as"))
}

// closeBracket returns the index of the "]" matching the "[" at toks[i].
func closeBracket(toks []token, i int) int {
	depth := 0
	for k := i; k < len(toks); k++ {
		switch {
		case toks[k].isOp("[") || toks[k].isOp("("):
			depth++
		case toks[k].isOp("]") || toks[k].isOp(")"):
			depth--
			if depth == 0 {
				if toks[k].isOp("]") {
					return k
				}
				return -1
			}
		}
	}
	return -1
}

// rewriteValuesOperands rewrites VALUES lists used as a query: at the
// start of the statement, or as an operand of UNION, INTERSECT, EXCEPT.
func rewriteValuesOperands(src string, toks []token) ([]token, error) {
	out := make([]token, 0, len(toks))
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !t.is("values") || !(i == 0 || setOpBefore(toks, i)) {
			out = append(out, t)
			continue
		}
		end := i + 1
		for end < len(toks) && toks[end].isOp("(") {
			c := matchClose(toks, end)
			if c < 0 {
				break
			}
			end = c + 1
			if !(end+1 < len(toks) && toks[end].isOp(",") && toks[end+1].isOp("(")) {
				break
			}
			end++
		}
		if !sameLengthRows(toks[i+1 : end]) {
			return nil, pgerror.New(pgerror.CodeSyntaxError, "VALUES lists must all be the same length").
				WithPosition(charPos(src, t.pos))
		}
		sel, ok := valuesAsSelect(toks[i:end])
		if !ok {
			out = append(out, t)
			continue
		}
		if i > 0 {
			out = append(out, synth("(", t))
		}
		out = append(out, sel...)
		if i > 0 {
			out = append(out, synthGlued(")", toks[end-1]))
		}
		i = end - 1
	}
	return out, nil
}

// setOpBefore reports whether toks[i] follows UNION, INTERSECT or EXCEPT
// (with ALL or DISTINCT).
func setOpBefore(toks []token, i int) bool {
	p := toks[i-1]
	if (p.is("all") || p.is("distinct")) && i >= 2 {
		p = toks[i-2]
	}
	return p.is("union") || p.is("intersect") || p.is("except")
}

// rewriteArraySubqueries rewrites ARRAY(SELECT ...).
func rewriteArraySubqueries(toks []token) []token {
	out := make([]token, 0, len(toks))
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !t.is("array") || i+2 >= len(toks) || !toks[i+1].isOp("(") ||
			!(toks[i+2].is("select") || toks[i+2].is("with") || toks[i+2].is("values") || toks[i+2].isOp("(")) {
			out = append(out, t)
			continue
		}
		end := matchClose(toks, i+1)
		if end < 0 {
			out = append(out, t)
			continue
		}
		inner := rewriteArraySubqueries(toks[i+2 : end])
		out = append(out, synth("(", t), word("select", t), word("coalesce", t), synthGlued("(", t),
			word("array_agg", t), synthGlued("(", t), word("pg_array_sub", t), synthGlued(".", t), synthGlued("c", t),
			synthGlued(")", t), synthGlued(",", t), token{kind: tkString, val: "{}", pos: t.pos, end: t.end, syn: true},
			synthGlued(")", t), word("as", t), token{kind: tkQIdent, val: "array", pos: t.pos, end: t.end, syn: true},
			word("from", t), synth("(", toks[i+1]))
		out = append(out, inner...)
		out = append(out, synthGlued(")", toks[end]), word("as", toks[end]), word("pg_array_sub", toks[end]),
			synthGlued("(", toks[end]), word("c", toks[end]), synthGlued(")", toks[end]), synthGlued(")", toks[end]))
		i = end
	}
	return out
}

// fromEnd are the words that end a FROM list.
var fromEnd = map[string]bool{
	"where": true, "group": true, "having": true, "order": true, "limit": true, "offset": true,
	"fetch": true, "for": true, "union": true, "intersect": true, "except": true, "window": true,
	"returning": true, "allow": true,
}

// rewriteFromFuncs rewrites function calls that are FROM items.
func rewriteFromFuncs(toks []token) []token {
	type level struct{ query, inFrom bool }
	stack := []level{{query: true}}
	out := make([]token, 0, len(toks)+8)
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		top := &stack[len(stack)-1]
		start := false
		switch {
		case t.isOp("("):
			q := i+1 < len(toks) && (toks[i+1].is("select") || toks[i+1].is("with") || toks[i+1].is("values") || toks[i+1].isOp("("))
			stack = append(stack, level{query: q})
		case t.isOp(")"):
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case t.is("from") && top.query && !(i > 0 && toks[i-1].is("distinct")):
			top.inFrom, start = true, true
		case top.inFrom && (t.isOp(",") || t.is("join")):
			start = true
		case top.inFrom && t.kind == tkIdent && fromEnd[t.val]:
			top.inFrom = false
		}
		out = append(out, t)
		if !start {
			continue
		}
		j := i + 1
		if j < len(toks) && toks[j].is("lateral") {
			j++
		}
		name := j
		for j < len(toks) && (toks[j].kind == tkIdent || toks[j].kind == tkQIdent) {
			if j+1 < len(toks) && toks[j+1].isOp(".") {
				j += 2
				continue
			}
			break
		}
		if j >= len(toks) || j+1 >= len(toks) || !(toks[j].kind == tkIdent || toks[j].kind == tkQIdent) || !toks[j+1].isOp("(") ||
			toks[j].kind == tkIdent && (notCallee[toks[j].val] || toks[j].is("lateral")) {
			continue
		}
		end := matchClose(toks, j+1)
		if end < 0 {
			continue
		}
		fn := toks[j]
		call := append([]token(nil), toks[name:j+2]...)
		call = append(call, rewriteFromFuncs(toks[j+2:end])...)
		call = append(call, toks[end])
		k := end + 1
		flags := ""
		if k+1 < len(toks) && toks[k].is("with") && toks[k+1].is("ordinality") {
			flags, k = "ordinality", k+2
		}
		if k < len(toks) && toks[k].is("as") {
			k++
		}
		alias := token{kind: tkQIdent, val: fn.val, pos: fn.pos, end: fn.end, syn: true}
		if k < len(toks) && (toks[k].kind == tkQIdent || toks[k].kind == tkIdent && !fromStop[toks[k].val] && !fromEnd[toks[k].val] && !toks[k].is("with")) {
			alias, k = toks[k], k+1
		}
		out = append(out, synth("(", fn), word("select", fn), word(PgFromFunc, fn), synthGlued("(", fn),
			token{kind: tkString, val: flags, pos: fn.pos, end: fn.end, syn: true}, synthGlued(",", fn))
		out = append(out, call...)
		out = append(out, synthGlued(")", toks[end]), synthGlued(")", toks[end]), word("as", toks[end]), alias)
		i = k - 1
	}
	return out
}
