package exec_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/widesql/widesql/exec"
)

// TestLazyFamiliesMatch checks on-demand family loading in scans: a
// filter over some families reads the others only for the rows it
// passes. Every query runs with it and without it (exec.NoLazyFamilies),
// as a parallel scan and serially (in a transaction block, with and
// without buffered writes of its own), over tables whose rows have been
// inserted, updated (to NULL too), deleted and re-inserted, partly
// checkpointed into files and partly in memtables; the results must be
// the same, and the scans that can read lazily must have done so.
func TestLazyFamiliesMatch(t *testing.T) {
	_, c := openParallelTest(t)
	ctx := context.Background()
	rng := rand.New(rand.NewSource(21))
	tables := []struct {
		name, ddl string
		upsert    string // the ON CONFLICT clause of the second round's inserts
		queries   []string
		lazy      int // how many of queries may read lazily
	}{
		{"lz1", "CREATE TABLE lz1 (k INT PRIMARY KEY, d.v INT, d.s TEXT, p.pad TEXT, a.x INT, z.y TEXT)",
			" ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v, s = EXCLUDED.s, pad = EXCLUDED.pad, x = EXCLUDED.x, y = EXCLUDED.y", []string{
				"SELECT * FROM lz1 WHERE v < 10",                                            // marker family d; a, p, z lazy
				"SELECT k, pad, x FROM lz1 WHERE s LIKE 's1%' AND v > 500",                  // a and p lazy
				"SELECT k, v, y FROM lz1 WHERE x IS NULL OR x % 5 = 1",                      // filter on a: d and a essential
				"SELECT k, s FROM lz1 WHERE length(pad) > 30",                               // p essential, nothing lazy
				"SELECT k, pad FROM lz1 WHERE k % 3 = 0 AND v IS NOT NULL",                  // key and d; p lazy
				"SELECT count(*), sum(v), max(x) FROM lz1 WHERE y = 'y3'",                   // partial aggregation, a lazy
				"SELECT y, count(*), min(pad) FROM lz1 WHERE v < 300 GROUP BY y ORDER BY y", // p and z lazy
				"SELECT k, pad FROM lz1 WHERE v > 100000",                                   // nothing passes
			}, 7},
		{"lz2", "CREATE TABLE lz2 (a INT, k BIGINT, p.v INT, q.w TEXT, PRIMARY KEY (a, k))",
			" ON CONFLICT (a, k) DO UPDATE SET v = EXCLUDED.v, w = EXCLUDED.w", []string{
				"SELECT * FROM lz2 WHERE v < 50",                 // marker family p; q lazy
				"SELECT * FROM lz2 WHERE a = 1000 AND v % 4 = 0", // a range scan
				"SELECT a, k, v FROM lz2 WHERE w LIKE 'w1%'",     // p and q essential
			}, 2},
		{"lz3", "CREATE TABLE lz3 (k INT PRIMARY KEY, d.v INT, p.pad TEXT) WITH (d.ttl = '100 days')",
			" ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v, pad = EXCLUDED.pad", []string{
				"SELECT * FROM lz3 WHERE v < 10", // the marker can expire: no lazy reads
			}, 0},
	}
	for _, tb := range tables {
		mustExecT(t, c, tb.ddl)
		n := 6000 + rng.Intn(2000)
		for round := range 2 {
			for start := 0; start < n; start += 1000 {
				var sb strings.Builder
				fmt.Fprintf(&sb, "INSERT INTO %s VALUES ", tb.name)
				for i := start; i < min(start+1000, n); i++ {
					if rng.Intn(3) == 0 && round == 1 {
						continue
					}
					if sb.Len() > 30 {
						sb.WriteByte(',')
					}
					sb.WriteString(lazyRow(tb.name, i, rng))
				}
				sb.WriteString(tb.upsert)
				mustExecT(t, c, sb.String())
			}
			mustExecT(t, c, fmt.Sprintf("DELETE FROM %s WHERE k %% 17 = %d", tb.name, round))
			if round == 0 {
				mustExecT(t, c, "CHECKPOINT")
			}
		}
		switch tb.name {
		case "lz1":
			mustExecT(t, c, "UPDATE lz1 SET pad = NULL, x = NULL WHERE k % 11 = 0")
			mustExecT(t, c, "UPDATE lz1 SET y = 'y3', v = 7 WHERE k % 13 = 0")
		case "lz2":
			mustExecT(t, c, "UPDATE lz2 SET w = NULL WHERE k % 11 = 0")
		}
		l0, p0 := exec.LazyScans.Load(), exec.ParallelStarts.Load()
		for _, q := range tb.queries {
			exec.NoLazyFamilies.Store(true)
			par0, ser0 := serialAndParallel(t, c, q)
			exec.NoLazyFamilies.Store(false)
			par, ser := serialAndParallel(t, c, q)
			if par != par0 || ser != ser0 || par != ser {
				t.Errorf("%s:\nlazy parallel   %.300s\nlazy serial     %.300s\nparallel        %.300s\nserial          %.300s", q, par, ser, par0, ser0)
			}
			// Serially, under the transaction's own writes.
			mustExecT(t, c, "BEGIN")
			mustExecT(t, c, fmt.Sprintf("UPDATE %s SET v = v + 1 WHERE k %% 7 = 0", tb.name))
			_, rows, err := c.Query(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			exec.NoLazyFamilies.Store(true)
			_, rows0, err := c.Query(ctx, q)
			exec.NoLazyFamilies.Store(false)
			if err != nil {
				t.Fatal(err)
			}
			mustExecT(t, c, "ROLLBACK")
			if a, b := fmt.Sprint(rows), fmt.Sprint(rows0); a != b {
				t.Errorf("%s in a block with writes:\nlazy %.300s\nfull %.300s", q, a, b)
			}
		}
		// Each lazy query read lazily in both serialAndParallel runs and
		// in the block.
		if got, want := exec.LazyScans.Load()-l0, int64(3*tb.lazy); got != want {
			t.Errorf("%s: %d lazy scans, want %d", tb.name, got, want)
		}
		// Outside the block, each full scan ran in parallel, with and
		// without lazy families (lz2's range scan reads serially).
		if got, want := exec.ParallelStarts.Load()-p0, int64(2*len(tb.queries)); got < want-2 {
			t.Errorf("%s: %d parallel scans, want %d", tb.name, got, want)
		}
	}
}

func lazyRow(table string, i int, rng *rand.Rand) string {
	v := "NULL"
	if rng.Intn(10) > 0 {
		v = fmt.Sprint(rng.Intn(1000) - 100)
	}
	str := func(p string, n int) string {
		if rng.Intn(4) == 0 {
			return "NULL"
		}
		return fmt.Sprintf("'%s%d'", p, rng.Intn(n))
	}
	switch table {
	case "lz1":
		x := "NULL"
		if rng.Intn(3) > 0 {
			x = fmt.Sprint(rng.Intn(100))
		}
		return fmt.Sprintf("(%d, %s, %s, %s, %s, %s)", i, v, str("s", 50), str(strings.Repeat("p", rng.Intn(40)), 9), x, str("y", 5))
	case "lz2":
		return fmt.Sprintf("(%d, %d, %s, %s)", rng.Intn(3)*1000, i, v, str("w", 30))
	}
	return fmt.Sprintf("(%d, %s, %s)", i, v, str("pad", 100))
}
