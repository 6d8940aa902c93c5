package sqlparse

import (
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// PostgreSQL operators the TiDB grammar lacks or reads differently are
// rewritten onto a TiDB operator of the same precedence, tagged with a
// marker: the token pair "COLLATE <marker>" emitted just before the
// operator. COLLATE binds tighter than anything else in TiDB, so the marker
// lands on the last primary of the left operand, which is always on the
// right spine of the operator's left subtree. The post-parse pass
// (markers.go) finds it there, removes it and replaces the TiDB node by
// what PostgreSQL meant. No operand extent is ever guessed: TiDB's own
// precedence climbing decides them.
//
// PostgreSQL puts every operator without its own grammar rule at one
// left-associative level between comparison (and LIKE/IN/BETWEEN) and
// + -. TiDB's '|' sits exactly there, so all those operators become '|'.
// Marker names are MySQL collation names (TiDB validates them while
// parsing); user COLLATE clauses never reach TiDB (see collate), so every
// SetCollationExpr in a parsed tree is a marker.

// otherOps maps each PostgreSQL binary operator of the "any other operator"
// precedence level to its marker. They are emitted as TiDB's '|'; a '|'
// without a marker is PostgreSQL's bitwise or.
var otherOps = map[string]string{
	"~": "big5_chinese_ci", "~*": "latin2_czech_cs", "!~": "dec8_swedish_ci", "!~*": "cp850_general_ci",
	"~~": "latin1_german1_ci", "~~*": "hp8_english_ci", "!~~": "koi8r_general_ci", "!~~*": "latin1_swedish_ci",
	"||": "latin2_general_ci", "#": "swe7_swedish_ci", "&": "ascii_general_ci", "<<": "ujis_japanese_ci",
	">>": "sjis_japanese_ci", "->": "cp1251_bulgarian_ci", "->>": "latin1_danish_ci", "#>": "hebrew_general_ci",
	"#>>": "tis620_thai_ci", "@>": "euckr_korean_ci", "<@": "latin7_estonian_cs", "&&": "latin2_hungarian_ci",
}

// prefixOps maps PostgreSQL prefix operators to their markers. "op x" is
// emitted as "0 COLLATE <marker> | x": PostgreSQL gives prefix operators
// the same "other operator" precedence, so x extends as far as it would
// after a binary '|'.
var prefixOps = map[string]string{
	"|/": "koi8u_general_ci", "||/": "cp1251_ukrainian_ci", "@": "gb2312_chinese_ci", "~": "cp1250_czech_cs",
}

// Markers for IS DISTINCT FROM (emitted as TiDB's <=>, which is IS NOT
// DISTINCT FROM) and for ORDER BY ... NULLS FIRST / NULLS LAST.
const (
	markDistinct   = "greek_general_ci"
	markNullsFirst = "cp1250_general_ci"
	markNullsLast  = "latin2_croatian_ci"
)

// markerOps is the inverse of the marker tables: marker -> operator name
// ("prefix " + op for prefix operators).
var markerOps = func() map[string]string {
	m := map[string]string{markDistinct: "distinct", markNullsFirst: "nulls first", markNullsLast: "nulls last"}
	for op, c := range otherOps {
		m[c] = op
	}
	for op, c := range prefixOps {
		m[c] = "prefix " + op
	}
	return m
}()

// marker returns the tokens "COLLATE <name>" attributed to at.
func marker(name string, at token) []token {
	return []token{synth("collate", at), synth(name, at)}
}

// endsOperand reports whether the last emitted token ends an operand, so
// that an operator after it is binary rather than prefix.
func (w *rewriter) endsOperand() bool {
	if len(w.out) == 0 {
		return false
	}
	p := w.out[len(w.out)-1]
	switch {
	case p.kind == tkString || p.kind == tkNumber || p.kind == tkParam || p.kind == tkBits || p.kind == tkQIdent:
		return true
	case p.isOp(")") || p.isOp("]"):
		return true
	case p.kind == tkIdent && p.raw == "":
		return !notCallee[p.val] && !operandKeywords[p.val]
	case p.syn && p.kind == tkOp:
		return p.val == "?" || strings.HasPrefix(p.raw, "'") || strings.HasPrefix(p.raw, `"`)
	}
	return false
}

// operandKeywords are words after which an operator starts an operand.
var operandKeywords = map[string]bool{
	"else": true, "then": true, "when": true, "return": true, "limit": true, "offset": true,
	"or": true, "and": true, "not": true, "order": true, "group": true, "where": true, "having": true,
}

// rewriteOperator handles operator token toks[i]; it reports whether it
// consumed it.
func (w *rewriter) rewriteOperator(toks []token, i int) (bool, error) {
	t := toks[i]
	if t.kind != tkOp {
		return false, nil
	}
	if m, ok := otherOps[t.val]; ok && w.endsOperand() {
		w.out = append(w.out, marker(m, t)...)
		w.out = append(w.out, synth("|", t))
		return true, nil
	}
	if t.val == "~" && !w.prevLowPrecedence() {
		return false, nil // prefix bitwise not inside arithmetic: TiDB's tighter ~
	}
	if m, ok := prefixOps[t.val]; ok {
		if w.endsOperand() || !w.prevLowPrecedence() {
			return false, pgerror.Unimplemented("prefix operator " + t.val + " after another operator").WithPosition(charPos(w.src, t.pos))
		}
		w.out = append(w.out, synth("0", t))
		w.out = append(w.out, marker(m, t)...)
		w.out = append(w.out, synth("|", t))
		return true, nil
	}
	switch t.val {
	case "?", "?|", "?&", "@@", "@?", "<->", "&<", "&>", "-|-", "^@", "!!":
		return false, pgerror.Unimplemented("operator " + t.val).WithPosition(charPos(w.src, t.pos))
	}
	if _, ok := otherOps[t.val]; ok {
		return false, syntaxErrorAt(w.src, t.pos, t.end)
	}
	return false, nil
}

// prevLowPrecedence reports whether the last emitted token leaves a prefix
// operator at the start of an expression of "other operator" precedence or
// lower: start, '(', ',', a comparison, or a keyword.
func (w *rewriter) prevLowPrecedence() bool {
	if len(w.out) == 0 {
		return true
	}
	p := w.out[len(w.out)-1]
	if p.kind == tkIdent {
		return true
	}
	switch p.val {
	case "(", ",", "=", "<>", "!=", "<", ">", "<=", ">=", "|", "[":
		return true
	}
	return false
}

// rewriteIsDistinct turns "IS [NOT] DISTINCT FROM" at toks[i] into TiDB's
// <=> (null-safe equality), with the distinct marker for the positive form.
// It returns the index of the last consumed token, or -1.
func (w *rewriter) rewriteIsDistinct(toks []token, i int) int {
	j := i + 1
	not := j < len(toks) && toks[j].is("not")
	if not {
		j++
	}
	if j+1 >= len(toks) || !toks[j].is("distinct") || !toks[j+1].is("from") {
		return -1
	}
	if !not {
		w.out = append(w.out, marker(markDistinct, toks[i])...)
	}
	w.out = append(w.out, synth("<=>", toks[i]))
	return j + 1
}

// reduceOperatorSyntax rewrites OPERATOR(schema.op) to op, and drops
// COLLATE clauses naming the bytewise collations (C, POSIX, default,
// ucs_basic), which is how widesql compares text. Any other collation is
// 0A000.
func reduceOperatorSyntax(src string, toks []token) ([]token, error) {
	var out []token
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.is("operator") && i+1 < len(toks) && toks[i+1].isOp("("):
			j := i + 2
			if j+1 < len(toks) && (toks[j].kind == tkIdent || toks[j].kind == tkQIdent) && toks[j+1].isOp(".") {
				if toks[j].val != "pg_catalog" {
					return nil, pgerror.Unimplemented("OPERATOR() in schema " + toks[j].val).WithPosition(charPos(src, toks[j].pos))
				}
				j += 2
			}
			if j+1 >= len(toks) || toks[j].kind != tkOp || !toks[j+1].isOp(")") {
				return nil, syntaxErrorAt(src, t.pos, t.end)
			}
			op := toks[j]
			op.pos, op.end = t.pos, toks[j+1].end
			out = append(out, op)
			i = j + 1
		case t.is("collate"):
			j := i + 1
			if j+1 < len(toks) && toks[j].is("pg_catalog") && toks[j+1].isOp(".") {
				j += 2
			}
			if j >= len(toks) || (toks[j].kind != tkIdent && toks[j].kind != tkQIdent) {
				return nil, syntaxErrorAt(src, t.pos, t.end)
			}
			name := toks[j].val
			if toks[j].kind == tkIdent {
				name = strings.ToLower(name)
			}
			switch name {
			case "C", "POSIX", "default", "ucs_basic":
			default:
				return nil, pgerror.Unimplemented("COLLATE " + quoteIdent(toks[j].val) + " (text compares bytewise, as COLLATE \"C\")").
					WithPosition(charPos(src, toks[j].pos))
			}
			i = j
		default:
			out = append(out, t)
		}
	}
	return out, nil
}

