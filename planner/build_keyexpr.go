package planner

import (
	"slices"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
	"github.com/widesql/widesql/sqlparse"
)

// Key expressions: a PRIMARY KEY part may be an expression over the
// table's columns, PRIMARY KEY ((left(md5(host), 6)), host, ts DESC). The
// part is a hidden key column (ColumnDesc.Generated holds its SQL text and
// its Name is that text) whose value exec computes from the row on every
// write (TableDesc.KeyExpr). The columns it reads stay ordinary columns:
// a column that is not itself a key part is stored as a cell, so SELECT
// returns it even when the expression cannot be inverted (a hash).
//
// The planner routes predicates through the expression (access below):
//   - equalities (or IN lists) on every column the expression reads give an
//     equality on the key part, the expression evaluated over those values;
//   - a key part of the form x % N (or mod(x, N), crc32(..) % N) has a
//     finite domain: when a later key part is constrained, the part is
//     enumerated, one span per bucket ("100 buckets need 100 scans"), and
//     the spans can be merged back into key order (Access.Merge).

// maxBuckets bounds the domain of an enumerable key part.
const maxBuckets = 1024

// keyExprColumn plans a PRIMARY KEY expression part of t and appends its
// hidden key column at key position pos; it returns the column's index.
func (b *builder) keyExprColumn(t *TableDesc, n ast.ExprNode, pos int) (int, error) {
	if hasAggregate(n) {
		return 0, pgerror.New(pgerror.CodeGroupingError, "aggregate functions are not allowed in index expressions")
	}
	e, err := b.expr(n, tableScope(t, t.Name))
	if err != nil {
		return 0, err
	}
	e = resolveUnknown(e)
	if err := checkKeyExpr(e); err != nil {
		return 0, err
	}
	if !keyenc.HasKeyEncoding(e.Type()) {
		return 0, pgerror.New(pgerror.CodeUndefinedObject, "data type %s has no default operator class for access method \"btree\"", e.Type())
	}
	text := e.String()
	c := ColumnDesc{ID: t.NextColumnID, Name: text, Type: e.Type(), NotNull: true, KeyPos: pos, Hidden: true, Generated: text}
	t.NextColumnID++
	for i := range t.Columns {
		if t.Columns[i].Generated == text {
			return 0, pgerror.New(pgerror.CodeDuplicateColumn, "key expression %s appears twice in primary key constraint", text)
		}
	}
	t.Columns = append(t.Columns, c)
	idx := len(t.Columns) - 1
	// The stored text must rebuild the same expression.
	again, err := compileKeyExpr(t, text)
	if err != nil || again.String() != text {
		return 0, pgerror.New(pgerror.CodeFeatureNotSupported, "key expression %s cannot be stored", text).
			WithHint("Write it with plain lower-case column names and built-in functions.")
	}
	return idx, nil
}

// volatileFuncs are the functions whose value is not a function of their
// arguments alone: a key computed from them could not be found again.
var volatileFuncs = map[string]bool{
	"now": true, "current_timestamp": true, "localtimestamp": true, "statement_timestamp": true,
	"transaction_timestamp": true, "clock_timestamp": true, "timeofday": true, "current_date": true,
	"current_time": true, "localtime": true, "random": true, "setseed": true, "nextval": true, "currval": true,
	"lastval": true, "setval": true, "gen_random_uuid": true, "current_setting": true, "current_user": true,
	"session_user": true, "current_schema": true, "to_char": true, "to_date": true, "to_timestamp": true,
}

