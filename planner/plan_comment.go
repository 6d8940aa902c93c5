package planner

import "github.com/widesql/widesql/pgwire/pgerror"

// CommentOn is COMMENT ON TABLE / COLUMN: it sets TableDesc.Comment or a
// ColumnDesc.Comment of the table named Table ("" drops the comment).
// exec applies it to the descriptor published when it runs (Apply), so a
// prepared COMMENT does not undo DDL that ran since it was planned.
type CommentOn struct {
	Table  string
	Column string // "" for COMMENT ON TABLE
	Text   string
}

func (*CommentOn) Columns() []ResultColumn { return nil }

// Apply returns a copy of t with the comment set; t is not changed. A
// column that is gone (dropped since the statement was planned) is 42703.
func (c *CommentOn) Apply(t *TableDesc) (*TableDesc, error) {
	n := cloneDesc(t)
	if c.Column == "" {
		n.Comment = c.Text
		return n, nil
	}
	i := n.ColumnIndex(c.Column)
	if i < 0 {
		return nil, pgerror.New(pgerror.CodeUndefinedColumn, "column %q of relation %q does not exist", c.Column, t.Name)
	}
	n.Columns[i].Comment = c.Text
	return n, nil
}
