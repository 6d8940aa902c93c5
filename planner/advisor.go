package planner

// OWNER: helper "regions" (rowkey advisor, full-scan reasons).

// Advice is one rowkey-design warning CREATE TABLE sends as a NOTICE.
type Advice struct {
	Message string
	Hint    string
}

// Advise checks a new table's design against the seeds' rules.
func Advise(t *TableDesc) []Advice { return nil }

// fullScanReason says, for a scan of t whose access is a FULL SCAN under
// conds, which key column was not constrained and why.
func fullScanReason(t *TableDesc, conds []Expr) string { return "" }
