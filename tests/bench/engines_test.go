package bench

import (
	"context"
	"testing"
)

// TestEnginesAgree loads the same rows into every engine and checks that
// Gets and scans return the same counts, from the memtable and from files.
func TestEnginesAgree(t *testing.T) {
	ctx := context.Background()
	const n = 5000
	for _, engine := range Engines {
		t.Run(engine, func(t *testing.T) {
			e, err := Open(engine, t.TempDir(), Config{})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			if err := Load(ctx, e, n); err != nil {
				t.Fatal(err)
			}
			check := func(stage string) {
				var key []byte
				for _, i := range []int{0, 1, 99, 100, 2500, n - 1} {
					key = AppendFixtureKey(key[:0], i)
					if c, err := e.Get(ctx, key); c != 3 || err != nil {
						t.Fatalf("%s: get row %d: %d cells, %v", stage, i, c, err)
					}
				}
				key = AppendFixtureKey(key[:0], n) // absent
				if c, err := e.Get(ctx, key); c != 0 || err != nil {
					t.Fatalf("%s: get absent row: %d cells, %v", stage, c, err)
				}
				// Row 150 is user 1's 51st: 50 of user 1's rows follow it in
				// key order (ts DESC), then user 2's.
				key = AppendFixtureKey(key[:0], 150)
				if rows, cells, err := e.Scan(ctx, key, 100); rows != 100 || cells != 300 || err != nil {
					t.Fatalf("%s: scan100: %d rows, %d cells, %v", stage, rows, cells, err)
				}
				key = AppendFixtureKey(key[:0], n-RowsPerUser+5) // last user, 6th row
				if rows, _, err := e.Scan(ctx, key, 100); rows != 6 || err != nil {
					t.Fatalf("%s: scan to end: %d rows, %v", stage, rows, err)
				}
				if rows, cells, err := e.Scan(ctx, nil, 0); rows != n || cells != 3*n || err != nil {
					t.Fatalf("%s: full scan: %d rows, %d cells, %v", stage, rows, cells, err)
				}
			}
			check("memtable")
			if err := e.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			check("files")
		})
	}
}
