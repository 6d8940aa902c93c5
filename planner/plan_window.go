package planner

import (
	"strings"

	"github.com/widesql/widesql/planner/types"
)

// Window computes window functions over its input. Its rows are the input
// row followed by one column per function, in Funcs order. Funcs' argument,
// PARTITION BY, ORDER BY and frame offset expressions read the input row.
// The order of the output rows is unspecified (a Sort above orders them).
type Window struct {
	Input Plan
	Funcs []WindowFunc
	Cols  []ResultColumn
}

func (w *Window) Columns() []ResultColumn { return w.Cols }

// WinFunc is a window function.
type WinFunc uint8

// Window functions. WinAgg is an aggregate (WindowFunc.Agg) over the frame.
const (
	WinRowNumber WinFunc = iota
	WinRank
	WinDenseRank
	WinPercentRank
	WinCumeDist
	WinNtile
	WinLag
	WinLead
	WinFirstValue
	WinLastValue
	WinNthValue
	WinAgg
)

var winNames = [...]string{"row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile",
	"lag", "lead", "first_value", "last_value", "nth_value", "aggregate"}

func (f WinFunc) String() string { return winNames[f] }

// WindowFunc is one window function call.
//
// Args by function: ntile(buckets); lag and lead(value, offset, default),
// offset and default filled in when omitted (1 and NULL), value and
// default of type T; first_value and last_value(value); nth_value(value,
// n); for WinAgg, Agg.Arg (nil for count(*)). The offset, default and
// bucket arguments are evaluated per row, as in PostgreSQL.
type WindowFunc struct {
	Func WinFunc
	Agg  AggCall // WinAgg only
	Args []Expr
	Spec WindowSpec
	T    types.T
}

// WindowSpec is the window a call runs over: rows are grouped by
// Partition and ordered by Order; the frame says which rows of the
// partition an aggregate or a value function sees from each row.
type WindowSpec struct {
	Partition []Expr
	Order     []SortKey
	Frame     Frame
}

// FrameMode is how frame offsets count: in rows, or in ORDER BY values
// (RANGE, where peers, rows equal in ORDER BY, move together).
type FrameMode uint8

// Frame modes.
const (
	FrameRange FrameMode = iota
	FrameRows
)

// BoundKind is the kind of a frame start or end.
type BoundKind uint8

// Frame bound kinds, in the order of the rows they denote.
const (
	UnboundedPreceding BoundKind = iota
	OffsetPreceding
	CurrentRow
	OffsetFollowing
	UnboundedFollowing
)

// FrameBound is a frame start or end; Offset (a bigint for ROWS, of the
// ORDER BY key's difference type for RANGE) is set for the offset kinds
// and evaluated once per execution.
type FrameBound struct {
	Kind   BoundKind
	Offset Expr
}

// Frame is a window frame. The zero Frame is PostgreSQL's default: RANGE
// BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW.
type Frame struct {
	Mode       FrameMode
	Start, End FrameBound
}

// DefaultFrame is the frame of a window without a frame clause.
var DefaultFrame = Frame{Mode: FrameRange, Start: FrameBound{Kind: UnboundedPreceding}, End: FrameBound{Kind: CurrentRow}}

// String is the call as SQL: `sum(x) OVER (PARTITION BY a ORDER BY b)`.
func (f *WindowFunc) String() string {
	name := f.Func.String()
	args := f.Args
	if f.Func == WinAgg {
		name = f.Agg.Func.String()
		args = nil
		if f.Agg.Arg != nil {
			args = []Expr{f.Agg.Arg}
		}
	}
	s := name + "(" + joinExprs(args) + ")"
	if f.Func == WinAgg && f.Agg.Arg == nil {
		s = name + "(*)"
	}
	return s + " OVER (" + f.Spec.String() + ")"
}

// String renders the window definition without parentheses.
func (s *WindowSpec) String() string {
	var parts []string
	if len(s.Partition) > 0 {
		parts = append(parts, "PARTITION BY "+joinExprs(s.Partition))
	}
	if len(s.Order) > 0 {
		keys := make([]string, len(s.Order))
		for i, k := range s.Order {
			keys[i] = k.Expr.String()
			if k.Desc {
				keys[i] += " DESC"
			}
			switch {
			case k.NullsFirst && !k.Desc:
				keys[i] += " NULLS FIRST"
			case !k.NullsFirst && k.Desc:
				keys[i] += " NULLS LAST"
			}
		}
		parts = append(parts, "ORDER BY "+strings.Join(keys, ", "))
	}
	if s.Frame != DefaultFrame {
		parts = append(parts, s.Frame.String())
	}
	return strings.Join(parts, " ")
}

// String renders the frame clause.
func (f Frame) String() string {
	mode := "RANGE"
	if f.Mode == FrameRows {
		mode = "ROWS"
	}
	return mode + " BETWEEN " + f.Start.String() + " AND " + f.End.String()
}

func (b FrameBound) String() string {
	switch b.Kind {
	case UnboundedPreceding:
		return "UNBOUNDED PRECEDING"
	case OffsetPreceding:
		return b.Offset.String() + " PRECEDING"
	case CurrentRow:
		return "CURRENT ROW"
	case OffsetFollowing:
		return b.Offset.String() + " FOLLOWING"
	}
	return "UNBOUNDED FOLLOWING"
}

// String is the node's EXPLAIN line.
func (w *Window) String() string {
	calls := make([]string, len(w.Funcs))
	for i := range w.Funcs {
		calls[i] = w.Funcs[i].String()
	}
	return "WINDOW " + strings.Join(calls, ", ")
}
