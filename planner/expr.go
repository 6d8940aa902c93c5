package planner

import (
	"fmt"
	"strings"

	"github.com/widesql/widesql/planner/types"
)

// Expr is a typed scalar expression. Plans hold Exprs; exec evaluates them.
// Exprs are immutable once built. String renders them as SQL for EXPLAIN.
type Expr interface {
	Type() types.T
	String() string
}

// ColRef reads column Idx of the operator's input row.
type ColRef struct {
	Idx  int
	Name string
	T    types.T
}

// OuterRef reads slot Idx of the row of an enclosing query level: Depth 1
// is the query the subquery appears in. At run time the executor keeps
// the rows of the enclosing levels on a stack while a correlated subquery
// runs. Within its own level an OuterRef is a constant, so it can fix a
// rowkey column: a correlated lookup is a point Get per outer row.
type OuterRef struct {
	Depth, Idx int
	Name       string
	T          types.T
}

// Const is a constant value.
type Const struct {
	D types.Datum
	T types.T
}

// Param is the statement parameter $N+1; its type is inferred at planning
// and shared through the Params slice of the plan.
type Param struct {
	N      int
	Params *ParamTypes
}

// ParamTypes holds the inferred type of every parameter of a statement.
type ParamTypes struct{ Types []types.T }

// Op is a binary or unary operator.
type Op uint8

// Operators.
const (
	OpAdd Op = iota
	OpSub
	OpMul
	OpDiv
	OpMod
	OpEQ
	OpNE
	OpLT
	OpLE
	OpGT
	OpGE
	OpAnd
	OpOr
	OpConcat
	OpNot
	OpNeg
)

var opNames = [...]string{"+", "-", "*", "/", "%", "=", "<>", "<", "<=", ">", ">=", "AND", "OR", "||", "NOT", "-"}

func (o Op) String() string { return opNames[o] }

// IsComparison reports whether o is =, <>, <, <=, >, >=.
func (o Op) IsComparison() bool { return o >= OpEQ && o <= OpGE }

// Commute returns the operator with its operands swapped (a < b == b > a).
func (o Op) Commute() Op {
	switch o {
	case OpLT:
		return OpGT
	case OpLE:
		return OpGE
	case OpGT:
		return OpLT
	case OpGE:
		return OpLE
	}
	return o
}

// BinOp is L Op R.
type BinOp struct {
	Op   Op
	L, R Expr
	T    types.T
}

// UnaryOp is Op E (NOT, unary minus).
type UnaryOp struct {
	Op Op
	E  Expr
	T  types.T
}

// IsNull is E IS [NOT] NULL.
type IsNull struct {
	E   Expr
	Not bool
}

// InList is E [NOT] IN (List...).
type InList struct {
	E    Expr
	List []Expr
	Not  bool
}

// Like is E [NOT] LIKE Pattern (ILIKE when Fold).
type Like struct {
	E, Pattern Expr
	Not, Fold  bool
	Escape     byte
}

// Cast converts E to T. Assign selects assignment semantics (a value
// too long for varchar(n) is an error rather than truncated).
type Cast struct {
	E      Expr
	T      types.T
	Assign bool
}

// Case is CASE [Operand] WHEN .. THEN .. ELSE .. END.
type Case struct {
	Operand Expr // may be nil
	Whens   []When
	Else    Expr // may be nil
	T       types.T
}

// When is one arm of a Case.
type When struct{ Cond, Result Expr }

// Func is a call of a scalar built-in function.
type Func struct {
	Name string
	Args []Expr
	T    types.T
}

func (e *ColRef) Type() types.T   { return e.T }
func (e *Const) Type() types.T    { return e.T }
func (e *OuterRef) Type() types.T { return e.T }
func (e *Param) Type() types.T    { return e.Params.Types[e.N] }
func (e *BinOp) Type() types.T    { return e.T }
func (e *UnaryOp) Type() types.T  { return e.T }
func (e *IsNull) Type() types.T   { return types.TBool }
func (e *InList) Type() types.T   { return types.TBool }
func (e *Like) Type() types.T     { return types.TBool }
func (e *Cast) Type() types.T     { return e.T }
func (e *Case) Type() types.T     { return e.T }
func (e *Func) Type() types.T     { return e.T }

