package sqlparse

import (
	"strconv"
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// tokKind classifies a lexical token.
type tokKind uint8

const (
	tkIdent  tokKind = iota // unquoted word; val is folded to lower case
	tkQIdent                // "quoted identifier"; val is the exact name
	tkString                // any string literal form; val is the decoded content
	tkBits                  // B'..' or X'..'; emitted verbatim
	tkNumber                // numeric literal; val is the text
	tkParam                 // $n; val is n in decimal
	tkOp                    // operator or punctuation, including ( ) , ; . [ ] ::
)

// token is one lexical token of the original input. pos is the byte offset
// of its first byte in the whole input, end the offset just past it.
type token struct {
	kind tokKind
	val  string
	pos  int
	end  int
	raw  string // when set, emitted verbatim instead of val (synthetic tokens)
	syn  bool   // synthetic: produced by a rewrite, not by the lexer
	glue bool   // emit with no space before it
}

// is reports whether t is the unquoted keyword kw (lower case).
func (t token) is(kw string) bool { return t.kind == tkIdent && t.val == kw }

// isOp reports whether t is the operator or punctuation op.
func (t token) isOp(op string) bool { return t.kind == tkOp && t.val == op }

// multiOps are the multi-character operators recognised, longest first.
var multiOps = []string{"!~~*", "->>", "#>>", "!~~", "~~*", "||/", "!~*", "::", "#>", "|/", "~~", "<=", ">=", "<>", "!=", "||", "->", "@>", "<@", "!~", "~*", "<<", ">>", "&&", ":=", "=>"}

// lexer splits a PostgreSQL query string into tokens, dropping whitespace and
// comments. It never looks at more than the input it was given.
type lexer struct {
	src  string
	p    int
	toks []token
}

// lex tokenizes all of src. Errors are *pgerror.Error with Position set.
func lex(src string) ([]token, error) {
	// A token takes four bytes of text on average in short statements;
	// sizing the slice once spares the growth a point query's dozen and
	// a half tokens would cost.
	l := &lexer{src: src, toks: make([]token, 0, len(src)/4+4)}
	for {
		if err := l.skipSpace(); err != nil {
			return nil, err
		}
		if l.p >= len(src) {
			return l.toks, nil
		}
		if err := l.next(); err != nil {
			return nil, err
		}
	}
}

func (l *lexer) errAt(pos int, format string, args ...any) error {
	return pgerror.New(pgerror.CodeSyntaxError, format, args...).WithPosition(charPos(l.src, pos))
}

// skipSpace skips whitespace, -- comments and nested /* */ comments.
func (l *lexer) skipSpace() error {
	for l.p < len(l.src) {
		c := l.src[l.p]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			l.p++
		case strings.HasPrefix(l.src[l.p:], "--"):
			if i := strings.IndexByte(l.src[l.p:], '\n'); i >= 0 {
				l.p += i + 1
			} else {
				l.p = len(l.src)
			}
		case strings.HasPrefix(l.src[l.p:], "/*"):
			start, depth := l.p, 0
			for {
				if l.p >= len(l.src) {
					return l.errAt(start, "unterminated /* comment at or near %q", l.src[start:min(start+2, len(l.src))])
				}
				if strings.HasPrefix(l.src[l.p:], "/*") {
					depth++
					l.p += 2
				} else if strings.HasPrefix(l.src[l.p:], "*/") {
					depth--
					l.p += 2
					if depth == 0 {
						break
					}
				} else {
					l.p++
				}
			}
		default:
			return nil
		}
	}
	return nil
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

func isIdentCont(c byte) bool { return isIdentStart(c) || c == '$' || isDigit(c) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (l *lexer) emit(k tokKind, val string, pos int) {
	l.toks = append(l.toks, token{kind: k, val: val, pos: pos, end: l.p})
}

// next lexes one token starting at l.p (not whitespace).
func (l *lexer) next() error {
	src, start := l.src, l.p
	c := src[start]
	rest := src[start:]
	switch {
	case c == '\'':
		s, err := l.quoted(start, '\'', false)
		if err != nil {
			return err
		}
		l.emit(tkString, s, start)
	case (c == 'e' || c == 'E') && len(rest) > 1 && rest[1] == '\'':
		l.p++
		s, err := l.quoted(start, '\'', true)
		if err != nil {
			return err
		}
		l.emit(tkString, s, start)
	case (c == 'u' || c == 'U') && strings.HasPrefix(rest[1:], "&'"):
		l.p += 2
		s, err := l.quoted(start, '\'', false)
		if err != nil {
			return err
		}
		if s, err = decodeUnicode(s); err != nil {
			return l.errAt(start, "%s", err.Error())
		}
		l.emit(tkString, s, start)
	case (c == 'b' || c == 'B' || c == 'x' || c == 'X') && len(rest) > 1 && rest[1] == '\'':
		l.p++
		if _, err := l.quoted(start, '\'', false); err != nil {
			return err
		}
		l.emit(tkBits, src[start:l.p], start)
	case c == '"':
		s, err := l.quoted(start, '"', false)
		if err != nil {
			return err
		}
		if s == "" {
			return l.errAt(start, "zero-length delimited identifier at or near \"\"\"\"")
		}
		l.emit(tkQIdent, s, start)
	case c == '$':
		return l.dollar(start)
	case isIdentStart(c):
		for l.p < len(src) && isIdentCont(src[l.p]) {
			l.p++
		}
		l.emit(tkIdent, foldIdent(src[start:l.p]), start)
	case isDigit(c) || (c == '.' && len(rest) > 1 && isDigit(rest[1])):
		l.number()
		l.emit(tkNumber, src[start:l.p], start)
	default:
		for _, op := range multiOps {
			if strings.HasPrefix(rest, op) {
				l.p += len(op)
				l.emit(tkOp, op, start)
				return nil
			}
		}
		l.p++
		l.emit(tkOp, src[start:l.p], start)
	}
	return nil
}

// foldIdent lower-cases ASCII letters, as PostgreSQL does for unquoted names.
// An upper-case keyword folds to its interned lower-case spelling, without
// allocating.
func foldIdent(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			var buf [16]byte
			b := buf[:0]
			if len(s) > len(buf) {
				b = make([]byte, 0, len(s))
			}
			b = append(b, s...)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			if kw, ok := commonKeywords[string(b)]; ok {
				return kw
			}
			return string(b)
		}
	}
	return s
}

