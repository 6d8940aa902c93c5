package planner

import (
	"fmt"
	"strings"

	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
)

// The rowkey advisor checks a new table against the rules of thumb of
// HBase-style schema design (the seeds): a rowkey that only grows sends
// every insert to the last region; long rowkeys are repeated in every
// cell; many families mean many stores; family names are stored with
// every cell. It only advises: CREATE TABLE sends each Advice as a NOTICE.

// Advice is one rowkey-design warning CREATE TABLE sends as a NOTICE.
type Advice struct {
	Message string
	Hint    string
}

// Thresholds of the advice.
const (
	// MaxAdvisedKeyBytes is the longest rowkey the advisor accepts
	// without a NOTICE (seed 001: 10 to 100 bytes, the shorter the better).
	MaxAdvisedKeyBytes = 100
	// MaxAdvisedFamilies is the most column families it accepts.
	MaxAdvisedFamilies = 3
	// MaxAdvisedFamilyName is the longest family name it accepts: the
	// name is stored with every cell.
	MaxAdvisedFamilyName = 3
)

// Advise checks a new table's design against the seeds' rules and returns
// the advice in a fixed order: hotspot, key length, families.
func Advise(t *TableDesc) []Advice {
	var out []Advice
	if a, ok := adviseHotspot(t); ok {
		out = append(out, a)
	}
	if a, ok := adviseKeyLength(t); ok {
		out = append(out, a)
	}
	if len(t.Families) > MaxAdvisedFamilies {
		names := make([]string, len(t.Families))
		for i, f := range t.Families {
			names[i] = f.Name
		}
		out = append(out, Advice{
			Message: fmt.Sprintf("table %q has %d column families (%s): each family is a separate store with its own files, flushes and compactions",
				t.Name, len(t.Families), strings.Join(names, ", ")),
			Hint: fmt.Sprintf("Use at most %d families; put the columns that are read together in one family.", MaxAdvisedFamilies),
		})
	}
	for _, f := range t.Families {
		if len(f.Name) > MaxAdvisedFamilyName {
			out = append(out, Advice{
				Message: fmt.Sprintf("column family name %q is stored with every cell of table %q", f.Name, t.Name),
				Hint:    fmt.Sprintf("Use a name of at most %d characters, such as %q.", MaxAdvisedFamilyName, f.Name[:1]),
			})
		}
	}
	return out
}

// adviseHotspot warns when the leading rowkey column only grows (a time,
// a sequence) and nothing in front of it spreads the writes: a salt or a
// key expression (hash or bucket) as the first key part.
func adviseHotspot(t *TableDesc) (Advice, bool) {
	if t.ShardBits > 0 || t.SaltBuckets > 0 || len(t.Key) == 0 {
		return Advice{}, false
	}
	c := &t.Columns[t.Key[0].Col]
	if c.Generated != "" {
		return Advice{}, false
	}
	why := monotonic(c)
	if why == "" {
		return Advice{}, false
	}
	where := "last"
	if t.Key[0].Desc {
		where = "first" // a reverse timestamp: the hotspot moves, it stays
	}
	msg := fmt.Sprintf("rowkey column %q of table %q %s: every insert goes to the table's %s region, a write hotspot",
		c.Name, t.Name, why, where)
	hint := "Add WITH (salt_buckets = 8) to spread the writes over 8 regions"
	switch {
	case len(t.Key) > 1 && t.Columns[t.Key[1].Col].Generated == "":
		next := t.Columns[t.Key[1].Col].Name
		hint += fmt.Sprintf(", or lead the key with a column that varies: PRIMARY KEY (%s, %s, ...)", quoteIdent(next), quoteIdent(c.Name))
	case c.Type.Kind.IsInt():
		hint += fmt.Sprintf(", or put a bucket in front: PRIMARY KEY ((%s %% 16), %s)", quoteIdent(c.Name), quoteIdent(c.Name))
	}
	return Advice{Message: msg, Hint: hint + "."}, true
}

// monotonic says why a column's values only grow with time, or "".
func monotonic(c *ColumnDesc) string {
	switch {
	case c.Identity != "":
		return "is an identity column"
	case c.Seq != nil:
		return "is a serial column"
	}
	def := strings.ToLower(c.Default)
	for _, f := range []string{"nextval(", "now()", "current_timestamp", "current_date", "localtimestamp",
		"clock_timestamp(", "statement_timestamp(", "transaction_timestamp("} {
		if strings.Contains(def, f) {
			return "defaults to " + c.Default
		}
	}
	switch c.Type.Kind {
	case types.Timestamp, types.TimestampTZ, types.Date:
		return "is a " + c.Type.String()
	}
	if c.Type.Kind.IsInt() && timeName(c.Name) {
		return "looks like an epoch timestamp (" + c.Type.String() + " named " + c.Name + ")"
	}
	return ""
}

