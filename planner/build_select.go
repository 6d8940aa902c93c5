package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

func (b *builder) selectStmt(s *ast.SelectStmt, outer *scope) (Plan, error) {
	switch {
	case s.Kind != ast.SelectStmtKindSelect:
		return nil, pgerror.Unimplemented("VALUES and TABLE as queries")
	case s.SelectIntoOpt != nil:
		return nil, pgerror.Unimplemented("SELECT INTO")
	}
	if s.With != nil {
		var err error
		if outer, err = b.withClause(s.With, outer); err != nil { // build_subquery.go
			return nil, err
		}
	}
	var distinctOn []ast.ExprNode
	if fs := s.Fields.Fields; len(fs) > 0 && fs[0].WildCard == nil {
		if f, ok := fs[0].Expr.(*ast.FuncCallExpr); ok && f.FnName.L == "pg_distinct_on" {
			distinctOn = f.Args
			cp := *s.Fields
			cp.Fields = fs[1:]
			sel := *s
			sel.Fields = &cp
			s = &sel
		}
	}
	sc := &scope{outer: outer}
	var input Plan
	if s.From != nil {
		var err error
		if input, sc, err = b.fromClause(s.From, s.Where, outer); err != nil { // build_from.go
			return nil, err
		}
	} else {
		input = &Values{Rows: [][]Expr{{}}}
		if s.Where != nil {
			cond, err := b.boolExpr(s.Where, sc, "WHERE")
			if err != nil {
				return nil, err
			}
			input = &Filter{Input: input, Cond: cond}
		}
	}
	scan, _ := input.(*Scan)

	// Aggregation: GROUP BY, or an aggregate anywhere in the output.
	outScope := sc
	var agg *Aggregate
	if s.GroupBy != nil || hasAggregate(s.Fields) || (s.Having != nil) || (s.OrderBy != nil && hasAggregate(s.OrderBy)) {
		st := &aggState{pre: sc}
		if s.GroupBy != nil {
			for _, item := range s.GroupBy.Items {
				e, err := b.groupItem(item.Expr, s.Fields, sc)
				if err != nil {
					return nil, err
				}
				e = resolveUnknown(e)
				st.groupBy = append(st.groupBy, e)
				st.groupStr = append(st.groupStr, e.String())
			}
		}
		outScope = &scope{rels: sc.rels, cols: sc.cols, outer: sc.outer, agg: st}
		agg = &Aggregate{Input: input}
		input = agg
	}
	// Window functions, in the output list and ORDER BY only.
	havingScope := outScope
	ws := &windowState{specs: s.WindowSpecs}
	withWin := *outScope
	withWin.win = ws
	outScope = &withWin

	// Output columns.
	var exprs []Expr
	var cols []ResultColumn
	for _, f := range s.Fields.Fields {
		if f.WildCard != nil {
			if len(sc.rels) == 0 {
				return nil, pgerror.New(pgerror.CodeSyntaxError, "SELECT * with no tables specified is not valid")
			}
			slots, err := sc.starCols(f.WildCard.Table.O)
			if err != nil {
				return nil, err
			}
			for _, i := range slots {
				c := &sc.cols[i]
				if outScope.agg != nil {
					// Allowed when grouped by the column (or a key).
					e, err := b.expr(&ast.ColumnNameExpr{Name: &ast.ColumnName{Name: ast.NewCIStr(c.name), Table: ast.NewCIStr(c.rel.alias)}}, outScope)
					if err != nil {
						return nil, err
					}
					exprs = append(exprs, e)
				} else {
					exprs = append(exprs, b.slotRef(sc, i, 0, false))
				}
				cols = append(cols, ResultColumn{Name: c.name, T: c.t})
				sc.sourceColumn(&cols[len(cols)-1], i)
			}
			continue
		}
		e, err := b.expr(f.Expr, outScope)
		if err != nil {
			return nil, err
		}
		e = resolveUnknown(e)
		name := f.AsName.O
		if name == "" {
			name = outputName(f.Expr)
		}
		exprs = append(exprs, e)
		cols = append(cols, ResultColumn{Name: name, T: e.Type()})
		sc.sourceOfExpr(&cols[len(cols)-1], f.Expr)
	}
	visible := len(exprs)

	var having Expr
	if s.Having != nil {
		var err error
		if having, err = b.boolExpr(s.Having.Expr, havingScope, "HAVING"); err != nil {
			return nil, err
		}
	}

	// ORDER BY: output ordinals and names, else hidden projected columns.
	var keys []SortKey
	if s.OrderBy != nil {
		for _, item := range s.OrderBy.Items {
			idx, err := b.orderItem(item.Expr, s.Fields, cols[:visible], outScope, &exprs, &cols)
			if err != nil {
				return nil, err
			}
			keys = append(keys, SortKey{Expr: &ColRef{Idx: idx, Name: cols[idx].Name, T: cols[idx].T}, Desc: item.Desc, NullsFirst: item.NullOrder})
		}
	}

	if agg != nil {
		st := outScope.agg
		agg.GroupBy, agg.Aggs = st.groupBy, st.aggs
		for _, g := range st.groupBy {
			agg.Cols = append(agg.Cols, ResultColumn{Name: g.String(), T: g.Type()})
		}
		for _, a := range st.aggs {
			agg.Cols = append(agg.Cols, ResultColumn{Name: a.Func.String(), T: a.T})
		}
		if having != nil {
			input = &Filter{Input: agg, Cond: having}
		}
	}
	if len(ws.calls) > 0 {
		input = b.windowPlan(input, ws) // build_window.go
	}

	input, exprs, hasSRF, err := b.projectSet(input, exprs, cols) // build_srf.go
	if err != nil {
		return nil, err
	}
	if hasSRF {
		scan = nil // rows no longer come in the scan's order alone
	}
	var plan Plan = &Project{Input: input, Exprs: exprs, Cols: cols}
	if distinctOn != nil {
		d := &Distinct{Input: plan}
		for _, n := range distinctOn {
			idx, err := b.orderItem(n, s.Fields, cols[:visible], outScope, &exprs, &cols)
			if err != nil {
				return nil, err
			}
			d.On = append(d.On, &ColRef{Idx: idx, Name: cols[idx].Name, T: cols[idx].T})
		}
		plan.(*Project).Exprs, plan.(*Project).Cols = exprs, cols
		on := map[string]bool{}
		for _, e := range d.On {
			on[exprs[e.(*ColRef).Idx].String()] = true
		}
		for i := 0; i < len(keys) && i < len(d.On); i++ {
			if !on[exprs[keys[i].Expr.(*ColRef).Idx].String()] {
				return nil, pgerror.New(pgerror.CodeInvalidColumnReference, "SELECT DISTINCT ON expressions must match initial ORDER BY expressions")
			}
		}
		// DISTINCT ON keeps the first row of each group in ORDER BY order,
		// so the sort goes below it.
		if len(keys) > 0 {
			d.Input = &Sort{Input: plan, Keys: keys}
			keys = nil
		}
		plan = d
	} else if s.Distinct {
		if len(exprs) > visible {
			return nil, pgerror.New(pgerror.CodeInvalidColumnReference, "for SELECT DISTINCT, ORDER BY expressions must appear in select list")
		}
		plan = &Distinct{Input: plan}
	}
	if len(keys) > 0 && !(scan != nil && agg == nil && len(ws.calls) == 0 && !s.Distinct && elideSort(scan, exprs, keys)) {
		plan = &Sort{Input: plan, Keys: keys}
	}
	if s.Limit != nil {
		count, err := b.limitExpr(s.Limit.Count)
		if err != nil {
			return nil, err
		}
		offset, err := b.limitExpr(s.Limit.Offset)
		if err != nil {
			return nil, err
		}
		plan = &Limit{Input: plan, Count: count, Offset: offset}
		if srt, ok := plan.(*Limit).Input.(*Sort); ok {
			srt.Limit = limitHint(count, offset) // a top-N sort
		}
		if _, sorted := plan.(*Limit).Input.(*Sort); scan != nil && !sorted && agg == nil && len(ws.calls) == 0 && !s.Distinct && distinctOn == nil && scan.Filter == nil {
			scan.LimitHint = limitHint(count, offset)
			if _, isConst := count.(*Const); !isConst && paramOnly(count) && (offset == nil || paramOnly(offset)) {
				scan.LimitCount, scan.LimitOffset = count, offset
			}
		}
	}
	if len(exprs) > visible {
		trim := make([]Expr, visible)
		for i := range trim {
			trim[i] = &ColRef{Idx: i, Name: cols[i].Name, T: cols[i].T}
		}
		plan = &Project{Input: plan, Exprs: trim, Cols: cols[:visible]}
	}
	return plan, nil
}

