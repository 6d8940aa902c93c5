package sqlparse

import (
	"strconv"
	"strings"

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
	"union": true, "intersect": true, "except": true, "all": true,
}

// intervalUnits are the fields of PostgreSQL's interval qualifier
// (INTERVAL '1' DAY).
var intervalUnits = map[string]bool{
	"year": true, "month": true, "day": true, "hour": true, "minute": true, "second": true,
}

// intervalQualifier reads INTERVAL 'n' unit, with the literal at toks[i]
// and the unit after it, and returns the literal 'n unit'. Only a number
// with a single field is supported: 'n' DAY means n days and, as in
// PostgreSQL, the fields below the qualifier are dropped ('1.5' HOUR is one
// hour); other qualifiers are 0A000.
func (w *rewriter) intervalQualifier(toks []token, i int) (token, error) {
	lit, unit := toks[i], toks[i+1]
	if i+2 < len(toks) && toks[i+2].is("to") {
		return lit, pgerror.Unimplemented("interval qualifier " + unit.val + " TO ...").WithPosition(charPos(w.src, unit.pos))
	}
	n := strings.TrimSpace(lit.val)
	if _, err := strconv.ParseFloat(n, 64); err != nil {
		return lit, pgerror.Unimplemented("interval qualifier on a literal that is not a number").WithPosition(charPos(w.src, unit.pos))
	}
	if i := strings.IndexAny(n, ".eE"); i >= 0 && unit.val != "second" {
		n = n[:i] // the qualifier drops the fields below it: '1.5' HOUR is 1 hour
		if n == "" || n == "-" || n == "+" {
			n += "0"
		}
	}
	lit.val = n + " " + unit.val
	return lit, nil
}

// rewriter holds the state of one token-level rewrite pass.
type rewriter struct {
	src string
	out []token
}

