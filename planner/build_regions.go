package planner

import (
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// MaxSplitRegions bounds SPLIT TABLE ... REGIONS n.
const MaxSplitRegions = 1000

// Columns of widesql.regions, in order (exec fills rows by these indexes).
const (
	RegionTable = iota
	RegionID
	RegionStartKey
	RegionEndKey
	RegionSizeBytes
	RegionRows
	RegionReads
	RegionWrites
	RegionReadRate
	RegionWriteRate
	RegionFiles
)

var regionColumns = []struct {
	name string
	t    types.T
}{
	{"table_name", types.TText},
	{"region_id", types.TInt8},
	{"start_key", types.TText},
	{"end_key", types.TText},
	{"size_bytes", types.TInt8},
	{"rows", types.TInt8},
	{"reads", types.TInt8},
	{"writes", types.TInt8},
	{"read_rate", types.TFloat8},
	{"write_rate", types.TFloat8},
	{"files", types.TInt4},
}

// regionsView is the descriptor of widesql.regions: one row per region of
// every user table. It has no key, so every read of it is a full scan of
// the store's region list (which the full-scan guardrail ignores).
func regionsView() *TableDesc {
	t := &TableDesc{Name: "regions", Virtual: VirtualRegions}
	for i, c := range regionColumns {
		t.Columns = append(t.Columns, ColumnDesc{ID: uint32(i + 1), Name: c.name, Type: c.t, KeyPos: -1})
	}
	t.NextColumnID = uint32(len(t.Columns) + 1)
	return t
}

// KVKeyColumns is the number of key columns that make up t's kv rowkey
// (after the salt byte): all of them, but for a wide-layout table the
// last one lives in the qualifiers.
func (t *TableDesc) KVKeyColumns() int {
	if t.Layout == LayoutWide && len(t.Key) > 0 {
		return len(t.Key) - 1
	}
	return len(t.Key)
}

// splitTable plans SPLIT TABLE t BY (v, ...), ... and SPLIT TABLE t
// BETWEEN (lo, ...) AND (hi, ...) REGIONS n. The values are typed like the
// rowkey columns they stand for, as INSERT types its values.
func (b *builder) splitTable(n *ast.SplitRegionStmt) (Plan, error) {
	switch {
	case n.IndexName.O != "":
		return nil, pgerror.Unimplemented("SPLIT TABLE ... INDEX (secondary indexes)")
	case len(n.PartitionNames) > 0 || n.SplitSyntaxOpt != nil && n.SplitSyntaxOpt.HasPartition:
		return nil, pgerror.Unimplemented("partitions (use rowkey design instead)")
	}
	t, err := b.lookupTable(n.Table.Schema.O, n.Table.Name.O)
	if err != nil {
		return nil, err
	}
	if t.Virtual != "" {
		return nil, pgerror.New(pgerror.CodeWrongObjectType, "%q is not a table", n.Table.Name.O)
	}
	p := &SplitTable{Table: t}
	opt := n.SplitOpt
	if len(opt.ValueLists) > 0 {
		for i, list := range opt.ValueLists {
			point, err := b.keyValues(t, list, "point", i+1)
			if err != nil {
				return nil, err
			}
			p.Points = append(p.Points, point)
		}
		return p, nil
	}
	if opt.Num < 1 || opt.Num > MaxSplitRegions {
		return nil, pgerror.New(pgerror.CodeInvalidParameterValue, "SPLIT TABLE REGIONS must be between 1 and %d, not %d", MaxSplitRegions, opt.Num)
	}
	p.Regions = int(opt.Num)
	if p.Lower, err = b.keyValues(t, opt.Lower, "lower bound", 0); err != nil {
		return nil, err
	}
	if p.Upper, err = b.keyValues(t, opt.Upper, "upper bound", 0); err != nil {
		return nil, err
	}
	return p, nil
}

// keyValues types one SPLIT TABLE tuple: a prefix of t's kv rowkey
// columns. what and nth name it in errors (nth 0: no number).
func (b *builder) keyValues(t *TableDesc, list []ast.ExprNode, what string, nth int) ([]Expr, error) {
	if max := t.KVKeyColumns(); len(list) == 0 || len(list) > max {
		name := what
		if nth > 0 {
			name = what + " " + strconv.Itoa(nth)
		}
		err := pgerror.New(pgerror.CodeSyntaxError, "SPLIT TABLE %s: %s has %d values, but the rowkey has %d columns", t.Name, name, len(list), max)
		if t.Layout == LayoutWide {
			err = err.WithHint("The last key column of a wide-layout table is inside the row: regions split between rows of the other key columns.")
		}
		return nil, err
	}
	out := make([]Expr, len(list))
	for i, v := range list {
		e, err := b.expr(v, &scope{})
		if err != nil {
			return nil, err
		}
		if out[i], err = b.assign(e, &t.Columns[t.Key[i].Col]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// showRegions plans SHOW TABLE t REGIONS [WHERE ...] as a scan of
// widesql.regions filtered to t, without the table_name column.
func (b *builder) showRegions(n *ast.ShowStmt) (Plan, error) {
	switch {
	case n.IndexName.O != "":
		return nil, pgerror.Unimplemented("SHOW TABLE ... INDEX ... REGIONS (secondary indexes)")
	case n.Partition.O != "":
		return nil, pgerror.Unimplemented("partitions (use rowkey design instead)")
	}
	t, err := b.lookupTable(n.Table.Schema.O, n.Table.Name.O)
	if err != nil {
		return nil, err
	}
	if t.Virtual != "" {
		return nil, pgerror.New(pgerror.CodeWrongObjectType, "%q is not a table", n.Table.Name.O)
	}
	v := regionsView()
	sc := tableScope(v, v.Name)
	cond := Expr(&BinOp{Op: OpEQ, T: types.TBool,
		L: &ColRef{Idx: RegionTable, Name: regionColumns[RegionTable].name, T: types.TText},
		R: &Const{D: types.NewText(t.Name), T: types.TText}})
	if n.Where != nil {
		if hasAggregate(n.Where) {
			return nil, pgerror.New(pgerror.CodeGroupingError, "aggregate functions are not allowed in WHERE")
		}
		w, err := b.boolExpr(n.Where, sc, "WHERE")
		if err != nil {
			return nil, err
		}
		cond = &BinOp{Op: OpAnd, L: cond, R: w, T: types.TBool}
	}
	s := &Scan{Table: v, Access: Access{Kind: FullScan}, Filter: cond}
	used := map[int]bool{}
	proj := &Project{Input: s}
	for i, c := range v.Columns {
		s.cols = append(s.cols, ResultColumn{Name: c.Name, T: c.Type})
		used[i] = true
		if i != RegionTable {
			proj.Exprs = append(proj.Exprs, &ColRef{Idx: i, Name: c.Name, T: c.Type})
			proj.Cols = append(proj.Cols, ResultColumn{Name: c.Name, T: c.Type})
		}
	}
	finishScan(s, used)
	return proj, nil
}
