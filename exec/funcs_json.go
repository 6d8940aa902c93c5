package exec

import (
	"math"
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// jsonBuild evaluates json_build_object(k, v, ...) and
// json_build_array(v, ...): PostgreSQL's spacing ({"a" : 1, "b" : 2},
// [1, 2]) and to_json's conversion of each value.
func jsonBuild(name string, args []types.Datum, env *evalEnv) (types.Datum, error) {
	var buf []byte
	if name == "json_build_array" {
		buf = append(buf, '[')
		for i, a := range args {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = appendToJSON(buf, a, env)
		}
		return types.NewJSON(string(append(buf, ']'))), nil
	}
	buf = append(buf, '{')
	for i := 0; i < len(args); i += 2 {
		if args[i].IsNull() {
			return types.Null, pgerror.New(pgerror.CodeNullValueNotAllowed, "null value not allowed for object key")
		}
		if i > 0 {
			buf = append(buf, ", "...)
		}
		key := types.AppendTextIn(nil, args[i], env.zone())
		buf = types.AppendJSONString(buf, string(key))
		buf = append(buf, " : "...)
		buf = appendToJSON(buf, args[i+1], env)
	}
	return types.NewJSON(string(append(buf, '}'))), nil
}

// appendToJSON appends d as to_json renders it: numbers and booleans bare,
// json as is, arrays as JSON arrays, date/time values in ISO 8601 with a
// T, everything else as a JSON string of its text form.
func appendToJSON(buf []byte, d types.Datum, env *evalEnv) []byte {
	if d.IsNull() {
		return append(buf, "null"...)
	}
	switch d.K {
	case types.Bool:
		if d.Bool() {
			return append(buf, "true"...)
		}
		return append(buf, "false"...)
	case types.Int2, types.Int4, types.Int8, types.Oid:
		return types.AppendText(buf, d)
	case types.Float4, types.Float8:
		if math.IsNaN(d.F) || math.IsInf(d.F, 0) {
			break
		}
		return types.AppendText(buf, d)
	case types.Numeric:
		if n := d.Numeric(); n.Form != 0 { // NaN, ±Infinity
			break
		}
		return types.AppendText(buf, d)
	case types.JSON, types.JSONB:
		return append(buf, d.S...)
	case types.Array:
		buf = append(buf, '[')
		for i, e := range d.ArrayValue().Elems {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendToJSON(buf, e, env)
		}
		return append(buf, ']')
	case types.Timestamp, types.TimestampTZ:
		s := string(types.AppendTextIn(nil, d, env.zone()))
		if !strings.Contains(s, "infinity") {
			s = strings.Replace(s, " ", "T", 1)
			if d.K == types.TimestampTZ && len(s) > 3 && (s[len(s)-3] == '+' || s[len(s)-3] == '-') {
				s += ":00" // to_json writes a full offset
			}
		}
		return types.AppendJSONString(buf, s)
	}
	return types.AppendJSONString(buf, string(types.AppendTextIn(nil, d, env.zone())))
}
