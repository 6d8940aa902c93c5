package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
	"github.com/widesql/widesql/sqlparse"
)

// aggExpr builds an expression above an aggregation: group-by expressions
// and aggregate calls become references to the aggregate's output slots.
func (b *builder) aggExpr(n ast.ExprNode, sc *scope) (Expr, error) {
	st := sc.agg
	if p, ok := n.(*ast.ParenthesesExpr); ok {
		return b.aggExpr(p.Expr, sc)
	}
	if a, ok := n.(*ast.AggregateFuncExpr); ok {
		call, err := b.aggCall(a, st)
		if err != nil {
			return nil, err
		}
		key := call.String()
		for i := range st.aggs {
			if st.aggs[i].String() == key && st.aggs[i].T == call.T {
				return &ColRef{Idx: len(st.groupBy) + i, Name: call.Func.String(), T: call.T}, nil
			}
		}
		st.aggs = append(st.aggs, call)
		slot := len(st.groupBy) + len(st.aggs) - 1
		return &ColRef{Idx: slot, Name: call.Func.String(), T: call.T}, nil
	}
	if _, ok := n.(*ast.WindowFuncExpr); ok {
		return b.exprNode(n, sc)
	}
	// A subtree equal to a GROUP BY expression reads the group slot.
	if pre, err := b.expr(n, st.pre); err == nil {
		s := pre.String()
		for i, g := range st.groupStr {
			if g == s {
				return &ColRef{Idx: i, Name: s, T: st.groupBy[i].Type()}, nil
			}
		}
		if c, ok := n.(*ast.ColumnNameExpr); ok {
			return nil, pgerror.New(pgerror.CodeGroupingError,
				"column %q must appear in the GROUP BY clause or be used in an aggregate function", c.Name.Name.O)
		}
		if isConstant(pre) {
			return pre, nil
		}
	}
	if _, ok := n.(*ast.ColumnNameExpr); ok {
		return b.expr(n, st.pre) // reports the unknown column
	}
	return b.exprNode(n, sc)
}

// pgAggCall is an aggregate call in PostgreSQL's terms, read back from
// TiDB's AST (see sqlparse.PgAgg for the GROUP_CONCAT form).
type pgAggCall struct {
	name     string
	distinct bool
	within   bool
	args     []ast.ExprNode // the arguments; for WITHIN GROUP the direct ones
	order    []*ast.ByItem
	filter   ast.ExprNode // nil without FILTER (or when sqlparse folded it into args)
}

// readAggCall reads a's PostgreSQL call.
func readAggCall(a *ast.AggregateFuncExpr) (pgAggCall, error) {
	c := pgAggCall{name: strings.ToLower(a.F), distinct: a.Distinct, args: a.Args}
	if a.Order != nil {
		c.order = a.Order.Items
	}
	if c.name != sqlparse.PgAgg {
		return c, nil
	}
	bad := pgerror.New(pgerror.CodeInternalError, "planner: malformed %s call", sqlparse.PgAgg)
	if len(a.Args) < 2 {
		return c, bad
	}
	v, ok := a.Args[0].(*driver.ValueExpr)
	if !ok || v.Kind() != driver.KindString {
		return c, bad
	}
	marker := v.GetString()
	c.args = a.Args[1 : len(a.Args)-1] // the last is GROUP_CONCAT's separator
	if m, ok := strings.CutSuffix(marker, " FILTER"); ok {
		if len(c.args) == 0 {
			return c, bad
		}
		marker, c.filter, c.args = m, c.args[0], c.args[1:]
	}
	c.name, c.within = strings.CutSuffix(marker, " WITHIN GROUP")
	return c, nil
}

// aggName is the name PostgreSQL gives the result column of a.
func aggName(a *ast.AggregateFuncExpr) string {
	c, err := readAggCall(a)
	if err != nil {
		return strings.ToLower(a.F)
	}
	return c.name
}

