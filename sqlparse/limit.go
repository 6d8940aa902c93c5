package sqlparse

import (
	"math"
	"strconv"
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// noLimit is the LIMIT count standing for LIMIT ALL (and LIMIT NULL); the
// planner reads it as no limit.
const noLimit = "18446744073709551615"

// rewriteLimit reads the run of PostgreSQL paging clauses starting at
// toks[i] (LIMIT, OFFSET, FETCH FIRST|NEXT, in either order) and emits
// TiDB's one form, "LIMIT count [OFFSET offset]". It returns the index of
// the last token consumed.
//
//	LIMIT n | ALL | NULL | 'n' | $n [::type]
//	OFFSET n [ROW | ROWS]
//	FETCH FIRST | NEXT [n] ROW | ROWS ONLY        (n defaults to 1)
//
// A negative constant count is 2201W and offset 2201X, as PostgreSQL
// reports at execution; a string that is not an integer is 22P02. Counts
// that are expressions, FETCH ... WITH TIES and MySQL's LIMIT m, n are
// rejected.
func (w *rewriter) rewriteLimit(toks []token, i int) (int, error) {
	var count, offset []token
	first := toks[i]
	for i < len(toks) {
		t := toks[i]
		switch {
		case t.is("limit") && count == nil:
			v, next, err := w.limitValue(toks, i+1, "LIMIT")
			if err != nil {
				return 0, err
			}
			if next < len(toks) && toks[next].isOp(",") {
				return 0, pgerror.New(pgerror.CodeSyntaxError, "LIMIT #,# syntax is not supported").
					WithHint("Use separate LIMIT and OFFSET clauses.").WithPosition(charPos(w.src, t.pos))
			}
			count, i = v, next
		case t.is("offset") && offset == nil:
			v, next, err := w.limitValue(toks, i+1, "OFFSET")
			if err != nil {
				return 0, err
			}
			if next < len(toks) && (toks[next].is("row") || toks[next].is("rows")) {
				next++
			}
			offset, i = v, next
		case t.is("fetch") && count == nil && i+1 < len(toks) && (toks[i+1].is("first") || toks[i+1].is("next")):
			j := i + 2
			v := []token{synth("1", t)}
			if j < len(toks) && !toks[j].is("row") && !toks[j].is("rows") {
				var err error
				if v, j, err = w.limitValue(toks, j, "LIMIT"); err != nil {
					return 0, err
				}
			}
			if j >= len(toks) || (!toks[j].is("row") && !toks[j].is("rows")) {
				return 0, w.syntaxErr(toks, j)
			}
			j++
			if j+1 < len(toks) && toks[j].is("with") && toks[j+1].is("ties") {
				return 0, pgerror.Unimplemented("FETCH ... WITH TIES").WithPosition(charPos(w.src, toks[j].pos))
			}
			if j >= len(toks) || !toks[j].is("only") {
				return 0, w.syntaxErr(toks, j)
			}
			count, i = v, j+1
		default:
			return w.emitLimit(first, count, offset, i-1), nil
		}
	}
	return w.emitLimit(first, count, offset, i-1), nil
}

func (w *rewriter) emitLimit(at token, count, offset []token, last int) int {
	if count == nil {
		count = []token{synth(noLimit, at)}
	}
	w.out = append(w.out, synth("limit", at))
	w.out = append(w.out, count...)
	if offset != nil {
		w.out = append(w.out, synth("offset", at))
		w.out = append(w.out, offset...)
	}
	return last
}

// limitValue reads a LIMIT/OFFSET/FETCH value at toks[i] and returns the
// tokens to emit for it and the index after it.
func (w *rewriter) limitValue(toks []token, i int, clause string) ([]token, int, error) {
	if i >= len(toks) {
		return nil, i, w.syntaxErr(toks, i)
	}
	t := toks[i]
	neg := false
	if (t.isOp("-") || t.isOp("+")) && i+1 < len(toks) && toks[i+1].kind == tkNumber {
		neg = t.isOp("-")
		i++
		t = toks[i]
	}
	var out []token
	switch {
	case t.is("all") && clause == "LIMIT", t.is("null"):
		if clause == "LIMIT" {
			out = []token{synth(noLimit, t)}
		} else {
			out = []token{synth("0", t)}
		}
	case t.kind == tkParam:
		out = []token{t}
		if i+1 < len(toks) && toks[i+1].isOp("::") {
			if _, next, ok := parseTypeName(toks, i+2); ok {
				i = next - 1 // the planner types the parameter as bigint
			}
		}
	case t.kind == tkNumber || t.kind == tkString:
		s := strings.TrimSpace(t.val)
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil && t.kind == tkNumber {
			f, ferr := strconv.ParseFloat(s, 64)
			if ferr != nil || math.Abs(f) >= 1<<63 {
				return nil, i, pgerror.New(pgerror.CodeNumericValueOutOfRange, "bigint out of range").WithPosition(charPos(w.src, t.pos))
			}
			n, err = int64(math.RoundToEven(f)), nil
		}
		if err != nil {
			return nil, i, pgerror.New(pgerror.CodeInvalidTextRepresentation, "invalid input syntax for type bigint: %q", t.val).
				WithPosition(charPos(w.src, t.pos))
		}
		if neg {
			n = -n
		}
		if n < 0 {
			if clause == "OFFSET" {
				return nil, i, pgerror.New("2201X", "OFFSET must not be negative")
			}
			return nil, i, pgerror.New("2201W", "LIMIT must not be negative")
		}
		out = []token{synth(strconv.FormatInt(n, 10), t)}
	default:
		return nil, i, pgerror.Unimplemented(clause + " with an expression (use a constant or a parameter)").
			WithPosition(charPos(w.src, t.pos))
	}
	i++
	if i < len(toks) && toks[i].kind == tkOp && !toks[i].isOp(")") && !toks[i].isOp(",") && !toks[i].isOp(";") {
		return nil, i, pgerror.Unimplemented(clause + " with an expression (use a constant or a parameter)").
			WithPosition(charPos(w.src, toks[i].pos))
	}
	return out, i, nil
}

// rewriteNulls handles ORDER BY ... NULLS FIRST | NULLS LAST at toks[i]:
// the marker goes before the item's ASC/DESC, so that it lands on the sort
// expression. It returns the index of the last consumed token, or -1.
func (w *rewriter) rewriteNulls(toks []token, i int) int {
	if i+1 >= len(toks) || (!toks[i+1].is("first") && !toks[i+1].is("last")) || !w.endsOperandOrDir() {
		return -1
	}
	m := markNullsFirst
	if toks[i+1].is("last") {
		m = markNullsLast
	}
	at := len(w.out)
	if p := w.out[at-1]; p.is("asc") || p.is("desc") {
		at--
	}
	mk := marker(m, toks[i])
	w.out = append(w.out[:at], append(mk, w.out[at:]...)...)
	return i + 1
}

func (w *rewriter) endsOperandOrDir() bool {
	if len(w.out) == 0 {
		return false
	}
	p := w.out[len(w.out)-1]
	return p.is("asc") || p.is("desc") || w.endsOperand()
}
