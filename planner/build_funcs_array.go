package planner

// OWNER: helper "srf" (signatures of the array functions).

// arrayBuiltins are the overloads of PostgreSQL's array functions
// (array_to_string, array_upper, array_length, ...); exec/funcs_array.go
// evaluates them by impl name.
var arrayBuiltins = map[string][]overload{}
