package exec

import (
	"context"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/keyenc"
)

// layoutTable wraps a table's kv handle in the adapters of its physical
// design, so that every operator above reads and writes "tall" rows keyed
// by the unsalted SQL rowkey:
//
//	operators ─► wideTable (Layout wide: SQL row = qualifier group) ─► saltTable (salt byte) ─► kv
//
// Both adapters translate RowSets and mutations on the way down and rows on
// the way up; neither buffers more than one kv row (wide) or one row per
// bucket (salt).
func layoutTable(desc *planner.TableDesc, t kv.Table) kv.Table {
	if desc.SaltBuckets > 0 {
		t = newSaltTable(desc, t)
	}
	if desc.Layout == planner.LayoutWide {
		t = newWideTable(desc, t)
	}
	return t
}

// bucketMerge reads a scan whose first key part the planner enumerated
// (Access.Merge: PRIMARY KEY ((ts % 100), ts) read by a range on ts) one
// bucket at a time and merges the buckets' rows in the order of the rest
// of the key, so ORDER BY ts needs no sort.
type bucketMerge struct {
	kv.Table
	first planner.ColumnDesc
	desc  bool
}

func newBucketMerge(desc *planner.TableDesc, t kv.Table) kv.Table {
	kc := desc.Key[0]
	return &bucketMerge{Table: t, first: desc.Columns[kc.Col], desc: kc.Desc}
}

// firstLen is the length of the encoded first key part of key (all of it
// when it does not decode, which only a range bound cut short can cause).
func (m *bucketMerge) firstLen(key []byte) int {
	_, rest, err := keyenc.DecodeKey(key, m.first.Type, m.desc)
	if err != nil {
		return len(key)
	}
	return len(key) - len(rest)
}

func (m *bucketMerge) Read(ctx context.Context, rs kv.RowSet, opts kv.ReadOptions) kv.RowIterator {
	var order []string
	sets := map[string]*kv.RowSet{}
	group := func(k []byte) *kv.RowSet {
		p := string(k[:m.firstLen(k)])
		if sets[p] == nil {
			sets[p] = &kv.RowSet{}
			order = append(order, p)
		}
		return sets[p]
	}
	for _, k := range rs.Keys {
		set := group(k)
		set.Keys = append(set.Keys, k)
	}
	for _, r := range rs.Ranges {
		if r.Start == nil {
			return m.Table.Read(ctx, rs, opts) // not bucketed after all
		}
		set := group(r.Start)
		set.Ranges = append(set.Ranges, r)
	}
	list := make([]kv.RowSet, len(order))
	for i, p := range order {
		list[i] = *sets[p]
	}
	return mergeReads(ctx, m.Table, list, opts, func(k []byte) []byte { return k[m.firstLen(k):] }, false)
}
