package exec

import (
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// Row is one row of values. A Row returned by an operator's Next is valid
// until the next call; operators that keep rows copy them.
type Row = []types.Datum

// evalEnv is what expressions can see besides the row.
type evalEnv struct {
	params []types.Datum
	sess   *Session
	now    int64 // statement timestamp, µs since the epoch
	// regexps caches compiled regular expressions by pattern (pgops.go).
	regexps map[string]*regexp.Regexp
	// x builds the plans of subqueries (subquery.go).
	x *executor
	// outer holds the rows of the enclosing query levels while a
	// correlated subquery runs, innermost last (OuterRef).
	outer []Row
	// subq caches the results of uncorrelated subqueries.
	subq map[*planner.Subquery]*subqResult
	// work holds the working tables of running recursive CTEs, by ID.
	work map[int][]Row
}

// eval computes e over row with SQL NULL semantics.
func eval(e planner.Expr, row Row, env *evalEnv) (types.Datum, error) {
	switch e := e.(type) {
	case *planner.ColRef:
		return row[e.Idx], nil
	case *planner.Const:
		return e.D, nil
	case *planner.Param:
		return env.params[e.N], nil
	case *planner.OuterRef:
		return env.outer[len(env.outer)-e.Depth][e.Idx], nil
	case *planner.Subquery:
		return evalSubquery(e, row, env) // subquery.go
	case *planner.BinOp:
		return evalBinOp(e, row, env)
	case *planner.UnaryOp:
		v, err := eval(e.E, row, env)
		if err != nil || v.IsNull() {
			return v, err
		}
		if e.Op == planner.OpNot {
			return types.NewBool(!v.Bool()), nil
		}
		switch v.K {
		case types.Float8:
			return types.NewFloat(-v.F), nil
		case types.Float4:
			return types.NewFloat4(float32(-v.F)), nil
		case types.Numeric:
			return types.NumericNeg(v), nil
		case types.Interval:
			return types.IntervalNeg(v)
		}
		return checkInt(e.T, -v.I, v.I == math.MinInt64)
	case *planner.IsNull:
		v, err := eval(e.E, row, env)
		if err != nil {
			return v, err
		}
		return types.NewBool(v.IsNull() != e.Not), nil
	case *planner.InList:
		return evalIn(e, row, env)
	case *planner.Like:
		return evalLike(e, row, env)
	case *planner.Cast:
		v, err := eval(e.E, row, env)
		if err != nil {
			return v, err
		}
		if e.T.Kind.IsReg() && !v.IsNull() && (v.K != e.T.Kind || v.S == "") {
			// Names of catalog objects: the catalog resolves them.
			return regCast(execRegCatalog{env.x}, v, e.T.Kind) // regcast.go
		}
		if e.Assign {
			return types.AssignCastIn(v, e.T, env.zone())
		}
		return types.CastIn(v, e.T, env.zone())
	case *planner.Case:
		for _, w := range e.Whens {
			c, err := eval(w.Cond, row, env)
			if err != nil {
				return c, err
			}
			if !c.IsNull() && c.Bool() {
				return eval(w.Result, row, env)
			}
		}
		if e.Else == nil {
			return types.Null, nil
		}
		return eval(e.Else, row, env)
	case *planner.Func:
		return evalFunc(e, row, env)
	}
	return types.Null, pgerror.New(pgerror.CodeInternalError, "cannot evaluate %T", e)
}

// evalBool evaluates a condition; NULL counts as false.
func evalBool(e planner.Expr, row Row, env *evalEnv) (bool, error) {
	v, err := eval(e, row, env)
	return err == nil && !v.IsNull() && v.Bool(), err
}

func evalBinOp(e *planner.BinOp, row Row, env *evalEnv) (types.Datum, error) {
	l, err := eval(e.L, row, env)
	if err != nil {
		return l, err
	}
	switch e.Op {
	case planner.OpAnd:
		if !l.IsNull() && !l.Bool() {
			return l, nil
		}
		r, err := eval(e.R, row, env)
		if err != nil || (!r.IsNull() && !r.Bool()) {
			return r, err
		}
		if l.IsNull() || r.IsNull() {
			return types.Null, nil
		}
		return r, nil
	case planner.OpOr:
		if !l.IsNull() && l.Bool() {
			return l, nil
		}
		r, err := eval(e.R, row, env)
		if err != nil || (!r.IsNull() && r.Bool()) {
			return r, err
		}
		if l.IsNull() || r.IsNull() {
			return types.Null, nil
		}
		return r, nil
	}
	r, err := eval(e.R, row, env)
	if err != nil || l.IsNull() || r.IsNull() {
		return types.Null, err
	}
	if e.Op.IsComparison() {
		return types.NewBool(compareOp(e.Op, types.Compare(l, r))), nil
	}
	switch e.Op {
	case planner.OpConcat:
		return types.NewText(l.S + r.S), nil
	}
	if isDateTimeArith(l) {
		return dateTimeArith(e, l, r, env) // exec/datetime.go
	}
	switch e.T.Kind {
	case types.Float8:
		return floatArith(e.Op, toFloat(l), toFloat(r))
	case types.Float4:
		v, err := floatArith(e.Op, toFloat(l), toFloat(r))
		if err != nil || math.IsInf(float64(float32(v.F)), 0) && !math.IsInf(v.F, 0) {
			if err == nil {
				err = pgerror.New(pgerror.CodeNumericValueOutOfRange, "value out of range: overflow")
			}
			return types.Null, err
		}
		return types.NewFloat4(float32(v.F)), nil
	case types.Numeric:
		return numericArith(e.Op, types.ToNumeric(l), types.ToNumeric(r))
	}
	return intArith(e.Op, e.T, l.I, r.I)
}

func toFloat(d types.Datum) float64 { return types.ToFloat64(d) }

// numericArith evaluates exact numeric arithmetic (22012 on division by
// zero).
func numericArith(op planner.Op, a, b types.Datum) (types.Datum, error) {
	switch op {
	case planner.OpAdd:
		return types.NumericAdd(a, b)
	case planner.OpSub:
		return types.NumericSub(a, b)
	case planner.OpMul:
		return types.NumericMul(a, b)
	case planner.OpDiv:
		return types.NumericDiv(a, b)
	case planner.OpMod:
		return types.NumericMod(a, b)
	}
	return types.Null, pgerror.Unimplemented("numeric operator " + op.String())
}

func floatArith(op planner.Op, a, b float64) (types.Datum, error) {
	var v float64
	switch op {
	case planner.OpAdd:
		v = a + b
	case planner.OpSub:
		v = a - b
	case planner.OpMul:
		v = a * b
	case planner.OpDiv:
		if b == 0 {
			return types.Null, pgerror.New(pgerror.CodeDivisionByZero, "division by zero")
		}
		v = a / b
	}
	if math.IsInf(v, 0) && !math.IsInf(a, 0) && !math.IsInf(b, 0) {
		return types.Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "value out of range: overflow")
	}
	return types.NewFloat(v), nil
}

