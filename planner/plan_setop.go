package planner

// SetOpKind is UNION, INTERSECT or EXCEPT.
type SetOpKind uint8

// Set operations.
const (
	Union SetOpKind = iota
	Intersect
	Except
)

// SetOp combines the rows of Left and Right, which have the same number
// of columns, already cast to the types of Cols. Without All, duplicates
// are removed (NULLs compare equal, as in DISTINCT).
type SetOp struct {
	Kind        SetOpKind
	All         bool
	Left, Right Plan
	Cols        []ResultColumn
}

func (s *SetOp) Columns() []ResultColumn { return s.Cols }

// String is the node's EXPLAIN line.
func (s *SetOp) String() string {
	name := [...]string{"UNION", "INTERSECT", "EXCEPT"}[s.Kind]
	if s.All {
		name += " ALL"
	}
	return name
}
