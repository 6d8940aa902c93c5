package exec

import (
	"errors"
	"math"
	"regexp"
	"regexp/syntax"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// evalPgOp evaluates the operator Funcs the planner builds from the
// parser's pg_op (planner/build_pgop.go). Arguments are non-NULL. ok is
// false when name is not one of them.
func evalPgOp(name string, t types.T, args []types.Datum, env *evalEnv) (d types.Datum, ok bool, err error) {
	if name == "~" && len(args) == 1 {
		return bitOp(name, t, args), true, nil
	}
	switch name {
	case "~", "~*", "!~", "!~*":
		re, err := env.regexp(args[1].S, name == "~*" || name == "!~*")
		if err != nil {
			return types.Null, true, err
		}
		return types.NewBool(re.MatchString(args[0].S) != (name[0] == '!')), true, nil
	case "^":
		d, err := power(args[0].F, args[1].F)
		return d, true, err
	case "|/":
		if args[0].F < 0 {
			return types.Null, true, pgerror.New("2201F", "cannot take square root of a negative number")
		}
		return types.NewFloat(math.Sqrt(args[0].F)), true, nil
	case "@":
		switch a := args[0]; {
		case a.K == types.Numeric:
			return types.NumericAbs(a), true, nil
		case a.K.IsFloat():
			a.F = math.Abs(a.F)
			return a, true, nil
		case a.I < 0:
			d, err := checkInt(t, -a.I, a.I == math.MinInt64)
			return d, true, err
		default:
			return a, true, nil
		}
	case "||/":
		return types.NewFloat(math.Cbrt(args[0].F)), true, nil
	case "&", "|", "#", "<<", ">>":
		return bitOp(name, t, args), true, nil
	case "->", "->>":
		var v types.Datum
		var found bool
		if args[1].K.IsInt() {
			v, found = types.JSONIndex(args[0], args[1].I)
		} else {
			v, found = types.JSONField(args[0], args[1].S)
		}
		return jsonResult(name, v, found), true, nil
	case "#>", "#>>":
		v, found := args[0], true
		for _, k := range args[1].ArrayValue().Elems {
			if k.IsNull() {
				return types.Null, true, nil
			}
			if v, found = jsonStep(v, k.S); !found {
				break
			}
		}
		return jsonResult(name, v, found), true, nil
	case "@>":
		return types.NewBool(types.JSONContains(args[0], args[1])), true, nil
	}
	return types.Null, false, nil
}

// jsonStep follows one #> path element: an object key, or an array index
// when the value is an array and the element is an integer.
func jsonStep(v types.Datum, key string) (types.Datum, bool) {
	if doc := types.JSONDoc(v); doc.Kind == types.JSONArray {
		n, err := parseIndex(key)
		if err != nil {
			return types.Null, false
		}
		return types.JSONIndex(v, n)
	}
	return types.JSONField(v, key)
}

func parseIndex(s string) (int64, error) {
	d, err := types.ParseText(types.TInt8, s)
	return d.I, err
}

// jsonResult finishes -> / #> (the json value) and ->> / #>> (its text).
func jsonResult(op string, v types.Datum, found bool) types.Datum {
	if !found {
		return types.Null
	}
	if op == "->>" || op == "#>>" {
		s, ok := types.JSONText(v)
		if !ok {
			return types.Null
		}
		return types.NewText(s)
	}
	return v
}

// power is PostgreSQL's float8 ^ float8 (dpow), with its errors.
func power(a, b float64) (types.Datum, error) {
	if a == 0 && b < 0 {
		return types.Null, pgerror.New("2201F", "zero raised to a negative power is undefined")
	}
	if a < 0 && b != math.Trunc(b) && !math.IsInf(b, 0) {
		return types.Null, pgerror.New("2201F", "a negative number raised to a non-integer power yields a complex result")
	}
	v := math.Pow(a, b)
	if math.IsInf(v, 0) && !math.IsInf(a, 0) && !math.IsInf(b, 0) {
		return types.Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "value out of range: overflow")
	}
	if v == 0 && a != 0 && !math.IsInf(a, 0) && !math.IsInf(b, 0) {
		return types.Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "value out of range: underflow")
	}
	return types.NewFloat(v), nil
}

// bitOp computes the integer bitwise operators. Shift counts are masked
// to the operand width as on the hardware PostgreSQL runs on.
func bitOp(op string, t types.T, args []types.Datum) types.Datum {
	a := args[0].I
	var v int64
	switch op {
	case "&":
		v = a & args[1].I
	case "|":
		v = a | args[1].I
	case "#":
		v = a ^ args[1].I
	case "~":
		v = ^a
	case "<<", ">>":
		n := uint(args[1].I)
		if t.Kind == types.Int8 {
			n &= 63
		} else {
			n &= 31
		}
		if op == "<<" {
			v = a << n
		} else {
			v = a >> n
		}
	}
	switch t.Kind {
	case types.Int2:
		v = int64(int16(v))
	case types.Int4:
		v = int64(int32(v))
	}
	return types.NewInt(t.Kind, v)
}

// regexp compiles a PostgreSQL regular expression (advanced syntax, read
// as Go's RE2: backreferences, lookaround and \m \M \y are not available),
// caching it for the statement. As in PostgreSQL, '.' matches a newline and
// ^ $ anchor at the ends of the string.
func (env *evalEnv) regexp(pattern string, fold bool) (*regexp.Regexp, error) {
	key := pattern
	if fold {
		key = "\x00i" + pattern
	}
	if re, ok := env.regexps[key]; ok {
		return re, nil
	}
	flags := "(?s)"
	if fold {
		flags = "(?si)"
	}
	re, err := regexp.Compile(flags + pattern)
	if err != nil {
		return nil, pgerror.New("2201B", "invalid regular expression: %s", regexpReason(err))
	}
	if env.regexps == nil {
		env.regexps = map[string]*regexp.Regexp{}
	}
	env.regexps[key] = re
	return re, nil
}

func regexpReason(err error) string {
	var e *syntax.Error
	if errors.As(err, &e) {
		return e.Code.String()
	}
	return err.Error()
}
