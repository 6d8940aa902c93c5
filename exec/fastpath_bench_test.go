package exec_test

import (
	"context"
	"errors"
	"io"
	"strconv"
	"testing"

	"github.com/widesql/widesql/exec"
	"github.com/widesql/widesql/pgwire"
)

// The prepared request-path benchmarks run a statement as an extended-
// protocol client does after its first Parse: Bind with text parameters,
// Next until io.EOF, Close; what they measure is the per-execution work
// above the store (binding, building operators, encoding rows).

func benchPrepared(b *testing.B, sql string, params func(i int, dst [][]byte) [][]byte) {
	c := openRequestBench(b)
	ctx := context.Background()
	prep := exec.MustPrepare(b, c.s, sql)
	var args [][]byte
	rows := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		args = params(i, args[:0])
		if n := execPrepared(b, ctx, prep, args); n == 0 {
			b.Fatalf("no rows for %q", args)
		} else {
			rows += n
		}
	}
	b.ReportMetric(float64(rows)/float64(b.N), "rows/op")
}

func execPrepared(b *testing.B, ctx context.Context, prep pgwire.Prepared, args [][]byte) int {
	p, err := prep.Bind(ctx, args, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer releasePortal(p)
	n := 0
	for {
		if _, err := p.Next(ctx); errors.Is(err, io.EOF) {
			return n
		} else if err != nil {
			b.Fatal(err)
		}
		n++
	}
}

// releasePortal closes p and releases it, as pgwire does once it drops a
// portal: the statement's next Bind reuses it.
func releasePortal(p pgwire.Portal) {
	p.Close()
	if r, ok := p.(pgwire.PortalReleaser); ok {
		r.Release()
	}
}

func itoa(dst []byte, n int) []byte { return strconv.AppendInt(dst[:0], int64(n), 10) }

func BenchmarkRequestPointGetPrepared(b *testing.B) {
	var t, id []byte
	benchPrepared(b, "SELECT grp, val, payload FROM kv WHERE tenant = $1 AND id = $2", func(i int, dst [][]byte) [][]byte {
		t, id = itoa(t, i%100+1), itoa(id, i%97+1)
		return append(dst, t, id)
	})
}

func BenchmarkRequestMultiGetPrepared(b *testing.B) {
	bufs := make([][]byte, 11)
	primes := []int{97, 89, 83, 79, 73, 71, 67, 61, 59, 53}
	benchPrepared(b, "SELECT tenant, id, grp, val, payload FROM kv WHERE tenant = $1 AND id IN ($2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
		func(i int, dst [][]byte) [][]byte {
			bufs[0] = itoa(bufs[0], i%100+1)
			for k, p := range primes {
				bufs[k+1] = itoa(bufs[k+1], i%p+1)
			}
			return append(dst, bufs...)
		})
}

func BenchmarkRequestRangePrepared(b *testing.B) {
	var t, lo, hi []byte
	benchPrepared(b, "SELECT id, grp, val, payload FROM kv WHERE tenant = $1 AND id BETWEEN $2 AND $3 ORDER BY id", func(i int, dst [][]byte) [][]byte {
		t, lo, hi = itoa(t, i%100+1), itoa(lo, 1), itoa(hi, 100)
		return append(dst, t, lo, hi)
	})
}
