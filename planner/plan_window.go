package planner

// Window computes window functions over its input. Its rows are the input
// row followed by one column per function, in Funcs order.
type Window struct {
	Input Plan
	Funcs []WindowFunc
	Cols  []ResultColumn
}

func (w *Window) Columns() []ResultColumn { return w.Cols }

// WindowFunc is one window function call.
type WindowFunc struct {
	Name string
	Args []Expr
}

// String is the node's EXPLAIN line.
func (w *Window) String() string { return "WINDOW" }
