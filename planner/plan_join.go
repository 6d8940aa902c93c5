package planner

// JoinKind is the kind of a join: which unmatched rows it keeps.
type JoinKind uint8

// Join kinds. Semi and anti joins return only the left row (EXISTS, IN and
// their negations); the others return the left row followed by the right.
const (
	InnerJoin JoinKind = iota
	LeftJoin           // unmatched left rows, right side NULL
	RightJoin          // unmatched right rows, left side NULL
	FullJoin           // both
	SemiJoin           // left rows with at least one match, once each
	AntiJoin           // left rows with no match
)

func (k JoinKind) String() string {
	return [...]string{"INNER", "LEFT", "RIGHT", "FULL", "SEMI", "ANTI"}[k]
}

// HashJoin joins Left and Right on equal keys: LeftKeys[i] (over a left
// row) = RightKeys[i] (over a right row); a NULL key matches nothing. The
// hash table is built from Right and probed with Left. On, when non-nil,
// is checked for every key match, over the combined row (left columns then
// right columns); a match failing On is not a match (for outer joins too,
// as in an ON clause).
type HashJoin struct {
	Kind                JoinKind
	Left, Right         Plan
	LeftKeys, RightKeys []Expr
	On                  Expr
	Cols                []ResultColumn
}

// NestedLoopJoin joins every left row with every right row for which On
// holds (nil: every pair, a cross join). Right is materialized once.
type NestedLoopJoin struct {
	Kind        JoinKind
	Left, Right Plan
	On          Expr
	Cols        []ResultColumn
}

// LookupJoin reads, for each batch of left rows, the matching rows of a
// table by key: Right's access path has key values that are expressions
// over the left row (ColRefs of the left row), so each left row gives
// point Gets or bounded scans, batched into one read. On is the whole join
// condition, checked over the combined row. Kind is Inner, Left, Semi or
// Anti.
type LookupJoin struct {
	Kind  JoinKind
	Left  Plan
	Right *Scan
	On    Expr
	Cols  []ResultColumn
}

func (j *HashJoin) Columns() []ResultColumn       { return j.Cols }
func (j *NestedLoopJoin) Columns() []ResultColumn { return j.Cols }
func (j *LookupJoin) Columns() []ResultColumn     { return j.Cols }
