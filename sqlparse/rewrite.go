package sqlparse

import (
	"github.com/widesql/widesql/pgwire/pgerror"
)

// notCallee lists words that can precede "(" without being a function name,
// so that "a AND (b)::int" does not take "AND (b)" as a call.
var notCallee = map[string]bool{
	"and": true, "or": true, "not": true, "in": true, "is": true, "select": true,
	"where": true, "from": true, "on": true, "when": true, "then": true, "else": true,
	"case": true, "as": true, "by": true, "having": true, "like": true, "ilike": true,
	"between": true, "values": true, "using": true, "join": true, "set": true,
	"limit": true, "offset": true, "returning": true, "distinct": true, "over": true,
	"filter": true, "within": true, "return": true, "into": true, "table": true,
}

// intervalUnits follow INTERVAL 'n' in MySQL syntax, which TiDB keeps.
var intervalUnits = map[string]bool{
	"year": true, "month": true, "week": true, "day": true, "hour": true,
	"minute": true, "second": true, "microsecond": true, "quarter": true,
}

// rewriter holds the state of one token-level rewrite pass.
// noLimit is the LIMIT count standing for LIMIT ALL.
const noLimit = "18446744073709551615"

type rewriter struct {
	src string
	out []token
}

// rewrite applies the expression rewrites to toks: x::T, CAST(x AS T) and
// TYPE 'literal' become pg_cast(x, 'T'); FROM ONLY is rejected. $n tokens
// pass through (emit turns them into '?').
func rewrite(src string, toks []token) ([]token, error) {
	w := &rewriter{src: src, out: make([]token, 0, len(toks)+8)}
	var castDepth []bool       // one entry per open "(": true when it opened CAST(
	limitSeen := []bool{false} // per paren depth: a LIMIT was emitted
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.is("limit"):
			// LIMIT ALL means no limit; TiDB has no spelling for it, so it
			// becomes the largest count, which the planner reads as none.
			limitSeen[len(limitSeen)-1] = true
			w.out = append(w.out, t)
			if i+1 < len(toks) && toks[i+1].is("all") {
				w.out = append(w.out, synth(noLimit, toks[i+1]))
				i++
			}
		case t.is("offset") && !limitSeen[len(limitSeen)-1]:
			// PostgreSQL allows OFFSET without LIMIT; TiDB does not.
			w.out = append(w.out, synth("limit", t), synth(noLimit, t), t)
		case t.isOp("::"):
			ty, next, ok := parseTypeName(toks, i+1)
			if !ok {
				return nil, w.syntaxErr(toks, i+1)
			}
			if err := w.wrapCast(t, ty); err != nil {
				return nil, err
			}
			i = next - 1
		case t.is("cast") && i+1 < len(toks) && toks[i+1].isOp("("):
			w.out = append(w.out, synth("pg_cast", t), synthGlued("(", toks[i+1]))
			castDepth = append(castDepth, true)
			i++
		case t.isOp("(") || t.isOp("["):
			castDepth = append(castDepth, false)
			limitSeen = append(limitSeen, false)
			w.out = append(w.out, t)
		case t.isOp(")") || t.isOp("]"):
			if len(castDepth) > 0 {
				castDepth = castDepth[:len(castDepth)-1]
			}
			if len(limitSeen) > 1 {
				limitSeen = limitSeen[:len(limitSeen)-1]
			}
			w.out = append(w.out, t)
		case t.is("as") && len(castDepth) > 0 && castDepth[len(castDepth)-1]:
			ty, next, ok := parseTypeName(toks, i+1)
			if !ok || next >= len(toks) || !toks[next].isOp(")") {
				return nil, w.syntaxErr(toks, next)
			}
			w.out = append(w.out, synthGlued(",", t), synth(quoteString(ty.String()), toks[i+1]))
			i = next - 1
		case t.is("only") && !w.prevIs("rows", "row", "read"):
			return nil, unsupported("FROM ONLY").WithPosition(charPos(src, t.pos))
		case t.kind == tkIdent && !w.prevIs(".") && !w.prevIs("as"):
			ty, next, ok := parseTypeName(toks, i)
			if ok && literalTypes[ty.base] && next < len(toks) && toks[next].kind == tkString &&
				!(ty.base == "interval" && next+1 < len(toks) && intervalUnits[toks[next+1].val]) {
				lit := toks[next]
				w.out = append(w.out, synth("pg_cast", t), synthGlued("(", t), lit,
					synthGlued(",", lit), synth(quoteString(ty.String()), t), synthGlued(")", lit))
				i = next
				continue
			}
			if tidbReserved[t.val] && w.identPosition(toks, i) {
				// A word TiDB reserves but PostgreSQL lets users name
				// things with (a column called "key"): quote it.
				w.out = append(w.out, synth(quoteIdent(t.val), t))
				continue
			}
			w.out = append(w.out, t)
		default:
			w.out = append(w.out, t)
		}
	}
	return w.out, nil
}