func limitHint(count, offset Expr) int64 {
	c, ok := count.(*Const)
	if !ok || c.D.IsNull() {
		return 0
	}
	n := c.D.I
	if offset != nil {
		o, ok := offset.(*Const)
		if !ok {
			return 0
		}
		n += o.D.I
	}
	return n
}

// paramOnly reports whether e is a constant or parameter, possibly cast:
// a value known once the statement is bound, whose evaluation has no side
// effect.
func paramOnly(e Expr) bool {
	switch e := e.(type) {
	case *Const, *Param:
		return true
	case *Cast:
		return paramOnly(e.E)
	}
	return false
}

// groupItem builds a GROUP BY item: an output ordinal, an output alias, or
// an expression over the input.
func (b *builder) groupItem(n ast.ExprNode, fields *ast.FieldList, sc *scope) (Expr, error) {
	if f := selectedField(n, fields); f != nil {
		if hasAggregate(f.Expr) {
			return nil, pgerror.New(pgerror.CodeGroupingError, "aggregate functions are not allowed in GROUP BY")
		}
		return b.expr(f.Expr, sc)
	}
	if hasAggregate(n) {
		return nil, pgerror.New(pgerror.CodeGroupingError, "aggregate functions are not allowed in GROUP BY")
	}
	return b.expr(n, sc)
}

