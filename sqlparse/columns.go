package sqlparse

import (
	"strconv"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// ColumnExtra is what a CREATE TABLE column definition says that TiDB does
// not parse. The planner turns it into the column's default and sequence.
type ColumnExtra struct {
	// Default is the original text of the DEFAULT expression; "" if none.
	Default string
	// Serial is "smallserial", "serial" or "bigserial" (as written, e.g.
	// "serial4"); the type given to TiDB is the matching integer.
	Serial string
	// Identity is "always" or "by default" for GENERATED ... AS IDENTITY.
	Identity string
	// Seq holds the identity's sequence options; nil fields are unset.
	Seq SeqOptions
}

// SeqOptions are the sequence options of an identity column.
type SeqOptions struct {
	Start, Increment, Min, Max *int64
}

// serialTypes maps the serial pseudo-types to their integer types.
var serialTypes = map[string]string{
	"smallserial": "smallint", "serial2": "smallint",
	"serial": "integer", "serial4": "integer",
	"bigserial": "bigint", "serial8": "bigint",
}

// constraintStarts are the words that end a DEFAULT expression.
var constraintStarts = map[string]bool{
	"not": true, "null": true, "constraint": true, "primary": true, "unique": true, "check": true,
	"references": true, "generated": true, "collate": true, "default": true,
}

// columnConstraints copies a column's constraints from toks[i] up to the end
// of the element (a depth-0 ',' or ')') to out, except DEFAULT <expr> and
// GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY [(options)], which go to ex.
func columnConstraints(src string, toks []token, i int, out []token, ex *ColumnExtra) (int, []token, error) {
	for i < len(toks) && !toks[i].isOp(",") && !toks[i].isOp(")") {
		t := toks[i]
		switch {
		case t.is("default"):
			start, depth := i+1, 0
			j := start
			for ; j < len(toks); j++ {
				u := toks[j]
				if depth == 0 && (u.isOp(",") || u.isOp(")") || (j > start && constraintStarts[u.val] && u.kind == tkIdent && !toks[j-1].is("is"))) {
					break
				}
				if u.isOp("(") || u.isOp("[") {
					depth++
				} else if u.isOp(")") || u.isOp("]") {
					depth--
				}
			}
			if j == start {
				return 0, nil, syntaxAfter(src, toks, start)
			}
			if ex.Default != "" {
				return 0, nil, pgerror.New(pgerror.CodeSyntaxError, "multiple default values specified for column").WithPosition(charPos(src, t.pos))
			}
			ex.Default = src[toks[start].pos:toks[j-1].end]
			i = j
		case t.is("generated") && i+1 < len(toks) && (toks[i+1].is("always") || toks[i+1].is("by")):
			j, err := identity(src, toks, i, ex)
			if err != nil {
				return 0, nil, err
			}
			if j < 0 { // GENERATED ALWAYS AS (expr): left to TiDB
				out = append(out, t)
				i++
				continue
			}
			i = j
		default:
			depth := 0
			for ; i < len(toks); i++ {
				u := toks[i]
				if depth == 0 && (u.isOp(",") || u.isOp(")") || (u != t && u.kind == tkIdent && (u.is("default") || u.is("generated")) && !toks[i-1].is("not"))) {
					break
				}
				if u.isOp("(") || u.isOp("[") {
					depth++
				} else if u.isOp(")") || u.isOp("]") {
					depth--
				}
				out = append(out, u)
			}
		}
	}
	return i, out, nil
}

// identity parses GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY [(options)]
// at toks[i] and returns the index after it, or -1 when the clause is a
// generated column (GENERATED ALWAYS AS (expr)).
func identity(src string, toks []token, i int, ex *ColumnExtra) (int, error) {
	p := &utilParser{src: src, toks: toks, i: i + 1}
	kind := "always"
	if !p.accept("always") {
		p.accept("by")
		if !p.accept("default") {
			return 0, p.errHere()
		}
		kind = "by default"
	}
	if !p.accept("as") {
		return 0, p.errHere()
	}
	if !p.accept("identity") {
		if kind == "always" && p.i < len(toks) && toks[p.i].isOp("(") {
			return -1, nil
		}
		return 0, p.errHere()
	}
	if ex.Identity != "" {
		return 0, pgerror.New(pgerror.CodeSyntaxError, "multiple identity specifications for column").WithPosition(charPos(src, toks[i].pos))
	}
	ex.Identity = kind
	if p.i < len(toks) && toks[p.i].isOp("(") {
		p.i++
		for p.i < len(toks) && !toks[p.i].isOp(")") {
			if err := seqOption(p, &ex.Seq); err != nil {
				return 0, err
			}
		}
		if p.i >= len(toks) {
			return 0, p.errHere()
		}
		p.i++
	}
	return p.i, nil
}

// seqOption parses one sequence option of an identity column.
func seqOption(p *utilParser, o *SeqOptions) error {
	var dst **int64
	switch {
	case p.accept("start"):
		p.accept("with")
		dst = &o.Start
	case p.accept("increment"):
		p.accept("by")
		dst = &o.Increment
	case p.accept("minvalue"):
		dst = &o.Min
	case p.accept("maxvalue"):
		dst = &o.Max
	case p.accept("cache"):
		_, err := p.signedInt() // every value is allocated in blocks anyway
		return err
	case p.accept("no"):
		if !p.accept("minvalue", "maxvalue", "cycle") {
			return p.errHere()
		}
		return nil
	case p.peek("cycle"):
		return unsupported("CYCLE sequences").WithPosition(charPos(p.src, p.toks[p.i].pos))
	default:
		return p.errHere()
	}
	v, err := p.signedInt()
	if err != nil {
		return err
	}
	*dst = &v
	return nil
}

// signedInt reads an optionally negative integer literal.
func (p *utilParser) signedInt() (int64, error) {
	neg := p.i < len(p.toks) && p.toks[p.i].isOp("-")
	if neg {
		p.i++
	}
	if p.i >= len(p.toks) || p.toks[p.i].kind != tkNumber {
		return 0, p.errHere()
	}
	s := p.toks[p.i].val
	if neg {
		s = "-" + s
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, p.errHere()
	}
	p.i++
	return v, nil
}

// syntaxAfter is a syntax error at toks[i], or at the end of input.
func syntaxAfter(src string, toks []token, i int) error {
	p := &utilParser{src: src, toks: toks, i: i}
	return p.errHere()
}