// checkKeyExpr rejects what PostgreSQL rejects in index expressions:
// functions that are not immutable, subqueries and parameters. Casts
// involving time zones depend on the session, so they are out too.
func checkKeyExpr(e Expr) error {
	var err error
	cols := 0
	mapExpr(e, func(x Expr) Expr {
		switch x := x.(type) {
		case *Func:
			if volatileFuncs[x.Name] && err == nil {
				err = pgerror.New(pgerror.CodeInvalidObjectDefinition, "functions in index expression must be marked IMMUTABLE").
					WithDetail("%s is not immutable", x.Name)
			}
		case *Cast:
			if (zoned(x.T) || zoned(x.E.Type())) && x.T.Kind != x.E.Type().Kind && err == nil {
				err = pgerror.New(pgerror.CodeInvalidObjectDefinition, "functions in index expression must be marked IMMUTABLE").
					WithDetail("a cast to or from %s depends on the session time zone", x.T)
			}
		case *Subquery:
			if err == nil {
				err = pgerror.New(pgerror.CodeFeatureNotSupported, "cannot use subquery in index expression")
			}
		case *Param, *OuterRef:
			if err == nil {
				err = pgerror.New(pgerror.CodeFeatureNotSupported, "there is no parameter in an index expression")
			}
		case *ColRef:
			cols++
		}
		return x
	})
	if err == nil && cols == 0 {
		err = pgerror.New(pgerror.CodeInvalidObjectDefinition, "key expression %s reads no column", e.String())
	}
	return err
}

func zoned(t types.T) bool {
	return t.Kind == types.TimestampTZ || t.Kind == types.Date || t.Kind == types.Timestamp
}

// compileKeyExpr builds a key expression from its text over t's column
// slots.
func compileKeyExpr(t *TableDesc, text string) (Expr, error) {
	stmts, err := sqlparse.Parse("SELECT " + text)
	if err != nil {
		return nil, err
	}
	sel, ok := stmts[0].AST.(*ast.SelectStmt)
	if len(stmts) != 1 || !ok || sel.From != nil || len(sel.Fields.Fields) != 1 || sel.Fields.Fields[0].Expr == nil {
		return nil, pgerror.New(pgerror.CodeDataCorrupted, "invalid key expression %s in table %s", text, t.Name)
	}
	b := &builder{params: &ParamTypes{}, loc: time.UTC}
	e, err := b.expr(sel.Fields.Fields[0].Expr, tableScope(t, t.Name))
	if err != nil {
		return nil, err
	}
	return resolveUnknown(e), nil
}

// CompileKeyExprs builds the expressions of t's key-expression columns
// from their stored text. The catalog calls it once per descriptor it
// loads or publishes; KeyExpr then serves them.
func CompileKeyExprs(t *TableDesc) error {
	t.keyExprs = nil
	for _, kc := range t.Key {
		c := &t.Columns[kc.Col]
		if c.Generated == "" {
			continue
		}
		e, err := compileKeyExpr(t, c.Generated)
		if err != nil {
			return err
		}
		if t.keyExprs == nil {
			t.keyExprs = map[int]Expr{}
		}
		t.keyExprs[kc.Col] = e
	}
	return nil
}

// KeyExpr returns the expression computing key column col, or nil for an
// ordinary column (CompileKeyExprs must have run).
func (t *TableDesc) KeyExpr(col int) Expr { return t.keyExprs[col] }

// AffectsKey reports whether writing column col can change the rowkey: it
// is a key column or a key expression reads it.
func (t *TableDesc) AffectsKey(col int) bool {
	if t.Columns[col].IsKey() {
		return true
	}
	for _, e := range t.keyExprs {
		found := false
		WalkCols(e, func(c *ColRef) { found = found || c.Idx == col })
		if found {
			return true
		}
	}
	return false
}

