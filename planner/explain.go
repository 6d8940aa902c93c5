package planner

import (
	"fmt"
	"strings"

	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
)

// ExplainLines renders a plan as EXPLAIN text: one line per operator,
// children indented, and one line per table access naming its path, the
// decoded key bounds, the families read and the remaining filter. annotate,
// when non-nil, appends run-time figures (EXPLAIN ANALYZE) to a node's line.
func ExplainLines(p Plan, annotate func(Plan) string) []string {
	var lines []string
	var walk func(p Plan, depth int)
	walk = func(p Plan, depth int) {
		line, children := describe(p)
		if line != "" {
			if annotate != nil {
				if a := annotate(p); a != "" {
					line += "  " + a
				}
			}
			lines = append(lines, strings.Repeat("  ", depth)+line)
			depth++
		}
		for _, c := range children {
			walk(c, depth)
		}
	}
	walk(p, 0)
	return lines
}

// describe returns a node's EXPLAIN line ("" for nodes that are not shown,
// such as plain projections) and its inputs.
func describe(p Plan) (string, []Plan) {
	line, child := describeNode(p)
	if child != nil {
		return line, []Plan{child}
	}
	switch p := p.(type) {
	case *SetOp:
		return line, []Plan{p.Left, p.Right}
	case *HashJoin:
		return line, []Plan{p.Left, p.Right}
	case *NestedLoopJoin:
		return line, []Plan{p.Left, p.Right}
	case *LookupJoin:
		return line, []Plan{p.Left, p.Right}
	case *RecursiveUnion:
		return line, []Plan{p.Init, p.Recursive}
	}
	return line, nil
}

// joinLine renders a join's EXPLAIN line: its method, kind and condition.
func joinLine(method string, kind JoinKind, cond string, on Expr) string {
	s := method
	if kind != InnerJoin {
		s += " (" + kind.String() + ")"
	}
	if cond != "" {
		s += " ON " + cond
	}
	if on != nil {
		if cond == "" {
			s += " ON " + on.String()
		} else {
			s += " FILTER " + on.String()
		}
	}
	return s
}

// ExplainStatement renders EXPLAIN's output: the plan, then each
// subquery's plan under its SubPlan number.
func ExplainStatement(e *Explain, annotate func(Plan) string) []string {
	lines := ExplainLines(e.Input, annotate)
	for _, sq := range e.SubPlans {
		head := fmt.Sprintf("SubPlan %d", sq.ID)
		if sq.Correlated {
			head += " (correlated: runs per row)"
		} else {
			head += " (runs once)"
		}
		lines = append(lines, head)
		for _, l := range ExplainLines(sq.Plan, annotate) {
			lines = append(lines, "  "+l)
		}
	}
	return lines
}

// describeNode describes the nodes with at most one input.
func describeNode(p Plan) (string, Plan) {
	switch p := p.(type) {
	case *Scan:
		return p.String(), nil
	case *Values:
		return fmt.Sprintf("VALUES (%d row)", len(p.Rows)), nil
	case *ProjectSet:
		return p.String(), p.Input
	case *Filter:
		return "FILTER " + p.Cond.String(), p.Input
	case *Project:
		return "", p.Input
	case *Sort:
		keys := make([]string, len(p.Keys))
		for i, k := range p.Keys {
			keys[i] = k.Expr.String()
			if k.Desc {
				keys[i] += " DESC"
			}
		}
		return "SORT BY " + strings.Join(keys, ", "), p.Input
	case *Limit:
		s := "LIMIT"
		if p.Count != nil {
			s += " " + p.Count.String()
		} else {
			s += " ALL"
		}
		if p.Offset != nil {
			s += " OFFSET " + p.Offset.String()
		}
		return s, p.Input
	case *Distinct:
		if p.On != nil {
			return "DISTINCT ON " + joinExprs(p.On), p.Input
		}
		return "DISTINCT", p.Input
	case *SetOp:
		return p.String(), nil
	case *HashJoin:
		keys := make([]string, len(p.LeftKeys))
		for i := range p.LeftKeys {
			keys[i] = p.LeftKeys[i].String() + " = " + p.RightKeys[i].String()
		}
		return joinLine("HASH JOIN", p.Kind, strings.Join(keys, " AND "), p.On), nil
	case *NestedLoopJoin:
		return joinLine("NESTED LOOP JOIN", p.Kind, "", p.On), nil
	case *LookupJoin:
		return joinLine("LOOKUP JOIN", p.Kind, "", p.On) + " VIA " + p.Right.Access.Kind.String() + " ON " + p.Right.Table.Name, nil
	case *RecursiveUnion:
		s := "RECURSIVE UNION " + p.Name
		if p.All {
			s = "RECURSIVE UNION ALL " + p.Name
		}
		return s, nil
	case *WorkTable:
		return "WORK TABLE " + p.Name, nil
	case *Window:
		return p.String(), p.Input
	case *Aggregate:
		parts := make([]string, len(p.Aggs))
		for i := range p.Aggs {
			parts[i] = p.Aggs[i].String()
		}
		s := "AGGREGATE " + strings.Join(parts, ", ")
		if len(p.GroupBy) > 0 {
			s += " GROUP BY " + joinExprs(p.GroupBy)
		}
		return s, p.Input
	case *Insert:
		s := fmt.Sprintf("INSERT INTO %s (%d rows)", p.Table.Name, len(p.Rows))
		switch p.Conflict {
		case ConflictDoNothing:
			s += " ON CONFLICT DO NOTHING"
		case ConflictDoUpdate:
			s += " ON CONFLICT DO UPDATE"
		}
		if p.Source != nil {
			return fmt.Sprintf("INSERT INTO %s", p.Table.Name) + s[strings.Index(s, ")")+1:], p.Source
		}
		return s, nil
	case *Update:
		cols := make([]string, len(p.Set))
		for i, s := range p.Set {
			cols[i] = p.Table.Columns[s.Col].Name
		}
		return "UPDATE " + p.Table.Name + " SET " + strings.Join(cols, ", "), p.Scan
	case *Delete:
		return "DELETE FROM " + p.Table.Name, p.Scan
	case *CreateTable:
		return "CREATE TABLE " + p.Desc.Name, nil
	case *DropTable:
		return "DROP TABLE " + strings.Join(p.Names, ", "), nil
	case *CreateIndex:
		return "CREATE INDEX " + p.Index.Name + " ON " + p.Table, nil
	case *DropIndex:
		return "DROP INDEX " + strings.Join(p.Names, ", "), nil
	case *Explain:
		return "", p.Input
	}
	return fmt.Sprintf("%T", p), nil
}

