package sqlparse

import (
	"strconv"

	"github.com/widesql/widesql/pgwire/pgerror"
)

// PostgreSQL FROM-clause syntax the TiDB parser does not know, rewritten
// into forms it parses and the planner reads back:
//
//   - a FULL [OUTER] JOIN b ON cond      -> a LEFT JOIN b ON pg_full_join((cond))
//     a FULL JOIN b USING (x, y)         -> a LEFT JOIN b ON pg_full_using(x, y)
//     a NATURAL FULL JOIN b              -> a LEFT JOIN b ON pg_full_natural()
//     (the planner turns a LEFT JOIN whose ON is one of these calls into a
//     full join with that condition);
//   - a column alias list after a FROM item's alias, (SELECT ...) AS d(a, b)
//     or t AS x(a, b), is cut out and recorded in Statement.ColumnAliases
//     under the alias;
//   - (VALUES (1, 'a'), (2, 'b')) becomes
//     (SELECT 1 AS column1, 'a' AS column2 UNION ALL SELECT 2, 'b'),
//     which types its columns by the same rules as VALUES;
//   - SELECT DISTINCT ON (e1, e2) ... becomes SELECT pg_distinct_on(e1, e2), ...:
//     the planner takes the first output column off as the DISTINCT ON list.

// fromStop are the words that end an ON condition.
var fromStop = map[string]bool{
	"join": true, "inner": true, "left": true, "right": true, "full": true, "cross": true,
	"natural": true, "where": true, "group": true, "having": true, "order": true, "limit": true,
	"offset": true, "union": true, "intersect": true, "except": true, "window": true, "fetch": true,
	"for": true, "returning": true, "on": true, "using": true,
}

// rewriteFromSyntax applies the array and set-returning-function rewrites
// (srf_syntax.go), then the rewrites above. aliases maps a FROM item's
// alias to its column alias list.
func rewriteFromSyntax(src string, toks []token) ([]token, map[string][]string, error) {
	toks, err := rewriteSRFSyntax(src, toks)
	if err != nil {
		return nil, nil, err
	}
	return rewriteFromItems(src, toks)
}

// rewriteFromItems applies the rewrites above.
func rewriteFromItems(src string, toks []token) ([]token, map[string][]string, error) {
	var aliases map[string][]string
	out := make([]token, 0, len(toks)+8)
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		at := func(k int) token {
			if k >= 0 && k < len(toks) {
				return toks[k]
			}
			return token{}
		}
		switch {
		case t.is("full") && (at(i+1).is("join") || at(i+1).is("outer") && at(i+2).is("join")):
			natural := len(out) > 0 && out[len(out)-1].is("natural")
			if natural {
				out = out[:len(out)-1]
			}
			j := i + 1
			if toks[j].is("outer") {
				j++
			}
			out = append(out, synth("left", t), synth("join", toks[j]))
			// the right-hand FROM item: up to ON or USING at depth 0
			k := j + 1
			for depth := 0; k < len(toks); k++ {
				if toks[k].isOp("(") {
					depth++
				} else if toks[k].isOp(")") {
					depth--
				} else if depth == 0 && (toks[k].is("on") || toks[k].is("using")) {
					break
				}
				if depth < 0 {
					break
				}
			}
			out = append(out, toks[j+1:k]...)
			switch {
			case natural:
				out = append(out, synth("on", t), synth("pg_full_natural", t), synthGlued("(", t), synthGlued(")", t))
				i = k - 1
			case k < len(toks) && toks[k].is("using") && at(k+1).isOp("("):
				end := matchClose(toks, k+1)
				if end < 0 {
					return nil, nil, syntaxErrorAt(src, toks[k].pos, toks[k].end)
				}
				out = append(out, synth("on", toks[k]), synth("pg_full_using", toks[k]), synthGlued("(", toks[k]))
				out = append(out, toks[k+2:end]...)
				out = append(out, synthGlued(")", toks[end]))
				i = end
			case k < len(toks) && toks[k].is("on"):
				end := conditionEnd(toks, k+1)
				out = append(out, toks[k], synth("pg_full_join", toks[k]), synthGlued("(", toks[k]), synthGlued("(", toks[k]))
				rest, al, err := rewriteFromItems(src, toks[k+1:end])
				if err != nil {
					return nil, nil, err
				}
				aliases = mergeAliases(aliases, al)
				out = append(out, rest...)
				out = append(out, synthGlued(")", toks[end-1]), synthGlued(")", toks[end-1]))
				i = end - 1
			default:
				return nil, nil, syntaxErrorAt(src, at(k).pos, at(k).end)
			}
		case t.is("as") && (at(i+1).is("materialized") && at(i+2).isOp("(") || at(i+1).is("not") && at(i+2).is("materialized") && at(i+3).isOp("(")):
			// WITH x AS [NOT] MATERIALIZED (...): a planning hint; widesql
			// plans every CTE where it is used.
			out = append(out, t)
			if at(i + 1).is("not") {
				i++
			}
			i++
		case t.isOp("(") && at(i+1).is("values"):
			end := matchClose(toks, i)
			if end > 0 && !sameLengthRows(toks[i+2:end]) {
				return nil, nil, pgerror.New(pgerror.CodeSyntaxError, "VALUES lists must all be the same length").
					WithPosition(charPos(src, toks[i+1].pos))
			}
			if sel, ok := valuesAsSelect(toks[i+1 : max(end, i+1)]); end > 0 && ok {
				out = append(out, t)
				out = append(out, sel...)
				i = end - 1
				continue
			}
			out = append(out, t)
		case t.is("distinct") && at(i+1).is("on") && at(i+2).isOp("("):
			end := matchClose(toks, i+2)
			if end < 0 {
				return nil, nil, syntaxErrorAt(src, t.pos, t.end)
			}
			out = append(out, synth("pg_distinct_on", t), synthGlued("(", toks[i+2]))
			out = append(out, toks[i+3:end]...)
			out = append(out, synthGlued(")", toks[end]), synthGlued(",", toks[end]))
			i = end
		case isAliasList(toks, i):
			end := matchClose(toks, i+1)
			var cols []string
			for k := i + 2; k < end; k += 2 {
				cols = append(cols, toks[k].val)
			}
			if aliases == nil {
				aliases = map[string][]string{}
			}
			aliases[t.val] = cols
			out = append(out, t)
			i = end
		default:
			out = append(out, t)
		}
	}
	return out, aliases, nil
}

