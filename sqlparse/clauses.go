package sqlparse

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// OnConflict is the ON CONFLICT clause of an INSERT, cut out of the
// statement before TiDB parsing (never mapped to ON DUPLICATE KEY UPDATE).
type OnConflict struct {
	Columns    []string          // conflict target columns; empty for a bare ON CONFLICT DO NOTHING
	Constraint string            // ON CONFLICT ON CONSTRAINT name
	DoNothing  bool              // DO NOTHING; otherwise DO UPDATE
	Set        []*ast.Assignment // DO UPDATE SET; EXCLUDED.c is a column with Table "excluded"
	Where      ast.ExprNode      // DO UPDATE ... WHERE; nil if absent
}

var explainOptions = map[string]bool{
	"analyze": true, "analyse": true, "verbose": true, "costs": true, "settings": true,
	"buffers": true, "wal": true, "timing": true, "summary": true, "format": true,
	"generic_plan": true, "memory": true, "serialize": true,
}

// explainPrefix recognises EXPLAIN [ANALYZE] [VERBOSE] and EXPLAIN (options).
// It returns the TiDB prefix to emit and the index where the explained
// statement starts, or nil, 0 for a statement that is not EXPLAIN.
func explainPrefix(src string, toks []token) ([]token, int, error) {
	if len(toks) == 0 || !toks[0].is("explain") {
		return nil, 0, nil
	}
	analyze, i := false, 1
	if i < len(toks) && toks[i].isOp("(") {
		i++
		for i < len(toks) && !toks[i].isOp(")") {
			opt := toks[i]
			if opt.kind != tkIdent || !explainOptions[opt.val] {
				return nil, 0, pgerror.New(pgerror.CodeSyntaxError, "unrecognized EXPLAIN option %q", opt.val).WithPosition(charPos(src, opt.pos))
			}
			i++
			on := true
			if i < len(toks) && !toks[i].isOp(",") && !toks[i].isOp(")") {
				v := toks[i].val
				on = !(v == "false" || v == "off" || v == "0" || v == "no")
				i++
			}
			if opt.val == "analyze" || opt.val == "analyse" {
				analyze = on
			}
			if i < len(toks) && toks[i].isOp(",") {
				i++
			}
		}
		if i >= len(toks) {
			return nil, 0, pgerror.New(pgerror.CodeSyntaxError, "syntax error at end of input").WithPosition(charPos(src, toks[len(toks)-1].end))
		}
		i++
	} else {
		if i < len(toks) && (toks[i].is("analyze") || toks[i].is("analyse")) {
			analyze = true
			i++
		}
		if i < len(toks) && toks[i].is("verbose") {
			i++
		}
	}
	prefix := []token{toks[0]}
	if analyze {
		prefix = append(prefix, synth("analyze", toks[0]))
	}
	return prefix, i, nil
}

// cutAllowFullScan removes a trailing ALLOW FULL SCAN from a SELECT,
// UPDATE, DELETE or INSERT (the statement at toks[bodyAt:], after any
// EXPLAIN prefix) and reports whether it was there. Anywhere else the words
// are left for TiDB, which rejects them. At least one token remains.
func cutAllowFullScan(toks []token, bodyAt int) ([]token, bool) {
	n := len(toks)
	if n-3 <= bodyAt || !toks[n-3].is("allow") || !toks[n-2].is("full") || !toks[n-1].is("scan") {
		return toks, false
	}
	switch b := toks[bodyAt]; {
	case b.is("select") || b.is("with") || b.isOp("(") || b.is("update") || b.is("delete") || b.is("insert"):
		return toks[:n-3], true
	}
	return toks, false
}

// cutClauses removes a depth-0 ON CONFLICT and RETURNING from the body of
// an INSERT, UPDATE or DELETE. It returns the remaining tokens and the cut
// pieces (nil when absent); onConflict starts after "ON CONFLICT".
func cutClauses(body []token) (rest, onConflict, returning []token, onAt token) {
	if len(body) == 0 || !(body[0].is("insert") || body[0].is("update") || body[0].is("delete") || body[0].is("with")) {
		return body, nil, nil, token{}
	}
	depth, conflictAt, returningAt := 0, -1, -1
	for i, t := range body {
		switch {
		case t.isOp("(") || t.isOp("["):
			depth++
		case t.isOp(")") || t.isOp("]"):
			depth--
		case depth != 0:
		case t.is("returning") && returningAt < 0:
			returningAt = i
		case t.is("on") && i+1 < len(body) && body[i+1].is("conflict") && conflictAt < 0 && returningAt < 0:
			conflictAt = i
		}
	}
	end := len(body)
	if returningAt >= 0 {
		returning = body[returningAt+1:]
		end = returningAt
	}
	if conflictAt >= 0 {
		onConflict = body[conflictAt+2 : end]
		onAt = body[conflictAt]
		end = conflictAt
	}
	return body[:end], onConflict, returning, onAt
}