// String renders the access line of a scan, for example
//
//	RANGE SCAN ON follows [/'alice' - /'alice'] FAMILIES (d) FILTER (w > 1)
func (s *Scan) String() string {
	var b strings.Builder
	t := s.Table
	if n := s.ways(); n > 1 {
		fmt.Fprintf(&b, "%d-WAY ", n)
	}
	wideGet := t.Layout == LayoutWide && s.Access.Kind == RangeScan && s.spansFix(len(t.Key)-1)
	if wideGet {
		b.WriteString("WIDE ROW GET")
	} else {
		b.WriteString(s.Access.Kind.String())
	}
	if s.Access.Kind == MultiGet && !hasElemsOf(spanKeys(s.Access.Spans)) {
		fmt.Fprintf(&b, " %d KEYS", len(s.Access.Spans))
	}
	if t.Sys != nil {
		b.WriteString(" ON " + t.Sys.Schema + "." + t.Name)
	} else {
		b.WriteString(" ON " + t.Name)
	}
	if t.Layout == LayoutWide && !wideGet {
		b.WriteString(" IN WIDE ROWS")
	}
	if t.Virtual == "" {
		b.WriteString(" ROWKEY " + t.KeyLength() + " BYTES")
	}
	if s.AsOf != nil {
		b.WriteString(" AS OF " + s.AsOf.String())
	}
	switch s.Access.Kind {
	case PointGet, MultiGet:
		keys := make([]string, len(s.Access.Spans))
		for i, sp := range s.Access.Spans {
			keys[i] = "(" + joinExprs(sp.Eq) + ")"
		}
		b.WriteString(" KEY " + strings.Join(keys, ", "))
	case RangeScan:
		var spans []string
		seen := map[string]bool{}
		for i := range s.Access.Spans {
			sp := s.Access.Spans[i]
			if s.Access.Enumerated > 0 {
				// One span per bucket: show the shape once, the bucket as *.
				sp.Eq = append([]Expr{bucketMark{}}, sp.Eq[1:]...)
			}
			if txt := sp.String(); !seen[txt] {
				seen[txt] = true
				spans = append(spans, txt)
			}
		}
		b.WriteString(" " + strings.Join(spans, ", "))
	}
	if s.Access.Merge {
		b.WriteString(" MERGED")
	}
	if s.Reverse {
		b.WriteString(" REVERSE")
	}
	if t.Virtual != VirtualRegions && t.Virtual != VirtualCatalog {
		b.WriteString(" FAMILIES (" + strings.Join(s.Families, ", ") + ")")
	}
	if s.Filter != nil {
		b.WriteString(" FILTER " + s.Filter.String())
	}
	if s.LimitHint > 0 {
		fmt.Fprintf(&b, " LIMIT %d", s.LimitHint)
	} else if s.LimitCount != nil {
		b.WriteString(" LIMIT " + s.LimitCount.String())
		if s.LimitOffset != nil {
			b.WriteString(" + " + s.LimitOffset.String())
		}
	}
	if s.FullScanReason != "" {
		b.WriteString(" (" + s.FullScanReason + ")")
	}
	return b.String()
}

