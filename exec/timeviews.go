package exec

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"math"
	"sort"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
)

// The rows of versions.<t> and cells.<t> (planner/build_time.go). Both
// read t's kv table through the executor's funnel (x.kvTable), so a
// transaction sees its own writes and the layout adapters apply: the
// rowkey, families and qualifiers shown are the logical ones (unsalted,
// one row per SQL row even for a wide table), not the bytes on disk.
// Key predicates arrive as the view's access path, which is t's.

// timeViewScan reads a time view.
func (x *executor) timeViewScan(p *planner.Scan) (operator, error) {
	base := p.Table.Base
	kvt, err := x.kvTable(base)
	if err != nil {
		return nil, err
	}
	rs, empty, err := encodeAccess(p.Table, p.Access, nil, x.env)
	if err != nil {
		return nil, err
	}
	o := &timeViewOp{p: p, base: base, env: x.env, row: make(Row, len(p.Table.Columns)), empty: empty}
	if empty {
		return o, nil
	}
	o.quota = map[string]int{}
	for _, f := range base.Families {
		o.quota[f.Name] = max(f.MaxVersions, 1)
	}
	o.byID = map[uint64]int{}
	for i := range base.Columns {
		if c := &base.Columns[i]; !c.IsKey() {
			o.byID[uint64(c.ID)] = i
		}
	}
	// Every family and column: a view's rows do not depend on which of
	// its columns a query reads. The store returns at most each family's
	// retained versions.
	opts := kv.ReadOptions{MaxVersions: math.MaxInt32, Reverse: p.Reverse}
	o.it = kvt.Read(context.Background(), rs, opts)
	if x.stats != nil {
		o.stats = &nodeStats{}
		x.stats[scanStatsKey{p}] = o.stats
	}
	return o, nil
}

// timeViewOp produces the rows of a time view, several per kv row.
type timeViewOp struct {
	p     *planner.Scan
	base  *planner.TableDesc
	env   *evalEnv
	it    kv.RowIterator
	row   Row
	quota map[string]int // family -> versions kept
	byID  map[uint64]int // column id -> base column index (non-key columns)
	stats *nodeStats
	empty bool

	// The kv row being expanded: valid until it.Next.
	cur     kv.Row
	key     Row // the decoded key, in base column slots
	pending []Row
}

func (o *timeViewOp) Next(ctx context.Context) (Row, error) {
	if o.empty {
		return nil, io.EOF
	}
	for n := 0; ; n++ {
		for len(o.pending) > 0 {
			copy(o.row, o.pending[0])
			o.pending = o.pending[1:]
			if o.p.Filter != nil {
				ok, err := evalBool(o.p.Filter, o.row, o.env)
				if err != nil {
					return nil, err
				}
				if !ok {
					continue
				}
			}
			return o.row, nil
		}
		if n&1023 == 1023 {
			if err := ctx.Err(); err != nil {
				return nil, pgerror.New(pgerror.CodeQueryCanceled, "canceling statement due to user request")
			}
		}
		if !o.it.Next() {
			break
		}
		var err error
		if o.p.Table.Virtual == planner.VirtualVersions {
			o.pending, err = o.versionRows(o.it.Row())
		} else {
			o.pending, err = o.cellRows(o.it.Row())
		}
		if err != nil {
			return nil, err
		}
	}
	if err := o.it.Err(); err != nil {
		return nil, storageError(err)
	}
	if err := ctx.Err(); err != nil {
		return nil, pgerror.New(pgerror.CodeQueryCanceled, "canceling statement due to user request")
	}
	return nil, io.EOF
}

func (o *timeViewOp) Close() {
	if o.it != nil {
		if o.stats != nil {
			st := o.it.Stats()
			o.stats.read = st
		}
		o.it.Close()
		o.it = nil
	}
}

// column is one column's retained versions in a kv row, newest first.
type column struct {
	ci      int // base column index; -1 for the row marker or an unknown id
	marker  bool
	cells   []kv.Cell
	values  []types.Datum // decoded lazily by versionRows
	decoded []bool
}

// columns groups r's cells by column, keeping each family's quota.
func (o *timeViewOp) columns(r kv.Row) []column {
	var out []column
	cells := r.Cells
	for i := 0; i < len(cells); {
		j := i + 1
		for j < len(cells) && cells[j].Family == cells[i].Family && bytes.Equal(cells[j].Qualifier, cells[i].Qualifier) {
			j++
		}
		c := column{ci: -1, cells: cells[i:min(j, i+max(o.quota[cells[i].Family], 1))]}
		id, n := binary.Uvarint(cells[i].Qualifier)
		switch {
		case n != len(cells[i].Qualifier):
		case id == 0:
			c.marker = cells[i].Family == o.base.MarkerFamily
		default:
			if ci, ok := o.byID[id]; ok && o.base.Columns[ci].Family == cells[i].Family {
				c.ci = ci
			}
		}
		out = append(out, c)
		i = j
	}
	return out
}