// timeName reports whether an integer column's name says it holds epoch
// time, as the seeds' log tables do (ts, timestamp, created_at, ...).
func timeName(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "ts", "time", "timestamp", "epoch", "created", "updated", "event_time":
		return true
	}
	for _, suf := range []string{"_ts", "_time", "_at", "_epoch", "_millis", "_ms"} {
		if strings.HasSuffix(n, suf) {
			return true
		}
	}
	return false
}

// adviseKeyLength warns when the rowkey can be longer than
// MaxAdvisedKeyBytes. Fixed-width parts count exactly and char(n) and
// varchar(n) at n bytes plus the terminator (ASCII); parts without a
// declared bound (text, bytea, numeric) are not counted, so a key of
// plain text columns is never flagged.
func adviseKeyLength(t *TableDesc) (Advice, bool) {
	total := 0
	var parts []string
	if t.SaltBuckets > 0 {
		total, parts = 1, []string{"salt 1"}
	}
	for _, kc := range t.Key {
		c := &t.Columns[kc.Col]
		_, n := keyenc.KeyWidth(c.Type)
		if n < 0 {
			continue
		}
		total += n
		parts = append(parts, fmt.Sprintf("%s %d", c.Name, n))
	}
	if total <= MaxAdvisedKeyBytes {
		return Advice{}, false
	}
	return Advice{
		Message: fmt.Sprintf("rowkey of table %q can be %d bytes long (%s): the rowkey is stored with every cell",
			t.Name, total, strings.Join(parts, ", ")),
		Hint: fmt.Sprintf("Keep rowkeys under %d bytes: use shorter types, or key on a hash of long values, PRIMARY KEY ((md5(x)), ...).", MaxAdvisedKeyBytes),
	}, true
}

// quoteIdent quotes an identifier when it is not a plain lower-case name.
func quoteIdent(s string) string {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
		}
	}
	return s
}

// fullScanReason says, for a scan of t whose access is a FULL SCAN under
// conds, which key column was not constrained and why. The access is a
// full scan only when the first key column is neither fixed nor bounded,
// so the reason is always about that column.
func fullScanReason(t *TableDesc, conds []Expr) string {
	if len(t.Key) == 0 {
		return ""
	}
	if t.ShardBits > 0 {
		return "full scan: the table has no primary key"
	}
	k0 := t.Key[0].Col
	lead := t.Columns[k0].Name
	if e := t.KeyExpr(k0); e != nil {
		return "full scan: " + keyExprReason(t, k0, e, conds)
	}
	for _, c := range conds {
		if reads(c, k0) {
			return "full scan: " + condReason(t, k0, c)
		}
	}
	if later := laterKeyColumn(t, conds); later != "" {
		return fmt.Sprintf("full scan: a condition on %s cannot be used before %s is fixed", later, lead)
	}
	return "full scan: no condition on rowkey column " + lead
}

// keyExprReason explains why the leading key expression e (column k0) was
// not fixed: it needs an equality on every column it reads.
func keyExprReason(t *TableDesc, k0 int, e Expr, conds []Expr) string {
	lead := t.Columns[k0].Name
	var base []int
	WalkCols(e, func(c *ColRef) {
		for _, b := range base {
			if b == c.Idx {
				return
			}
		}
		base = append(base, c.Idx)
	})
	consumed := make([]bool, len(conds))
	for _, col := range base {
		name := t.Columns[col].Name
		if vals, _ := keyEqualities(t, col, conds, consumed); vals != nil {
			continue
		}
		for _, c := range conds {
			if !reads(c, col) {
				continue
			}
			if b, ok := c.(*BinOp); ok && b.Op.IsComparison() && b.Op != OpEQ && b.Op != OpNE {
				return fmt.Sprintf("%s is compared with a range, but %s before it needs an equality", name, lead)
			}
			return fmt.Sprintf("%s needs an equality on %s", lead, name)
		}
		if later := laterKeyColumn(t, conds); later != "" && later != name {
			return fmt.Sprintf("a condition on %s cannot be used before %s is fixed", later, name)
		}
		return fmt.Sprintf("no condition on %s, which the leading key part %s needs", name, lead)
	}
	return "no condition fixes rowkey column " + lead
}

// condReason explains why condition c, which reads key column k, does not
// bound it.
func condReason(t *TableDesc, k int, c Expr) string {
	col := &t.Columns[k]
	switch x := c.(type) {
	case *BinOp:
		switch {
		case x.Op == OpOr:
			return fmt.Sprintf("%s is in an OR with other conditions", col.Name)
		case !x.Op.IsComparison():
		case !isCol(x.L, k) && !isCol(x.R, k):
		case x.Op == OpNE:
			return fmt.Sprintf("<> on %s cannot narrow the rowkey", col.Name)
		default:
			v := x.R
			if !isCol(x.L, k) {
				v = x.L
			}
			if !isConstant(v) {
				return fmt.Sprintf("%s is compared with %s, which is not a constant", col.Name, v)
			}
			if !keyCompatible(col.Type, v.Type()) {
				return fmt.Sprintf("%s (%s) is compared with a value of type %s", col.Name, col.Type, v.Type())
			}
		}
	case *UnaryOp:
		if x.Op == OpNot {
			return fmt.Sprintf("NOT on %s cannot narrow the rowkey", col.Name)
		}
	case *InList:
		if x.Not && isCol(x.E, k) {
			return fmt.Sprintf("NOT IN on %s cannot narrow the rowkey", col.Name)
		}
	case *Like:
		if isCol(x.E, k) {
			return fmt.Sprintf("the pattern on %s has no literal prefix", col.Name)
		}
	case *Subquery:
		if isCol(x.Test, k) {
			return fmt.Sprintf("%s is compared with a subquery", col.Name)
		}
	case *Func:
		if len(x.Args) == 2 && isCol(x.Args[0], k) {
			switch x.Name {
			case "= ANY":
				return fmt.Sprintf("%s is compared with %s, which is not a constant", col.Name, x.Args[1])
			case "<> ALL":
				return fmt.Sprintf("<> ALL on %s cannot narrow the rowkey", col.Name)
			}
		}
	}
	return fmt.Sprintf("%s is only used inside %s", col.Name, c)
}

