package planner

import (
	"sync/atomic"

	"github.com/widesql/widesql/planner/types"
)

// Plan is a node of a query plan. Plans are immutable data; exec turns them
// into operators. Columns describes the rows a node produces.
type Plan interface {
	Columns() []ResultColumn
}

// ResultColumn describes one output column.
type ResultColumn struct {
	Name string
	T    types.T
	// TableID and ColumnAttr name the source column for RowDescription, 0 if
	// the value is computed.
	TableID    uint32
	ColumnAttr int16
}

// Scan reads one table through an access path. Its rows have one slot per
// table column (index = column index); columns outside Needed are NULL.
type Scan struct {
	Table  *TableDesc
	Access Access
	// Needed lists the column indexes the query reads (key and non-key).
	Needed []int
	// Families are the families read (always including the marker family).
	Families []string
	// Filter is evaluated inside the scan loop; nil when none remains.
	Filter  Expr
	Reverse bool
	// LimitHint, when > 0, is the most rows the consumer will ever pull
	// (no filter, sort or aggregation in between).
	LimitHint int64
	// LimitCount and LimitOffset, when LimitCount is set, are the count
	// and offset of a LIMIT made of parameters (LIMIT $2) where a constant
	// one would give LimitHint: the hint is their sum once bound (exec's
	// scanLimit). LimitOffset may be nil.
	LimitCount, LimitOffset Expr
	// AsOf, when set, reads the table as it was at this timestamptz
	// (FROM t AS OF TIMESTAMP ...); copied from Table.AsOf.
	AsOf Expr
	// FullScanReason, for a FULL SCAN, says which rowkey column was not
	// constrained and why (EXPLAIN prints it; advisor.go).
	FullScanReason string
	cols           []ResultColumn
	// execCache holds what the executor derives from this node alone
	// (exec/scan.go's scanSetup: column maps, the kv columns, the late
	// filter plan), built on first execution and shared by every later
	// one, concurrent sessions of a cached plan included.
	execCache atomic.Value
}

func (s *Scan) Columns() []ResultColumn { return s.cols }

// ExecCache returns the value build derives from s, building it on the
// first call. It is safe for concurrent use: racing callers may each run
// build, one result is kept and every caller gets that one. build must
// depend on s alone, and its result must not be modified afterwards (a
// plan is immutable data); it must always return the same dynamic type.
func (s *Scan) ExecCache(build func() any) any {
	if v := s.execCache.Load(); v != nil {
		return v
	}
	s.execCache.CompareAndSwap(nil, build())
	return s.execCache.Load()
}

// Values produces literal rows (SELECT without FROM).
type Values struct {
	Rows [][]Expr
	Cols []ResultColumn
}

func (v *Values) Columns() []ResultColumn { return v.Cols }

// Filter keeps rows for which Cond is true.
type Filter struct {
	Input Plan
	Cond  Expr
}

func (f *Filter) Columns() []ResultColumn { return f.Input.Columns() }

// Project computes Exprs over each input row. Only the first Visible
// columns are returned to the client; the rest feed ORDER BY.
type Project struct {
	Input Plan
	Exprs []Expr
	Cols  []ResultColumn
}

func (p *Project) Columns() []ResultColumn { return p.Cols }

// SortKey is one ORDER BY item over the input row.
type SortKey struct {
	Expr       Expr
	Desc       bool
	NullsFirst bool
}

// Sort orders its input, stably: rows with equal keys keep their input
// order.
type Sort struct {
	Input Plan
	Keys  []SortKey
	// Limit, when > 0, is the most rows the consumer will read (a Limit's
	// count plus offset directly above): a top-N sort keeps only that many.
	Limit int64
}

func (s *Sort) Columns() []ResultColumn { return s.Input.Columns() }

// Limit skips Offset rows and returns at most Count (nil = all).
type Limit struct {
	Input         Plan
	Count, Offset Expr
}

func (l *Limit) Columns() []ResultColumn { return l.Input.Columns() }

// Distinct removes duplicate rows. With On (DISTINCT ON), rows are
// duplicates when the On expressions are equal, and the first row of each
// set in input order is kept.
type Distinct struct {
	Input Plan
	On    []Expr
}

func (d *Distinct) Columns() []ResultColumn { return d.Input.Columns() }

// AggFunc is an aggregate function.
type AggFunc uint8

// Aggregate functions.
const (
	AggCountStar AggFunc = iota
	AggCount
	AggSum
	AggAvg
	AggMin
	AggMax
	AggStringAgg
	AggArrayAgg
	AggBoolAnd
	AggBoolOr
	AggEvery
	AggStddev
	AggStddevSamp
	AggStddevPop
	AggVariance
	AggVarSamp
	AggVarPop
	AggPercentileCont
	AggPercentileDisc
	AggMode
)

var aggNames = [...]string{"count", "count", "sum", "avg", "min", "max", "string_agg", "array_agg",
	"bool_and", "bool_or", "every", "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp",
	"var_pop", "percentile_cont", "percentile_disc", "mode"}