// versionRows expands a kv row into the rows of versions.<t>: one per
// distinct cell timestamp, newest first, each the row's full state then
// (every column at its newest version at or before that timestamp).
//
// A column whose family's quota is full has lost the versions before its
// oldest retained one, so the state of the row before that is unknown:
// versions older than the newest such horizon are not shown (cells.<t>
// shows the raw cells). The row marker does not count: it is rewritten by
// every write, and only says that the row existed.
func (o *timeViewOp) versionRows(r kv.Row) ([]Row, error) {
	nb := len(o.base.Columns)
	key := make(Row, nb)
	for i := range key {
		key[i] = types.Null
	}
	if err := decodeKeyInto(o.base, r.Key, key); err != nil {
		return nil, err
	}
	cols := o.columns(r)
	horizon := kv.Timestamp(-1)
	var stamps []kv.Timestamp
	for i := range cols {
		c := &cols[i]
		if !c.marker && c.ci >= 0 && len(c.cells) >= o.quota[c.cells[0].Family] {
			horizon = max(horizon, c.cells[len(c.cells)-1].Timestamp)
		}
		if c.marker || c.ci >= 0 {
			for _, cell := range c.cells {
				stamps = append(stamps, cell.Timestamp)
			}
		}
	}
	sort.Slice(stamps, func(i, j int) bool { return stamps[i] > stamps[j] })
	var out []Row
	for k, ts := range stamps {
		if ts < horizon {
			break
		}
		if k > 0 && ts == stamps[k-1] {
			continue
		}
		row := make(Row, nb+1)
		copy(row, key)
		for i := range cols {
			c := &cols[i]
			if c.ci < 0 {
				continue
			}
			for v := range c.cells {
				if c.cells[v].Timestamp > ts {
					continue
				}
				if c.values == nil {
					c.values, c.decoded = make([]types.Datum, len(c.cells)), make([]bool, len(c.cells))
				}
				if !c.decoded[v] {
					d, err := keyenc.DecodeValue(c.cells[v].Value, o.base.Columns[c.ci].Type)
					if err != nil {
						return nil, pgerror.Wrap(err, pgerror.CodeDataCorrupted, "table "+o.base.Name+" column "+o.base.Columns[c.ci].Name)
					}
					c.values[v], c.decoded[v] = d, true
				}
				row[c.ci] = c.values[v]
				break
			}
		}
		row[nb] = types.NewTimestampTZ(int64(ts))
		out = append(out, row)
	}
	return out, nil
}

// cellRows expands a kv row into the rows of cells.<t>: the key columns,
// rowkey, family, qualifier, column_name, ts, value, value_text.
func (o *timeViewOp) cellRows(r kv.Row) ([]Row, error) {
	nk := len(o.base.Key)
	key := make(Row, len(o.p.Table.Columns))
	for i := range key {
		key[i] = types.Null
	}
	if err := decodeKeyInto(o.p.Table, r.Key, key); err != nil {
		return nil, err
	}
	rowkey := types.NewBytea(append([]byte(nil), r.Key...))
	loc := o.env.zone()
	var out []Row
	for _, c := range o.columns(r) {
		name := types.Null
		switch {
		case c.marker:
			name = types.NewText("")
		case c.ci >= 0:
			name = types.NewText(o.base.Columns[c.ci].Name)
		}
		family := types.NewText(c.cells[0].Family)
		qual := types.NewBytea(append([]byte(nil), c.cells[0].Qualifier...))
		for _, cell := range c.cells {
			row := append(Row(nil), key...)
			valueText := types.Null
			if c.ci >= 0 {
				// Undecodable bytes show as NULL text: this view is for
				// looking at storage as it is.
				if d, err := keyenc.DecodeValue(cell.Value, o.base.Columns[c.ci].Type); err == nil && !d.IsNull() {
					valueText = types.NewText(string(types.AppendTextIn(nil, d, loc)))
				}
			}
			row[nk], row[nk+1], row[nk+2], row[nk+3] = rowkey, family, qual, name
			row[nk+4] = types.NewTimestampTZ(int64(cell.Timestamp))
			row[nk+5] = types.NewBytea(append([]byte(nil), cell.Value...))
			row[nk+6] = valueText
			out = append(out, row)
		}
	}
	return out, nil
}

// deleteCells runs DELETE FROM cells.<t> WHERE ...: it deletes exactly the
// cell versions the WHERE clause selects (kv DeleteCells over each one's
// timestamp), so `family = 'f'` trims a family, `column_name = 'c' AND
// ts < X` a column's old versions. Row markers are never deleted (they
// say that the row exists: DELETE FROM <t> removes rows) and are not
// counted.
func (x *executor) deleteCells(ctx context.Context, p *planner.Delete) (int64, []Row, error) {
	base := p.Table.Base
	kvt, err := x.kvTable(base)
	if err != nil {
		return 0, nil, err
	}
	op, err := x.build(p.Scan)
	if err != nil {
		return 0, nil, err
	}
	defer op.Close()
	nk := len(base.Key)
	var batch []kv.RowMutation
	var out []Row
	var n int64
	for {
		row, err := op.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, nil, err
		}
		key, family, qual, ts := []byte(row[nk].S), row[nk+1].S, []byte(row[nk+2].S), kv.Timestamp(row[nk+4].I)
		if family == base.MarkerFamily && bytes.Equal(qual, planner.MarkerQualifier) {
			continue
		}
		if len(batch) == 0 || !bytes.Equal(batch[len(batch)-1].Key, key) {
			batch = append(batch, kv.RowMutation{Key: key})
		}
		rm := &batch[len(batch)-1]
		end := ts + 1000 // the one version: [ts, ts+1ms)
		if ts >= kv.MaxTimestamp {
			end = 0 // unbounded
		}
		rm.Mutations = append(rm.Mutations, kv.Mutation{Kind: kv.DeleteCells, Family: family, Qualifier: qual, Start: ts, End: end})
		n++
		if p.Returning.Exprs != nil {
			out = append(out, append(Row(nil), row...))
		}
	}
	if len(batch) == 0 {
		return 0, nil, nil
	}
	if err := kvt.Apply(ctx, batch); err != nil {
		return 0, nil, storageError(err)
	}
	return n, out, nil
}
