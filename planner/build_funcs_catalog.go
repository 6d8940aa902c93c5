package planner

import "github.com/widesql/widesql/planner/types"

// builtins are the overloads of PostgreSQL 15's scalar functions that
// widesql implements, restricted to the types it has (pg_proc, minus
// bytea/bit/range/geometric variants where noted). Every one is strict (a
// NULL argument gives NULL without evaluation) except concat and
// concat_ws; exec/funcs.go holds the evaluations, by impl name.
var builtins = map[string][]overload{
	// Strings (exec/funcs_string.go).
	"lower":            {sig(tText, tText)},
	"upper":            {sig(tText, tText)},
	"initcap":          {sig(tText, tText)},
	"length":           {sig(tInt4, tText), sig(tInt4, tBPChar).as("bpchar_length"), sig(tInt4, tBytea).as("octet_length")},
	"char_length":      {sig(tInt4, tText).as("length"), sig(tInt4, tBPChar).as("bpchar_length")},
	"character_length": {sig(tInt4, tText).as("length"), sig(tInt4, tBPChar).as("bpchar_length")},
	"octet_length":     {sig(tInt4, tText), sig(tInt4, tBPChar), sig(tInt4, tBytea)},
	"bit_length":       {sig(tInt4, tText), sig(tInt4, tBytea)},
	"substring": {
		sig(tText, tText, tInt4), sig(tText, tText, tInt4, tInt4),
		sig(tBytea, tBytea, tInt4), sig(tBytea, tBytea, tInt4, tInt4),
		sig(tText, tText, tText).as("substring_regex"),
	},
	"substr": {
		sig(tText, tText, tInt4).as("substring"), sig(tText, tText, tInt4, tInt4).as("substring"),
		sig(tBytea, tBytea, tInt4).as("substring"), sig(tBytea, tBytea, tInt4, tInt4).as("substring"),
	},
	"position":    {sig(tInt4, tText, tText).as("strpos")}, // POSITION(a IN b) is position(b, a)
	"strpos":      {sig(tInt4, tText, tText)},
	"replace":     {sig(tText, tText, tText, tText)},
	"translate":   {sig(tText, tText, tText, tText)},
	"split_part":  {sig(tText, tText, tText, tInt4)},
	"concat":      {variadic(tText, tAny)},
	"concat_ws":   {variadic(tText, tText, tAny)},
	"btrim":       {sig(tText, tText), sig(tText, tText, tText)},
	"ltrim":       {sig(tText, tText), sig(tText, tText, tText)},
	"rtrim":       {sig(tText, tText), sig(tText, tText, tText)},
	"left":        {sig(tText, tText, tInt4)},
	"right":       {sig(tText, tText, tInt4)},
	"lpad":        {sig(tText, tText, tInt4), sig(tText, tText, tInt4, tText)},
	"rpad":        {sig(tText, tText, tInt4), sig(tText, tText, tInt4, tText)},
	"repeat":      {sig(tText, tText, tInt4)},
	"reverse":     {sig(tText, tText)},
	"md5":         {sig(tText, tText), sig(tText, tBytea)},
	"crc32":       {sig(tInt8, tText), sig(tInt8, tBytea)}, // widesql (as MySQL): a hash for key buckets
	"decode":      {sig(tBytea, tText, tText)},
	"encode":      {sig(tText, tBytea, tText)},
	"starts_with": {sig(tBool, tText, tText)},
	"ascii":       {sig(tInt4, tText)},
	"chr":         {sig(tText, tInt4)},

	// Numbers (exec/funcs_math.go).
	"abs": {
		sig(tInt2, tInt2), sig(tInt4, tInt4), sig(tInt8, tInt8),
		sig(tFloat4, tFloat4), sig(tFloat8, tFloat8), sig(tNumeric, tNumeric),
	},
	"mod":     {sig(tInt2, tInt2, tInt2), sig(tInt4, tInt4, tInt4), sig(tInt8, tInt8, tInt8), sig(tNumeric, tNumeric, tNumeric)},
	"div":     {sig(tNumeric, tNumeric, tNumeric)},
	"round":   {sig(tFloat8, tFloat8), sig(tNumeric, tNumeric), sig(tNumeric, tNumeric, tInt4)},
	"trunc":   {sig(tFloat8, tFloat8), sig(tNumeric, tNumeric), sig(tNumeric, tNumeric, tInt4)},
	"floor":   {sig(tFloat8, tFloat8), sig(tNumeric, tNumeric)},
	"ceil":    {sig(tFloat8, tFloat8), sig(tNumeric, tNumeric)},
	"ceiling": {sig(tFloat8, tFloat8).as("ceil"), sig(tNumeric, tNumeric).as("ceil")},
	"sign":    {sig(tFloat8, tFloat8), sig(tNumeric, tNumeric)},
	"sqrt":    {sig(tFloat8, tFloat8), sig(tNumeric, tNumeric)},
	"cbrt":    {sig(tFloat8, tFloat8)},
	"exp":     {sig(tFloat8, tFloat8), sig(tNumeric, tNumeric)},
	"ln":      {sig(tFloat8, tFloat8), sig(tNumeric, tNumeric)},
	"log":     {sig(tFloat8, tFloat8).as("log10"), sig(tNumeric, tNumeric).as("log10"), sig(tNumeric, tNumeric, tNumeric)},
	"log10":   {sig(tFloat8, tFloat8), sig(tNumeric, tNumeric)},
	"power":   {sig(tFloat8, tFloat8, tFloat8), sig(tNumeric, tNumeric, tNumeric)},
	"pow":     {sig(tFloat8, tFloat8, tFloat8).as("power"), sig(tNumeric, tNumeric, tNumeric).as("power")},
	"degrees": {sig(tFloat8, tFloat8)},
	"radians": {sig(tFloat8, tFloat8)},
	"pi":      {sig(tFloat8)},
	"random":  {sig(tFloat8)},

	// Dates and times (exec/funcs_datetime.go, exec/funcs_tochar.go).
	"now":                   {sig(tTimestampTZ)},
	"transaction_timestamp": {sig(tTimestampTZ).as("now")},
	"statement_timestamp":   {sig(tTimestampTZ).as("now")},
	"clock_timestamp":       {sig(tTimestampTZ)},
	"current_date":          {sig(tDate)},
	"date_trunc": {
		sig(tTimestamp, tText, tTimestamp), sig(tTimestampTZ, tText, tTimestampTZ),
		sig(tTimestampTZ, tText, tTimestampTZ, tText), sig(tInterval, tText, tInterval),
	},
	"date_part": {
		sig(tFloat8, tText, tDate), sig(tFloat8, tText, tTime), sig(tFloat8, tText, tTimestamp),
		sig(tFloat8, tText, tTimestampTZ), sig(tFloat8, tText, tInterval),
	},
	"extract": {
		sig(tNumeric, tText, tDate), sig(tNumeric, tText, tTime), sig(tNumeric, tText, tTimestamp),
		sig(tNumeric, tText, tTimestampTZ), sig(tNumeric, tText, tInterval),
	},
	"to_char": {
		sig(tText, tTimestamp, tText), sig(tText, tTimestampTZ, tText), sig(tText, tInterval, tText),
		sig(tText, tInt4, tText), sig(tText, tInt8, tText), sig(tText, tFloat4, tText),
		sig(tText, tFloat8, tText), sig(tText, tNumeric, tText),
	},
	"to_date":        {sig(tDate, tText, tText)},
	"to_timestamp":   {sig(tTimestampTZ, tFloat8).as("to_timestamp_epoch"), sig(tTimestampTZ, tText, tText)},
	"make_date":      {sig(tDate, tInt4, tInt4, tInt4)},
	"make_timestamp": {sig(tTimestamp, tInt4, tInt4, tInt4, tInt4, tInt4, tFloat8)},
	"age": {
		sig(tInterval, tTimestamp, tTimestamp), sig(tInterval, tTimestampTZ, tTimestampTZ),
		sig(tInterval, tTimestamp).as("age_today"), sig(tInterval, tTimestampTZ).as("age_today"),
	},
	"isfinite": {sig(tBool, tDate), sig(tBool, tTimestamp), sig(tBool, tTimestampTZ), sig(tBool, tInterval)},
}

// Parameter and result types of the catalog; tAny is PostgreSQL's "any".
var (
	tAny         = types.TUnknown
	tBool        = types.TBool
	tInt2        = types.TInt2
	tInt4        = types.TInt4
	tInt8        = types.TInt8
	tFloat4      = types.TFloat4
	tFloat8      = types.TFloat8
	tNumeric     = types.TNumeric
	tText        = types.TText
	tBPChar      = types.TBPChar
	tBytea       = types.TBytea
	tDate        = types.TDate
	tTime        = types.TTime
	tTimestamp   = types.TTimestamp
	tTimestampTZ = types.TTimestampTZ
	tInterval    = types.TInterval
)

// sig builds an overload returning ret.
func sig(ret types.T, params ...types.T) overload { return overload{params: params, ret: ret} }

// variadic builds an overload whose last parameter repeats.
func variadic(ret types.T, params ...types.T) overload {
	return overload{params: params, ret: ret, variadic: true}
}

// as sets the exec evaluation an overload runs.
func (o overload) as(impl string) overload { o.impl = impl; return o }
