package sqlparse

import (
	"sort"
	"strconv"
	"strings"
)

// synth returns a synthetic token emitted as raw text, attributed to the
// original byte range of at for error positions.
func synth(raw string, at token) token {
	return token{kind: tkOp, val: strings.ToLower(raw), raw: raw, pos: at.pos, end: at.end, syn: true}
}

// synthGlued is synth without a space before it.
func synthGlued(raw string, at token) token {
	t := synth(raw, at)
	t.glue = true
	return t
}

// quoteString renders s as a standard SQL string literal.
func quoteString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// quoteIdent renders s as a double-quoted identifier.
func quoteIdent(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// text is how t is written in the rewritten SQL handed to TiDB.
func (t token) text() string {
	if t.raw != "" {
		return t.raw
	}
	switch t.kind {
	case tkQIdent:
		return quoteIdent(t.val)
	case tkString:
		return quoteString(t.val)
	case tkParam:
		return "?"
	}
	return t.val
}

// isPunct reports whether t is punctuation that may touch any neighbour.
func (t token) isPunct() bool {
	return t.kind == tkOp && len(t.val) == 1 && strings.Contains("(),.[];", t.val)
}

// segment maps a byte offset of rewritten text back to an original token.
type segment struct {
	at       int // offset in rewritten text
	pos, end int // byte range in the original input
}

// rewritten is SQL text for TiDB plus what is needed to map results back.
type rewritten struct {
	sql    string
	segs   []segment
	params map[int]int // byte offset of a '?' in sql -> PostgreSQL $n
}

// emit joins tokens into SQL text. Tokens adjacent in the original stay
// adjacent (so f(x) is not turned into f (x)), except two operators.
func emit(toks []token) *rewritten {
	var b strings.Builder
	r := &rewritten{params: map[int]int{}}
	for i, t := range toks {
		if i > 0 {
			p := toks[i-1]
			adjacent := !p.syn && !t.syn && p.end == t.pos
			if !t.glue && (!adjacent || (p.kind == tkOp && t.kind == tkOp && !p.isPunct() && !t.isPunct())) {
				b.WriteByte(' ')
			}
		}
		r.segs = append(r.segs, segment{at: b.Len(), pos: t.pos, end: t.end})
		if t.kind == tkParam {
			n, _ := strconv.Atoi(t.val)
			r.params[b.Len()] = n
		}
		b.WriteString(t.text())
	}
	r.sql = b.String()
	return r
}

// origin returns the original byte range of the token covering rewritten
// offset off; ok is false past the end of the rewritten text.
func (r *rewritten) origin(off int) (pos, end int, ok bool) {
	if off >= len(r.sql) || len(r.segs) == 0 {
		return 0, 0, false
	}
	i := sort.Search(len(r.segs), func(i int) bool { return r.segs[i].at > off }) - 1
	if i < 0 {
		i = 0
	}
	return r.segs[i].pos, r.segs[i].end, true
}