// access derives a scan's access path: DeriveAccess over the conjuncts,
// after adding the conjuncts that key expressions imply. Implied
// conjuncts the path does not consume are dropped again: the originals
// they came from are still there.
func (b *builder) access(t *TableDesc, conds []Expr) (Access, []Expr) {
	if t.keyExprs == nil {
		return DeriveAccess(t, conds)
	}
	all := slices.Clone(conds)
	implied := map[Expr]bool{}
	origins := map[Expr]origin{}
	enumerated := -1
	for pos, kc := range t.Key {
		e := t.keyExprs[kc.Col]
		if e == nil {
			continue
		}
		if c := impliedEquality(t, kc.Col, e, all, origins); c != nil {
			all = append(all, c)
			implied[c] = true
			continue
		}
		if pos == 0 && laterKeyConstrained(t, all) {
			if c := bucketDomain(t, kc.Col, e, all); c != nil {
				all = append(all, c)
				implied[c] = true
				enumerated = pos
			}
		}
	}
	acc, rest := DeriveAccess(t, all)
	acc.Spans = consistentSpans(t, acc.Spans, origins)
	out := rest[:0]
	for _, c := range rest {
		if !implied[c] {
			out = append(out, c)
		}
	}
	if enumerated == 0 && acc.Kind != FullScan && len(acc.Spans) > 0 && len(acc.Spans[0].Eq) > 0 {
		if acc.Kind == RangeScan && len(acc.Spans[0].Eq) == 1 && !acc.Spans[0].HasRange() {
			// Only the buckets were fixed: one scan per bucket reads the
			// whole table, so plan the plain full scan instead.
			return DeriveAccess(t, conds)
		}
		acc.Enumerated = 1
	}
	return acc, out
}

// origin records which column values an implied key value was computed
// from.
type origin struct {
	cols []int
	vals []Expr
}

// consistentSpans drops the spans the cross product of IN lists made
// impossible: host IN ('a', 'b') under PRIMARY KEY ((md5(host)), host)
// gives the key values md5('a') and md5('b') and the host values 'a' and
// 'b', but only md5('a')/'a' and md5('b')/'b' can exist.
func consistentSpans(t *TableDesc, spans []Span, origins map[Expr]origin) []Span {
	if len(origins) == 0 || len(spans) < 2 {
		return spans
	}
	out := spans[:0]
	for _, sp := range spans {
		ok := true
		for _, v := range sp.Eq {
			o, found := origins[v]
			if !found {
				continue
			}
			for i, c := range o.cols {
				if p := t.Columns[c].KeyPos; p >= 0 && p < len(sp.Eq) && sp.Eq[p] != o.vals[i] {
					ok = false
				}
			}
		}
		if ok {
			out = append(out, sp)
		}
	}
	return out
}

// impliedEquality returns col = expr(values) when equalities fix every
// column the key expression e reads (an IN list gives col IN (...)), and
// records each value's origin.
func impliedEquality(t *TableDesc, col int, e Expr, conds []Expr, origins map[Expr]origin) Expr {
	var reads []int
	WalkCols(e, func(c *ColRef) {
		if !slices.Contains(reads, c.Idx) {
			reads = append(reads, c.Idx)
		}
	})
	if len(reads) == 0 {
		return nil
	}
	consumed := make([]bool, len(conds))
	combos := [][]Expr{nil}
	for _, r := range reads {
		vals, _ := keyEqualities(t, r, conds, consumed)
		if vals == nil || len(combos)*len(vals) > MaxKeys {
			return nil
		}
		var next [][]Expr
		for _, combo := range combos {
			for _, v := range vals {
				if _, ok := v.(*ElemsOf); ok {
					return nil // = ANY($1): values known only at execution
				}
				next = append(next, append(slices.Clone(combo), v))
			}
		}
		combos = next
	}
	ref := &ColRef{Idx: col, Name: t.Columns[col].Name, T: t.Columns[col].Type}
	list := make([]Expr, len(combos))
	for i, combo := range combos {
		list[i] = mapExpr(e, func(x Expr) Expr {
			if c, ok := x.(*ColRef); ok {
				v := combo[slices.Index(reads, c.Idx)]
				if v.Type().Kind != c.T.Kind {
					v = &Cast{E: v, T: c.T}
				}
				return v
			}
			return x
		})
		origins[list[i]] = origin{cols: reads, vals: combo}
	}
	if len(list) == 1 {
		return &BinOp{Op: OpEQ, L: ref, R: list[0], T: types.TBool}
	}
	return &InList{E: ref, List: list}
}

// laterKeyConstrained reports whether some conjunct reads a key column
// after the first: enumerating the first part's buckets only pays then.
func laterKeyConstrained(t *TableDesc, conds []Expr) bool {
	for _, kc := range t.Key[1:] {
		for _, c := range conds {
			found := false
			WalkCols(c, func(r *ColRef) { found = found || r.Idx == kc.Col })
			if found {
				return true
			}
		}
	}
	return false
}