// selectedField resolves an ordinal (GROUP BY 1) or an output alias.
func selectedField(n ast.ExprNode, fields *ast.FieldList) *ast.SelectField {
	if pe, ok := n.(*ast.PositionExpr); ok && pe.P == nil {
		if pe.N >= 1 && pe.N <= len(fields.Fields) && fields.Fields[pe.N-1].WildCard == nil {
			return fields.Fields[pe.N-1]
		}
		return nil
	}
	if v, ok := n.(*driver.ValueExpr); ok && v.Kind() == driver.KindInt64 {
		i := int(v.GetInt64())
		if i >= 1 && i <= len(fields.Fields) && fields.Fields[i-1].WildCard == nil {
			return fields.Fields[i-1]
		}
		return nil
	}
	if c, ok := n.(*ast.ColumnNameExpr); ok && c.Name.Table.O == "" {
		for _, f := range fields.Fields {
			if f.AsName.O != "" && f.AsName.O == c.Name.Name.O {
				return f
			}
		}
	}
	return nil
}

// orderItem returns the index of the projected column an ORDER BY item
// sorts by, appending a hidden column when it is not an output column.
func (b *builder) orderItem(n ast.ExprNode, fields *ast.FieldList, out []ResultColumn, sc *scope, exprs *[]Expr, cols *[]ResultColumn) (int, error) {
	pos := -1
	if pe, ok := n.(*ast.PositionExpr); ok && pe.P == nil {
		pos = pe.N
	} else if v, ok := n.(*driver.ValueExpr); ok && v.Kind() == driver.KindInt64 {
		pos = int(v.GetInt64())
	}
	if pos >= 0 {
		i := pos
		if i < 1 || i > len(out) {
			return 0, pgerror.New(pgerror.CodeInvalidColumnReference, "ORDER BY position %d is not in select list", i)
		}
		return i - 1, nil
	}
	if c, ok := n.(*ast.ColumnNameExpr); ok && c.Name.Table.O == "" {
		for i, col := range out {
			if col.Name == c.Name.Name.O {
				return i, nil
			}
		}
	}
	e, err := b.expr(n, sc)
	if err != nil {
		return 0, err
	}
	e = resolveUnknown(e)
	for i, x := range (*exprs)[:len(out)] {
		if x.String() == e.String() {
			return i, nil
		}
	}
	*exprs = append(*exprs, e)
	*cols = append(*cols, ResultColumn{Name: "?order?", T: e.Type()})
	return len(*exprs) - 1, nil
}

// elideSort reports whether the scan already yields rows in the ORDER BY
// order (possibly reversed, which it then sets), so no sort is needed.
// Key columns fixed to one value by the access path may be skipped.
func elideSort(s *Scan, exprs []Expr, keys []SortKey) bool {
	fixed := 0
	if len(s.Access.Spans) == 1 {
		// Key columns fixed to one value; x = ANY($1) fixes a column to
		// several values, so it ends the fixed prefix.
		for _, e := range s.Access.Spans[0].Eq {
			if _, ok := e.(*ElemsOf); ok {
				break
			}
			fixed++
		}
	} else if s.Access.Enumerated > 0 {
		// One span per bucket of the first key part: merged, the buckets
		// read as one, and the parts every span fixes alike stay fixed.
		fixed = sameEqPrefix(s.Access.Spans, 1)
	}
	pos, reverse := 0, false
	for i, k := range keys {
		c, ok := exprs[k.Expr.(*ColRef).Idx].(*ColRef)
		if !ok {
			return false
		}
		for pos < len(s.Table.Key) && pos < fixed && s.Table.Key[pos].Col != c.Idx {
			pos++
		}
		if pos >= len(s.Table.Key) || s.Table.Key[pos].Col != c.Idx {
			if pos < fixed {
				continue
			}
			return false
		}
		rev := k.Desc != s.Table.Key[pos].Desc
		if i == 0 {
			reverse = rev
		} else if rev != reverse {
			return false
		}
		pos++
	}
	s.Reverse = reverse
	s.Access.Merge = s.Access.Enumerated > 0 && len(s.Access.Spans) > 1
	return true
}

