package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// windowState collects the window function calls of one SELECT while its
// output and ORDER BY expressions are built. A call becomes a reference to
// slot base+i of the Window node's output.
type windowState struct {
	// specs are the SELECT's named windows (WINDOW w AS (...)).
	specs   []ast.WindowSpec
	checked bool // specs checked for duplicate names
	calls   []WindowFunc
	// refs are the references handed out for the calls, refs[i] for
	// calls[i] (several refs may share a call). Their Idx is set by
	// windowPlan once the width of the Window's input is known.
	refs []*ColRef
	call []int // refs[i] reads calls[call[i]]
}

// windowFunc builds a window function call in scope sc (sc.win is set).
// Its arguments and window are built in sc without sc.win, so a nested
// window call is an error and, above an aggregation, they read the
// group and aggregate slots.
func (b *builder) windowFunc(n *ast.WindowFuncExpr, sc *scope) (Expr, error) {
	ws := sc.win
	inner := *sc
	inner.win = nil
	if err := ws.checkSpecs(); err != nil {
		return nil, err
	}
	for _, a := range n.Args {
		if hasWindowCall(a) {
			return nil, pgerror.New(pgerror.CodeWindowingError, "window function calls cannot be nested")
		}
	}
	spec, err := b.windowSpec(&n.Spec, ws, &inner)
	if err != nil {
		return nil, err
	}
	call, err := b.windowCall(n, &inner)
	if err != nil {
		return nil, err
	}
	call.Spec = spec
	s := call.String()
	idx := -1
	for i := range ws.calls {
		if ws.calls[i].String() == s {
			idx = i
			break
		}
	}
	if idx < 0 {
		ws.calls = append(ws.calls, call)
		idx = len(ws.calls) - 1
	}
	ref := &ColRef{Name: s, T: call.T}
	ws.refs = append(ws.refs, ref)
	ws.call = append(ws.call, idx)
	return ref, nil
}

// checkSpecs rejects a WINDOW clause defining a name twice.
func (ws *windowState) checkSpecs() error {
	if ws.checked {
		return nil
	}
	ws.checked = true
	seen := map[string]bool{}
	for _, s := range ws.specs {
		if seen[s.Name.L] {
			return pgerror.New(pgerror.CodeWindowingError, "window %q is already defined", s.Name.O)
		}
		seen[s.Name.L] = true
	}
	return nil
}

// named returns the WINDOW clause's definition of name among the first
// before definitions (a definition may only refer to earlier ones).
func (ws *windowState) named(name ast.CIStr, before int) (*ast.WindowSpec, error) {
	for i := 0; i < before && i < len(ws.specs); i++ {
		if ws.specs[i].Name.L == name.L {
			return &ws.specs[i], nil
		}
	}
	return nil, pgerror.New(pgerror.CodeUndefinedObject, "window %q does not exist", name.O)
}

// windowSpec resolves an OVER clause: OVER w copies the named window; OVER
// (w ...) takes w's PARTITION BY and ORDER BY and may add an ORDER BY (when
// w has none) and a frame (w must have none), as in PostgreSQL.
func (b *builder) windowSpec(n *ast.WindowSpec, ws *windowState, sc *scope) (WindowSpec, error) {
	return b.windowSpecIn(n, ws, sc, len(ws.specs))
}