// commonKeywords interns the keywords of short statements, which clients
// often send upper-case.
var commonKeywords = func() map[string]string {
	m := map[string]string{}
	for _, w := range strings.Fields(`select from where and or not in between is null true false as on join
		left right inner outer cross using group by order having limit offset asc desc distinct all any
		insert into values default returning update set delete conflict do nothing begin commit rollback
		with union except intersect case when then else end like ilike exists count sum min max avg for
		share nowait skip locked only table create drop alter index primary key int integer bigint text`) {
		m[w] = w
	}
	return m
}()

func (l *lexer) number() {
	src := l.src
	for l.p < len(src) && isDigit(src[l.p]) {
		l.p++
	}
	// A '.' starts a fraction unless it begins a ".." range (not PG syntax).
	if l.p < len(src) && src[l.p] == '.' && !strings.HasPrefix(src[l.p:], "..") {
		l.p++
		for l.p < len(src) && isDigit(src[l.p]) {
			l.p++
		}
	}
	if l.p < len(src) && (src[l.p] == 'e' || src[l.p] == 'E') {
		q := l.p + 1
		if q < len(src) && (src[q] == '+' || src[q] == '-') {
			q++
		}
		if q < len(src) && isDigit(src[q]) {
			for q < len(src) && isDigit(src[q]) {
				q++
			}
			l.p = q
		}
	}
}

// quoted reads a q-delimited body starting at l.p (the opening quote), with
// doubled-quote escapes and, when esc is set, backslash escapes. start is the
// token's first byte, used for error positions.
func (l *lexer) quoted(start int, q byte, esc bool) (string, error) {
	src := l.src
	l.p++ // opening quote
	var b strings.Builder
	for {
		if l.p >= len(src) {
			if q == '"' {
				return "", l.errAt(start, "unterminated quoted identifier at or near %q", src[start:])
			}
			return "", l.errAt(start, "unterminated quoted string at or near %q", src[start:])
		}
		c := src[l.p]
		switch {
		case c == q && l.p+1 < len(src) && src[l.p+1] == q:
			b.WriteByte(q)
			l.p += 2
		case c == q:
			l.p++
			s := b.String()
			if strings.IndexByte(s, 0) >= 0 {
				return "", pgerror.New("22021", "invalid byte sequence for encoding \"UTF8\": 0x00").WithPosition(charPos(src, start))
			}
			return s, nil
		case c == '\\' && esc:
			n, err := decodeEscape(src[l.p:], &b)
			if err != nil {
				return "", l.errAt(l.p, "%s", err.Error())
			}
			l.p += n
		default:
			b.WriteByte(c)
			l.p++
		}
	}
}

// dollar lexes $n or a $tag$...$tag$ string starting at start.
func (l *lexer) dollar(start int) error {
	src := l.src
	q := start + 1
	if q < len(src) && isDigit(src[q]) {
		for q < len(src) && isDigit(src[q]) {
			q++
		}
		n, err := strconv.Atoi(src[start+1 : q])
		if err != nil || n < 1 || n > 65535 {
			return l.errAt(start, "there is no parameter %s", src[start:q])
		}
		l.p = q
		l.emit(tkParam, strconv.Itoa(n), start)
		return nil
	}
	if q < len(src) && isIdentStart(src[q]) {
		for q < len(src) && isIdentCont(src[q]) && src[q] != '$' {
			q++
		}
	}
	if q >= len(src) || src[q] != '$' {
		return l.errAt(start, "syntax error at or near \"$\"")
	}
	delim := src[start : q+1]
	i := strings.Index(src[q+1:], delim)
	if i < 0 {
		return l.errAt(start, "unterminated dollar-quoted string at or near %q", src[start:])
	}
	body := src[q+1 : q+1+i]
	if strings.IndexByte(body, 0) >= 0 {
		return pgerror.New("22021", "invalid byte sequence for encoding \"UTF8\": 0x00").WithPosition(charPos(src, start))
	}
	l.p = q + 1 + i + len(delim)
	l.emit(tkString, body, start)
	return nil
}