// sameEqPrefix counts the key parts from position from on that every span
// fixes to the same expression, plus from itself.
func sameEqPrefix(spans []Span, from int) int {
	n := from
	for {
		for _, sp := range spans {
			if len(sp.Eq) <= n || sp.Eq[n].String() != spans[0].Eq[n].String() {
				return n
			}
			if _, ok := sp.Eq[n].(*ElemsOf); ok {
				return n
			}
		}
		n++
	}
}

// outputName names a result column as PostgreSQL does.
func outputName(n ast.ExprNode) string {
	switch n := n.(type) {
	case *ast.ColumnNameExpr:
		return n.Name.Name.O
	case *ast.ParenthesesExpr:
		return outputName(n.Expr)
	case *ast.AggregateFuncExpr:
		return aggName(n)
	case *ast.FuncCallExpr:
		name := strings.ToLower(n.FnName.O)
		if name == "pg_cast" && len(n.Args) == 2 {
			if inner := outputName(n.Args[0]); inner != "?column?" {
				return inner
			}
			if v, ok := n.Args[1].(*driver.ValueExpr); ok {
				if t, err := types.TypeByName(v.GetString()); err == nil {
					return shortTypeName(t)
				}
			}
			return "?column?"
		}
		if s, ok := srfOutputName(name, n.Args); ok { // build_srf.go
			return s
		}
		switch name { // the sqlparse bridge's operator forms
		case "pg_op", "pg_any_op", "pg_all_op":
			return "?column?"
		case "pg_array":
			return "array"
		}
		return name
	case *ast.CaseExpr:
		// PostgreSQL takes the ELSE result's name when it is a column or
		// a function call (through casts), else "case".
		if n.ElseClause != nil && strongName(n.ElseClause) {
			return outputName(n.ElseClause)
		}
		return "case"
	case *ast.SubqueryExpr:
		// PostgreSQL names a scalar subquery's column after its own.
		if sel, ok := n.Query.(*ast.SelectStmt); ok && sel.Fields != nil && len(sel.Fields.Fields) > 0 {
			f := sel.Fields.Fields[0]
			if f.AsName.O != "" {
				return f.AsName.O
			}
			if f.WildCard == nil {
				return outputName(f.Expr)
			}
		}
	case *ast.ExistsSubqueryExpr:
		return "exists"
	case *ast.WindowFuncExpr:
		return strings.ToLower(n.Name)
	}
	return "?column?"
}

// shortTypeName is PostgreSQL's internal type name, used for cast columns.
func shortTypeName(t types.T) string {
	switch t.Kind {
	case types.Bool:
		return "bool"
	case types.Int2:
		return "int2"
	case types.Int4:
		return "int4"
	case types.Int8:
		return "int8"
	case types.Float8:
		return "float8"
	case types.Text:
		if t.VarChar {
			return "varchar"
		}
		return "text"
	case types.Bytea:
		return "bytea"
	case types.Timestamp:
		return "timestamp"
	case types.Array:
		return shortTypeName(t.ElemType()) // PostgreSQL names '{1}'::int[] int4
	}
	if n, ok := shortNames[t.Kind]; ok {
		return n
	}
	return "?column?"
}

// shortNames completes shortTypeName for the kinds that need no modifier.
var shortNames = map[types.Kind]string{
	types.Float4: "float4", types.Numeric: "numeric", types.Date: "date", types.Time: "time",
	types.TimestampTZ: "timestamptz", types.Interval: "interval", types.UUID: "uuid",
	types.JSON: "json", types.JSONB: "jsonb", types.BPChar: "bpchar",
}

// strongName reports whether outputName(n) names n by a column or a
// function (PostgreSQL's FigureColname strength 2), not by a type or
// "?column?".
func strongName(n ast.ExprNode) bool {
	switch n := n.(type) {
	case *ast.ColumnNameExpr, *ast.AggregateFuncExpr:
		return true
	case *ast.ParenthesesExpr:
		return strongName(n.Expr)
	case *ast.CaseExpr:
		return n.ElseClause != nil && strongName(n.ElseClause)
	case *ast.FuncCallExpr:
		switch strings.ToLower(n.FnName.O) {
		case "pg_cast":
			return len(n.Args) == 2 && strongName(n.Args[0])
		case "pg_op", "pg_any_op", "pg_all_op", "pg_array":
			return false
		}
		return true
	}
	return false
}