// prevIs reports whether the last emitted token is one of words (keywords
// or operators).
func (w *rewriter) prevIs(words ...string) bool {
	if len(w.out) == 0 {
		return false
	}
	p := w.out[len(w.out)-1]
	for _, x := range words {
		if (p.kind == tkIdent || p.kind == tkOp) && p.val == x && p.raw == "" {
			return true
		}
	}
	return false
}

func (w *rewriter) syntaxErr(toks []token, i int) error {
	if i >= len(toks) {
		end := len(w.src)
		if len(toks) > 0 {
			end = toks[len(toks)-1].end
		}
		return pgerror.New(pgerror.CodeSyntaxError, "syntax error at end of input").WithPosition(charPos(w.src, end))
	}
	return syntaxErrorAt(w.src, toks[i].pos, toks[i].end)
}

// syntaxErrorAt builds PostgreSQL's "syntax error at or near" for the
// original token at src[pos:end].
func syntaxErrorAt(src string, pos, end int) error {
	return pgerror.New(pgerror.CodeSyntaxError, "syntax error at or near %q", src[pos:end]).WithPosition(charPos(src, pos))
}

// wrapCast wraps the operand that ends w.out in pg_cast(..., 'ty').
func (w *rewriter) wrapCast(op token, ty pgTypeName) error {
	start, ok := operandStart(w.out)
	if !ok {
		return syntaxErrorAt(w.src, op.pos, op.end)
	}
	head := []token{synth("pg_cast", w.out[start]), synthGlued("(", w.out[start])}
	w.out = append(w.out[:start], append(head, w.out[start:]...)...)
	w.out = append(w.out, synthGlued(",", op), synth(quoteString(ty.String()), op), synthGlued(")", op))
	return nil
}

// operandStart finds where the primary expression ending out begins: a
// literal, a $n, a dotted name, a balanced (...) group, a function call, or
// any of these subscripted with [...].
func operandStart(out []token) (int, bool) {
	j := len(out) - 1
	if j < 0 {
		return 0, false
	}
	t := out[j]
	switch {
	case t.isOp("]"):
		k := matchOpen(out, j, "[", "]")
		if k < 0 {
			return 0, false
		}
		if s, ok := operandStart(out[:k]); ok {
			return s, true
		}
		return k, true
	case t.isOp(")"):
		k := matchOpen(out, j, "(", ")")
		if k < 0 {
			return 0, false
		}
		if k > 0 && isName(out[k-1]) && !notCallee[out[k-1].val] {
			return dottedStart(out, k-1), true
		}
		return k, true
	case t.kind == tkString || t.kind == tkNumber || t.kind == tkParam || t.kind == tkBits:
		return j, true
	case isName(t) && !notCallee[t.val]:
		return dottedStart(out, j), true
	case t.isOp("*") && j > 0 && out[j-1].isOp("."):
		return dottedStart(out, j), true
	}
	return 0, false
}

func isName(t token) bool {
	return (t.kind == tkIdent && t.raw == "") || t.kind == tkQIdent || (t.syn && t.val == "pg_cast")
}

// dottedStart extends a name at out[j] back over "a.b.c" chains.
func dottedStart(out []token, j int) int {
	for j >= 2 && out[j-1].isOp(".") && isName(out[j-2]) {
		j -= 2
	}
	return j
}

// matchOpen returns the index of the open bracket matching out[j], or -1.
func matchOpen(out []token, j int, open, close string) int {
	depth := 0
	for k := j; k >= 0; k-- {
		switch {
		case out[k].isOp(close):
			depth++
		case out[k].isOp(open):
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// tidbReserved are words the TiDB grammar reserves that PostgreSQL accepts
// as column and table names. In identifier position they are quoted.
var tidbReserved = map[string]bool{
	"key": true, "index": true, "range": true, "rank": true,
	"row": true, "rows": true, "interval": true,
}

// identPosition reports whether the reserved word at toks[i] is used as a
// name rather than as its keyword.
func (w *rewriter) identPosition(toks []token, i int) bool {
	next := func(words ...string) bool {
		if i+1 >= len(toks) {
			return false
		}
		n := toks[i+1]
		for _, x := range words {
			if n.is(x) || n.isOp(x) {
				return true
			}
		}
		return false
	}
	switch toks[i].val {
	case "key":
		return !w.prevIs("primary", "foreign", "unique")
	case "index":
		return !w.prevIs("create", "unique", "drop", "alter", "reindex")
	case "rank", "row":
		return !next("(") && !w.prevIs("each")
	case "rows", "range":
		if len(w.out) > 0 && (w.out[len(w.out)-1].kind == tkNumber || w.out[len(w.out)-1].kind == tkParam) {
			return false // FETCH FIRST n ROWS, OFFSET n ROWS
		}
		return !next("between", "unbounded", "current") && !w.prevIs("first", "next", "only")
	case "interval":
		return i+1 >= len(toks) || (toks[i+1].kind != tkString && toks[i+1].kind != tkNumber && toks[i+1].kind != tkParam)
	}
	return false
}