func intArith(op planner.Op, t types.T, a, b int64) (types.Datum, error) {
	var v int64
	overflow := false
	switch op {
	case planner.OpAdd:
		v = a + b
		overflow = (a > 0 && b > 0 && v < 0) || (a < 0 && b < 0 && v >= 0)
	case planner.OpSub:
		v = a - b
		overflow = (a >= 0 && b < 0 && v < 0) || (a < 0 && b > 0 && v >= 0)
	case planner.OpMul:
		v = a * b
		overflow = a != 0 && (v/a != b || (a == -1 && b == math.MinInt64))
	case planner.OpDiv, planner.OpMod:
		if b == 0 {
			return types.Null, pgerror.New(pgerror.CodeDivisionByZero, "division by zero")
		}
		if b == -1 {
			if op == planner.OpMod {
				return types.NewInt(t.Kind, 0), nil
			}
			v, overflow = -a, a == math.MinInt64
		} else if op == planner.OpDiv {
			v = a / b
		} else {
			v = a % b
		}
	}
	return checkInt(t, v, overflow)
}

// checkInt range-checks an integer result for its type.
func checkInt(t types.T, v int64, overflow bool) (types.Datum, error) {
	switch t.Kind {
	case types.Int2:
		overflow = overflow || v < math.MinInt16 || v > math.MaxInt16
	case types.Int4:
		overflow = overflow || v < math.MinInt32 || v > math.MaxInt32
	}
	if overflow {
		return types.Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "%s out of range", t)
	}
	return types.NewInt(t.Kind, v), nil
}

