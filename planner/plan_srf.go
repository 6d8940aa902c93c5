package planner

import (
	"fmt"
	"strings"

	"github.com/widesql/widesql/planner/types"
)

// SRFCall is one call of a set-returning function (generate_series,
// unnest, ...; Func.Name starts with SRFPrefix) or, in a FROM clause, of
// a scalar function, which returns one row. Func's arguments are over the
// ProjectSet's input row. Cols are the columns it adds to each output row.
type SRFCall struct {
	Func *Func
	Cols []ResultColumn
}

// Scalar reports whether the call is of an ordinary function (one row).
func (c *SRFCall) Scalar() bool { return !strings.HasPrefix(c.Func.Name, SRFPrefix) }

// ProjectSet runs set-returning functions for every input row, as
// PostgreSQL's ProjectSet and FunctionScan do: each input row is followed
// by the values of its calls' rows, the calls advancing in lock step; a
// call that has run out gives NULLs until the longest is done, and an
// input row for which every call returns no rows produces nothing. Output
// rows are the input row, then each call's Cols, then, with Ordinality,
// the 1-based row number (bigint) within the input row.
//
// A FROM-clause function is a ProjectSet over a one-row, zero-column
// Values (or over the FROM items to its left when its arguments read them:
// PostgreSQL's implicit LATERAL); set-returning functions in a select
// list are a ProjectSet between the query's input and its Project.
type ProjectSet struct {
	Input      Plan
	SRFs       []SRFCall
	Ordinality bool
	Cols       []ResultColumn
}

func (p *ProjectSet) Columns() []ResultColumn { return p.Cols }

// String describes the node for EXPLAIN.
func (p *ProjectSet) String() string {
	calls := make([]string, len(p.SRFs))
	for i, c := range p.SRFs {
		calls[i] = strings.TrimPrefix(c.Func.String(), SRFPrefix)
	}
	s := fmt.Sprintf("PROJECT SET %s", strings.Join(calls, ", "))
	if p.Ordinality {
		s += " WITH ORDINALITY"
	}
	return s
}

// oneRow is the input of a FROM-clause function that reads no other FROM
// item: one row without columns.
func oneRow() *Values { return &Values{Rows: [][]Expr{{}}} }

// ordinalityCol is the column WITH ORDINALITY adds.
var ordinalityCol = ResultColumn{Name: "ordinality", T: types.TInt8}
