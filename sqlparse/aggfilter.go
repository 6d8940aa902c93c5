package sqlparse

import "github.com/widesql/widesql/pgwire/pgerror"

// keepsNulls are the aggregates that collect NULL inputs; FILTER cannot be
// expressed for them by nulling the argument.
var keepsNulls = map[string]bool{
	"array_agg": true, "json_agg": true, "jsonb_agg": true, "json_object_agg": true,
	"jsonb_object_agg": true, "xmlagg": true,
}

// rewriteFilter handles agg(args) FILTER (WHERE cond) at toks[i] (FILTER),
// with agg(args) already emitted. It becomes agg(CASE WHEN cond THEN arg
// END, other args): every aggregate widesql has skips NULL inputs, so a
// row failing cond is not aggregated; count(*) becomes count(CASE WHEN
// cond THEN 1 END). It returns the index of the last consumed token, or
// -1 when toks[i] is not a FILTER clause.
func (w *rewriter) rewriteFilter(toks []token, i int) (int, error) {
	if i+2 >= len(toks) || !toks[i+1].isOp("(") || !toks[i+2].is("where") || len(w.out) == 0 || !w.out[len(w.out)-1].isOp(")") {
		return -1, nil
	}
	closeAt := len(w.out) - 1
	open := matchOpen(w.out, closeAt, "(", ")")
	if open < 1 || !isName(w.out[open-1]) {
		return -1, nil
	}
	fn := w.out[open-1].val
	if keepsNulls[fn] {
		return 0, pgerror.Unimplemented("FILTER with " + fn).WithPosition(charPos(w.src, toks[i].pos))
	}
	end := matchClose(toks, i+1)
	if end < 0 {
		return 0, w.syntaxErr(toks, len(toks))
	}
	cond, err := rewrite(w.src, toks[i+3:end])
	if err != nil {
		return 0, err
	}
	if len(cond) == 0 {
		return 0, w.syntaxErr(toks, i+3)
	}
	args := append([]token(nil), w.out[open+1:closeAt]...)
	k := 0
	if k < len(args) && (args[k].is("distinct") || args[k].is("all")) {
		k++
	}
	firstEnd := k
	for depth := 0; firstEnd < len(args); firstEnd++ {
		a := args[firstEnd]
		if depth == 0 && (a.isOp(",") || a.is("order")) {
			break
		}
		if a.isOp("(") {
			depth++
		} else if a.isOp(")") {
			depth--
		}
	}
	first := args[k:firstEnd]
	if len(first) == 1 && first[0].isOp("*") {
		first = []token{synth("1", first[0])}
	}
	if len(first) == 0 {
		return 0, pgerror.Unimplemented("FILTER with " + fn + "()").WithPosition(charPos(w.src, toks[i].pos))
	}
	at := toks[i]
	body := append([]token(nil), args[:k]...)
	body = append(body, synth("case", at), synth("when", at))
	body = append(body, cond...)
	body = append(body, synth("then", at))
	body = append(body, first...)
	body = append(body, synth("end", at))
	body = append(body, args[firstEnd:]...)
	closing := w.out[closeAt]
	w.out = append(append(w.out[:open+1], body...), closing)
	return end, nil
}

// matchClose returns the index of the ")" matching the "(" at toks[i], or -1.
func matchClose(toks []token, i int) int {
	depth := 0
	for k := i; k < len(toks); k++ {
		switch {
		case toks[k].isOp("("):
			depth++
		case toks[k].isOp(")"):
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}