func (e *ColRef) String() string   { return e.Name }
func (e *Const) String() string    { return e.D.String() }
func (e *OuterRef) String() string { return e.Name }
func (e *Param) String() string    { return fmt.Sprintf("$%d", e.N+1) }
func (e *BinOp) String() string {
	return "(" + e.L.String() + " " + e.Op.String() + " " + e.R.String() + ")"
}
func (e *UnaryOp) String() string {
	if e.Op == OpNot {
		return "(NOT " + e.E.String() + ")"
	}
	return "(-" + e.E.String() + ")"
}
func (e *IsNull) String() string {
	if e.Not {
		return "(" + e.E.String() + " IS NOT NULL)"
	}
	return "(" + e.E.String() + " IS NULL)"
}
func (e *InList) String() string {
	not := ""
	if e.Not {
		not = "NOT "
	}
	return "(" + e.E.String() + " " + not + "IN (" + joinExprs(e.List) + "))"
}
func (e *Like) String() string {
	op := "LIKE"
	if e.Fold {
		op = "ILIKE"
	}
	if e.Not {
		op = "NOT " + op
	}
	return "(" + e.E.String() + " " + op + " " + e.Pattern.String() + ")"
}
func (e *Cast) String() string { return e.E.String() + "::" + e.T.String() }
func (e *Case) String() string {
	var b strings.Builder
	b.WriteString("CASE")
	if e.Operand != nil {
		b.WriteString(" " + e.Operand.String())
	}
	for _, w := range e.Whens {
		b.WriteString(" WHEN " + w.Cond.String() + " THEN " + w.Result.String())
	}
	if e.Else != nil {
		b.WriteString(" ELSE " + e.Else.String())
	}
	b.WriteString(" END")
	return b.String()
}
func (e *Func) String() string { return e.Name + "(" + joinExprs(e.Args) + ")" }

func joinExprs(es []Expr) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = e.String()
	}
	return strings.Join(s, ", ")
}

// splitAnd flattens a conjunction into its conjuncts.
func splitAnd(e Expr, out []Expr) []Expr {
	if b, ok := e.(*BinOp); ok && b.Op == OpAnd {
		return splitAnd(b.R, splitAnd(b.L, out))
	}
	return append(out, e)
}

// splitOr flattens a disjunction into its disjuncts.
func splitOr(e Expr, out []Expr) []Expr {
	if b, ok := e.(*BinOp); ok && b.Op == OpOr {
		return splitOr(b.R, splitOr(b.L, out))
	}
	return append(out, e)
}

// andAll joins conjuncts with AND; nil for none.
func andAll(es []Expr) Expr {
	var r Expr
	for _, e := range es {
		if r == nil {
			r = e
		} else {
			r = &BinOp{Op: OpAnd, L: r, R: e, T: types.TBool}
		}
	}
	return r
}

// isConstant reports whether e reads no column: its value is fixed once the
// parameters are bound.
func isConstant(e Expr) bool {
	switch e := e.(type) {
	case *Const, *Param, *OuterRef, *keyArg:
		return true
	case *Subquery: // an uncorrelated subquery runs once per execution
		return !e.Correlated && (e.Test == nil || isConstant(e.Test))
	case *Cast:
		return isConstant(e.E)
	case *UnaryOp:
		return isConstant(e.E)
	case *BinOp:
		return isConstant(e.L) && isConstant(e.R)
	case *Func:
		for _, a := range e.Args {
			if !isConstant(a) {
				return false
			}
		}
		return true
	}
	return false
}

// WalkCols calls fn for every ColRef in e.
func WalkCols(e Expr, fn func(*ColRef)) {
	switch e := e.(type) {
	case *ColRef:
		fn(e)
	case *BinOp:
		WalkCols(e.L, fn)
		WalkCols(e.R, fn)
	case *UnaryOp:
		WalkCols(e.E, fn)
	case *IsNull:
		WalkCols(e.E, fn)
	case *InList:
		WalkCols(e.E, fn)
		for _, x := range e.List {
			WalkCols(x, fn)
		}
	case *Like:
		WalkCols(e.E, fn)
		WalkCols(e.Pattern, fn)
	case *Cast:
		WalkCols(e.E, fn)
	case *Case:
		if e.Operand != nil {
			WalkCols(e.Operand, fn)
		}
		for _, w := range e.Whens {
			WalkCols(w.Cond, fn)
			WalkCols(w.Result, fn)
		}
		if e.Else != nil {
			WalkCols(e.Else, fn)
		}
	case *Func:
		for _, a := range e.Args {
			WalkCols(a, fn)
		}
	case *ElemsOf:
		WalkCols(e.Array, fn)
	case *Subquery:
		if e.Test != nil {
			WalkCols(e.Test, fn)
		}
	}
}
