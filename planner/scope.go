package planner

import (
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// scope resolves names while expressions are built. A query level's scope
// describes the rows its FROM clause produces: cols are the row's slots,
// in FROM order (each FROM item's columns in turn), whatever order the
// planner joins the items in. Names not found here are looked up in outer,
// the enclosing query level, and become OuterRefs (correlation).
type scope struct {
	rels []*rel
	cols []scopeCol
	// table and alias name the only table of a single-table statement
	// (UPDATE, DELETE, INSERT's RETURNING and ON CONFLICT).
	table *TableDesc
	alias string
	outer *scope
	// carrier marks a scope holding only CTE names (a WITH clause, or the
	// context of a derived table): it is not a query level, so it does not
	// count in an OuterRef's depth.
	carrier bool
	ctes    map[string]*cteDef
	// excluded, when set, resolves "excluded.c" to slot len(Columns)+i.
	excluded bool
	// agg, when set, builds post-aggregation expressions.
	agg *aggState
	// win, when set, collects window function calls (SELECT list and
	// ORDER BY only).
	win *windowState
}

// rel is one FROM item: a table, a derived table or a CTE reference.
type rel struct {
	alias string
	table *TableDesc // a base table; nil otherwise
	// used collects the table columns the query reads, as names resolve.
	used  map[int]bool
	first int // the rel's first slot in its query level's row
	n     int
}

// scopeCol is one slot of a scope's row.
type scopeCol struct {
	rel  *rel
	name string
	t    types.T
	col  int // the table column index, for base tables
	// hidden columns (a table's row id) are not in *; merged columns
	// (the right side of JOIN ... USING) are neither in * nor found by
	// unqualified names.
	hidden, merged bool
	// ungrouped marks, in the scope a subquery of an aggregated query
	// sees, a column that is not grouped: referring to it is an error.
	ungrouped bool
	// fullUsing, for the left column of a FULL JOIN ... USING, is the
	// slot of the right one: the unqualified name means their COALESCE.
	fullUsing int
}

// tableScope is the scope of a single-table statement: slot i is column i.
func tableScope(t *TableDesc, alias string) *scope {
	sc := &scope{table: t, alias: alias}
	sc.addTable(t, alias)
	return sc
}

// addTable appends a base table's columns.
func (sc *scope) addTable(t *TableDesc, alias string) *rel {
	r := &rel{alias: alias, table: t, used: map[int]bool{}, first: len(sc.cols), n: len(t.Columns)}
	sc.rels = append(sc.rels, r)
	for i := range t.Columns {
		c := &t.Columns[i]
		sc.cols = append(sc.cols, scopeCol{rel: r, name: c.Name, t: c.Type, col: i, hidden: c.Hidden, fullUsing: -1})
	}
	return r
}

// addDerived appends the columns of a subquery, a CTE or VALUES.
func (sc *scope) addDerived(alias string, cols []ResultColumn) *rel {
	r := &rel{alias: alias, first: len(sc.cols), n: len(cols)}
	sc.rels = append(sc.rels, r)
	for i, c := range cols {
		sc.cols = append(sc.cols, scopeCol{rel: r, name: c.Name, t: c.T, col: i, fullUsing: -1})
	}
	return r
}

// lookupCTE finds a CTE by name in sc or its enclosing scopes.
func (sc *scope) lookupCTE(name string) *cteDef {
	for s := sc; s != nil; s = s.outer {
		if d := s.ctes[name]; d != nil {
			return d
		}
	}
	return nil
}

// colName is how a slot is named in expressions: qualified when the
// level has several FROM items, so that a.id and b.id differ in EXPLAIN
// and in the string comparisons of GROUP BY matching.
func (sc *scope) colName(c *scopeCol) string {
	if len(sc.rels) > 1 && c.rel.alias != "" {
		return c.rel.alias + "." + c.name
	}
	return c.name
}

// resolve finds a column in this scope only: the slot, or -1 when no
// column matches. An ambiguous name is an error.
func (sc *scope) resolve(name, qual string) (int, error) {
	if qual == "excluded" && sc.excluded {
		if i := sc.table.ColumnIndex(name); i >= 0 {
			return len(sc.table.Columns) + i, nil
		}
		return -1, pgerror.New(pgerror.CodeUndefinedColumn, "column excluded.%s does not exist", name)
	}
	qualIsRel := false
	for _, r := range sc.rels {
		if qual != "" && r.named(qual) {
			qualIsRel = true
		}
	}
	slot := -1
	for i := range sc.cols {
		c := &sc.cols[i]
		if c.name != name || c.hidden {
			continue
		}
		switch {
		case qual == "":
			if c.merged {
				continue
			}
		case qualIsRel:
			if !c.rel.named(qual) {
				continue
			}
		default: // Phoenix style: family.column
			if c.rel.table == nil || c.rel.table.Columns[c.col].Family != qual {
				continue
			}
		}
		if slot >= 0 {
			return -1, pgerror.New(pgerror.CodeAmbiguousColumn, "column reference %q is ambiguous", name)
		}
		slot = i
	}
	return slot, nil
}

// named reports whether qual names the FROM item: its alias (a table
// without an alias is aliased by its name).
func (r *rel) named(qual string) bool { return r.alias == qual }

// knowsQualifier reports whether qual names a FROM item or a family in sc
// or an enclosing level.
func (sc *scope) knowsQualifier(qual string) bool {
	for s := sc; s != nil; s = s.outer {
		for _, r := range s.rels {
			if r.named(qual) {
				return true
			}
		}
		if qual == "excluded" && s.excluded {
			return true
		}
	}
	return false
}

// starCols returns the slots * (qual "") or qual.* expands to, in FROM
// order. The columns of a JOIN ... USING come once, first, as in
// PostgreSQL: the merged right-side column is skipped.
func (sc *scope) starCols(qual string) ([]int, error) {
	var out []int
	found := qual == ""
	for i := range sc.cols {
		c := &sc.cols[i]
		if qual != "" && !c.rel.named(qual) {
			continue
		}
		found = true
		if c.hidden || qual == "" && c.merged {
			continue
		}
		out = append(out, i)
	}
	if !found {
		return nil, pgerror.New(pgerror.CodeUndefinedTable, "missing FROM-clause entry for table %q", qual)
	}
	return out, nil
}

// tableNamed returns the alias of a FROM item whose table is named qual
// but which has another alias, for PostgreSQL's hint.
func (sc *scope) tableNamed(qual string) string {
	for s := sc; s != nil; s = s.outer {
		for _, r := range s.rels {
			if r.table != nil && r.table.Name == qual {
				return r.alias
			}
		}
	}
	return ""
}
