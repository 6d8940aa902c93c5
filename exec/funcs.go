package exec

import (
	"time"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// ServerVersion is the PostgreSQL version widesql reports; clients pick
// query variants from it.
const ServerVersion = "15.18"

// VersionString is what version() returns. SQLAlchemy parses it with
// PostgreSQL (\d+)\.?(\d+)?.
const VersionString = "PostgreSQL " + ServerVersion + " (widesql) on x86_64-pc-linux-gnu, compiled by Go"

func evalFunc(e *planner.Func, row Row, env *evalEnv) (types.Datum, error) {
	switch e.Name {
	case "version":
		return types.NewText(VersionString), nil
	case "current_database":
		return types.NewText(env.sess.param("database")), nil
	case "current_schema":
		return types.NewText("public"), nil
	case "current_user", "session_user", "user":
		return types.NewText(env.sess.param("user")), nil
	case "now": // now() and current_timestamp: the statement's start, as timestamptz
		return types.NewTimestampTZ(roundPrecision(env.now, e.Args)), nil
	case "localtimestamp": // the same instant as wall-clock time in the session zone
		return types.NewTimestamp(roundPrecision(env.localNow(), e.Args)), nil
	case "localtime":
		return types.NewTime(floorMod(roundPrecision(env.localNow(), e.Args), usPerDay)), nil
	case "current_date":
		return types.NewDate(floorDiv(env.localNow(), usPerDay)), nil
	case "clock_timestamp":
		return types.NewTimestampTZ(time.Now().UnixMicro()), nil
	}
	args := make([]types.Datum, len(e.Args))
	for i, a := range e.Args {
		v, err := eval(a, row, env)
		if err != nil {
			return v, err
		}
		args[i] = v
	}
	if isSeqFunc(e.Name) {
		return evalSeqFunc(e.Name, args, env)
	}
	switch e.Name {
	case "format_type": // not strict in its typmod: NULL means none
		if args[0].IsNull() {
			return types.Null, nil
		}
		return FormatType(args[0], args[1]), nil // pgcatalog_funcs.go
	case "json_build_object", "json_build_array":
		return jsonBuild(e.Name, args, env) // funcs_json.go
	case "concat", "concat_ws": // not strict: NULLs are skipped
		return concat(e, args, env)
	case "coalesce":
		for _, a := range args {
			if !a.IsNull() {
				return a, nil
			}
		}
		return types.Null, nil
	case "nullif":
		if !args[0].IsNull() && !args[1].IsNull() && types.Compare(args[0], args[1]) == 0 {
			return types.Null, nil
		}
		return args[0], nil
	case "greatest", "least":
		var best types.Datum
		for _, a := range args {
			if a.IsNull() {
				continue
			}
			c := 0
			if !best.IsNull() {
				c = types.Compare(a, best)
			}
			if best.IsNull() || (e.Name == "greatest" && c > 0) || (e.Name == "least" && c < 0) {
				best = a
			}
		}
		return best, nil
	case "is_true", "is_false", "is_not_true", "is_not_false":
		v := args[0]
		r := false
		switch e.Name {
		case "is_true":
			r = !v.IsNull() && v.Bool()
		case "is_false":
			r = !v.IsNull() && !v.Bool()
		case "is_not_true":
			r = v.IsNull() || !v.Bool()
		case "is_not_false":
			r = v.IsNull() || v.Bool()
		}
		return types.NewBool(r), nil
	case "array":
		return types.NewArray(e.T.ElemType(), args), nil
	case "= ANY", "<> ANY", "< ANY", "<= ANY", "> ANY", ">= ANY", "= ALL", "<> ALL", "< ALL", "<= ALL", "> ALL", ">= ALL":
		d, _ := anyAll(e.Name, args[0], args[1])
		return d, nil
	case "is_not_distinct_from":
		if args[0].IsNull() || args[1].IsNull() {
			return types.NewBool(args[0].IsNull() == args[1].IsNull()), nil
		}
		return types.NewBool(types.Compare(args[0], args[1]) == 0), nil
	}
	for _, a := range args {
		if a.IsNull() {
			return types.Null, nil
		}
	}
	if f := builtin(e.Name); f != nil {
		return f(args, e, env)
	}
	if d, ok, err := evalPgOp(e.Name, e.T, args, env); ok {
		return d, err
	}
	return types.Null, pgerror.New(pgerror.CodeUndefinedFunction, "function %s does not exist", e.Name)
}

// builtinFunc evaluates a strict built-in function typed by the planner
// (planner/build_funcs_catalog.go names it by its impl). args hold the
// overload's parameter types, none NULL; e is the call, for its result
// type.
type builtinFunc func(args []types.Datum, e *planner.Func, env *evalEnv) (types.Datum, error)

// builtin returns the evaluation of a built-in function, or nil.
func builtin(name string) builtinFunc {
	if f, ok := stringFuncs[name]; ok {
		return f
	}
	if f, ok := mathFuncs[name]; ok {
		return f
	}
	if f, ok := catalogFuncs[name]; ok { // pgcatalog_funcs.go
		return f
	}
	if f, ok := arrayFuncs[name]; ok { // funcs_array.go
		return f
	}
	return datetimeFuncs[name]
}

// localNow is the statement's start as wall-clock microseconds in the
// session zone.
func (env *evalEnv) localNow() int64 {
	_, off := time.UnixMicro(env.now).In(env.zone()).Zone()
	return env.now + int64(off)*1e6
}

// roundPrecision rounds microseconds to the precision argument of
// CURRENT_TIMESTAMP(p) and friends, half away from zero as PostgreSQL's
// AdjustTimestampForTypmod; no argument keeps all six digits.
func roundPrecision(us int64, args []planner.Expr) int64 {
	if len(args) == 0 {
		return us
	}
	c, ok := args[0].(*planner.Const)
	if !ok || c.D.I >= 6 || c.D.I < 0 {
		return us
	}
	unit := int64(1)
	for i := c.D.I; i < 6; i++ {
		unit *= 10
	}
	if us >= 0 {
		return (us + unit/2) / unit * unit
	}
	return -((-us + unit/2) / unit * unit)
}