// rewrite applies the expression rewrites to toks: x::T, CAST(x AS T) and
// TYPE 'literal' become pg_cast(x, 'T'); FROM ONLY is rejected. $n tokens
// pass through (emit turns them into '?').
func rewrite(src string, toks []token) ([]token, error) {
	toks, err := reduceOperatorSyntax(src, toks)
	if err != nil {
		return nil, err
	}
	if toks, err = rewriteFuncSyntax(src, toks); err != nil { // funcsyntax.go
		return nil, err
	}
	if err := checkUnsupported(src, toks); err != nil {
		return nil, err
	}
	if toks, err = rewriteAggCalls(src, toks); err != nil { // aggorder.go
		return nil, err
	}
	w := &rewriter{src: src, out: make([]token, 0, len(toks)+8)}
	var castDepth []bool     // one entry per open "(" or "[": true when it opened CAST(
	var closers []string     // one entry per open bracket: what its closing bracket becomes ("" = itself)
	closeAt := map[int]int{} // token index -> ")"s to emit before it (LIKE patterns)
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		for ; closeAt[i] > 0; closeAt[i]-- {
			w.out = append(w.out, synthGlued(")", t))
		}
		if (t.is("like") || t.is("ilike")) && i+1 < len(toks) {
			w.out = append(w.out, t, synth("(", toks[i+1]))
			closeAt[likePatternEnd(toks, i)]++
			continue
		}
		if t.kind == tkOp {
			done, err := w.rewriteOperator(toks, i)
			if err != nil {
				return nil, err
			}
			if done {
				continue
			}
		}
		if t.is("is") {
			if j := w.rewriteIsDistinct(toks, i); j >= 0 {
				i = j
				continue
			}
		}
		switch {
		case t.is("limit") || t.is("offset") || (t.is("fetch") && i+1 < len(toks) && (toks[i+1].is("first") || toks[i+1].is("next"))):
			j, err := w.rewriteLimit(toks, i)
			if err != nil {
				return nil, err
			}
			i = j
		case t.is("filter"):
			j, err := w.rewriteFilter(toks, i)
			if err != nil {
				return nil, err
			}
			if j >= 0 {
				i = j
				continue
			}
			w.out = append(w.out, t)
		case (t.is("isnull") || t.is("notnull")) && w.endsOperand() && !(i+1 < len(toks) && toks[i+1].isOp("(")):
			// PostgreSQL's postfix x ISNULL / x NOTNULL.
			w.out = append(w.out, synth("is", t))
			if t.val == "notnull" {
				w.out = append(w.out, synth("not", t))
			}
			w.out = append(w.out, synth("null", t))
		case t.is("nulls"):
			if j := w.rewriteNulls(toks, i); j >= 0 {
				i = j
				continue
			}
			w.out = append(w.out, t)
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
			closers = append(closers, "")
			i++
		case t.is("array"):
			ok, err := w.rewriteArray(toks, i, &closers)
			if err != nil {
				return nil, err
			}
			if ok {
				castDepth = append(castDepth, false)
				i++
				continue
			}
			w.out = append(w.out, t)
		case w.anyCall(toks, i) != "":
			w.out = append(w.out, synth(w.anyCall(toks, i), t))
		case t.kind == tkNumber && len(t.val) > 30:
			// TiDB's decimal holds 65 digits and panics past its buffer;
			// PostgreSQL reads any long literal as numeric.
			w.out = append(w.out, synth("pg_cast", t), synthGlued("(", t), synth(quoteString(t.val), t),
				synthGlued(",", t), synth("'numeric'", t), synthGlued(")", t))
		case t.isOp("["):
			return nil, pgerror.Unimplemented("array subscripts").WithPosition(charPos(src, t.pos))
		case t.isOp("("):
			castDepth = append(castDepth, false)
			closers = append(closers, "")
			w.out = append(w.out, t)
		case t.isOp(")") || t.isOp("]"):
			if len(castDepth) > 0 {
				castDepth = castDepth[:len(castDepth)-1]
			}
			if n := len(closers); n > 0 {
				if c := closers[n-1]; c != "" {
					t = synthGlued(c, t)
				}
				closers = closers[:n-1]
			}
			w.out = append(w.out, t)
		case t.is("as") && i+2 < len(toks) && toks[i+1].is("of") && toks[i+2].is("timestamp"):
			// FROM t [alias] AS OF TIMESTAMP expr is TiDB's own grammar:
			// TIMESTAMP stays a keyword, and a string right after it is the
			// point in time, read as timestamptz.
			w.out = append(w.out, t, toks[i+1], toks[i+2])
			i += 2
			if i+1 < len(toks) && toks[i+1].kind == tkString {
				lit := toks[i+1]
				w.out = append(w.out, synth("pg_cast", lit), synthGlued("(", lit), lit,
					synthGlued(",", lit), synth("'timestamptz'", lit), synthGlued(")", lit))
				i++
			}
		case t.is("as") && len(castDepth) > 0 && castDepth[len(castDepth)-1]:
			ty, next, ok := parseTypeName(toks, i+1)
			if !ok || next >= len(toks) || !toks[next].isOp(")") {
				return nil, w.syntaxErr(toks, next)
			}
			w.out = append(w.out, synthGlued(",", t), synth(quoteString(ty.String()), toks[i+1]))
			i = next - 1
		case t.is("only") && !w.prevIs("rows", "row", "read"):
			return nil, unsupported("FROM ONLY").WithPosition(charPos(src, t.pos))
		case t.kind == tkIdent && w.prevIs("as") && !notAlias[t.val] && !(i+1 < len(toks) && toks[i+1].isOp("(")):
			// An alias may be any word in PostgreSQL (AS default, AS
			// generated); TiDB reserves many, so aliases are quoted.
			w.out = append(w.out, synth(quoteIdent(t.val), t))
		case t.kind == tkIdent && !w.prevIs(".") && !w.prevIs("as"):
			ty, next, ok := parseTypeName(toks, i)
			if ok && literalTypes[ty.base] && next < len(toks) && toks[next].kind == tkString {
				lit := toks[next]
				if ty.base == "interval" && next+1 < len(toks) && intervalUnits[toks[next+1].val] {
					var err error
					if lit, err = w.intervalQualifier(toks, next); err != nil {
						return nil, err
					}
					next++
				}
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
	for ; closeAt[len(toks)] > 0; closeAt[len(toks)]-- {
		w.out = append(w.out, synthGlued(")", toks[len(toks)-1]))
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
	return (t.kind == tkIdent && t.raw == "") || t.kind == tkQIdent || (t.syn && (t.val == "pg_cast" || t.val == PgArray || t.val == "pg_any" || t.val == "pg_all"))
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

// notAlias are the words that may follow AS without being an alias.
var notAlias = map[string]bool{
	"select": true, "with": true, "values": true, "table": true, "identity": true, "stored": true,
	"enum": true, "range": true, "materialized": true, "not": true, "on": true, "implicit": true, "assignment": true,
}

// tidbReserved are words the TiDB grammar reserves that PostgreSQL accepts
// as column and table names. In identifier position they are quoted.
var tidbReserved = map[string]bool{
	"key": true, "index": true, "range": true, "rank": true,
	"row": true, "rows": true, "interval": true,
	// TiDB reserves these for its NEXTVAL(seq) syntax; quoted, a call of
	// them parses as an ordinary function call.
	"nextval": true, "setval": true, "lastval": true,
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
		return !next("(") && !w.prevIs("each", "current")
	case "rows", "range":
		if len(w.out) > 0 && (w.out[len(w.out)-1].kind == tkNumber || w.out[len(w.out)-1].kind == tkParam) {
			return false // FETCH FIRST n ROWS, OFFSET n ROWS
		}
		if i+1 < len(toks) && (toks[i+1].kind == tkNumber || toks[i+1].kind == tkParam) {
			return false // ROWS 2 PRECEDING
		}
		return !next("between", "unbounded", "current") && !w.prevIs("first", "next", "only")
	case "nextval", "setval", "lastval":
		return true
	case "interval":
		return i+1 >= len(toks) || (toks[i+1].kind != tkString && toks[i+1].kind != tkNumber && toks[i+1].kind != tkParam)
	}
	return false
}