func (b *builder) windowSpecIn(n *ast.WindowSpec, ws *windowState, sc *scope, before int) (WindowSpec, error) {
	if n.OnlyAlias { // OVER w
		def, err := ws.named(n.Name, before)
		if err != nil {
			return WindowSpec{}, err
		}
		return b.windowSpecIn(def, ws, sc, ws.index(def))
	}
	var spec WindowSpec
	if n.Ref.L != "" {
		def, err := ws.named(n.Ref, before)
		if err != nil {
			return WindowSpec{}, err
		}
		switch {
		case n.PartitionBy != nil:
			return spec, pgerror.New(pgerror.CodeWindowingError, "cannot override PARTITION BY clause of window %q", n.Ref.O)
		case n.OrderBy != nil && def.OrderBy != nil:
			return spec, pgerror.New(pgerror.CodeWindowingError, "cannot override ORDER BY clause of window %q", n.Ref.O)
		case def.Frame != nil:
			return spec, pgerror.New(pgerror.CodeWindowingError, "cannot copy window %q because it has a frame clause", n.Ref.O).
				WithHint("Omit the parentheses in this OVER clause.")
		}
		if spec, err = b.windowSpecIn(def, ws, sc, ws.index(def)); err != nil {
			return spec, err
		}
	}
	var items []*ast.ByItem
	if n.PartitionBy != nil {
		items = append(items, n.PartitionBy.Items...)
	}
	if n.OrderBy != nil {
		items = append(items, n.OrderBy.Items...)
	}
	for _, item := range items {
		if hasWindowCall(item.Expr) {
			return spec, pgerror.New(pgerror.CodeWindowingError, "window functions are not allowed in window definitions")
		}
	}
	if n.PartitionBy != nil {
		for _, item := range n.PartitionBy.Items {
			e, err := b.expr(item.Expr, sc)
			if err != nil {
				return spec, err
			}
			spec.Partition = append(spec.Partition, resolveUnknown(e))
		}
	}
	if n.OrderBy != nil {
		for _, item := range n.OrderBy.Items {
			e, err := b.expr(item.Expr, sc)
			if err != nil {
				return spec, err
			}
			spec.Order = append(spec.Order, SortKey{Expr: resolveUnknown(e), Desc: item.Desc, NullsFirst: item.NullOrder})
		}
	}
	spec.Frame = DefaultFrame
	if n.Frame != nil {
		f, err := b.windowFrame(n.Frame, spec.Order)
		if err != nil {
			return spec, err
		}
		spec.Frame = f
	}
	return spec, nil
}

// hasWindowCall reports whether n contains a window function call.
func hasWindowCall(n ast.Node) bool {
	f := &windowFinder{}
	n.Accept(f)
	return f.found
}

type windowFinder struct{ found bool }

func (f *windowFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch n.(type) {
	case *ast.WindowFuncExpr:
		f.found = true
		return n, true
	case *ast.SubqueryExpr: // a subquery's own windows
		return n, true
	}
	return n, false
}

