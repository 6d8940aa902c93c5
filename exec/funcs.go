package exec

import (
	"strings"
	"time"
	"unicode/utf8"

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
		return types.NewTimestampTZ(env.now), nil
	case "localtimestamp": // the same instant as wall-clock time in the session zone
		_, off := time.UnixMicro(env.now).In(env.zone()).Zone()
		return types.NewTimestamp(env.now + int64(off)*1e6), nil
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
	switch e.Name {
	case "lower":
		return types.NewText(strings.ToLower(args[0].S)), nil
	case "upper":
		return types.NewText(strings.ToUpper(args[0].S)), nil
	case "length":
		return types.NewInt(types.Int4, int64(utf8.RuneCountInString(args[0].S))), nil
	case "abs":
		a := args[0]
		if a.K == types.Float8 {
			if a.F < 0 {
				a.F = -a.F
			}
			return a, nil
		}
		if a.I < 0 {
			return checkInt(e.T, -a.I, a.I == -a.I)
		}
		return a, nil
	}
	if d, ok, err := evalPgOp(e.Name, e.T, args, env); ok {
		return d, err
	}
	return types.Null, pgerror.New(pgerror.CodeUndefinedFunction, "function %s does not exist", e.Name)
}
