package exec

import (
	"math"
	"testing"

	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
)

// TestDecodeKeyIntoInts checks decodeKeyInto's in-place decoding of INT
// and BIGINT key columns against keyenc.DecodeKey, ascending and
// descending, at the ends of their ranges, and that a short key is
// reported as corrupt rather than read past its end.
func TestDecodeKeyIntoInts(t *testing.T) {
	for _, desc := range []bool{false, true} {
		td := &planner.TableDesc{
			Name:    "k",
			Columns: []planner.ColumnDesc{{Name: "a", Type: types.TInt4}, {Name: "b", Type: types.TInt8}, {Name: "c", Type: types.TText}},
			Key:     []planner.KeyColumn{{Col: 0, Desc: desc}, {Col: 1}, {Col: 2, Desc: desc}},
		}
		for _, a := range []int64{math.MinInt32, -1, 0, 1, 7, math.MaxInt32} {
			for _, b := range []int64{math.MinInt64, -300, 0, 300, math.MaxInt64} {
				vals := []types.Datum{types.NewInt(types.Int4, a), types.NewInt(types.Int8, b), types.NewText("x")}
				var key []byte
				for i, kc := range td.Key {
					key = keyenc.AppendKey(key, vals[i], td.Columns[kc.Col].Type, kc.Desc)
				}
				row := make(Row, 3)
				if err := decodeKeyInto(td, key, row); err != nil {
					t.Fatal(err)
				}
				for i := range vals {
					if types.Compare(row[i], vals[i]) != 0 || row[i].K != vals[i].K {
						t.Errorf("desc=%v: column %d decoded %v, want %v", desc, i, row[i], vals[i])
					}
				}
				if err := decodeKeyInto(td, key[:len(key)-len("x")-6], make(Row, 3)); err == nil {
					t.Errorf("desc=%v: a short key decoded without an error", desc)
				}
			}
		}
	}
}
