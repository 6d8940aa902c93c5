package exec_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/widesql/widesql/exec"
	"github.com/widesql/widesql/pgwire"
)

// The prepared wire-path benchmarks run a prepared statement as the
// server does for an extended-protocol client: Bind with text parameters,
// rows encoded straight into one output buffer (pgwire.RowAppender),
// Close. Over an in-memory store, what they measure is exec's
// per-execution cost: the portal, readying the kept operator tree,
// decoding and encoding rows.

func benchPreparedAppend(b *testing.B, c *sessionClient, sql string, params func(i int, dst [][]byte) [][]byte) {
	ctx := context.Background()
	prep := exec.MustPrepare(b, c.s, sql)
	var args [][]byte
	var out []byte
	rows := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		args = params(i, args[:0])
		var n int
		out, n = appendPrepared(b, ctx, prep, args, out[:0])
		if n == 0 {
			b.Fatalf("no rows for %q", args)
		}
		rows += n
	}
	b.ReportMetric(float64(rows)/float64(b.N), "rows/op")
}

// appendPrepared runs prep once with args as pgwire's execute does,
// appending every row to out; it returns out and the row count.
func appendPrepared(b testing.TB, ctx context.Context, prep pgwire.Prepared, args [][]byte, out []byte) ([]byte, int) {
	p, err := prep.Bind(ctx, args, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer releasePortal(p)
	ra := p.(pgwire.RowAppender)
	n := 0
	for {
		next, err := ra.AppendRow(ctx, out)
		if errors.Is(err, io.EOF) {
			if p.Tag() == "" {
				b.Fatal("no tag")
			}
			return out, n
		} else if err != nil {
			b.Fatal(err)
		}
		out = next
		n++
	}
}

func BenchmarkAppendPointGetPrepared(b *testing.B) {
	var t, id []byte
	benchPreparedAppend(b, openRequestBench(b), "SELECT grp, val, payload FROM kv WHERE tenant = $1 AND id = $2", func(i int, dst [][]byte) [][]byte {
		t, id = itoa(t, i%100+1), itoa(id, i%97+1)
		return append(dst, t, id)
	})
}

func BenchmarkAppendRangePrepared(b *testing.B) {
	var t, lo, hi []byte
	benchPreparedAppend(b, openRequestBench(b), "SELECT id, grp, val, payload FROM kv WHERE tenant = $1 AND id BETWEEN $2 AND $3 ORDER BY id", func(i int, dst [][]byte) [][]byte {
		t, lo, hi = itoa(t, i%100+1), itoa(lo, 1), itoa(hi, 100)
		return append(dst, t, lo, hi)
	})
}

// BenchmarkAppendYCSBRead is YCSB's read: every column of a row of ten
// 100-byte TEXT fields by its VARCHAR key.
func BenchmarkAppendYCSBRead(b *testing.B) {
	c := openRequestBench(b)
	ctx := context.Background()
	fields := make([]string, 10)
	for i := range fields {
		fields[i] = fmt.Sprintf("FIELD%d TEXT", i)
	}
	vals := make([]string, 10)
	for i := range vals {
		vals[i] = "repeat('x', 100)"
	}
	for _, q := range []string{
		"CREATE TABLE usertable (YCSB_KEY VARCHAR(64) PRIMARY KEY, " + strings.Join(fields, ", ") + ")",
		"INSERT INTO usertable SELECT 'user' || g, " + strings.Join(vals, ", ") + " FROM generate_series(0, 999) g",
	} {
		if _, _, _, err := c.run(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	var key []byte
	benchPreparedAppend(b, c, "SELECT * FROM usertable WHERE YCSB_KEY = $1", func(i int, dst [][]byte) [][]byte {
		key = append(append(key[:0], "user"...), itoa(nil, i%1000)...)
		return append(dst, key)
	})
}

// The LSM variants read the scan benchmarks' flushed store
// (openScanBench: tenant i/1000, id i), as the server reads its files.

func BenchmarkAppendPointGetPreparedLSM(b *testing.B) {
	var t, id []byte
	benchPreparedAppend(b, openScanBench(b), "SELECT grp, val, payload FROM kv WHERE tenant = $1 AND id = $2", func(i int, dst [][]byte) [][]byte {
		tenant := i % 199
		t, id = itoa(t, tenant), itoa(id, tenant*1000+i%997)
		return append(dst, t, id)
	})
}

func BenchmarkAppendRangePreparedLSM(b *testing.B) {
	var t, lo, hi []byte
	benchPreparedAppend(b, openScanBench(b), "SELECT id, grp, val, payload FROM kv WHERE tenant = $1 AND id BETWEEN $2 AND $3 ORDER BY id", func(i int, dst [][]byte) [][]byte {
		tenant := i % 199
		first := tenant*1000 + i%901
		t, lo, hi = itoa(t, tenant), itoa(lo, first), itoa(hi, first+99)
		return append(dst, t, lo, hi)
	})
}