// laterKeyColumn names the first key column after the first that a
// condition reads, or "".
func laterKeyColumn(t *TableDesc, conds []Expr) string {
	for _, kc := range t.Key[1:] {
		for _, c := range conds {
			if reads(c, kc.Col) {
				return t.Columns[kc.Col].Name
			}
		}
	}
	return ""
}

// reads reports whether e reads table column col.
func reads(e Expr, col int) bool {
	found := false
	WalkCols(e, func(c *ColRef) { found = found || c.Idx == col })
	return found
}

// FullScans returns the scans of stored tables (not system views) in p
// that read the whole table, in plan order, including the scans of p's
// subqueries. An EXPLAIN without ANALYZE reads nothing: it has none.
func FullScans(p Plan) []*Scan {
	w := fullScanWalker{seen: map[*Subquery]bool{}}
	if e, ok := p.(*Explain); ok {
		if !e.Analyze {
			return nil
		}
		w.plan(e.Input)
		for _, sq := range e.SubPlans {
			w.subquery(sq)
		}
		return w.out
	}
	w.plan(p)
	return w.out
}

type fullScanWalker struct {
	out  []*Scan
	seen map[*Subquery]bool
}

func (w *fullScanWalker) plan(p Plan) {
	if p == nil {
		return
	}
	if s, ok := p.(*Scan); ok && s.Access.Kind == FullScan && s.Table.Virtual == "" {
		w.out = append(w.out, s)
	}
	w.exprs(nodeExprs(p))
	_, children := describe(p)
	for _, c := range children {
		w.plan(c)
	}
}

func (w *fullScanWalker) subquery(sq *Subquery) {
	if w.seen[sq] {
		return
	}
	w.seen[sq] = true
	w.exprs(sq.Row)
	w.plan(sq.Plan)
}

// exprs walks expressions for the subqueries they hold.
func (w *fullScanWalker) exprs(es []Expr) {
	for _, e := range es {
		mapExpr(e, func(x Expr) Expr {
			if sq, ok := x.(*Subquery); ok {
				w.subquery(sq)
			}
			return x
		})
	}
}

// nodeExprs lists the expressions of a plan node that may hold
// subqueries.
func nodeExprs(p Plan) []Expr {
	var es []Expr
	switch p := p.(type) {
	case *Scan:
		es = append(es, p.Filter)
		for _, sp := range p.Access.Spans {
			es = append(es, sp.Eq...)
			es = append(es, sp.Lo, sp.Hi)
		}
	case *ProjectSet:
		for _, c := range p.SRFs {
			es = append(es, c.Func)
		}
	case *Filter:
		es = append(es, p.Cond)
	case *Project:
		es = append(es, p.Exprs...)
	case *Values:
		for _, r := range p.Rows {
			es = append(es, r...)
		}
	case *Sort:
		for _, k := range p.Keys {
			es = append(es, k.Expr)
		}
	case *Limit:
		es = append(es, p.Count, p.Offset)
	case *Distinct:
		es = append(es, p.On...)
	case *Aggregate:
		es = append(es, p.GroupBy...)
		for i := range p.Aggs {
			es = append(es, p.Aggs[i].Inputs()...)
		}
	case *Window:
		for i := range p.Funcs {
			f := &p.Funcs[i]
			es = append(es, f.Args...)
			es = append(es, f.Agg.Inputs()...)
			es = append(es, f.Spec.Partition...)
		}
	case *HashJoin:
		es = append(es, p.On)
	case *NestedLoopJoin:
		es = append(es, p.On)
	case *LookupJoin:
		es = append(es, p.On)
	case *Insert:
		for _, r := range p.Rows {
			es = append(es, r...)
		}
		for _, s := range p.Set {
			es = append(es, s.Expr)
		}
		es = append(es, p.Where)
		es = append(es, p.Returning.Exprs...)
	case *Update:
		for _, s := range p.Set {
			es = append(es, s.Expr)
		}
		es = append(es, p.Returning.Exprs...)
	case *Delete:
		es = append(es, p.Returning.Exprs...)
	}
	return es
}