// String renders a span with decoded bounds in rowkey column order:
// [/a/b - /a/c) where '[' and ']' are inclusive and '(' and ')' exclusive,
// and a bound that stops early covers every key with that prefix.
func (sp *Span) String() string {
	prefix := ""
	for _, e := range sp.Eq {
		prefix += "/" + e.String()
	}
	if sp.HasPrefix {
		return "[" + prefix + "/" + quoteLiteral(sp.Prefix) + "*]"
	}
	lo, lb := prefix, "["
	if sp.Lo != nil {
		lo += "/" + sp.Lo.String()
		if !sp.LoIncl {
			lb = "("
		}
	}
	hi, hb := prefix, "]"
	if sp.Hi != nil {
		hi += "/" + sp.Hi.String()
		if !sp.HiIncl {
			hb = ")"
		}
	}
	if lo == "" {
		lo = "/-∞"
	}
	if hi == "" {
		hi = "/+∞"
	}
	return lb + lo + " - " + hi + hb
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func spanKeys(spans []Span) [][]Expr {
	out := make([][]Expr, len(spans))
	for i, sp := range spans {
		out[i] = sp.Eq
	}
	return out
}

// ways is how many independent bounded scans serve the access: one per
// salt bucket for a range or full scan of a salted table, times one per
// enumerated bucket of the first key part.
func (s *Scan) ways() int {
	n := 1
	if s.Table.SaltBuckets > 1 && (s.Access.Kind == RangeScan || s.Access.Kind == FullScan) {
		n = s.Table.SaltBuckets
	}
	if s.Access.Enumerated > 0 {
		buckets := map[string]bool{}
		for _, sp := range s.Access.Spans {
			buckets[sp.Eq[0].String()] = true
		}
		n *= len(buckets)
	}
	return n
}

// spansFix reports whether every span fixes at least n key parts.
func (s *Scan) spansFix(n int) bool {
	for _, sp := range s.Access.Spans {
		if len(sp.Eq) < n {
			return false
		}
	}
	return len(s.Access.Spans) > 0
}

// bucketMark stands for an enumerated key part in EXPLAIN's spans.
type bucketMark struct{}

func (bucketMark) Type() types.T  { return types.TUnknown }
func (bucketMark) String() string { return "*" }

// KeyLength renders the length of t's encoded kv rowkey: "9", "3-12" or
// "11+" when a part is unbounded. It counts the salt byte; in the wide
// layout the last key column is a qualifier, not part of the rowkey.
func (t *TableDesc) KeyLength() string {
	lo, hi := 0, 0
	if t.SaltBuckets > 0 {
		lo, hi = 1, 1
	}
	parts := t.Key
	if t.Layout == LayoutWide && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	for _, kc := range parts {
		l, h := keyenc.KeyWidth(t.Columns[kc.Col].Type)
		if e := t.keyExprs[kc.Col]; e != nil {
			if n, ok := textLen(e); ok {
				l, h = 2, n+2 // text of at most n bytes, terminated
				if exactLen(e) {
					l = h
				}
			}
		}
		lo += l
		if hi >= 0 && h >= 0 {
			hi += h
		} else {
			hi = -1
		}
	}
	switch {
	case hi < 0:
		return fmt.Sprintf("%d+", lo)
	case hi != lo:
		return fmt.Sprintf("%d-%d", lo, hi)
	}
	return fmt.Sprint(lo)
}

// textLen bounds the byte length of a text key expression when it is
// known: md5() is 32 hex digits, left(x, n) at most n characters of x.
func textLen(e Expr) (int, bool) {
	f, ok := e.(*Func)
	if !ok {
		return 0, false
	}
	switch f.Name {
	case "md5":
		return 32, true
	case "left":
		k, isConst := f.Args[1].(*Const)
		if !isConst || k.D.IsNull() || k.D.I < 0 {
			return 0, false
		}
		if n, ok := textLen(f.Args[0]); ok && n < int(k.D.I) {
			return n, true
		}
		if _, ok := textLen(f.Args[0]); ok {
			return int(k.D.I), true // hex digits: one byte per character
		}
		return int(k.D.I) * 4, true
	}
	return 0, false
}

// exactLen reports whether textLen's bound is also the length: a hash.
func exactLen(e Expr) bool {
	f := e.(*Func)
	if f.Name == "md5" {
		return true
	}
	n, _ := textLen(f.Args[0])
	k := f.Args[1].(*Const)
	return f.Name == "left" && n >= int(k.D.I) && exactLen(f.Args[0])
}
