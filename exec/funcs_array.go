package exec

import (
	"strconv"
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// arrayFuncs evaluates the functions of planner/build_funcs_array.go.
// Arrays are one-dimensional: a dimension other than 1 has no bounds
// (NULL), as in PostgreSQL. Subscripts count from the array's lower
// bound, 1, or 0 for int2vector and oidvector (types.ArrayLowerBound).
var arrayFuncs = map[string]builtinFunc{
	"array_subscript": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		elems := a[0].ArrayValue().Elems
		i := a[1].I - int64(types.ArrayLowerBound(a[0]))
		if i < 0 || i >= int64(len(elems)) {
			return types.Null, nil
		}
		return elems[i], nil
	},
	"array_slice": func(a []types.Datum, e *planner.Func, _ *evalEnv) (types.Datum, error) {
		v := a[0].ArrayValue()
		lb := int64(types.ArrayLowerBound(a[0]))
		lo, hi := max(a[1].I-lb, 0), min(a[2].I-lb, int64(len(v.Elems))-1)
		if lo > hi {
			return types.NewArray(e.T.ElemType(), []types.Datum{}), nil
		}
		return types.NewArray(e.T.ElemType(), append([]types.Datum(nil), v.Elems[lo:hi+1]...)), nil
	},
	"array_upper": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		n := len(a[0].ArrayValue().Elems)
		if a[1].I != 1 || n == 0 {
			return types.Null, nil
		}
		return types.NewInt(types.Int4, int64(types.ArrayLowerBound(a[0])+n-1)), nil
	},
	"array_lower": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		if a[1].I != 1 || len(a[0].ArrayValue().Elems) == 0 {
			return types.Null, nil
		}
		return types.NewInt(types.Int4, int64(types.ArrayLowerBound(a[0]))), nil
	},
	"array_length": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		n := len(a[0].ArrayValue().Elems)
		if a[1].I != 1 || n == 0 {
			return types.Null, nil
		}
		return types.NewInt(types.Int4, int64(n)), nil
	},
	"array_ndims": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		if len(a[0].ArrayValue().Elems) == 0 {
			return types.Null, nil
		}
		return types.NewInt(types.Int4, 1), nil
	},
	"cardinality": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		return types.NewInt(types.Int4, int64(len(a[0].ArrayValue().Elems))), nil
	},
	"array_to_string": func(a []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
		var b []byte
		first := true
		for _, x := range a[0].ArrayValue().Elems {
			if x.IsNull() && len(a) < 3 {
				continue // without a null string, NULL elements are skipped
			}
			if !first {
				b = append(b, a[1].S...)
			}
			first = false
			if x.IsNull() {
				b = append(b, a[2].S...)
				continue
			}
			b = types.AppendTextIn(b, x, env.loc())
		}
		return types.NewText(string(b)), nil
	},
	"array_position": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		for i, x := range a[0].ArrayValue().Elems {
			if !x.IsNull() && types.Compare(x, a[1]) == 0 {
				return types.NewInt(types.Int4, int64(i+types.ArrayLowerBound(a[0]))), nil
			}
		}
		return types.Null, nil
	},
	"array_cat": func(a []types.Datum, e *planner.Func, _ *evalEnv) (types.Datum, error) {
		l, r := a[0].ArrayValue().Elems, a[1].ArrayValue().Elems
		return types.NewArray(e.T.ElemType(), append(append(make([]types.Datum, 0, len(l)+len(r)), l...), r...)), nil
	},
	"record_field": recordField,
}

func init() {
	for _, name := range []string{"generate_series", "generate_subscripts", "unnest", "_pg_expandarray", "pg_partition_ancestors"} {
		arrayFuncs[planner.SRFPrefix+name] = func([]types.Datum, *planner.Func, *evalEnv) (types.Datum, error) {
			return types.Null, pgerror.New(pgerror.CodeFeatureNotSupported, "set-valued function called in context that cannot accept a set")
		}
	}
}

// recordField reads field x or n of the record _pg_expandarray returns in
// a select list, carried as its text "(x,n)" (planner/build_funcs_array.go).
func recordField(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
	s := a[0].S
	comma := strings.LastIndexByte(s, ',')
	if len(s) < 3 || s[0] != '(' || s[len(s)-1] != ')' || comma < 0 {
		return types.Null, pgerror.New(pgerror.CodeWrongObjectType, "column notation .%s applied to type text, which is not a composite type", a[1].S)
	}
	var part string
	switch a[1].S {
	case "x":
		part = s[1:comma]
	case "n":
		part = s[comma+1 : len(s)-1]
	default:
		return types.Null, pgerror.New(pgerror.CodeUndefinedColumn, "column %q not found in data type record", a[1].S)
	}
	if part == "" {
		return types.Null, nil
	}
	n, err := strconv.ParseInt(part, 10, 32)
	if err != nil {
		return types.Null, pgerror.New(pgerror.CodeInvalidTextRepresentation, "invalid input syntax for type integer: %q", part)
	}
	return types.NewInt(types.Int4, n), nil
}