func evalIn(e *planner.InList, row Row, env *evalEnv) (types.Datum, error) {
	v, err := eval(e.E, row, env)
	if err != nil || v.IsNull() {
		return types.Null, err
	}
	sawNull := false
	for _, x := range e.List {
		d, err := eval(x, row, env)
		if err != nil {
			return d, err
		}
		if d.IsNull() {
			sawNull = true
			continue
		}
		if types.Compare(v, d) == 0 {
			return types.NewBool(!e.Not), nil
		}
	}
	if sawNull {
		return types.Null, nil
	}
	return types.NewBool(e.Not), nil
}

func evalLike(e *planner.Like, row Row, env *evalEnv) (types.Datum, error) {
	v, err := eval(e.E, row, env)
	if err != nil || v.IsNull() {
		return types.Null, err
	}
	p, err := eval(e.Pattern, row, env)
	if err != nil || p.IsNull() {
		return types.Null, err
	}
	s, pat := v.S, p.S
	if e.Fold {
		s, pat = strings.ToLower(s), strings.ToLower(pat)
	}
	esc := rune(e.Escape)
	if esc == 0 {
		esc = '\\'
	}
	m, err := likeMatch(s, pat, esc)
	if err != nil {
		return types.Null, err
	}
	return types.NewBool(m != e.Not), nil
}

// likeMatch matches s against a LIKE pattern (% any run, _ one character).
func likeMatch(s, pat string, esc rune) (bool, error) {
	for len(pat) > 0 {
		c, n := utf8.DecodeRuneInString(pat)
		switch {
		case c == esc:
			if len(pat) == n {
				return false, pgerror.New(pgerror.CodeInvalidParameterValue, "LIKE pattern must not end with escape character")
			}
			c2, n2 := utf8.DecodeRuneInString(pat[n:])
			r, rn := utf8.DecodeRuneInString(s)
			if len(s) == 0 || r != c2 {
				return false, nil
			}
			s, pat = s[rn:], pat[n+n2:]
		case c == '%':
			pat = pat[n:]
			for len(pat) > 0 && pat[0] == '%' {
				pat = pat[1:]
			}
			if len(pat) == 0 {
				return true, nil
			}
			for i := 0; i <= len(s); {
				if ok, err := likeMatch(s[i:], pat, esc); ok || err != nil {
					return ok, err
				}
				if i == len(s) {
					break
				}
				_, rn := utf8.DecodeRuneInString(s[i:])
				i += rn
			}
			return false, nil
		case c == '_':
			if len(s) == 0 {
				return false, nil
			}
			_, rn := utf8.DecodeRuneInString(s)
			s, pat = s[rn:], pat[n:]
		default:
			r, rn := utf8.DecodeRuneInString(s)
			if len(s) == 0 || r != c {
				return false, nil
			}
			s, pat = s[rn:], pat[n:]
		}
	}
	return len(s) == 0, nil
}

// compareOp applies a comparison operator to a three-way comparison.
func compareOp(op planner.Op, c int) bool {
	switch op {
	case planner.OpEQ:
		return c == 0
	case planner.OpNE:
		return c != 0
	case planner.OpLT:
		return c < 0
	case planner.OpLE:
		return c <= 0
	case planner.OpGT:
		return c > 0
	}
	return c >= 0
}
