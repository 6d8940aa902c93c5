package planner

import "github.com/widesql/widesql/planner/types"

// arrayBuiltins are the overloads of PostgreSQL's array functions
// (array_to_string, array_upper, array_length, ...), of the bridge's
// subscript forms (sqlparse: a[i] is pg_subscript(a, i), a[i:j]
// pg_slice(a, i, j), (rec).f pg_field(rec, 'f')) and the typing of the
// set-returning functions (impl names starting with SRFPrefix, run by
// ProjectSet, build_srf.go); exec/funcs_array.go evaluates the scalar ones
// by impl name.
//
// PostgreSQL declares most of them over the polymorphic anyarray and
// anyelement. widesql's resolver has no polymorphic types, so the
// overloads are spelled out once per array type (arrayTypes): an argument
// matches its own array type exactly, and the result is that array's
// element type. int2vector and oidvector count as arrays of int2 and oid
// whose subscripts start at 0.
var arrayBuiltins = map[string][]overload{
	"generate_series": {
		sig(tInt4, tInt4, tInt4).as(srfGenerateSeries), sig(tInt4, tInt4, tInt4, tInt4).as(srfGenerateSeries),
		sig(tInt8, tInt8, tInt8).as(srfGenerateSeries), sig(tInt8, tInt8, tInt8, tInt8).as(srfGenerateSeries),
		sig(tNumeric, tNumeric, tNumeric).as(srfGenerateSeries), sig(tNumeric, tNumeric, tNumeric, tNumeric).as(srfGenerateSeries),
		sig(tTimestamp, tTimestamp, tTimestamp, tInterval).as(srfGenerateSeries),
		sig(tTimestampTZ, tTimestampTZ, tTimestampTZ, tInterval).as(srfGenerateSeries),
	},
	"pg_partition_ancestors": {sig(types.TRegClass, types.TRegClass).as(srfPartitionAncestors)},
	// (rec).f on the record _pg_expandarray returns in a select list
	// (recordT); both of its fields are read as integers.
	"pg_field": {sig(tInt4, recordT, tText).as("record_field")},
}

// Impl names of the set-returning functions.
const (
	// SRFPrefix starts the impl name of every set-returning function: a
	// Func so named is a call ProjectSet runs, never evaluated as a scalar.
	SRFPrefix             = "srf_"
	srfGenerateSeries     = SRFPrefix + "generate_series"
	srfGenerateSubscripts = SRFPrefix + "generate_subscripts"
	srfUnnest             = SRFPrefix + "unnest"
	srfExpandArray        = SRFPrefix + "_pg_expandarray"
	srfPartitionAncestors = SRFPrefix + "pg_partition_ancestors"
)

// recordT is the type of the record information_schema._pg_expandarray
// returns when called in a select list: widesql has no composite types, so
// the record is carried as its text form "(x,n)", which is also what a
// client shown it reads; (rec).x and (rec).n parse it back.
var recordT = types.TText

// arrayElemKinds are the element kinds arrays may have.
var arrayElemKinds = []types.Kind{
	types.Bool, types.Int2, types.Int4, types.Int8, types.Float4, types.Float8, types.Numeric,
	types.Text, types.BPChar, types.Bytea, types.Date, types.Time, types.Timestamp, types.TimestampTZ,
	types.Interval, types.UUID, types.JSON, types.JSONB, types.Oid, types.Name, types.Char,
	types.RegClass, types.RegType, types.RegProc, types.RegNamespace, types.RegRole,
}

// arrayTypes returns every array type with its element type: T[] for each
// element kind, then int2vector and oidvector.
func arrayTypes() (arrs, elems []types.T) {
	for _, k := range arrayElemKinds {
		e := types.T{Kind: k}
		arrs, elems = append(arrs, types.ArrayOf(e)), append(elems, e)
	}
	arrs = append(arrs, types.TInt2Vector, types.TOidVector)
	elems = append(elems, types.TInt2, types.TOid)
	return arrs, elems
}

func init() {
	add := func(name string, os ...overload) { arrayBuiltins[name] = append(arrayBuiltins[name], os...) }
	arrs, elems := arrayTypes()
	for i, a := range arrs {
		e := elems[i]
		slice := types.ArrayOf(e) // a slice of an int2vector is an int2[]
		add("pg_subscript", sig(e, a, tInt4).as("array_subscript"))
		add("pg_slice", sig(slice, a, tInt4, tInt4).as("array_slice"))
		add("array_upper", sig(tInt4, a, tInt4))
		add("array_lower", sig(tInt4, a, tInt4))
		add("array_length", sig(tInt4, a, tInt4))
		add("array_ndims", sig(tInt4, a))
		add("cardinality", sig(tInt4, a))
		add("array_to_string", sig(tText, a, tText), sig(tText, a, tText, tText))
		add("array_position", sig(tInt4, a, e))
		add("array_cat", sig(slice, a, a))
		add("unnest", sig(e, a).as(srfUnnest))
		add("generate_subscripts", sig(tInt4, a, tInt4).as(srfGenerateSubscripts),
			sig(tInt4, a, tInt4, tBool).as(srfGenerateSubscripts))
		add("_pg_expandarray", sig(recordT, a).as(srfExpandArray))
	}
}

// srfColumns returns the columns a call of a set-returning function
// produces per row, named for a FROM item (name is the item's alias or
// the function's name): one column of the call's type, except
// _pg_expandarray's (x, n).
func srfColumns(f *Func, name string) []ResultColumn {
	if f.Name == srfExpandArray {
		elem := f.Args[0].Type().ElemType()
		switch f.Args[0].Type().Kind {
		case types.Int2Vector:
			elem = types.TInt2
		case types.OidVector:
			elem = types.TOid
		}
		return []ResultColumn{{Name: "x", T: elem}, {Name: "n", T: tInt4}}
	}
	return []ResultColumn{{Name: name, T: f.T}}
}
