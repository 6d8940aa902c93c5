package exec

import (
	"context"
	"testing"

	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// TestScanLimit checks the read limit a scan is given: a constant LIMIT's
// hint, or a parameter LIMIT's bound value (plus its OFFSET), and none when
// the bound value is NULL or negative.
func TestScanLimit(t *testing.T) {
	e := newJoinEnv(t, "CREATE TABLE sl (k INT, v INT, PRIMARY KEY (k))")
	scanOf := func(sql string, declared ...types.T) *planner.Scan {
		t.Helper()
		stmts, err := e.sess.Parse(context.Background(), sql)
		if err != nil {
			t.Fatal(err)
		}
		p, err := e.sess.planStatement(&stmts[0].(*statement).p, declared)
		if err != nil {
			t.Fatal(err)
		}
		for n := p.plan; ; {
			switch x := n.(type) {
			case *planner.Scan:
				return x
			case *planner.Limit:
				n = x.Input
			case *planner.Project:
				n = x.Input
			default:
				t.Fatalf("%s: no scan under %T", sql, n)
			}
		}
	}
	i8 := func(v int64) types.Datum { return types.NewInt(types.Int8, v) }
	for _, c := range []struct {
		sql    string
		params []types.Datum
		want   int64
	}{
		{"SELECT * FROM sl WHERE k >= 5 LIMIT 7", nil, 7},
		{"SELECT * FROM sl WHERE k >= $1 LIMIT $2", []types.Datum{i8(1), i8(100)}, 100},
		{"SELECT * FROM sl WHERE k >= $1 LIMIT $2 OFFSET $3", []types.Datum{i8(1), i8(100), i8(20)}, 120},
		{"SELECT * FROM sl WHERE k >= $1 LIMIT $2", []types.Datum{i8(1), types.Null}, 0},
		{"SELECT * FROM sl WHERE k >= $1 LIMIT $2", []types.Datum{i8(1), i8(-1)}, 0},
		{"SELECT * FROM sl WHERE k >= $1 LIMIT $2 OFFSET $3", []types.Datum{i8(1), i8(1 << 62), i8(1 << 62 * 1.5)}, 0},
		{"SELECT * FROM sl WHERE k >= $1", []types.Datum{i8(1)}, 0},
		{"SELECT * FROM sl WHERE v > $1 LIMIT $2", []types.Datum{i8(1), i8(3)}, 0}, // a filter in between
	} {
		s := scanOf(c.sql)
		if got := scanLimit(s, &evalEnv{params: c.params, sess: e.sess}); got != c.want {
			t.Errorf("%s %v: limit %d, want %d", c.sql, c.params, got, c.want)
		}
	}
}