var aggFuncs = map[string]AggFunc{
	"count": AggCount, "sum": AggSum, "avg": AggAvg, "min": AggMin, "max": AggMax,
	"string_agg": AggStringAgg, "array_agg": AggArrayAgg, "bool_and": AggBoolAnd, "bool_or": AggBoolOr,
	"every": AggEvery, "stddev": AggStddev, "stddev_samp": AggStddevSamp, "stddev_pop": AggStddevPop,
	"variance": AggVariance, "var_samp": AggVarSamp, "var_pop": AggVarPop,
	"percentile_cont": AggPercentileCont, "percentile_disc": AggPercentileDisc, "mode": AggMode,
}

// unimplementedAggs are PostgreSQL aggregates widesql lacks (0A000, not
// "does not exist").
var unimplementedAggs = map[string]bool{
	"bit_and": true, "bit_or": true, "bit_xor": true, "json_agg": true, "jsonb_agg": true,
	"json_object_agg": true, "jsonb_object_agg": true, "xmlagg": true, "covar_pop": true,
	"covar_samp": true, "corr": true, "regr_slope": true, "rank": true, "dense_rank": true,
	"percent_rank": true, "cume_dist": true, "range_agg": true, "range_intersect_agg": true,
}

func (b *builder) aggCall(a *ast.AggregateFuncExpr, st *aggState) (AggCall, error) {
	c, err := readAggCall(a)
	if err != nil {
		return AggCall{}, err
	}
	pre := st.pre
	for _, n := range c.args {
		if hasAggregate(n) {
			return AggCall{}, pgerror.New(pgerror.CodeGroupingError, "aggregate function calls cannot be nested")
		}
	}
	for _, it := range c.order {
		if hasAggregate(it.Expr) {
			return AggCall{}, pgerror.New(pgerror.CodeGroupingError, "aggregate function calls cannot be nested")
		}
	}
	f, known := aggFuncs[c.name]
	if c.name == "count" && !c.distinct && len(c.args) == 1 && !c.within {
		if v, ok := c.args[0].(*driver.ValueExpr); ok && v.Kind() != driver.KindNull && a.F != sqlparse.PgAgg {
			f = AggCountStar // TiDB's count(*) (and count(1), the same)
		}
	}
	var call AggCall
	if c.filter != nil {
		if hasAggregate(c.filter) {
			return AggCall{}, pgerror.New(pgerror.CodeGroupingError, "aggregate functions are not allowed in FILTER")
		}
		if call.Filter, err = b.boolExpr(c.filter, pre, "FILTER"); err != nil {
			return AggCall{}, err
		}
	}
	args := make([]Expr, len(c.args))
	for i, n := range c.args {
		if args[i], err = b.expr(n, pre); err != nil {
			return AggCall{}, err
		}
	}
	for _, it := range c.order {
		e, err := b.expr(it.Expr, pre)
		if err != nil {
			return AggCall{}, err
		}
		call.Order = append(call.Order, SortKey{Expr: resolveUnknown(e), Desc: it.Desc, NullsFirst: it.NullOrder})
	}
	switch {
	case !known && unimplementedAggs[c.name]:
		return AggCall{}, pgerror.Unimplemented("aggregate function " + c.name)
	case !known && len(c.order) > 0 && !c.within && len(args) > 0:
		return AggCall{}, noAggregate(c.name, args, nil)
	case !known:
		return AggCall{}, noAggregate(c.name, args, call.Order)
	case f.OrderedSet() != c.within:
		if c.within {
			return AggCall{}, noAggregate(c.name, args, call.Order)
		}
		return AggCall{}, pgerror.New("42809", "WITHIN GROUP is required for ordered-set aggregate %s", c.name)
	}
	call.Func, call.Distinct = f, c.distinct
	if f.OrderedSet() {
		err = b.orderedSetCall(&call, args, st)
	} else {
		err = b.plainCall(&call, args)
	}
	if err != nil {
		return AggCall{}, err
	}
	if call.Distinct && len(call.Order) > 0 {
		// PostgreSQL sorts DISTINCT input by the ORDER BY keys, so each
		// key must be an argument.
		for _, k := range call.Order {
			if s := k.Expr.String(); s != exprString(call.Arg) && s != exprString(call.Extra) {
				return AggCall{}, pgerror.New(pgerror.CodeInvalidColumnReference,
					"in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list")
			}
		}
	}
	return call, nil
}