// conflictSpec holds ON CONFLICT parsed at token level; setPiece is the
// "SET ... [WHERE ...]" tail of DO UPDATE, still to be parsed by TiDB.
type conflictSpec struct {
	oc       *OnConflict
	setPiece []token
}

// parseConflict parses the tokens after ON CONFLICT.
func parseConflict(src string, toks []token, at token) (*conflictSpec, error) {
	p := &utilParser{src: src, toks: toks}
	if len(toks) == 0 {
		return nil, pgerror.New(pgerror.CodeSyntaxError, "syntax error at end of input").WithPosition(charPos(src, at.end))
	}
	oc := &OnConflict{}
	switch {
	case p.i < len(toks) && toks[p.i].isOp("("):
		p.i++
		for {
			n, err := p.name()
			if err != nil {
				return nil, err
			}
			oc.Columns = append(oc.Columns, n)
			if p.i < len(toks) && toks[p.i].isOp(",") {
				p.i++
				continue
			}
			if p.i >= len(toks) || !toks[p.i].isOp(")") {
				return nil, p.errHere()
			}
			p.i++
			break
		}
		if p.peek("where") {
			return nil, unsupported("ON CONFLICT ... WHERE index_predicate").WithPosition(charPos(src, toks[p.i].pos))
		}
	case p.accept("on"):
		if !p.accept("constraint") {
			return nil, p.errHere()
		}
		n, err := p.name()
		if err != nil {
			return nil, err
		}
		oc.Constraint = n
	}
	if !p.accept("do") {
		return nil, p.errHere()
	}
	if p.accept("nothing") {
		oc.DoNothing = true
		if _, err := p.done(nil); err != nil {
			return nil, err
		}
		return &conflictSpec{oc: oc}, nil
	}
	if !p.accept("update") {
		return nil, p.errHere()
	}
	if len(oc.Columns) == 0 && oc.Constraint == "" {
		return nil, pgerror.New(pgerror.CodeSyntaxError, "ON CONFLICT DO UPDATE requires inference specification or constraint name").
			WithPosition(charPos(src, at.pos)).WithHint("For example, ON CONFLICT (column_name).")
	}
	if !p.peek("set") {
		return nil, p.errHere()
	}
	return &conflictSpec{oc: oc, setPiece: toks[p.i:]}, nil
}

// InsertExtras is the INSERT syntax cut out before TiDB parsing.
type InsertExtras struct {
	Alias string // INSERT INTO t AS alias; "" if none
	// Overriding is "system" or "user" for OVERRIDING ... VALUE; "" if none.
	Overriding string
	// DefaultValues is set for INSERT ... DEFAULT VALUES.
	DefaultValues bool
}

// cutInsertExtras removes "AS alias" after the target table, OVERRIDING
// {SYSTEM | USER} VALUE, and turns DEFAULT VALUES into an empty VALUES row.
// It returns nil extras for other statements and plain INSERTs.
func cutInsertExtras(src string, body []token) ([]token, *InsertExtras, error) {
	if len(body) < 3 || !body[0].is("insert") || !body[1].is("into") {
		return body, nil, nil
	}
	ex := &InsertExtras{}
	i := 3 // after INSERT INTO name
	for i+1 < len(body) && body[i].isOp(".") {
		i += 2
	}
	out := append([]token(nil), body[:i]...)
	if i+1 < len(body) && body[i].is("as") {
		if body[i+1].kind != tkIdent && body[i+1].kind != tkQIdent {
			return nil, nil, syntaxErrorAt(src, body[i+1].pos, body[i+1].end)
		}
		ex.Alias = body[i+1].val
		i += 2
	}
	if i < len(body) && body[i].isOp("(") {
		depth := 0
		for ; i < len(body); i++ {
			out = append(out, body[i])
			if body[i].isOp("(") {
				depth++
			} else if body[i].isOp(")") {
				if depth--; depth == 0 {
					i++
					break
				}
			}
		}
	}
	if i < len(body) && body[i].is("overriding") {
		if i+2 >= len(body) || !(body[i+1].is("system") || body[i+1].is("user")) || !body[i+2].is("value") {
			p := &utilParser{src: src, toks: body, i: i + 1}
			if i+1 < len(body) && (body[i+1].is("system") || body[i+1].is("user")) {
				p.i++
			}
			return nil, nil, p.errHere()
		}
		ex.Overriding = body[i+1].val
		i += 3
	}
	if i+1 < len(body) && body[i].is("default") && body[i+1].is("values") {
		ex.DefaultValues = true
		out = append(out, synth("VALUES", body[i]), synth("(", body[i]), synth(")", body[i+1]))
		i += 2
	}
	out = append(out, body[i:]...)
	if *ex == (InsertExtras{}) {
		return body, nil, nil
	}
	return out, ex, nil
}
