package sqlparse

import (
	"strconv"
	"strings"
)

// LiteralKind is the type PostgreSQL gives a constant Parameterize lifted
// out of a statement.
type LiteralKind byte

const (
	LitInt4    LiteralKind = 'i' // an integer that fits in integer
	LitInt8    LiteralKind = 'I' // an integer that needs bigint
	LitUnknown LiteralKind = 's' // a plain '...' string: unknown until context types it
)

// Literal is one constant Parameterize replaced by a parameter.
type Literal struct {
	Kind LiteralKind
	Text string // the integer's digits, or the string's decoded content
}

// Parameterized is a statement text with some constants lifted out.
type Parameterized struct {
	// SQL is the text with the lifted constants replaced by $1..$n, in
	// order.
	SQL string
	// Key identifies the statement shape: SQL and the literal kinds. Two
	// texts with the same Key plan alike.
	Key      string
	Literals []Literal
}

// comparisonOps are the operators whose constant right operand is lifted.
var comparisonOps = map[string]bool{"=": true, "<>": true, "!=": true, "<": true, ">": true, "<=": true, ">=": true}

// literalStops are the tokens that may follow a lifted constant: they bind
// less tightly than a comparison, so the constant is the whole operand.
var literalStops = map[string]bool{
	"and": true, "or": true, "order": true, "group": true, "limit": true, "offset": true, "having": true,
	"union": true, "except": true, "intersect": true, "for": true, "then": true, "window": true, "fetch": true,
	"returning": true,
}

// Parameterize lifts the constants out of a single SELECT, INSERT, UPDATE
// or DELETE so that texts differing only in them share one parsed and
// planned statement (a session's statement cache, exec/stmtcache.go). It
// is deliberately narrow, so that the parameterized statement behaves
// exactly as the original, types and results alike. Only integers (typed
// integer or bigint, as PostgreSQL types them) and plain '...' strings
// (unknown, typed by their context) are lifted, and only where a
// parameter of that type is typed and resolved as the constant is:
//
//   - the whole right operand of a comparison with a column (col = 5,
//     t.col <> 'x'), an element of an all-constant col IN (...) list, or a
//     bound of col BETWEEN c1 AND c2, in a SELECT or in the WHERE clause
//     of an UPDATE or DELETE;
//   - a whole value of a single-row INSERT ... VALUES list or of an
//     UPDATE's SET col = value, which PostgreSQL assigns to the column
//     with the same assignment cast whether constant or parameter;
//   - the integers of such a value that is integer arithmetic only
//     (3 + 1, 6789 % 100: the operators resolve alike on integer and
//     bigint parameters).
//
// Anything else stays in the text: LIMIT and ORDER BY constants,
// select-list constants, casts, typed literals, negative numbers,
// decimals, function arguments, multi-row VALUES.
//
// It reports false when nothing was lifted or the text is not one such
// statement without parameters; the caller then parses sql as usual. The
// caller must fall back to the original text when the parameterized one
// fails to parse, plan or bind, so that errors stay the original's.
func Parameterize(sql string) (Parameterized, bool) { return Lex(sql).Parameterize() }

// Parameterize is Parameterize of the lexed text.
func (l Lexed) Parameterize() (Parameterized, bool) {
	sql, toks := l.sql, l.toks
	if l.err != nil || len(toks) == 0 {
		return Parameterized{}, false
	}
	n := len(toks)
	if toks[n-1].isOp(";") {
		if n--; n == 0 {
			return Parameterized{}, false
		}
	}
	toks = toks[:n]
	for _, t := range toks {
		if t.kind == tkParam || t.isOp(";") {
			return Parameterized{}, false
		}
	}
	var liftedBuf [64]bool
	lifted := liftedBuf[:0]
	if n <= len(liftedBuf) {
		lifted = liftedBuf[:n]
	} else {
		lifted = make([]bool, n)
	}
	any := false
	switch first := toks[0]; {
	case first.is("select"):
		for _, t := range toks {
			if t.is("into") {
				return Parameterized{}, false
			}
		}
		any = liftComparisons(sql, toks, 0, lifted)
	case first.is("delete"):
		any = liftComparisons(sql, toks, 0, lifted)
	case first.is("insert"):
		any = liftInsertValues(sql, toks, lifted)
	case first.is("update"):
		end, ok := liftSetList(sql, toks, lifted)
		any = ok
		if liftComparisons(sql, toks, end, lifted) {
			any = true
		}
	}
	if !any {
		return Parameterized{}, false
	}
	return render(sql, toks, lifted), true
}