// noFunction is PostgreSQL's 42883 for a call no function matches.
func noAggregate(name string, args []Expr, keys []SortKey) error {
	ts := make([]string, 0, len(args)+len(keys))
	for _, a := range args {
		ts = append(ts, a.Type().String())
	}
	for _, k := range keys {
		ts = append(ts, k.Expr.Type().String())
	}
	return pgerror.New(pgerror.CodeUndefinedFunction, "function %s(%s) does not exist", name, strings.Join(ts, ", ")).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// plainCall types an ordinary aggregate over args.
func (b *builder) plainCall(call *AggCall, args []Expr) error {
	f := call.Func
	if f == AggCountStar {
		call.T = types.TInt8
		return nil
	}
	want := 1
	if f == AggStringAgg {
		want = 2
	}
	if len(args) != want {
		return noAggregate(f.String(), args, nil)
	}
	arg := args[0]
	at := arg.Type()
	switch f {
	case AggCount:
		call.T = types.TInt8
	case AggSum, AggAvg:
		arg = resolveUnknown(arg)
		t, ok := sumAvgType(f.String(), arg.Type())
		if !ok {
			return noAggregate(f.String(), args, nil)
		}
		call.T = t
	case AggMin, AggMax:
		arg = resolveUnknown(arg)
		switch arg.Type().Kind {
		case types.Bool, types.Bytea, types.UUID, types.JSON, types.JSONB: // none in PostgreSQL 15
			return noAggregate(f.String(), args, nil)
		}
		call.T = arg.Type()
	case AggStringAgg:
		dt := args[1].Type()
		var err error
		switch {
		case (at.Kind == types.Bytea || at.Kind == types.Unknown) && (dt.Kind == types.Bytea || dt.Kind == types.Unknown) && !(at.Kind == types.Unknown && dt.Kind == types.Unknown):
			call.T = types.T{Kind: types.Bytea}
		case (at.Kind.IsString() || at.Kind == types.Name) && dt.Kind.IsString():
			call.T = types.TText // name converts to text implicitly
		default:
			return noAggregate(f.String(), args, nil)
		}
		if arg, err = b.coerce(arg, call.T, ""); err != nil {
			return err
		}
		if call.Extra, err = b.coerce(args[1], call.T, ""); err != nil {
			return err
		}
	case AggArrayAgg:
		arg = resolveUnknown(arg)
		if arg.Type().Kind == types.Array {
			return pgerror.Unimplemented("array_agg of arrays (multidimensional arrays)")
		}
		call.T = types.ArrayOf(arg.Type())
	case AggBoolAnd, AggBoolOr, AggEvery:
		if at.Kind != types.Bool && at.Kind != types.Unknown {
			return noAggregate(f.String(), args, nil)
		}
		var err error
		if arg, err = b.coerce(arg, types.TBool, ""); err != nil {
			return err
		}
		call.T = types.TBool
	default: // the variance family
		switch at.Kind {
		case types.Int2, types.Int4, types.Int8, types.Numeric:
			call.T = types.TNumeric
		case types.Float4, types.Float8:
			call.T = types.TFloat8
		default:
			return noAggregate(f.String(), args, nil)
		}
	}
	call.Arg = arg
	return nil
}

// orderedSetCall types percentile_cont, percentile_disc and mode: args
// are the direct arguments, call.Order the WITHIN GROUP keys.
func (b *builder) orderedSetCall(call *AggCall, args []Expr, st *aggState) error {
	f := call.Func
	wantDirect := 1
	if f == AggMode {
		wantDirect = 0
	}
	if len(args) != wantDirect || len(call.Order) != 1 {
		return noAggregate(f.String(), args, call.Order)
	}
	key := &call.Order[0]
	vt := key.Expr.Type()
	if f == AggPercentileCont {
		switch {
		case vt.Kind.IsNumeric():
			e, err := b.coerce(key.Expr, types.TFloat8, "")
			if err != nil {
				return err
			}
			key.Expr = e
		case vt.Kind == types.Interval:
		default:
			return noAggregate(f.String(), args, call.Order)
		}
	}
	call.Arg, call.T = key.Expr, key.Expr.Type()
	if f == AggMode {
		return nil
	}
	frac := args[0]
	ft := frac.Type()
	want := types.TFloat8
	switch {
	case ft.Kind == types.Array && ft.ElemType().Kind.IsNumeric():
		want = types.ArrayOf(types.TFloat8)
		call.T = types.ArrayOf(call.T)
	case ft.Kind == types.Unknown:
		if c, ok := frac.(*Const); ok && strings.HasPrefix(strings.TrimSpace(c.D.S), "{") {
			want = types.ArrayOf(types.TFloat8)
			call.T = types.ArrayOf(call.T)
		}
	case ft.Kind.IsNumeric():
	default:
		return noAggregate(f.String(), args, call.Order)
	}
	e, err := b.coerce(frac, want, "")
	if err != nil {
		return err
	}
	// A direct argument is evaluated once per group: it may use only
	// grouped columns.
	var ungrouped *ColRef
	WalkCols(e, func(c *ColRef) {
		for _, g := range st.groupBy {
			if gc, ok := g.(*ColRef); ok && gc.Idx == c.Idx {
				return
			}
		}
		if ungrouped == nil {
			ungrouped = c
		}
	})
	if ungrouped != nil {
		return pgerror.New(pgerror.CodeGroupingError,
			"column %q must appear in the GROUP BY clause or be used in an aggregate function", ungrouped.Name).
			WithDetail("Direct arguments of an ordered-set aggregate must use only grouped columns.")
	}
	call.Extra = e
	return nil
}

func exprString(e Expr) string {
	if e == nil {
		return ""
	}
	return e.String()
}

// sumAvgType is PostgreSQL's result type of sum or avg over t: sum of
// int2/int4 is bigint, of bigint and numeric numeric, of real real, of
// float8 float8, of interval interval; avg of any integer or numeric is
// numeric, of real or float8 float8, of interval interval.
func sumAvgType(name string, t types.T) (types.T, bool) {
	switch t.Kind {
	case types.Int2, types.Int4:
		if name == "sum" {
			return types.TInt8, true
		}
		return types.TNumeric, true
	case types.Int8, types.Numeric:
		return types.TNumeric, true
	case types.Float4:
		if name == "sum" {
			return types.TFloat4, true
		}
		return types.TFloat8, true
	case types.Float8:
		return types.TFloat8, true
	case types.Interval:
		return types.TInterval, true
	}
	return types.T{}, false
}

type aggState struct {
	pre      *scope // the pre-aggregation scope
	groupBy  []Expr
	groupStr []string
	aggs     []AggCall
}

// String renders the call as PostgreSQL would write it.
func (a *AggCall) String() string {
	var b strings.Builder
	b.WriteString(a.Func.String() + "(")
	if a.Distinct {
		b.WriteString("DISTINCT ")
	}
	switch {
	case a.Func.OrderedSet() && a.Extra != nil:
		b.WriteString(a.Extra.String())
	case a.Func.OrderedSet():
	case a.Arg == nil:
		b.WriteString("*")
	case a.Extra != nil:
		b.WriteString(a.Arg.String() + ", " + a.Extra.String())
	default:
		b.WriteString(a.Arg.String())
	}
	if len(a.Order) > 0 {
		keys := make([]string, len(a.Order))
		for i, k := range a.Order {
			keys[i] = k.Expr.String()
			if k.Desc {
				keys[i] += " DESC"
			}
			if k.NullsFirst != k.Desc {
				keys[i] += map[bool]string{true: " NULLS FIRST", false: " NULLS LAST"}[k.NullsFirst]
			}
		}
		if a.Func.OrderedSet() {
			b.WriteString(") WITHIN GROUP (")
		} else {
			b.WriteString(" ")
		}
		b.WriteString("ORDER BY " + strings.Join(keys, ", "))
	}
	b.WriteString(")")
	if a.Filter != nil {
		b.WriteString(" FILTER (WHERE " + a.Filter.String() + ")")
	}
	return b.String()
}
