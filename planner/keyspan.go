package planner

import (
	"strings"

	"github.com/widesql/widesql/planner/types"
)

// AccessKind is how a Scan reaches its rows.
type AccessKind uint8

// Access paths, from the narrowest to the widest.
const (
	PointGet AccessKind = iota
	MultiGet
	RangeScan
	FullScan
)

func (k AccessKind) String() string {
	return [...]string{"POINT GET", "MULTI GET", "RANGE SCAN", "FULL SCAN"}[k]
}

// MaxKeys bounds the number of point keys or spans one access may expand
// to; past it, the trailing key columns stay in the filter instead.
const MaxKeys = 1024

// Access is a table access path: which rowkeys or rowkey ranges to read.
// Values are expressions, so a prepared statement is planned once and its
// keys encoded when the parameters are bound.
type Access struct {
	Kind  AccessKind
	Spans []Span
	// Enumerated is 1 when the planner enumerated the values of the first
	// key part (a bucket expression such as ts % 100): the spans differ in
	// it, so they come back in bucket order unless Merge is set.
	Enumerated int
	// Merge asks exec to merge the spans of different first-part values
	// into the order of the rest of the key (ORDER BY relies on it).
	Merge bool
}

// Span constrains a prefix of the rowkey. Eq fixes key columns
// 0..len(Eq)-1; then, optionally, the next key column lies between Lo and
// Hi, or starts with the string Prefix.
type Span struct {
	Eq             []Expr
	Lo, Hi         Expr // nil: unbounded
	LoIncl, HiIncl bool
	Prefix         string
	HasPrefix      bool
}

// HasRange reports whether the span constrains the column after Eq.
func (s *Span) HasRange() bool { return s.Lo != nil || s.Hi != nil || s.HasPrefix }

// DeriveAccess chooses the access path for a scan of t filtered by the
// conjuncts, and returns the conjuncts the path does not consume. It is a
// pure function of its inputs; see keyspan_test for the shapes it knows.
func DeriveAccess(t *TableDesc, conjuncts []Expr) (Access, []Expr) {
	consumed := make([]bool, len(conjuncts))
	var prefix [][]Expr // per fixed key column, its candidate values
	var prefixUsed [][]int
	total := 1
	for _, kc := range t.Key {
		vals, used := keyEqualities(t, kc.Col, conjuncts, consumed)
		if vals == nil || total*len(vals) > MaxKeys {
			break
		}
		total *= len(vals)
		prefix = append(prefix, vals)
		prefixUsed = append(prefixUsed, used)
		for _, i := range used {
			consumed[i] = true
		}
	}
	if len(prefix) == 0 {
		if acc, used, ok := tupleDisjunction(t, conjuncts); ok {
			consumed[used] = true
			return acc, remaining(conjuncts, consumed)
		}
	}
	tuples := crossProduct(prefix)
	if len(prefix) == len(t.Key) {
		acc := Access{Kind: PointGet}
		if len(tuples) > 1 || hasElemsOf(tuples) {
			acc.Kind = MultiGet
		}
		for _, tup := range tuples {
			acc.Spans = append(acc.Spans, Span{Eq: tup})
		}
		return acc, remaining(conjuncts, consumed)
	}
	rng, ok := keyRange(t, t.Key[len(prefix)].Col, conjuncts, consumed)
	if len(prefix) == 0 && !ok {
		return Access{Kind: FullScan}, remaining(conjuncts, consumed)
	}
	acc := Access{Kind: RangeScan}
	for _, tup := range tuples {
		s := rng
		s.Eq = tup
		acc.Spans = append(acc.Spans, s)
	}
	return acc, remaining(conjuncts, consumed)
}

func remaining(conjuncts []Expr, consumed []bool) []Expr {
	var out []Expr
	for i, c := range conjuncts {
		if !consumed[i] {
			out = append(out, c)
		}
	}
	return out
}

func crossProduct(cols [][]Expr) [][]Expr {
	out := [][]Expr{nil}
	for _, vals := range cols {
		next := make([][]Expr, 0, len(out)*len(vals))
		for _, tup := range out {
			for _, v := range vals {
				t := append(append([]Expr(nil), tup...), v)
				next = append(next, t)
			}
		}
		out = next
	}
	return out
}

// keyEqualities finds a conjunct fixing column col to a set of constants:
// col = c, col IN (c...), or col = c1 OR col = c2 ...
func keyEqualities(t *TableDesc, col int, conjuncts []Expr, consumed []bool) ([]Expr, []int) {
	ct := t.Columns[col].Type
	for i, c := range conjuncts {
		if consumed[i] {
			continue
		}
		if v := eqConst(c, col, ct); v != nil {
			return []Expr{v}, []int{i}
		}
		if f, ok := c.(*Func); ok && f.Name == "= ANY" && isCol(f.Args[0], col) && isConstant(f.Args[1]) &&
			keyCompatible(ct, f.Args[1].Type().ElemType()) {
			return []Expr{&ElemsOf{Array: f.Args[1], T: f.Args[1].Type().ElemType()}}, []int{i}
		}
		if in, ok := c.(*InList); ok && !in.Not && isCol(in.E, col) {
			if vals := constList(in.List, ct); vals != nil {
				return vals, []int{i}
			}
		}
		if ds := splitOr(c, nil); len(ds) > 1 {
			var vals []Expr
			for _, d := range ds {
				v := eqConst(d, col, ct)
				if v == nil {
					vals = nil
					break
				}
				vals = append(vals, v)
			}
			if vals != nil {
				return vals, []int{i}
			}
		}
	}
	return nil, nil
}