// render replaces the lifted tokens of sql by $1..$n.
func render(sql string, toks []token, lifted []bool) Parameterized {
	count := 0
	for _, l := range lifted {
		if l {
			count++
		}
	}
	// Key is the kinds, a NUL and the text; SQL is Key's tail.
	lits := make([]Literal, 0, count)
	var b strings.Builder
	b.Grow(count + 1 + len(sql) + 3*count)
	for i, t := range toks {
		if !lifted[i] {
			continue
		}
		lit := Literal{Kind: LitUnknown, Text: t.val}
		if t.kind == tkNumber {
			v, _ := strconv.ParseInt(t.val, 10, 64)
			lit.Kind = LitInt8
			if v >= -1<<31 && v < 1<<31 {
				lit.Kind = LitInt4
			}
		}
		lits = append(lits, lit)
		b.WriteByte(byte(lit.Kind))
	}
	b.WriteByte(0)
	last := 0
	var num [20]byte
	n := 0
	for i, t := range toks {
		if !lifted[i] {
			continue
		}
		n++
		b.WriteString(sql[last:t.pos])
		b.WriteByte('$')
		b.Write(strconv.AppendInt(num[:0], int64(n), 10))
		last = t.end
	}
	b.WriteString(sql[last:])
	key := b.String()
	return Parameterized{SQL: key[count+1:], Key: key, Literals: lits}
}

// liftComparisons marks the comparison constants of toks[from:] (see
// Parameterize) and reports whether it marked any.
func liftComparisons(sql string, toks []token, from int, lifted []bool) bool {
	n := len(toks)
	any := false
	stopAt := func(i int) bool {
		if i >= n {
			return true
		}
		t := toks[i]
		return t.isOp(")") || t.isOp(",") || (t.kind == tkIdent && literalStops[t.val])
	}
	isColumn := func(i int) bool {
		return i >= 0 && (toks[i].kind == tkIdent && !nonColumnWords[toks[i].val] || toks[i].kind == tkQIdent)
	}
	for i := from; i < n; i++ {
		t := toks[i]
		switch {
		case t.is("returning"):
			return any // a select list: its constants stay
		case t.kind == tkOp && comparisonOps[t.val] && isColumn(i-1) && i+1 < n && liftable(sql, toks[i+1]) && stopAt(i+2):
			lifted[i+1], any = true, true
			i++
		case t.is("between") && isColumn(i-1) && i+4 <= n && liftable(sql, toks[i+1]) && toks[i+2].is("and") &&
			liftable(sql, toks[i+3]) && stopAt(i+4):
			lifted[i+1], lifted[i+3], any = true, true, true
			i += 3
		case t.is("in") && isColumn(i-1) && i+1 < n && toks[i+1].isOp("("):
			j := i + 2
			for j+1 < n && liftable(sql, toks[j]) && (toks[j+1].isOp(",") || toks[j+1].isOp(")")) {
				if toks[j+1].isOp(")") {
					break
				}
				j += 2
			}
			if j+1 < n && liftable(sql, toks[j]) && toks[j+1].isOp(")") && stopAt(j+2) {
				for k := i + 2; k <= j; k += 2 {
					lifted[k] = true
				}
				any = true
				i = j + 1
			}
		}
	}
	return any
}