// likePatternEnd returns the index just past the pattern of the [I]LIKE at
// toks[i]. TiDB reads only a primary after LIKE, PostgreSQL an expression
// of any operator binding tighter than LIKE (a LIKE b || '%'), so the
// bridge parenthesizes it: the pattern runs to the first token, at its
// own nesting depth, that binds as loosely as LIKE or ends the expression.
func likePatternEnd(toks []token, i int) int {
	depth, cases := 0, 0
	for j := i + 1; j < len(toks); j++ {
		t := toks[j]
		switch {
		case t.isOp("(") || t.isOp("["):
			depth++
		case t.isOp(")") || t.isOp("]"):
			if depth == 0 {
				return j
			}
			depth--
		case depth > 0:
		case t.is("case"):
			cases++
		case t.is("end") && cases > 0:
			cases--
		case cases > 0:
		case t.kind == tkOp && likeStops[t.val], t.kind == tkIdent && likeStopWords[t.val]:
			if j == i+1 {
				continue // a sign or a prefix operator starting the pattern
			}
			return j
		}
	}
	return len(toks)
}

var likeStops = map[string]bool{
	",": true, ";": true, "=": true, "<": true, ">": true, "<=": true, ">=": true, "<>": true, "!=": true,
}

var likeStopWords = map[string]bool{
	"and": true, "or": true, "not": true, "is": true, "isnull": true, "notnull": true, "like": true,
	"ilike": true, "in": true, "between": true, "similar": true, "escape": true, "then": true,
	"when": true, "else": true, "end": true, "from": true, "where": true, "group": true, "order": true,
	"limit": true, "offset": true, "fetch": true, "having": true, "as": true, "asc": true, "desc": true,
	"nulls": true, "union": true, "intersect": true, "except": true, "for": true, "returning": true,
	"on": true, "using": true, "join": true, "inner": true, "left": true, "right": true, "full": true,
	"cross": true, "natural": true, "window": true, "into": true, "do": true, "collate": true,
}
