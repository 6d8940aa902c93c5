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
}

// Parameterize lifts the constants out of a single SELECT so that texts
// differing only in them share one parsed and planned statement (a
// session's statement cache, exec/stmtcache.go). It is deliberately
// narrow, so that the parameterized statement behaves exactly as the
// original, types and results alike. A constant is lifted only when it is
// the whole right operand of a comparison with a column (col = 5,
// t.col <> 'x'), an element of an all-constant col IN (...) list, or a
// bound of col BETWEEN c1 AND c2; only integers (typed integer or bigint,
// as PostgreSQL types them) and plain '...' strings (unknown, typed by
// the column) are lifted. Anything else stays in the text: LIMIT and
// ORDER BY constants, select-list constants, casts, typed literals,
// negative numbers, decimals.
//
// It reports false when nothing was lifted or the text is not a single
// SELECT without parameters; the caller then parses sql as usual. The
// caller must fall back to the original text when the parameterized one
// fails to parse, plan or bind, so that errors stay the original's.
func Parameterize(sql string) (Parameterized, bool) {
	toks, err := lex(sql)
	if err != nil || len(toks) == 0 || !toks[0].is("select") {
		return Parameterized{}, false
	}
	n := len(toks)
	if toks[n-1].isOp(";") {
		n--
	}
	toks = toks[:n]
	for _, t := range toks {
		if t.kind == tkParam || t.isOp(";") || t.is("into") {
			return Parameterized{}, false
		}
	}
	lifted := make([]bool, n)
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
	for i := 0; i < n; i++ {
		t := toks[i]
		switch {
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
	if !any {
		return Parameterized{}, false
	}
	var b, kinds strings.Builder
	var lits []Literal
	last := 0
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
		b.WriteString(sql[last:t.pos])
		b.WriteByte('$')
		b.WriteString(strconv.Itoa(len(lits)))
		last = t.end
		kinds.WriteByte(byte(lit.Kind))
	}
	b.WriteString(sql[last:])
	norm := b.String()
	return Parameterized{SQL: norm, Key: kinds.String() + "\x00" + norm, Literals: lits}, true
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
