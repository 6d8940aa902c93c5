package sqlparse

import "github.com/widesql/widesql/pgwire/pgerror"

// PgAgg is the function name under which PostgreSQL aggregate calls that
// TiDB cannot parse reach the planner. TiDB's only aggregate with an
// ORDER BY is MySQL's GROUP_CONCAT, and it parses string_agg, array_agg,
// bool_and, ... as plain function calls and stddev and variance as
// stddev_pop and var_pop, so rewriteAggCalls turns
//
//	name([DISTINCT|ALL] a1, ..., an [ORDER BY k1, ...]) [FILTER (WHERE c)]
//	name(d1, ..., dn) WITHIN GROUP (ORDER BY k1, ...)   [FILTER (WHERE c)]
//
// into
//
//	GROUP_CONCAT([DISTINCT] 'name[ WITHIN GROUP][ FILTER]', [c,] a1, ..., an [ORDER BY k1, ...])
//
// which TiDB parses as an ast.AggregateFuncExpr with F "group_concat"
// (or, followed by OVER, an ast.WindowFuncExpr with Name "group_concat"
// and no Order). Its contract for the planner:
//
//   - Args[0] is a string literal: the PostgreSQL function name in lower
//     case, then " WITHIN GROUP" for the ordered-set form, then " FILTER"
//     when a FILTER clause was given.
//   - With FILTER, Args[1] is the condition.
//   - The call's arguments follow (for WITHIN GROUP the direct arguments,
//     possibly none), and the last element of Args is TiDB's default
//     GROUP_CONCAT separator, to be ignored.
//   - Distinct is DISTINCT; Order holds the ORDER BY items, in the form
//     the marker pass leaves every ast.ByItem (NullOrder is PostgreSQL's
//     NULLS FIRST). For WITHIN GROUP the items are the aggregated values.
//
// Every GROUP_CONCAT in a parsed tree comes from this rewrite: a call the
// user wrote as group_concat (not a PostgreSQL function) is rewritten the
// same way and fails in the planner like any unknown aggregate.
//
// The rewrite applies to the calls of the names in pgAggs and to every
// call with an ORDER BY among its arguments or a WITHIN GROUP clause, so
// the planner reports "ORDER BY specified, but f is not an aggregate
// function". Other aggregates (count, sum, min, ...) keep TiDB's form and
// FILTER's CASE WHEN rewrite (aggfilter.go).
const PgAgg = "group_concat"

// pgAggs are the aggregates that are always rewritten.
var pgAggs = map[string]bool{
	"string_agg": true, "array_agg": true, "bool_and": true, "bool_or": true, "every": true,
	"stddev": true, "variance": true, "percentile_cont": true, "percentile_disc": true,
	"mode": true, PgAgg: true,
}

// rewriteAggCalls applies the rewrite described at PgAgg to toks, nested
// calls included.
func rewriteAggCalls(src string, toks []token) ([]token, error) {
	out := make([]token, 0, len(toks))
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !(t.kind == tkIdent || t.kind == tkQIdent) || i+1 >= len(toks) || !toks[i+1].isOp("(") ||
			(t.kind == tkIdent && notCallee[t.val]) || (i > 0 && toks[i-1].isOp(".")) {
			out = append(out, t)
			continue
		}
		c, ok, err := parseAggCall(src, toks, i)
		if err != nil {
			return nil, err
		}
		if !ok {
			out = append(out, t)
			continue
		}
		if out, err = c.emit(src, out); err != nil {
			return nil, err
		}
		i = c.end - 1
	}
	return out, nil
}

// aggCall is a PostgreSQL aggregate call found in the token stream.
type aggCall struct {
	name     token
	distinct bool
	args     []token // the arguments, without DISTINCT/ALL
	order    []token // the ORDER BY items, without ORDER BY
	orderAt  token   // the ORDER keyword
	within   bool
	filter   []token // the FILTER condition; nil when absent
	end      int     // index just past the call (and its clauses)
}

