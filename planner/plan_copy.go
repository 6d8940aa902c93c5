package planner

// CopyFormat is how COPY encodes rows: PostgreSQL's text format (columns
// split by Delimiter, backslash escapes, Null as the NULL marker) or CSV
// (Quote and Escape, an unquoted Null is NULL).
type CopyFormat struct {
	// Binary is PostgreSQL's binary COPY format (FROM only): each value
	// in its type's binary encoding, as pgx's CopyFrom sends it.
	Binary    bool
	CSV       bool
	Delimiter byte
	Null      string
	Quote     byte // CSV only
	Escape    byte // CSV only
	// Header: the first line holds the column names (skipped on input
	// unless HeaderMatch, which checks it against the column names).
	Header      bool
	HeaderMatch bool
	// ForceQuote (TO, CSV) quotes every non-NULL value of the columns set
	// here, by position in the output row; ForceNotNull and ForceNull
	// (FROM, CSV) by position in the data. nil when none is set.
	ForceQuote   []bool
	ForceNotNull []bool
	ForceNull    []bool
}

// CopyFrom loads the rows a client sends into Table: COPY t [(cols)] FROM
// STDIN. Data column j goes to table column Targets[j]; a column not in
// Targets gets Fill[i] (its DEFAULT or serial value), evaluated per row.
// Fill[i] is nil for targets and hidden columns (exec assigns the row id
// and computes key expressions, as for INSERT).
type CopyFrom struct {
	Table   *TableDesc
	Targets []int
	Fill    []Expr
	Format  CopyFormat
}

// CopyTo sends the rows of Query to the client: COPY t [(cols)] TO STDOUT
// (a scan of the columns) or COPY (query) TO STDOUT.
type CopyTo struct {
	Query  Plan
	Format CopyFormat
}

// COPY has no result columns: its rows travel in CopyData messages.
func (*CopyFrom) Columns() []ResultColumn { return nil }
func (*CopyTo) Columns() []ResultColumn   { return nil }