// tupleDisjunction recognises (k1 = a AND k2 = b) OR (k1 = c AND k2 = d)...
// fixing every key column in each disjunct, as a MULTI GET.
func tupleDisjunction(t *TableDesc, conjuncts []Expr) (Access, int, bool) {
	for i, c := range conjuncts {
		ds := splitOr(c, nil)
		if len(ds) < 2 || len(ds) > MaxKeys {
			continue
		}
		acc := Access{Kind: MultiGet}
		for _, d := range ds {
			parts := splitAnd(d, nil)
			if len(parts) != len(t.Key) {
				break
			}
			tup := make([]Expr, len(t.Key))
			for _, p := range parts {
				for k, kc := range t.Key {
					if tup[k] == nil {
						if v := eqConst(p, kc.Col, t.Columns[kc.Col].Type); v != nil {
							tup[k] = v
							break
						}
					}
				}
			}
			complete := true
			for _, v := range tup {
				complete = complete && v != nil
			}
			if !complete {
				break
			}
			acc.Spans = append(acc.Spans, Span{Eq: tup})
		}
		if len(acc.Spans) == len(ds) {
			return acc, i, true
		}
	}
	return Access{}, 0, false
}

// keyRange collects bounds on column col from comparisons and a LIKE prefix.
func keyRange(t *TableDesc, col int, conjuncts []Expr, consumed []bool) (Span, bool) {
	var s Span
	ct := t.Columns[col].Type
	found := false
	for i, c := range conjuncts {
		if consumed[i] {
			continue
		}
		if like, ok := c.(*Like); ok && !like.Not && !like.Fold && isCol(like.E, col) && ct.Kind == types.Text && !s.HasPrefix && s.Lo == nil && s.Hi == nil {
			if k, ok := like.Pattern.(*Const); ok && !k.D.IsNull() {
				p, exact := likePrefix(k.D.S, like.Escape)
				if p != "" {
					s.Prefix, s.HasPrefix, found = p, true, true
					consumed[i] = exact
				}
			}
			continue
		}
		b, ok := c.(*BinOp)
		if !ok || !b.Op.IsComparison() || b.Op == OpEQ || b.Op == OpNE || s.HasPrefix {
			continue
		}
		op, v := b.Op, b.R
		if !isCol(b.L, col) {
			if !isCol(b.R, col) {
				continue
			}
			op, v = op.Commute(), b.L
		}
		if !isConstant(v) || !keyCompatible(ct, v.Type()) {
			continue
		}
		switch {
		case (op == OpGT || op == OpGE) && s.Lo == nil:
			s.Lo, s.LoIncl = v, op == OpGE
		case (op == OpLT || op == OpLE) && s.Hi == nil:
			s.Hi, s.HiIncl = v, op == OpLE
		default:
			continue
		}
		consumed[i], found = true, true
	}
	return s, found
}

// likePrefix returns the literal prefix of a LIKE pattern and whether the
// pattern is exactly that prefix followed by a single trailing %.
func likePrefix(pat string, esc byte) (string, bool) {
	if esc == 0 {
		esc = '\\'
	}
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; {
		case c == esc && i+1 < len(pat):
			i++
			b.WriteByte(pat[i])
		case c == '%':
			return b.String(), i == len(pat)-1
		case c == '_':
			return b.String(), false
		default:
			b.WriteByte(c)
		}
	}
	// No wildcard: LIKE is equality; a prefix scan plus the filter is exact.
	return b.String(), false
}

func isCol(e Expr, col int) bool {
	c, ok := e.(*ColRef)
	return ok && c.Idx == col
}

// eqConst returns v when e is col = v (either side) with v constant and
// usable as a key value for a column of type ct.
func eqConst(e Expr, col int, ct types.T) Expr {
	b, ok := e.(*BinOp)
	if !ok || b.Op != OpEQ {
		return nil
	}
	v := b.R
	if !isCol(b.L, col) {
		if !isCol(b.R, col) {
			return nil
		}
		v = b.L
	}
	if !isConstant(v) || !keyCompatible(ct, v.Type()) {
		return nil
	}
	return v
}

func constList(es []Expr, ct types.T) []Expr {
	for _, e := range es {
		if !isConstant(e) || !keyCompatible(ct, e.Type()) {
			return nil
		}
	}
	return es
}

// keyCompatible reports whether a value of type vt can be encoded exactly
// as a key of type ct (after a range-checked conversion between integer
// widths).
func keyCompatible(ct, vt types.T) bool {
	if ct.Kind.IsInt() {
		return vt.Kind.IsInt()
	}
	return ct.Kind == vt.Kind
}

// hasElemsOf reports whether a key tuple holds an ElemsOf, whose number of
// keys is known only at execution.
func hasElemsOf(tuples [][]Expr) bool {
	for _, tup := range tuples {
		for _, e := range tup {
			if _, ok := e.(*ElemsOf); ok {
				return true
			}
		}
	}
	return false
}