// parseAggCall reads the call at toks[i]; ok is false when it is not one
// to rewrite.
func parseAggCall(src string, toks []token, i int) (c aggCall, ok bool, err error) {
	closeAt := matchClose(toks, i+1)
	if closeAt < 0 {
		return c, false, nil // TiDB reports the syntax error
	}
	c.name, c.end = toks[i], closeAt+1
	args := toks[i+2 : closeAt]
	if len(args) > 0 && (args[0].is("select") || args[0].is("values") || args[0].is("with") || args[0].is("table")) {
		return c, false, nil // EXISTS (SELECT ... ORDER BY ...) and the like
	}
	if len(args) > 0 && (args[0].is("distinct") || args[0].is("all")) {
		c.distinct = args[0].is("distinct")
		args = args[1:]
	}
	c.args = args
	if k := topLevelOrderBy(args); k >= 0 {
		c.args, c.order, c.orderAt = args[:k], args[k+2:], args[k]
		if len(c.order) == 0 {
			return c, false, syntaxAt(src, toks, closeAt)
		}
	}
	name := c.name.val
	if k := c.end; k+1 < len(toks) && toks[k].is("within") && toks[k+1].is("group") {
		if c.distinct {
			return c, false, pgerror.New(pgerror.CodeSyntaxError, "cannot use DISTINCT with WITHIN GROUP").WithPosition(charPos(src, toks[k].pos))
		}
		if c.order != nil {
			return c, false, pgerror.New(pgerror.CodeSyntaxError, "cannot use multiple ORDER BY clauses with WITHIN GROUP").WithPosition(charPos(src, toks[k].pos))
		}
		open := k + 2
		if open+2 >= len(toks) || !toks[open].isOp("(") || !toks[open+1].is("order") || !toks[open+2].is("by") {
			return c, false, syntaxAt(src, toks, min(open, len(toks)))
		}
		wclose := matchClose(toks, open)
		if wclose < 0 {
			return c, false, syntaxAt(src, toks, len(toks))
		}
		c.within, c.order, c.orderAt, c.end = true, toks[open+3:wclose], toks[open+1], wclose+1
		if len(c.order) == 0 {
			return c, false, syntaxAt(src, toks, wclose)
		}
	}
	if c.order == nil && !pgAggs[name] {
		return c, false, nil
	}
	if k := c.end; k+2 < len(toks) && toks[k].is("filter") && toks[k+1].isOp("(") && toks[k+2].is("where") {
		fclose := matchClose(toks, k+1)
		if fclose < 0 {
			return c, false, syntaxAt(src, toks, len(toks))
		}
		if c.filter = toks[k+3 : fclose]; len(c.filter) == 0 {
			return c, false, syntaxAt(src, toks, fclose)
		}
		c.end = fclose + 1
	}
	if k := c.end; k < len(toks) && toks[k].is("over") {
		switch {
		case c.within:
			return c, false, pgerror.New(pgerror.CodeFeatureNotSupported, "OVER is not supported for ordered-set aggregate %s", name).
				WithPosition(charPos(src, c.name.pos))
		case c.order != nil:
			return c, false, pgerror.New(pgerror.CodeFeatureNotSupported, "aggregate ORDER BY is not implemented for window functions").
				WithPosition(charPos(src, c.name.pos))
		}
	}
	return c, true, nil
}

// emit appends the GROUP_CONCAT form of c to out. The argument, key and
// condition tokens are rewritten first, so calls nested in them are too.
func (c *aggCall) emit(src string, out []token) ([]token, error) {
	at := c.name
	marker := c.name.val
	if c.within {
		marker += " WITHIN GROUP"
	}
	if c.filter != nil {
		marker += " FILTER"
	}
	out = append(out, token{kind: tkIdent, val: PgAgg, pos: at.pos, end: at.end, syn: true}, synthGlued("(", at))
	if c.distinct {
		out = append(out, synth("distinct", at))
	}
	out = append(out, token{kind: tkString, val: marker, pos: at.pos, end: at.end, syn: true})
	for _, part := range [][]token{c.filter, c.args} {
		if len(part) == 0 {
			continue
		}
		inner, err := rewriteAggCalls(src, part)
		if err != nil {
			return nil, err
		}
		out = append(append(out, synthGlued(",", at)), inner...)
	}
	if c.order != nil {
		inner, err := rewriteAggCalls(src, c.order)
		if err != nil {
			return nil, err
		}
		out = append(out, c.orderAt, synth("by", c.orderAt))
		out = append(out, inner...)
	}
	return append(out, synthGlued(")", at)), nil
}

// topLevelOrderBy returns the index of ORDER in ORDER BY at depth 0 of
// args, or -1.
func topLevelOrderBy(args []token) int {
	depth := 0
	for k, t := range args {
		switch {
		case t.isOp("(") || t.isOp("["):
			depth++
		case t.isOp(")") || t.isOp("]"):
			depth--
		case depth == 0 && t.is("order") && k+1 < len(args) && args[k+1].is("by"):
			return k
		}
	}
	return -1
}

// syntaxAt is the 42601 error at toks[i], or at the end of input when i
// is past the last token.
func syntaxAt(src string, toks []token, i int) error {
	if i >= len(toks) {
		end := len(src)
		if len(toks) > 0 {
			end = toks[len(toks)-1].end
		}
		return pgerror.New(pgerror.CodeSyntaxError, "syntax error at end of input").WithPosition(charPos(src, end))
	}
	return syntaxErrorAt(src, toks[i].pos, toks[i].end)
}