// bucketDomain returns col IN (every value e can take) when e is x % N
// (or mod(x, N)) with a constant N up to maxBuckets. The domain is
// [0, N) when x cannot be negative (crc32, abs, length, or constant
// bounds on x in conds that are >= 0); when conds bound x to fewer than N
// consecutive constant values, only their residues.
func bucketDomain(t *TableDesc, col int, e Expr, conds []Expr) Expr {
	x, n := modulus(e)
	if x == nil || n < 2 || n > maxBuckets {
		return nil
	}
	lo, hi := int64(-(n - 1)), int64(n-1)
	var vals []int64
	if nonNegative(x) {
		lo = 0
	}
	if r, ok := x.(*ColRef); ok {
		if blo, bhi, ok := constBounds(r.Idx, conds); ok {
			if blo >= 0 {
				lo = 0
			}
			if bhi <= 0 {
				hi = 0
			}
			if bhi >= blo && bhi-blo < n {
				for v := blo; v <= bhi; v++ {
					vals = append(vals, v%n)
				}
			}
		}
	}
	if vals == nil {
		for v := lo; v <= hi; v++ {
			vals = append(vals, v)
		}
	}
	slices.Sort(vals)
	vals = slices.Compact(vals)
	ct := t.Columns[col].Type
	list := make([]Expr, len(vals))
	for i, v := range vals {
		list[i] = &Const{D: types.NewInt(ct.Kind, v), T: ct}
	}
	return &InList{E: &ColRef{Idx: col, Name: t.Columns[col].Name, T: ct}, List: list}
}

// modulus splits e = x % N or mod(x, N) with an integer constant N.
func modulus(e Expr) (Expr, int64) {
	var x, m Expr
	switch e := e.(type) {
	case *BinOp:
		if e.Op != OpMod {
			return nil, 0
		}
		x, m = e.L, e.R
	case *Func:
		if e.Name != "mod" || len(e.Args) != 2 {
			return nil, 0
		}
		x, m = e.Args[0], e.Args[1]
	case *Cast:
		if !e.T.Kind.IsInt() {
			return nil, 0
		}
		return modulus(e.E)
	default:
		return nil, 0
	}
	for {
		c, ok := m.(*Cast)
		if !ok {
			break
		}
		m = c.E
	}
	k, ok := m.(*Const)
	if !ok || k.D.IsNull() || !k.T.Kind.IsInt() {
		return nil, 0
	}
	n := k.D.I
	if n < 0 {
		n = -n
	}
	return x, n
}

func nonNegative(x Expr) bool {
	for {
		c, ok := x.(*Cast)
		if !ok {
			break
		}
		x = c.E
	}
	f, ok := x.(*Func)
	return ok && (f.Name == "crc32" || f.Name == "abs" || f.Name == "length" || f.Name == "char_length")
}

// constBounds returns the integer constant bounds conds put on column col
// (col = c, col BETWEEN, col >/>=/</<= c), when both are known.
func constBounds(col int, conds []Expr) (lo, hi int64, ok bool) {
	hasLo, hasHi := false, false
	for _, c := range conds {
		bo, isBin := c.(*BinOp)
		if !isBin || !bo.Op.IsComparison() || bo.Op == OpNE {
			continue
		}
		op, v := bo.Op, bo.R
		if !isCol(bo.L, col) {
			if !isCol(bo.R, col) {
				continue
			}
			op, v = op.Commute(), bo.L
		}
		k, isConst := v.(*Const)
		if !isConst || k.D.IsNull() || !k.T.Kind.IsInt() {
			continue
		}
		switch op {
		case OpEQ:
			lo, hi, hasLo, hasHi = k.D.I, k.D.I, true, true
		case OpGE:
			lo, hasLo = k.D.I, true
		case OpGT:
			lo, hasLo = k.D.I+1, true
		case OpLE:
			hi, hasHi = k.D.I, true
		case OpLT:
			hi, hasHi = k.D.I-1, true
		}
	}
	return lo, hi, hasLo && hasHi
}