// liftInsertValues marks the values of INSERT INTO t [(cols)] VALUES (...)
// [RETURNING ... | ON CONFLICT ...] with one row, and reports whether it
// marked any.
func liftInsertValues(sql string, toks []token, lifted []bool) bool {
	n := len(toks)
	if n < 2 || !toks[1].is("into") {
		return false
	}
	// The target and column list: names, dots, commas and one level of
	// parentheses, up to VALUES.
	v := 2
	for ; v < n && !toks[v].is("values"); v++ {
		t := toks[v]
		if !(t.kind == tkIdent || t.kind == tkQIdent || t.isOp(".") || t.isOp(",") || t.isOp("(") || t.isOp(")")) {
			return false
		}
	}
	if v+1 >= n || !toks[v+1].isOp("(") {
		return false
	}
	end := closing(toks, v+1)
	if end < 0 || end+1 < n && !toks[end+1].is("returning") && !toks[end+1].is("on") {
		return false // not one row, or something unexpected follows
	}
	any := false
	for a := v + 2; a < end; {
		b := a
		for depth := 0; b < end && (depth > 0 || !toks[b].isOp(",")); b++ {
			if toks[b].isOp("(") {
				depth++
			} else if toks[b].isOp(")") {
				depth--
			}
		}
		if liftValue(sql, toks[a:b], lifted[a:b]) {
			any = true
		}
		a = b + 1
	}
	return any
}

// liftSetList marks the values of an UPDATE's SET col = value, ... list
// and returns the index of the token that ends the list (WHERE, FROM,
// RETURNING or the end) and whether it marked any.
func liftSetList(sql string, toks []token, lifted []bool) (int, bool) {
	n := len(toks)
	s := 1
	for s < n && !toks[s].is("set") {
		if toks[s].isOp("(") {
			return n, false
		}
		s++
	}
	any := false
	i := s + 1
	for i < n {
		// One item: up to a comma or the list's end at depth 0.
		j, depth := i, 0
		for ; j < n; j++ {
			t := toks[j]
			if t.isOp("(") {
				depth++
			} else if t.isOp(")") {
				depth--
			} else if depth == 0 && (t.isOp(",") || t.is("where") || t.is("from") || t.is("returning")) {
				break
			}
		}
		if j-i >= 3 && (toks[i].kind == tkIdent || toks[i].kind == tkQIdent) && toks[i+1].isOp("=") &&
			liftValue(sql, toks[i+2:j], lifted[i+2:j]) {
			any = true
		}
		if j >= n || !toks[j].isOp(",") {
			return j, any
		}
		i = j + 1
	}
	return n, any
}

// liftValue marks the constants of an assigned value: a lone liftable
// constant, or integers joined by arithmetic operators.
func liftValue(sql string, val []token, lifted []bool) bool {
	if len(val) == 1 {
		if liftable(sql, val[0]) {
			lifted[0] = true
			return true
		}
		return false
	}
	if len(val)%2 == 0 {
		return false
	}
	for i, t := range val {
		if i%2 == 0 && (t.kind != tkNumber || !liftable(sql, t)) || i%2 == 1 && (t.kind != tkOp || !arithmeticOps[t.val]) {
			return false
		}
	}
	for i := 0; i < len(val); i += 2 {
		lifted[i] = true
	}
	return true
}

// arithmeticOps are the binary operators of a lifted integer expression.
var arithmeticOps = map[string]bool{"+": true, "-": true, "*": true, "/": true, "%": true}

// closing returns the index of the parenthesis closing toks[open], or -1.
func closing(toks []token, open int) int {
	depth := 0
	for i := open; i < len(toks); i++ {
		if toks[i].isOp("(") {
			depth++
		} else if toks[i].isOp(")") {
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// nonColumnWords are words that can stand before a comparison without
// being a column (or a type name ending a cast, which types the operand
// as well as a column does).
var nonColumnWords = map[string]bool{
	"null": true, "true": true, "false": true, "not": true, "and": true, "or": true, "where": true,
	"when": true, "then": true, "else": true, "select": true, "on": true, "having": true, "by": true,
	"all": true, "any": true, "some": true, "array": true, "row": true, "case": true, "end": true,
}

// liftable reports whether t is a constant Parameterize lifts: a plain
// integer that fits in bigint, or a plain '...' string (not E”, U&”,
// dollar-quoted or bit strings).
func liftable(sql string, t token) bool {
	switch t.kind {
	case tkNumber:
		for i := 0; i < len(t.val); i++ {
			if !isDigit(t.val[i]) {
				return false
			}
		}
		_, err := strconv.ParseInt(t.val, 10, 64)
		return err == nil
	case tkString:
		return t.pos < len(sql) && sql[t.pos] == '\'' && !t.syn
	}
	return false
}