func (f AggFunc) String() string { return aggNames[f] }

// OrderedSet reports whether f is an ordered-set aggregate, written
// f(direct) WITHIN GROUP (ORDER BY value).
func (f AggFunc) OrderedSet() bool { return f >= AggPercentileCont }

// AggCall is one aggregate over the input rows. Every expression is over
// the aggregate's input row.
type AggCall struct {
	Func AggFunc
	// Arg is the aggregated value: nil for count(*); for an ordered-set
	// aggregate the WITHIN GROUP value (Order[0].Expr is the same).
	Arg Expr
	// Extra is string_agg's delimiter (evaluated per row) or a
	// percentile's fraction (a direct argument: constant within a group,
	// evaluated over the group's first row); nil otherwise.
	Extra    Expr
	Distinct bool
	// Order is the ORDER BY inside the call (or WITHIN GROUP's): the
	// values are aggregated in this order.
	Order []SortKey
	// Filter is FILTER (WHERE ...) when sqlparse did not fold it into
	// Arg; rows for which it is not true are skipped.
	Filter Expr
	T      types.T
}

// Inputs returns every expression of the call over the input row.
func (a *AggCall) Inputs() []Expr {
	var es []Expr
	for _, e := range []Expr{a.Arg, a.Extra, a.Filter} {
		if e != nil {
			es = append(es, e)
		}
	}
	for _, k := range a.Order {
		es = append(es, k.Expr)
	}
	return es
}

// Aggregate groups its input by GroupBy and computes Aggs. Output rows are
// the group values followed by the aggregate values.
type Aggregate struct {
	Input   Plan
	GroupBy []Expr
	Aggs    []AggCall
	Cols    []ResultColumn
}

func (a *Aggregate) Columns() []ResultColumn { return a.Cols }

// ConflictAction says what INSERT does when a row's key exists.
type ConflictAction uint8

// Conflict actions.
const (
	ConflictError ConflictAction = iota
	ConflictDoNothing
	ConflictDoUpdate
)

// Insert writes rows. Rows[i][j] is the value of column Targets[j]; the
// targets are every visible column (omitted ones hold their DEFAULT). With
// a Source (INSERT ... SELECT), Rows holds one row evaluated over each
// source row. A hidden row id is assigned by exec.
type Insert struct {
	Table    *TableDesc
	Targets  []int
	Rows     [][]Expr
	Source   Plan // nil for VALUES
	Conflict ConflictAction
	// For ConflictDoUpdate: Set and Where are evaluated over the existing
	// row (slots 0..n-1) followed by the EXCLUDED row (slots n..2n-1).
	Set   []SetItem
	Where Expr
	Returning
}

// Returning is the RETURNING list of a write: Exprs over the written row
// (the new row for INSERT and UPDATE, the old one for DELETE), producing
// Cols. Both are nil without RETURNING.
type Returning struct {
	Exprs []Expr
	Cols  []ResultColumn
}

// SetItem assigns Expr to column Col.
type SetItem struct {
	Col  int
	Expr Expr
}

// Update changes the rows Scan finds.
type Update struct {
	Table *TableDesc
	Scan  *Scan
	Set   []SetItem
	Returning
}

// Delete removes the rows Scan finds.
type Delete struct {
	Table *TableDesc
	Scan  *Scan
	Returning
}

// CreateIndex records a secondary index; none is built yet.
type CreateIndex struct {
	Table       string
	Index       IndexDesc
	IfNotExists bool
	// AutoName is set when the name was chosen by the planner: exec then
	// appends 1, 2, ... until it is free, as PostgreSQL does.
	AutoName bool
}

// DropIndex removes recorded indexes.
type DropIndex struct {
	Names    []string
	IfExists bool
}

// CreateTable creates a table; Desc has no ID yet.
type CreateTable struct {
	Desc        *TableDesc
	IfNotExists bool
}

// DropTable drops tables.
type DropTable struct {
	Names    []string
	IfExists bool
}

// Explain describes Input; with Analyze it also runs it.
type Explain struct {
	Input   Plan
	Analyze bool
	// SubPlans are the statement's subqueries, shown after the plan.
	SubPlans []*Subquery
}

var explainCols = []ResultColumn{{Name: "QUERY PLAN", T: types.TText}}

func (p *Insert) Columns() []ResultColumn    { return p.Cols }
func (p *Update) Columns() []ResultColumn    { return p.Cols }
func (p *Delete) Columns() []ResultColumn    { return p.Cols }
func (*CreateIndex) Columns() []ResultColumn { return nil }
func (*DropIndex) Columns() []ResultColumn   { return nil }
func (*CreateTable) Columns() []ResultColumn { return nil }
func (*DropTable) Columns() []ResultColumn   { return nil }
func (*Explain) Columns() []ResultColumn     { return explainCols }
