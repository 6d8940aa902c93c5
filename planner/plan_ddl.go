package planner

// Plans of the rowkey-design statements (issue 6).

// AlterTable publishes New in place of Old: ALTER TABLE ADD COLUMN (a new
// family is created in the store), SET/RESET (family and table options).
// Tag is the command tag ("ALTER TABLE").
type AlterTable struct {
	Old, New *TableDesc
}

func (*AlterTable) Columns() []ResultColumn { return nil }

// SplitTable pre-splits a table's regions: at each of Points (a prefix of
// the rowkey columns' values), or at Regions-1 points spread evenly
// between Lower and Upper (SPLIT TABLE t BETWEEN (..) AND (..) REGIONS n).
type SplitTable struct {
	Table        *TableDesc
	Points       [][]Expr
	Lower, Upper []Expr
	Regions      int
}

func (*SplitTable) Columns() []ResultColumn { return nil }

// ShowCreateTable returns one row: the table name and a CREATE TABLE
// statement that recreates it with every option.
type ShowCreateTable struct {
	Table *TableDesc
	Cols  []ResultColumn
}

func (s *ShowCreateTable) Columns() []ResultColumn { return s.Cols }
