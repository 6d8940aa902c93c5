package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// windowState collects the window function calls of one SELECT while its
// output and ORDER BY expressions are built. A call becomes a reference to
// slot base+i of the Window node's output.
type windowState struct {
	calls []WindowFunc
	// refs are the references handed out for the calls, refs[i] for
	// calls[i] (several refs may share a call). Their Idx is set by
	// windowPlan once the width of the Window's input is known.
	refs []*ColRef
	call []int // refs[i] reads calls[call[i]]
}

// windowFunc builds a window function call in scope sc (sc.win is set).
func (b *builder) windowFunc(n *ast.WindowFuncExpr, sc *scope) (Expr, error) {
	return nil, pgerror.Unimplemented("window functions")
}

// windowPlan puts the Window node computing ws's calls over input.
// It sets the Idx of every reference windowFunc handed out.
func (b *builder) windowPlan(input Plan, ws *windowState) Plan {
	base := len(input.Columns())
	for i, r := range ws.refs {
		r.Idx = base + ws.call[i]
	}
	return &Window{Input: input, Funcs: ws.calls}
}

// exprs returns every expression the calls read from the Window's input
// (arguments, PARTITION BY, ORDER BY), so the scan below fetches them.
func (ws *windowState) exprs() []Expr {
	var es []Expr
	for _, c := range ws.calls {
		es = append(es, c.Args...)
	}
	return es
}
