package exec

// OWNER: helper "srf" (evaluation of the array functions).

// arrayFuncs evaluates the functions of planner/build_funcs_array.go.
var arrayFuncs = map[string]builtinFunc{}