func (f *windowFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// index is the position of def in the WINDOW clause.
func (ws *windowState) index(def *ast.WindowSpec) int {
	for i := range ws.specs {
		if &ws.specs[i] == def {
			return i
		}
	}
	return 0
}

// windowFrame builds a frame clause, with PostgreSQL's checks.
func (b *builder) windowFrame(n *ast.FrameClause, order []SortKey) (Frame, error) {
	f := Frame{Mode: FrameRows}
	switch n.Type {
	case ast.Ranges:
		f.Mode = FrameRange
	case ast.Groups:
		return f, pgerror.Unimplemented("window frames in GROUPS mode")
	}
	var err error
	if f.Start, err = b.frameBound(&n.Extent.Start, f.Mode, order); err != nil {
		return f, err
	}
	if f.End, err = b.frameBound(&n.Extent.End, f.Mode, order); err != nil {
		return f, err
	}
	switch {
	case f.Start.Kind == UnboundedFollowing:
		return f, pgerror.New(pgerror.CodeWindowingError, "frame start cannot be UNBOUNDED FOLLOWING")
	case f.End.Kind == UnboundedPreceding:
		return f, pgerror.New(pgerror.CodeWindowingError, "frame end cannot be UNBOUNDED PRECEDING")
	case f.Start.Kind == CurrentRow && f.End.Kind == OffsetPreceding:
		return f, pgerror.New(pgerror.CodeWindowingError, "frame starting from current row cannot have preceding rows")
	case f.Start.Kind == OffsetFollowing && (f.End.Kind == OffsetPreceding || f.End.Kind == CurrentRow):
		return f, pgerror.New(pgerror.CodeWindowingError, "frame starting from following row cannot have preceding rows")
	}
	return f, nil
}

func (b *builder) frameBound(n *ast.FrameBound, mode FrameMode, order []SortKey) (FrameBound, error) {
	var fb FrameBound
	switch {
	case n.Type == ast.CurrentRow:
		fb.Kind = CurrentRow
		return fb, nil
	case n.UnBounded && n.Type == ast.Preceding:
		fb.Kind = UnboundedPreceding
		return fb, nil
	case n.UnBounded:
		fb.Kind = UnboundedFollowing
		return fb, nil
	case n.Type == ast.Preceding:
		fb.Kind = OffsetPreceding
	default:
		fb.Kind = OffsetFollowing
	}
	if mode == FrameRange {
		if len(order) != 1 {
			return fb, pgerror.New(pgerror.CodeWindowingError, "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column")
		}
		return fb, pgerror.Unimplemented("RANGE with offset PRECEDING/FOLLOWING")
	}
	// The offset may not read the row: build it with no columns in scope.
	e, err := b.expr(n.Expr, &scope{})
	if err != nil {
		if pgerror.Flatten(err).Code == pgerror.CodeUndefinedColumn {
			return fb, pgerror.New(pgerror.CodeInvalidColumnReference, "argument of ROWS must not contain variables")
		}
		return fb, err
	}
	if e, err = b.coerce(e, types.TInt8, "ROWS"); err != nil {
		return fb, err
	}
	if c, ok := e.(*Cast); ok { // fold 1::bigint, so errors surface now and EXPLAIN reads 1
		if k, ok := c.E.(*Const); ok {
			d, err := types.Cast(k.D, types.TInt8)
			if err != nil {
				return fb, err
			}
			e = &Const{D: d, T: types.TInt8}
		}
	}
	fb.Offset = e
	return fb, nil
}

// windowCall builds the function and its arguments of a window call.
func (b *builder) windowCall(n *ast.WindowFuncExpr, sc *scope) (WindowFunc, error) {
	name := strings.ToLower(n.Name)
	var call WindowFunc
	if n.IgnoreNull || n.FromLast {
		return call, pgerror.Unimplemented("IGNORE NULLS and FROM LAST in window functions")
	}
	if n.Distinct {
		return call, pgerror.New(pgerror.CodeFeatureNotSupported, "DISTINCT is not implemented for window functions")
	}
	switch name {
	case "count", "sum", "avg", "min", "max":
		return b.windowAgg(name, n.Args, sc)
	}
	args := make([]Expr, len(n.Args))
	for i, a := range n.Args {
		e, err := b.expr(a, sc)
		if err != nil {
			return call, err
		}
		args[i] = e
	}
	noFunc := func() error {
		ts := make([]string, len(args))
		for i, a := range args {
			ts[i] = a.Type().String()
		}
		return pgerror.New(pgerror.CodeUndefinedFunction, "function %s(%s) does not exist", name, strings.Join(ts, ", ")).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	// int4 coerces an argument PostgreSQL declares integer: int2, int4,
	// unknown literals and parameters fit; anything else has no function.
	int4 := func(i int) error {
		switch args[i].Type().Kind {
		case types.Int2, types.Int4, types.Unknown:
			e, err := b.coerce(args[i], types.TInt4, "")
			args[i] = e
			return err
		}
		return noFunc()
	}
	switch name {
	case "row_number", "rank", "dense_rank", "percent_rank", "cume_dist":
		if len(args) > 0 {
			if name == "row_number" {
				return call, noFunc()
			}
			return call, pgerror.New("42809", "WITHIN GROUP is required for ordered-set aggregate %s", name)
		}
		call.Func = map[string]WinFunc{"row_number": WinRowNumber, "rank": WinRank, "dense_rank": WinDenseRank,
			"percent_rank": WinPercentRank, "cume_dist": WinCumeDist}[name]
		call.T = types.TInt8
		if call.Func == WinPercentRank || call.Func == WinCumeDist {
			call.T = types.TFloat8
		}
	case "ntile":
		if len(args) != 1 {
			return call, noFunc()
		}
		if err := int4(0); err != nil {
			return call, err
		}
		call.Func, call.T = WinNtile, types.TInt4
	case "lag", "lead":
		if len(args) < 1 || len(args) > 3 {
			return call, noFunc()
		}
		if len(args) >= 2 {
			if err := int4(1); err != nil {
				return call, err
			}
		} else {
			args = append(args, &Const{D: types.NewInt(types.Int4, 1), T: types.TInt4})
		}
		t := args[0].Type()
		if len(args) == 3 {
			dt := args[2].Type()
			switch {
			case t.Kind == types.Unknown && dt.Kind == types.Unknown:
				return call, polymorphicUnknown()
			case t.Kind == types.Unknown:
				t = dt
			case dt.Kind == types.Unknown || dt.Kind == t.Kind:
			case t.Kind.IsNumeric() && dt.Kind.IsNumeric():
				t = widerNumeric(t, dt)
			default:
				return call, noFunc()
			}
			for _, i := range []int{0, 2} {
				e, err := b.coerce(args[i], t, "")
				if err != nil {
					return call, err
				}
				args[i] = e
			}
		} else {
			if t.Kind == types.Unknown {
				return call, polymorphicUnknown()
			}
			args = append(args, &Const{D: types.Null, T: t})
		}
		call.Func, call.T = WinLag, t
		if name == "lead" {
			call.Func = WinLead
		}
	case "first_value", "last_value", "nth_value":
		want := 1
		if name == "nth_value" {
			want = 2
		}
		if len(args) != want {
			return call, noFunc()
		}
		if args[0].Type().Kind == types.Unknown {
			return call, polymorphicUnknown()
		}
		if want == 2 {
			if err := int4(1); err != nil {
				return call, err
			}
		}
		call.Func = map[string]WinFunc{"first_value": WinFirstValue, "last_value": WinLastValue, "nth_value": WinNthValue}[name]
		call.T = args[0].Type()
	default: // TiDB's grammar has OVER only after the functions above
		return call, noFunc()
	}
	call.Args = args
	return call, nil
}

func polymorphicUnknown() error {
	return pgerror.New(pgerror.CodeDatatypeMismatch, "could not determine polymorphic type because input has type unknown")
}

// windowAgg builds an aggregate used as a window function.
func (b *builder) windowAgg(name string, args []ast.ExprNode, sc *scope) (WindowFunc, error) {
	call := WindowFunc{Func: WinAgg}
	if len(args) != 1 {
		return call, pgerror.New(pgerror.CodeUndefinedFunction, "function %s with %d arguments does not exist", name, len(args))
	}
	if name == "count" {
		if v, ok := args[0].(*driver.ValueExpr); ok && v.Kind() != driver.KindNull {
			call.Agg = AggCall{Func: AggCountStar, T: types.TInt8}
			call.T = call.Agg.T
			return call, nil
		}
	}
	arg, err := b.expr(args[0], sc)
	if err != nil {
		return call, err
	}
	arg = resolveUnknown(arg)
	at := arg.Type()
	a := AggCall{Arg: arg}
	switch name {
	case "count":
		a.Func, a.T = AggCount, types.TInt8
	case "sum", "avg":
		t, ok := sumAvgType(name, at)
		if !ok {
			return call, pgerror.New(pgerror.CodeUndefinedFunction, "function %s(%s) does not exist", name, at)
		}
		a.Func, a.T = AggSum, t
		if name == "avg" {
			a.Func = AggAvg
		}
	default: // min, max
		switch at.Kind {
		case types.Bool, types.Bytea, types.UUID, types.JSON, types.JSONB: // none in PostgreSQL 15
			return call, pgerror.New(pgerror.CodeUndefinedFunction, "function %s(%s) does not exist", name, at)
		}
		a.Func, a.T = AggMin, at
		if name == "max" {
			a.Func = AggMax
		}
	}
	call.Agg, call.T = a, a.T
	return call, nil
}

// windowPlan puts the Window node computing ws's calls over input.
// It sets the Idx of every reference windowFunc handed out.
func (b *builder) windowPlan(input Plan, ws *windowState) Plan {
	in := input.Columns()
	base := len(in)
	for i, r := range ws.refs {
		r.Idx = base + ws.call[i]
	}
	cols := append([]ResultColumn(nil), in...)
	for i := range ws.calls {
		cols = append(cols, ResultColumn{Name: ws.calls[i].Func.String(), T: ws.calls[i].T})
	}
	return &Window{Input: input, Funcs: ws.calls, Cols: cols}
}
