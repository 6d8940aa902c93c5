package planner

import "github.com/widesql/widesql/planner/types"

// catalogBuiltins are the overloads of PostgreSQL's system information and
// catalog functions (format_type, pg_get_indexdef, obj_description, ...);
// exec/pgcatalog_funcs.go evaluates them by impl name. The signatures are
// PostgreSQL 15's (pg_proc), with pg_node_tree arguments as text.
var catalogBuiltins = map[string][]overload{
	// Names and descriptions of objects.
	"format_type":                     {sig(tText, tOid, tInt4)},
	"pg_get_userbyid":                 {sig(tName, tOid)},
	"pg_get_indexdef":                 {sig(tText, tOid), sig(tText, tOid, tInt4, tBool)},
	"pg_get_constraintdef":            {sig(tText, tOid), sig(tText, tOid, tBool)},
	"pg_get_expr":                     {sig(tText, tText, tOid), sig(tText, tText, tOid, tBool)},
	"pg_get_viewdef":                  {sig(tText, tOid), sig(tText, tOid, tBool), sig(tText, tOid, tInt4), sig(tText, tText), sig(tText, tText, tBool)},
	"pg_get_ruledef":                  {sig(tText, tOid), sig(tText, tOid, tBool)},
	"pg_get_triggerdef":               {sig(tText, tOid), sig(tText, tOid, tBool)},
	"pg_get_functiondef":              {sig(tText, tOid)},
	"pg_get_statisticsobjdef_columns": {sig(tText, tOid)},
	"pg_get_serial_sequence":          {sig(tText, tText, tText)},
	"obj_description":                 {sig(tText, tOid), sig(tText, tOid, tName)},
	"col_description":                 {sig(tText, tOid, tInt4)},
	"shobj_description":               {sig(tText, tOid, tName)},
	"pg_encoding_to_char":             {sig(tName, tInt4)},
	"pg_char_to_encoding":             {sig(tInt4, tName)},
	"quote_ident":                     {sig(tText, tText)},

	// Visibility in the search path.
	"pg_table_is_visible":     {sig(tBool, tOid)},
	"pg_type_is_visible":      {sig(tBool, tOid)},
	"pg_function_is_visible":  {sig(tBool, tOid)},
	"pg_collation_is_visible": {sig(tBool, tOid)},
	"current_schemas":         {sig(types.ArrayOf(tName), tBool)},

	// Sizes, from the store's region figures.
	"pg_size_pretty":             {sig(tText, tInt8), sig(tText, tNumeric).as("pg_size_pretty_numeric")},
	"pg_table_size":              {sig(tInt8, tRegClass).as("pg_relation_size")},
	"pg_relation_size":           {sig(tInt8, tRegClass), sig(tInt8, tRegClass, tText)},
	"pg_total_relation_size":     {sig(tInt8, tRegClass).as("pg_relation_size")},
	"pg_indexes_size":            {sig(tInt8, tRegClass)},
	"pg_database_size":           {sig(tInt8, tName), sig(tInt8, tOid).as("pg_database_size_oid")},
	"pg_relation_is_publishable": {sig(tBool, tRegClass)},

	// Privileges: every existing object is accessible.
	"has_table_privilege": {
		sig(tBool, tText, tText), sig(tBool, tOid, tText).as("has_table_privilege_oid"),
		sig(tBool, tName, tText, tText).as("has_table_privilege_user"),
		sig(tBool, tName, tOid, tText).as("has_table_privilege_user_oid"),
	},
	"has_schema_privilege":   {sig(tBool, tText, tText), sig(tBool, tName, tText, tText).as("has_schema_privilege_user")},
	"has_database_privilege": {sig(tBool, tText, tText), sig(tBool, tName, tText, tText).as("has_database_privilege_user")},
	"has_column_privilege": {
		sig(tBool, tText, tText, tText), sig(tBool, tOid, tText, tText).as("has_column_privilege_oid"),
		sig(tBool, tOid, tInt2, tText).as("has_column_privilege_attnum"),
	},

	// Server and session.
	"pg_is_in_recovery": {sig(tBool)},
}

// System-catalog types of the catalog functions' signatures.
var (
	tOid      = types.TOid
	tName     = types.TName
	tRegClass = types.TRegClass
)
