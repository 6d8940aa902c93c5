package exec

// OWNER: helper "pgcatalog" (evaluation of the system-catalog functions).

// catalogFuncs evaluates the functions of planner/build_funcs_pg.go.
var catalogFuncs = map[string]builtinFunc{}
