package exec

import (
	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// Raw partial aggregation. A parallel scan's worker that aggregates
// (agg_partial.go) with one integer group key and only count(*), count
// and sum/avg of integer columns, all of them non-key cells, folds a row
// into its group straight from the row's raw cells: the key's and the
// arguments' values are decoded into locals, and the row is never
// decoded into a Row. A filter must have the raw form (rawFilterPlan),
// which judges the row first. A row the raw path cannot take whole (a
// NULL group key, a cell only the general decoding can judge, a filter
// it cannot judge raw) goes down the general path: decodeFiltered and
// partialTable.add, whose results the raw path reproduces exactly.

// rawAggPlan is partialAgg.raw: the columns the raw path reads.
type rawAggPlan struct {
	rawCols       // the key's and the arguments' columns
	key     uint8 // the group key's raw column
	keyKind types.Kind
	aggs    []rawAggFn // by aggregate
}

type rawAggFn struct {
	kind directKind
	col  uint8 // the argument's raw column (directCount, directSumInt)
}

// newRawAggPlan returns the raw plan of a's aggregation over scan p (set
// up in su), or nil when it does not qualify.
func newRawAggPlan(a *partialAgg, p *planner.Scan, su *scanSetup) *rawAggPlan {
	if len(a.p.GroupBy) != 1 || a.keyCols[0] < 0 || su.wt != nil || len(a.direct) == 0 {
		return nil
	}
	if p.Filter != nil && su.rawF == nil {
		return nil
	}
	t := p.Table
	ra := &rawAggPlan{rawCols: newRawCols(su)}
	col := func(ci int) (uint8, bool) { return ra.add(t, su, ci) }
	var ok bool
	if ra.key, ok = col(a.keyCols[0]); !ok {
		return nil
	}
	ra.keyKind = t.Columns[a.keyCols[0]].Type.Kind
	if a.p.GroupBy[0].Type().Kind != ra.keyKind {
		return nil
	}
	for _, d := range a.direct {
		f := rawAggFn{kind: d.kind}
		switch d.kind {
		case directCountStar:
		case directCount, directSumInt:
			if f.col, ok = col(d.col); !ok {
				return nil
			}
		default:
			return nil
		}
		ra.aggs = append(ra.aggs, f)
	}
	return ra
}

// addRaw folds the row of cells into its group by the raw path, w being
// the worker's scan (its raw filter). handled is false when the row must
// take the general path; passed reports that it passed the filter.
func (t *partialTable) addRaw(o *parallelScanOp, w *scanOp, cells []kv.Cell) (handled, passed bool, err error) {
	ra := t.a.raw
	if w.rawF != nil {
		reject, sure := w.rawF.judge(w.fast, cells)
		if !sure {
			return false, false, nil
		}
		if reject {
			return true, false, nil
		}
	}
	var vals [8]int64
	set, ok := ra.gather(cells, &vals)
	if !ok {
		return false, false, nil
	}
	if set&(1<<ra.key) == 0 {
		return false, false, nil // a NULL group key
	}
	k := vals[ra.key]
	var g *group
	if uk := uint64(k); uk < uint64(len(t.small)) {
		g = t.small[uk]
	} else if uk >= smallGroupKeys {
		g = t.intGroups[k]
	}
	if g == nil {
		t.keys[0] = types.NewInt(ra.keyKind, k)
		if g, err = t.newGroup(o, true); err != nil {
			return true, true, err
		}
	}
	for i := range ra.aggs {
		f := &ra.aggs[i]
		st := &g.states[i]
		switch f.kind {
		case directCountStar:
			st.count++
		case directCount:
			if set&(1<<f.col) != 0 {
				st.count++
			}
		default: // directSumInt
			if set&(1<<f.col) != 0 {
				st.count++
				if err := accumulateSumInt(st, vals[f.col]); err != nil {
					return true, true, err
				}
			}
		}
	}
	return true, true, nil
}