func mergeAliases(a, b map[string][]string) map[string][]string {
	if a == nil {
		return b
	}
	for k, v := range b {
		a[k] = v
	}
	return a
}

// isAliasList reports whether toks[i] is a FROM item's alias followed by
// a column alias list: `AS name (a, b)` or `) name (a, b)`, the list not
// followed by AS (which would make it a CTE's column list).
func isAliasList(toks []token, i int) bool {
	if i == 0 || i+2 >= len(toks) || !toks[i+1].isOp("(") {
		return false
	}
	t, prev := toks[i], toks[i-1]
	if t.kind != tkIdent && t.kind != tkQIdent || fromStop[t.val] || t.is("over") || t.is("filter") || t.is("within") {
		return false
	}
	if !(prev.is("as") || prev.isOp(")")) {
		return false
	}
	if prev.is("as") && i >= 2 && toks[i-2].kind != tkIdent && toks[i-2].kind != tkQIdent && !toks[i-2].isOp(")") {
		return false
	}
	end := matchClose(toks, i+1)
	if end < 0 || end+1 < len(toks) && toks[end+1].is("as") {
		return false
	}
	for k := i + 2; k < end; k++ {
		want := (k-i)%2 == 0 // identifiers at even offsets, commas between
		if want && toks[k].kind != tkIdent && toks[k].kind != tkQIdent || !want && !toks[k].isOp(",") {
			return false
		}
	}
	return end > i+2
}

// valuesAsSelect turns `VALUES (..), (..)` (without the enclosing
// parentheses) into `SELECT .. AS column1, .. UNION ALL SELECT ..`.
func valuesAsSelect(toks []token) ([]token, bool) {
	if len(toks) < 3 || !toks[0].is("values") {
		return nil, false
	}
	var out []token
	k := 1
	for row := 0; k < len(toks); row++ {
		if !toks[k].isOp("(") {
			return nil, false
		}
		end := matchClose(toks, k)
		if end < 0 {
			return nil, false
		}
		if row > 0 {
			out = append(out, synth("union", toks[k]), synth("all", toks[k]))
		}
		out = append(out, synth("select", toks[k]))
		col, start := 1, k+1
		depth := 0
		for m := k + 1; m <= end; m++ {
			if toks[m].isOp("(") || toks[m].isOp("[") {
				depth++
			} else if (toks[m].isOp(")") || toks[m].isOp("]")) && m < end {
				depth--
			}
			if m == end || depth == 0 && toks[m].isOp(",") {
				if m == start {
					return nil, false
				}
				out = append(out, toks[start:m]...)
				if row == 0 {
					out = append(out, synth("as", toks[m]), synth("column"+strconv.Itoa(col), toks[m]))
				}
				if m < end {
					out = append(out, toks[m])
				}
				col++
				start = m + 1
			}
		}
		k = end + 1
		if k < len(toks) {
			if !toks[k].isOp(",") {
				return nil, false
			}
			k++
		}
	}
	return out, true
}

// sameLengthRows reports whether the parenthesized rows of a VALUES list
// have equal numbers of items (anything else reports true: the parser
// will judge it).
func sameLengthRows(toks []token) bool {
	n := -1
	for k := 0; k < len(toks); {
		if !toks[k].isOp("(") {
			return true
		}
		end := matchClose(toks, k)
		if end < 0 {
			return true
		}
		items, depth := 1, 0
		for m := k + 1; m < end; m++ {
			switch {
			case toks[m].isOp("(") || toks[m].isOp("["):
				depth++
			case toks[m].isOp(")") || toks[m].isOp("]"):
				depth--
			case depth == 0 && toks[m].isOp(","):
				items++
			}
		}
		if n >= 0 && items != n {
			return false
		}
		n = items
		k = end + 1
		if k < len(toks) && toks[k].isOp(",") {
			k++
		}
	}
	return true
}

// conditionEnd returns the index just past an ON condition starting at
// toks[i]: the first stop word, "," or unmatched ")" at depth 0.
func conditionEnd(toks []token, i int) int {
	depth := 0
	for k := i; k < len(toks); k++ {
		switch {
		case toks[k].isOp("("):
			depth++
		case toks[k].isOp(")"):
			if depth == 0 {
				return k
			}
			depth--
		case depth == 0 && (toks[k].isOp(",") || toks[k].isOp(";") || fromStop[toks[k].val] && toks[k].kind == tkIdent && !toks[k].is("on") && !toks[k].is("using")):
			return k
		}
	}
	return len(toks)
}
