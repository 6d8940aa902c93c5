package planner

// OWNER: helper "pgcatalog" (signatures of the system-catalog functions).

// catalogBuiltins are the overloads of PostgreSQL's system information and
// catalog functions (format_type, pg_get_indexdef, obj_description, ...);
// exec/pgcatalog_funcs.go evaluates them by impl name.
var catalogBuiltins = map[string][]overload{}
