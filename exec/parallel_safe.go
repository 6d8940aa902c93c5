package exec

import "github.com/widesql/widesql/planner"

// parallelSafe reports whether e may be evaluated on a parallel scan's
// worker goroutines (scan_parallel.go), PostgreSQL's proparallel = 's'.
// A worker evaluates over its own copy of the statement's evalEnv (its own
// regexp cache) and reads the session only: the time zone, warmed before
// the workers start, and the session's parameters. So an expression is
// safe when it reads nothing but its row, constants and parameters, and
// calls only functions that neither change the session nor read the
// catalog or other executor state:
//
//   - no subquery, no outer reference (a correlated subquery's row lives
//     on the consumer's goroutine), no node this walk does not know;
//   - no sequence function (nextval changes the session's and the
//     sequence's state; currval reads what nextval writes);
//   - no catalog function or reg* cast (they read the catalog through
//     the executor, which is not safe for concurrent use);
//   - no function in parallelUnsafeFuncs.
//
// Anything else falls back to the serial scan.
func parallelSafe(e planner.Expr) bool {
	switch e := e.(type) {
	case *planner.ColRef, *planner.Const, *planner.Param:
		return true
	case *planner.BinOp:
		return parallelSafe(e.L) && parallelSafe(e.R)
	case *planner.UnaryOp:
		return parallelSafe(e.E)
	case *planner.IsNull:
		return parallelSafe(e.E)
	case *planner.Cast:
		if e.T.Kind.IsReg() || e.E.Type().Kind.IsReg() {
			return false
		}
		return parallelSafe(e.E)
	case *planner.Like:
		return parallelSafe(e.E) && parallelSafe(e.Pattern)
	case *planner.InList:
		for _, x := range e.List {
			if !parallelSafe(x) {
				return false
			}
		}
		return parallelSafe(e.E)
	case *planner.Case:
		if e.Operand != nil && !parallelSafe(e.Operand) {
			return false
		}
		for _, w := range e.Whens {
			if !parallelSafe(w.Cond) || !parallelSafe(w.Result) {
				return false
			}
		}
		return e.Else == nil || parallelSafe(e.Else)
	case *planner.Func:
		if !parallelSafeFunc(e.Name) || e.T.Kind.IsReg() {
			return false
		}
		for _, a := range e.Args {
			if !parallelSafe(a) {
				return false
			}
		}
		return true
	}
	return false
}

// parallelSafeExprs reports whether every non-nil expression of es is
// parallelSafe.
func parallelSafeExprs(es ...planner.Expr) bool {
	for _, e := range es {
		if e != nil && !parallelSafe(e) {
			return false
		}
	}
	return true
}

// parallelUnsafeFuncs are the functions outside the catalog and sequence
// families that change or depend on per-session mutable state, or whose
// calls PostgreSQL orders within one process: random draws from the
// session's sequence after setseed.
var parallelUnsafeFuncs = map[string]bool{
	"random": true, "setseed": true, "set_config": true, "current_setting": true,
	"pg_sleep": true, "txid_current": true, "pg_current_xact_id": true,
	"pg_advisory_lock": true, "pg_advisory_unlock": true, "pg_try_advisory_lock": true,
}

func parallelSafeFunc(name string) bool {
	if parallelUnsafeFuncs[name] || isSeqFunc(name) {
		return false
	}
	if _, ok := catalogFuncs[name]; ok {
		return false
	}
	return true
}
